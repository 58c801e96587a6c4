"""The Portuguese terminal shows no English: every screen a player meets, read word by word."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator

import pytest
from babel.messages.pofile import read_po

from meio.engine import Phase
from meio.engine import cards as C
from meio.i18n import LOCALE_DIR, set_language
from meio.tui.app import PlayApp
from meio.tui.learn import LearnApp, NoteScreen
from meio.tui.screens import HelpScreen, LastTrickScreen, SummaryScreen
from meio.tui.session import Session
from tests.tui.pilot import (
    fast_settings,
    press_card,
    screen_text,
    session_where,
    take_turn,
    wait_for,
)

WORD = re.compile(r"[A-Za-zÀ-ÿ]{3,}")
FIELD = re.compile(r"\{[^}]*\}|\[/?b\]")
#: names that stay as they are in Portuguese (commands, keys, the game's name)
KEPT = {"MEIO", "Meio", "meio", "Bot", "play", "resume", "docs", "rules", "Clarifications"}
KEPT |= {"Home", "End", "Enter", "Escape"}  # key caps keep their names


def vocabularies() -> tuple[set[str], set[str]]:
    with (LOCALE_DIR / "pt_BR" / "LC_MESSAGES" / "meio.po").open("rb") as fh:
        cat = read_po(fh, locale="pt_BR")
    english: set[str] = set()
    portuguese: set[str] = set()
    for m in cat:
        if m.id:
            english.update(WORD.findall(FIELD.sub(" ", str(m.id))))
            portuguese.update(WORD.findall(FIELD.sub(" ", str(m.string))))
    return english, portuguese


ENGLISH, PORTUGUESE = vocabularies()
#: words of the English messages that never appear in a Portuguese one
ENGLISH_ONLY = {w for w in ENGLISH if w not in PORTUGUESE and w.lower() not in PORTUGUESE} - KEPT


def english_words(text: str) -> set[str]:
    return {w for w in WORD.findall(text) if w in ENGLISH_ONLY}


@pytest.fixture(autouse=True)
def portuguese() -> Iterator[None]:
    set_language("pt")
    yield
    set_language("en")


def test_the_english_vocabulary_is_caught() -> None:
    assert {"trick", "Round", "pile", "Quit"} <= ENGLISH_ONLY
    assert english_words("Rodada 1/3 · vaza 2/13 · the trick") == {"the", "trick"}


def test_start_table_help_last_trick_and_summary_are_portuguese() -> None:
    def ready(s: Session) -> bool:
        v = s.view()
        return len(v.rounds) == 0 and v.phase is Phase.PLAY and v.trick_number >= 12

    session = session_where(ready, partnership=True)
    seen_screens: list[str] = []

    async def run() -> None:
        app = PlayApp(fast_settings(seed=2))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.1)
            seen_screens.append(screen_text(app))
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.table is not None and not app.table.driving)
            await pilot.pause(0.1)
            seen_screens.append(screen_text(app))
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: app.table is not None and not app.table.driving)
            await pilot.pause(0.1)
            seen_screens.append(screen_text(app))
            await pilot.press("l")
            await wait_for(pilot, lambda: isinstance(app.screen, LastTrickScreen))
            seen_screens.append(screen_text(app))
            await pilot.press("escape", "question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            seen_screens.append(str(app.screen.query_one("#help-text").render()))
            await pilot.press("escape")
            seen: set[str] = set()
            for _ in range(500):
                if isinstance(app.screen, SummaryScreen):
                    break
                await take_turn(pilot, session, seen)
            assert isinstance(app.screen, SummaryScreen)
            seen_screens.append(screen_text(app))

    asyncio.run(run())
    assert len(seen_screens) == 6
    for text in seen_screens:
        assert not english_words(text), (english_words(text), text)
    assert "Rodada 1/3" in seen_screens[1] and "Separação" not in seen_screens[0]
    assert "vaza" in seen_screens[2] and "Dupla:" in seen_screens[2]


def test_the_lesson_is_portuguese() -> None:
    async def run() -> None:
        app = LearnApp(speed="instant")
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(2):
                await wait_for(pilot, lambda: isinstance(app.screen, NoteScreen))
                text = screen_text(app)
                assert not english_words(text), english_words(text)
                await pilot.press("enter")
                await pilot.pause(0.05)
            await pilot.pause(0.1)
            text = screen_text(app)
            assert "Lição — jogada 1 de 15" in text
            assert not english_words(text), english_words(text)

    asyncio.run(run())


def test_an_illegal_card_is_refused_in_portuguese() -> None:
    # the engine refuses with its code must_follow; the table says why in Portuguese
    def ready(s: Session) -> bool:
        v = s.view()
        if v.phase is not Phase.PLAY or not v.current_trick or v.led_suit < 0:
            return False
        follow = v.hand & C.SUIT_MASKS[v.led_suit]
        return bool(follow) and bool(v.hand & ~follow & ~C.WILD_MASK)

    session = session_where(ready)

    async def run() -> str:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: app.table is not None and not app.table.driving)
            v = session.view()
            wrong = C.cards_of(v.hand & ~C.SUIT_MASKS[v.led_suit] & ~C.WILD_MASK)[0]
            before = list(session.state.history)
            await press_card(pilot, wrong)
            await pilot.pause(0.05)
            assert session.state.history == before
            return screen_text(app)

    text = asyncio.run(run())
    led = C.SUIT_SYMBOLS[session.view().led_suit]
    assert f"Você precisa seguir o naipe {led}: você tem cartas de {led}" in text, text
    assert not english_words(text), english_words(text)


def test_a_variant_table_and_its_rules_are_portuguese() -> None:
    from pathlib import Path

    from meio.engine.ruleset_file import load_variant
    from meio.tui.panels import table_rules_text
    from meio.tui.screens import help_text
    from meio.tui.session import PlaySettings

    variant = load_variant(Path(__file__).parents[2] / "examples" / "variants" / "six-seven.toml")
    settings = PlaySettings(
        players=3, seed=2, speed="instant", bots=("random",), variant=variant
    ).checked()

    async def run() -> None:
        app = PlayApp(settings, setup=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: "Variante six-seven" in screen_text(app))
            assert not english_words(screen_text(app)), screen_text(app)
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.table is not None and not app.table.driving)
            text = screen_text(app)
            assert "Pilha separada da segunda parte — 0/7" in text
            assert not english_words(text), text
            view = app.table.session.view()
            rules = help_text(False, table_rules_text(view, False), view.config)
            assert "13 cartas: 6 para a primeira parte" in rules
            assert not english_words(rules), rules

    asyncio.run(run())
