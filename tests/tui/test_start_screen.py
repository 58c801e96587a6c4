"""The start screen: arrows move between fields, Enter deals from any of them, and
what does not apply to the table is hidden."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Input

from meio.tui.app import PlayApp
from meio.tui.widgets import Choice
from tests.tui.pilot import (
    SIZES,
    ascii_screen,
    fast_settings,
    footer_line,
    screen_text,
    wait_for,
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


def test_enter_deals_from_any_field_of_the_start_screen() -> None:
    # Enter started the match only while the Start button had the focus
    async def run() -> None:
        app = PlayApp(fast_settings())
        async with app.run_test(size=SIZES[0]) as pilot:
            await pilot.press("up", "up", "up")  # from Start to a chooser
            assert isinstance(app.focused, Choice)
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.table is not None)

    asyncio.run(run())


def test_enter_in_the_specials_field_deals_too() -> None:
    async def run() -> None:
        app = PlayApp(fast_settings())
        async with app.run_test(size=SIZES[0]) as pilot:
            await pilot.press("up")
            assert isinstance(app.focused, Input)
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.table is not None)

    asyncio.run(run())


def test_classic_hides_the_specials_label_with_its_field() -> None:
    async def run() -> None:
        app = PlayApp(fast_settings(edition="classic", players=2))
        async with app.run_test(size=SIZES[0]) as pilot:
            await pilot.pause(0.05)
            assert "Special cards" not in screen_text(app)
            app.screen.query_one("#edition", Choice).focus()
            await pilot.press("right")  # classic → MEIO
            await pilot.pause(0.05)
            assert "Special cards (codes, or empty for random):" in screen_text(app)

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_down_visits_every_field_and_letters_leave_the_choosers_alone(
        size: tuple[int, int]) -> None:
    """Issue 40 §4: ↓ from the first chooser reaches every field in turn, the special
    cards' box included, then Start; letters typed on a chooser change nothing."""
    async def run() -> None:
        app = PlayApp(fast_settings())
        async with app.run_test(size=size) as pilot:
            chain = [w.id for w in app.screen.focus_chain]
            choosers = [c for c in app.screen.query(Choice) if c.id in chain]
            choosers[0].focus()
            await pilot.pause(0.05)
            seen = []
            for _ in range(len(choosers) + 1):
                await pilot.press("down")
                seen.append(app.focused.id if app.focused is not None else None)
            assert seen == [c.id for c in choosers[1:]] + ["specials", "start"]
            assert "speed" in seen and len(choosers) >= 8
            for chooser in choosers:
                chooser.focus()
                before = chooser.value
                await pilot.press("a", "b", "e", "x", "z", "1")
                assert chooser.value == before, chooser.id
                assert app.table is None and app.is_running

    asyncio.run(run())
