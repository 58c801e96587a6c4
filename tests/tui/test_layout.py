"""The table's layout at 80×24, 100×30 and larger: footer, size notice, columns."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from meio.engine import Phase
from meio.engine import actions as A
from meio.engine import cards as C
from meio.i18n import set_language
from meio.tui.app import PlayApp
from meio.tui.cards import sorted_cards
from meio.tui.learn import LearnApp, LearnScreen, NoteScreen
from meio.tui.panels import split_row
from meio.tui.screens import SUMMARY_WIDTH, trick_line
from meio.tui.session import Session
from tests.tui.pilot import (
    SIZES,
    advance_to,
    fast_settings,
    footer_line,
    ready_table,
    screen_text,
    session_where,
    table,
    wait_for,
)


@pytest.mark.parametrize("size", SIZES)
def test_footer_keeps_help_quit_and_speed_and_drops_split_keys_in_play(
    size: tuple[int, int],
) -> None:
    async def run() -> None:
        app = PlayApp(fast_settings(seed=3), setup=False)
        async with app.run_test(size=size) as pilot:
            screen = await ready_table(pilot, app)
            await wait_for(pilot, lambda: "c Confirm split" in footer_line(app))
            footer = footer_line(app)
            assert "h Hint" in footer
            assert "? Help" in footer and "q Quit" in footer
            assert "bots instant" in screen_text(app).splitlines()[0]
            await pilot.press("home", *(["space", "right"] * 6), "c")
            session = screen.session
            await wait_for(pilot, lambda: session.state.phase is not Phase.SPLIT)
            await wait_for(
                pilot, lambda: "l Last trick" in footer_line(app) or "u Undo" in footer_line(app)
            )
            await wait_for(pilot, lambda: not screen.driving)
            await pilot.pause(0.05)
            footer = footer_line(app)
            assert "Confirm split" not in footer
            # in play the hint is there on the player's turn only
            view = session.view()
            assert ("h Hint" in footer) == (view.to_move == session.seat), footer
            assert "? Help" in footer and "q Quit" in footer
            assert "bots instant" in screen_text(app).splitlines()[0]

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_too_small_terminal_says_so_and_recovers(size: tuple[int, int]) -> None:
    async def run() -> None:
        app = PlayApp(fast_settings(seed=3))
        async with app.run_test(size=size) as pilot:
            await pilot.resize_terminal(60, 18)
            await pilot.pause(0.05)
            assert "Terminal too small" in screen_text(app)
            assert "Players" not in screen_text(app)
            await pilot.resize_terminal(*size)
            await pilot.pause(0.05)
            assert "Terminal too small" not in screen_text(app)
            await pilot.press("enter")
            await ready_table(pilot, app)
            await pilot.resize_terminal(70, 24)
            await pilot.pause(0.05)
            assert "Terminal too small" in screen_text(app)
            assert "Pick 6 cards" not in screen_text(app)
            await pilot.resize_terminal(*size)
            await pilot.pause(0.05)
            assert "Pick 6 cards" in screen_text(app)

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_classic_hand_sorts_the_ace_low(size: tuple[int, int]) -> None:
    async def run() -> None:
        for seed in range(20):
            app = PlayApp(fast_settings(edition="classic", players=4, seed=seed), setup=False)
            async with app.run_test(size=size) as pilot:
                await ready_table(pilot, app)
                cards = table(app).query_one("#hand").cards  # type: ignore[attr-defined]
                aces = [c for c in cards if c % 15 == 14]
                if not aces:
                    continue
                for ace in aces:
                    same_suit = [c for c in cards if c // 15 == ace // 15]
                    assert same_suit[0] == ace
                return
        raise AssertionError("no ace dealt in 20 deals")

    asyncio.run(run())


def _playing(players: int) -> Session:
    def ready(s: Session) -> bool:
        v = s.view()
        return v.phase is Phase.PLAY and v.trick_number > 2 and len(v.current_trick) >= 2

    return session_where(ready, players=players)


def test_the_trick_sits_next_to_the_seats_and_borders_every_seat_row() -> None:
    # at 130×40 a 50-column gap opened between the seats and the trick, and the 5th
    # seat's row had no │ beside it
    session = _playing(5)

    async def run() -> None:
        for size in [(80, 24), (130, 40)]:
            app = PlayApp(session.settings, session=session)
            async with app.run_test(size=size) as pilot:
                await ready_table(pilot, app)
                lines = screen_text(app).splitlines()
                top = lines[2:9]  # the seats table: its header, 5 seats and a free row
                assert all("│" in line for line in top), "\n".join(top)
                width = len(lines[2].split("│")[0])
                assert width <= 50, f"the trick starts at column {width}"

    asyncio.run(run())


def test_a_summarys_last_trick_never_breaks_inside_who_takes_it() -> None:
    # "takes it →" ended one line and "H" began the next, with five players; and the
    # player's own tricks read "You takes it"
    session = _playing(5)
    rng = random.Random(3)
    while not session.is_over:
        session.run_bots()
        if not session.is_over:
            legal = session.view().legal_actions()
            session.play(legal[rng.randrange(len(legal))])
    tricks = [e.trick for e in session.log if e.trick is not None]
    assert len(tricks) >= 5
    room = SUMMARY_WIDTH - len("Last trick: ")
    mine = 0
    for trick in tricks:
        text = trick_line(trick, session.names, False, session.seat).plain
        assert all(len(line) <= room for line in text.splitlines()), text
        assert re.search(r"takes? it → [HV]", text), text
        # in the person of who took it: "You takes it" when the player won but did not
        # play last
        if trick.winner == session.seat:
            assert "You take it →" in text, text
            mine += trick.plays[-1][0] != session.seat
        else:
            assert f"{session.names[trick.winner]} takes it →" in text, text
    assert mine, "the player never won a trick they did not close"


def test_classic_names_no_wild_and_logs_the_pack_in_hand_order() -> None:
    for seed in range(40):
        session = Session.new(fast_settings(edition="classic", seed=seed))
        session.run_bots()
        hand = sorted_cards(session.view().hand, "classic")
        aces = [c for c in hand if c % 15 == 14 and any(o // 15 == c // 15 != o for o in hand)]
        if aces:
            break
    else:
        raise AssertionError("no ace with a card of its suit in 40 classic hands")
    ace = aces[0]
    pack = [ace, *[c for c in hand if c != ace][:5]]
    session.play(A.pack_action(C.mask_of(pack)))
    logged = next(e.text for e in session.log if e.text.startswith("You keep"))
    # the Ace is the card 1 in classic: first of its suit, as in the hand
    order = [session.label(c) for c in sorted_cards(C.mask_of(pack), "classic")]
    assert logged == f"You keep {' '.join(order)} for the second half."
    session.run_bots()
    assert advance_to(session, lambda s: not s.view().current_trick, random.Random(1))

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready_table(pilot, app)
            prompt = str(app.screen.query_one("#prompt").render())
            assert "Your lead" in prompt and "wild" not in prompt

    asyncio.run(run())


def test_a_split_row_too_long_for_the_terminal_keeps_its_one_row() -> None:
    # the lesson's 13 cards in Portuguese with --ascii ("Q+(12.5)") outgrow 80 columns:
    # the first-half row is cut, and the pack row and the coach stay below it
    async def run() -> None:
        set_language("pt")
        app = LearnApp(speed="instant", ascii=True)
        async with app.run_test(size=(80, 24)) as pilot:
            for _note in range(2):
                await wait_for(pilot, lambda: isinstance(app.screen, NoteScreen))
                await pilot.press("enter")
                await pilot.pause(0.02)
            await wait_for(pilot, lambda: isinstance(app.screen, LearnScreen))
            view = table(app).session.view()
            assert split_row(view, frozenset(), 1, ascii=True).cell_len > 80
            lines = screen_text(app).splitlines()
            first = next(i for i, line in enumerate(lines) if line.startswith("Primeira parte"))
            # (the screen is in ASCII: "—" reads "-", "ç" "c")
            assert lines[first + 1].startswith("Pilha separada da segunda parte - 0/6:")
            assert lines[first + 2].startswith("Licao - jogada 1 de")

    asyncio.run(run())
