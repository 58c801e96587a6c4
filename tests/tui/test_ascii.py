"""``--ascii``: only ASCII reaches the terminal, and its marks read as one set."""

from __future__ import annotations

import asyncio
import re

import pytest

from meio.engine import Phase
from meio.tui.app import PlayApp
from meio.tui.screens import (
    HelpScreen,
)
from meio.tui.session import Session
from tests.tui.pilot import (
    SIZES,
    ascii_screen,
    ready_table,
    screen_text,
    session_where,
    wait_for,
)


@pytest.mark.parametrize("size", SIZES)
def test_ascii_table_sends_only_ascii(size: tuple[int, int]) -> None:
    def ready(s: Session) -> bool:
        v = s.view()
        return v.phase is Phase.PLAY and v.trick_number > 2 and len(v.current_trick) >= 2

    session = session_where(ready)

    async def run() -> None:
        app = PlayApp(session.settings, session=session, ascii=True)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            text = screen_text(app)
            assert not any(mark in text for mark in "✓▶…♠♥♦♣╭╮")
            assert ascii_screen(app).isascii()
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            assert ascii_screen(app).isascii()

    asyncio.run(run())


def test_ascii_separators_and_arrows_read_as_one_set() -> None:
    # "-1 A+ -2H +.5 - wild lead" read as a sixth card, and "->" sat beside ">"
    def ready(s: Session) -> bool:
        v = s.view()
        return v.phase is Phase.PLAY and v.trick_number > 2 and not v.current_trick

    session = session_where(ready, players=5)

    async def run() -> None:
        app = PlayApp(session.settings, session=session, ascii=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready_table(pilot, app)
            await pilot.pause(0.05)
            text = ascii_screen(app)
            rules = text.splitlines()[1]
            assert " | wild lead: declare" in rules and " - " not in rules, rules
            assert "->" not in text
            assert re.search(r"takes? it > [HV]", text) and "won the trick > pile" in text

    asyncio.run(run())
