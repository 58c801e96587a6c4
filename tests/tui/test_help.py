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
            # the help teaches the table's rules itself: no file a player may not have
            assert "docs/rules.md" not in plain and "meio learn" in plain
            assert "Trumps: hearts." in plain
            for special in ("Q+: worth 12½", "the winner of a trick it wins chooses the pile",
                            "a trick it wins goes to the other half's pile"):
                assert special in plain or "special card in the deck" in plain, special

    asyncio.run(run())


def test_at_80_columns_a_wide_dialog_leaves_no_strip_of_the_log() -> None:
    """Issue 40 §4: the help (a wide dialog) was 78 columns wide at 80, with a
    one-column strip of the log's text beside it."""
    async def run() -> None:
        app = PlayApp(fast_settings(seed=2), setup=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await ready_table(pilot, app)
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            await pilot.pause(0.05)
            help_box = app.screen.query_one("#help").region
            assert (help_box.x, help_box.width) == (0, 80), help_box

    asyncio.run(run())
