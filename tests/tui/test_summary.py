"""The round summary: its last trick, and who takes it, in the right person."""

from __future__ import annotations

import asyncio

import pytest

from meio.engine import Phase
from meio.tui.app import PlayApp
from meio.tui.session import Session
from tests.tui.pilot import (
    SIZES,
    play_to_summary,
    ready_table,
    screen_text,
    session_where,
)


@pytest.mark.parametrize("size", SIZES)
def test_round_summary_shows_the_rounds_last_trick(size: tuple[int, int]) -> None:
    def ready(s: Session) -> bool:
        v = s.view()
        return not v.rounds and v.phase is Phase.PLAY and v.trick_number == 13

    session = session_where(ready, players=2)

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            await play_to_summary(pilot, app, session)
            last = session.state.rounds[0].tricks[-1]
            text = screen_text(app)
            assert "Last trick:" in text
            cards = " ".join(
                f"{session.names[seat]} {session.label(card)}" for seat, card in last.plays
            )
            assert cards in text
            taker = (
                "You take" if last.winner == session.seat else f"{session.names[last.winner]} takes"
            )
            assert f"{taker} it →" in text

    asyncio.run(run())
