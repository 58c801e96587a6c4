"""The table options of RULES.md §10 and 2-player classic, at the terminal (issue 9)."""

from __future__ import annotations

import asyncio

import pytest

from meio.engine import Phase, TableOptions
from meio.engine import cards as C
from meio.tui.app import PlayApp
from meio.tui.screens import DeclareScreen, HelpScreen, SummaryScreen
from meio.tui.session import Session
from tests.tui.pilot import (
    SIZES,
    fast_settings,
    press_card,
    screen_text,
    session_where,
    take_turn,
    wait_for,
)


@pytest.mark.parametrize("size", SIZES)
def test_options_chosen_on_the_start_screen_reach_the_table(size: tuple[int, int]) -> None:
    async def run() -> None:
        app = PlayApp(fast_settings(seed=5))
        async with app.run_test(size=size) as pilot:
            await pilot.click("#wild-lead")
            await pilot.click("#reveal")
            text = screen_text(app)
            assert "Wild lead           ◀ next card sets it ▶" in text
            assert "Specials shown      ◀ no: hidden ▶" in text
            await pilot.click("#start")
            await wait_for(pilot, lambda: app.table is not None)
            session = app.table.session  # type: ignore[union-attr]
            cfg = session.state.config
            assert cfg.options == TableOptions("next", reveal_specials=False)
            text = screen_text(app)
            assert "wild lead: next card" in text
            assert "Specials hidden: 4 in the deck" in text
            for code in ("-1", "A+", "-2♥", "+.5", "Q+"):
                held = C.parse_cards(code.replace("♥", "H")) & session.view().hand
                if not held:
                    assert f" {code}" not in text.splitlines()[1]
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            plain = str(app.screen.query_one("#help-text").render())
            assert "A led wild names no suit" in plain
            assert "Nobody is told which specials are in the deck" in plain

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_next_wild_lead_asks_no_suit(size: tuple[int, int]) -> None:
    def ready(s: Session) -> bool:
        v = s.view()
        return v.phase is Phase.PLAY and not v.current_trick and bool(v.hand & C.WILD_MASK)

    session = session_where(ready, wild_lead="next")

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, lambda: app.table is not None and not app.table.driving)
            wild = C.cards_of(session.view().hand & C.WILD_MASK)[0]
            before = len(session.state.history)
            await press_card(pilot, wild)
            await wait_for(pilot, lambda: len(session.state.history) > before)
            assert not isinstance(app.screen, DeclareScreen)
            assert session.state.history[before] == (session.seat, wild)
            assert "declared" not in " ".join(e.text for e in session.log[-4:])

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_two_player_classic_is_three_rounds_on_totals(size: tuple[int, int]) -> None:
    def ready(s: Session) -> bool:
        v = s.view()
        return len(v.rounds) == 2 and v.phase is Phase.PLAY and v.trick_number == 13

    session = session_where(ready, edition="classic", players=2)
    assert session.state.config.rounds == 3

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, lambda: app.table is not None and not app.table.driving)
            text = screen_text(app)
            assert "Round 3/3" in text and "victories" not in text
            seen: set[str] = set()
            for _ in range(200):
                if isinstance(app.screen, SummaryScreen):
                    break
                await take_turn(pilot, session, seen)
            assert isinstance(app.screen, SummaryScreen) and app.screen.final
            title = app.screen.title_text
            assert title.startswith("Round 3 is over.") and "take" not in title
            totals = session.state.totals
            winner = "you win" if totals[0] < totals[1] else "Bot 1 wins"
            assert f"Match over: {winner}!" in title
            assert all(r.victory is None for r in session.state.rounds)

    asyncio.run(run())
