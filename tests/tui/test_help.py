"""The help screen lists every key and the table's options."""

from __future__ import annotations

import asyncio

import pytest

from meio.tui.app import PlayApp
from meio.tui.screens import (
    HelpScreen,
)
from tests.tui.pilot import (
    SIZES,
    fast_settings,
    ready_table,
    wait_for,
)


@pytest.mark.parametrize("size", SIZES)
def test_help_lists_every_key_and_the_table(size: tuple[int, int]) -> None:
    async def run() -> None:
        app = PlayApp(fast_settings(seed=2), setup=False)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            text = app.screen.query_one("#help-text").render()
            plain = str(text)
            for key, what in [
                ("h / b", "the advisor's hint (split or card)"),
                ("u ", "take back your last card"),
                ("l ", "show the last trick"),
                ("n ", "new match"),
                ("q ", "save the match and quit"),
            ]:
                assert any(key in line and what in line for line in plain.splitlines()), what
            assert "This table" in plain and "declares the led suit" in plain
            assert "docs/rules.md" in plain

    asyncio.run(run())
