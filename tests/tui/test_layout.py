"""The table's layout at 80×24, 100×30 and larger: footer, size notice, columns."""

from __future__ import annotations

import asyncio

import pytest

from meio.engine import Phase
from meio.tui.app import PlayApp
from tests.tui.pilot import (
    SIZES,
    fast_settings,
    footer_line,
    ready_table,
    screen_text,
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
