"""The start screen: arrows move between fields, Enter deals from any of them, and
what does not apply to the table is hidden."""

from __future__ import annotations

import asyncio

import pytest

from meio.tui.app import PlayApp
from tests.tui.pilot import (
    SIZES,
    ascii_screen,
    fast_settings,
    footer_line,
    screen_text,
)


@pytest.mark.parametrize("size", SIZES)
def test_start_screen_arrows_move_and_ascii_draws_no_unicode(size: tuple[int, int]) -> None:
    async def run() -> None:
        app = PlayApp(fast_settings(), ascii=True)
        async with app.run_test(size=size) as pilot:
            assert app.focused is not None and app.focused.id == "start"
            await pilot.press("up", "up")
            assert app.focused is not None and app.focused.id == "speed"
            await pilot.press("down")
            assert app.focused is not None and app.focused.id == "specials"
            text = screen_text(app)
            assert "Players             < 4 >" in text
            assert not any(ch in text for ch in "◀▶")
            await pilot.press("down")
            assert app.focused is not None and app.focused.id == "start"
            await pilot.pause(0.1)
            assert ascii_screen(app).isascii()
            assert "? Help" in footer_line(app) and "q Quit" in footer_line(app)

    asyncio.run(run())
