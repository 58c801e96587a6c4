"""The play keys: declaring in capitals, taking a card back, the last trick; and the
status line, which says only what still holds."""

from __future__ import annotations

import asyncio

import pytest

from meio.engine import Phase
from meio.engine import actions as A
from meio.engine import cards as C
from meio.tui.app import PlayApp
from meio.tui.screens import (
    DeclareScreen,
    LastTrickScreen,
)
from meio.tui.session import Session
from tests.tui.pilot import (
    SIZES,
    press_card,
    ready_table,
    screen_text,
    session_where,
    table,
    wait_for,
)


@pytest.mark.parametrize("size", SIZES)
def test_declare_keys_work_in_capitals(size: tuple[int, int]) -> None:
    def ready(s: Session) -> bool:
        v = s.view()
        return v.phase is Phase.PLAY and not v.current_trick and bool(v.hand & C.WILD_MASK)

    session = session_where(ready)

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            wild = C.cards_of(session.view().hand & C.WILD_MASK)[0]
            before = len(session.state.history)
            await press_card(pilot, wild)
            await wait_for(pilot, lambda: isinstance(app.screen, DeclareScreen))
            await pilot.press("C")
            await wait_for(pilot, lambda: len(session.state.history) > before)
            assert session.state.history[before] == (session.seat, A.declare(wild, C.CLUBS))

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_undo_takes_back_the_last_card_and_last_trick_key(size: tuple[int, int]) -> None:
    def ready(s: Session) -> bool:
        v = s.view()
        return v.phase is Phase.PLAY and 2 <= v.trick_number <= 6 and not v.current_trick

    session = session_where(ready)

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            await pilot.press("l")
            await wait_for(pilot, lambda: isinstance(app.screen, LastTrickScreen))
            last = session.view().tricks[-1]
            shown = screen_text(app)
            taker = (
                "You take" if last.winner == session.seat else f"{session.names[last.winner]} takes"
            )
            assert f"{taker} it →" in shown
            await pilot.press("escape")
            before = list(session.state.history)
            hand = session.view().hand
            card = A.card_of(session.view().legal_actions()[0])
            await press_card(pilot, card)
            await wait_for(
                pilot,
                lambda: session.human_to_act() and not table(app).driving,
            )
            assert len(session.state.history) > len(before)
            await pilot.press("u")
            assert session.state.history == before
            assert session.view().hand == hand
            assert f"You took back {session.label(card)}" in screen_text(app)
            await pilot.press("u")
            assert session.state.history == before or len(session.state.history) < len(before)

    asyncio.run(run())


def test_a_wait_notice_goes_once_the_bots_have_played() -> None:
    # "Wait: it is Bot 1's turn." stayed on the status line when it was the player's lead
    def bots_lead_next(s: Session) -> bool:
        v = s.view()
        plain = [a for a in v.legal_actions() if not C.is_wild(A.card_of(a))]
        return v.phase is Phase.PLAY and v.to_move == s.seat and not v.current_trick and bool(plain)

    session = session_where(bots_lead_next)
    session.set_speed("normal")  # the bots pause between cards: time to press a key

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=SIZES[0]) as pilot:
            screen = await ready_table(pilot, app)
            legal = session.view().legal_actions()
            await press_card(pilot, next(c for c in legal if not C.is_wild(A.card_of(c))))
            await wait_for(pilot, lambda: screen.driving)
            await pilot.press("enter")  # a card while the bots play
            assert "Wait: it is Bot" in screen_text(app)
            await wait_for(pilot, lambda: session.human_to_act() and not screen.driving)
            await pilot.pause(0.05)
            assert "Wait:" not in screen_text(app)
            assert "Your" in screen_text(app)  # the prompt for the player's turn instead

    asyncio.run(run())
