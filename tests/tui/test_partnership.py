"""Partnership at the terminal: packs to the partner, team piles, team scores."""

from __future__ import annotations

import asyncio

import pytest

from meio.engine import Phase
from meio.tui.app import PlayApp
from meio.tui.screens import (
    PileScreen,
)
from meio.tui.session import Session
from tests.tui.pilot import (
    SIZES,
    play_to_summary,
    ready_table,
    screen_text,
    session_where,
    table,
    wait_for,
)


@pytest.mark.parametrize("size", SIZES)
def test_partnership_says_where_packs_go_and_asks_the_pile_with_team_piles(
    size: tuple[int, int],
) -> None:
    def ready(s: Session) -> bool:
        return s.state.phase is Phase.PILE and s.state.pending_pile == s.seat

    session = session_where(ready, partnership=True, specials=(60, 61, 63, 64))

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, PileScreen))
            view = session.view()
            h = view.piles[0][0] + view.piles[2][0]
            v = view.piles[0][1] + view.piles[2][1]
            assert f"Your team's piles now: H {h}, V {v}." in screen_text(app)
            prompt = str(table(app).query_one("#prompt").render())
            assert prompt == "You won with +.5: choose the pile."
            texts = [e.text for e in session.log]
            assert any(t.startswith("You pass ") and "to Bot 2 for the second" in t for t in texts)
            assert any(t.startswith("You receive Bot 2's pack: ") for t in texts)
            assert not any("You keep" in t for t in texts)

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_partnership_summary_scores_teams_not_seats(size: tuple[int, int]) -> None:
    def ready(s: Session) -> bool:
        v = s.view()
        return not v.rounds and v.phase is Phase.PLAY and v.trick_number == 13

    session = session_where(ready, partnership=True)

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            await play_to_summary(pilot, app, session)
            result = session.state.rounds[0]
            assert result.team_scores is not None
            assert "Last trick:" in screen_text(app)
            lines = str(app.screen.query_one("#summary-body").render()).splitlines()
            seat_rows = [line for line in lines if line.startswith(("You ", "Bot "))]
            assert len(seat_rows) == 4 and all(len(row.split()) <= 5 for row in seat_rows)
            team_a = next(line for line in lines if line.startswith("A (You + Bot 2)"))
            assert team_a.split()[-2:] == [str(result.team_scores[0])] * 2
            header = next(line for line in lines if line.startswith("Seat"))
            assert "Score" not in header and "Team" in header

    asyncio.run(run())


def test_the_seats_table_scores_the_teams() -> None:
    # the R1 and Tot columns showed each seat's own |H - V|; in partnership only the
    # team's score counts, so both partners' rows carry their team's score
    def ready(s: Session) -> bool:
        result = s.state.rounds[0] if s.state.rounds else None
        if result is None or result.team_scores is None:
            return False
        return any(result.scores[p] != result.team_scores[p % 2] for p in range(4))

    session = session_where(ready, partnership=True)
    result = session.state.rounds[0]
    assert result.team_scores is not None

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready_table(pilot, app)
            text = str(app.screen.query_one("#seats").render())
            rows = [line for line in text.splitlines() if line[3:].startswith(("You", "Bot"))]
            assert len(rows) == 4
            for seat, row in enumerate(rows):
                team = result.team_scores[seat % 2]
                r1, total = row.split()[-2:]
                assert (int(r1), int(total)) == (team, team), row

    asyncio.run(run())
