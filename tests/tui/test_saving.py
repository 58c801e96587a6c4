"""Saving and quitting: q always saves, nothing is overwritten unasked, a resumed match
keeps its log, and the save says that it holds the bots' hands."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from meio.engine import Phase
from meio.tui.app import PlayApp
from meio.tui.screens import (
    SaveScreen,
)
from meio.tui.session import Session, sidecar_path
from tests.tui.pilot import (
    SIZES,
    fast_settings,
    ready_table,
    screen_text,
    session_where,
    wait_for,
)


@pytest.mark.parametrize("size", SIZES)
def test_speed_is_saved_with_the_match(size: tuple[int, int], tmp_path: Path) -> None:
    save = tmp_path / "g.json"

    async def run() -> None:
        app = PlayApp(fast_settings(speed="normal"), setup=False, save_path=save)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            await pilot.press("plus")
            assert "bots fast" in screen_text(app)
            await pilot.press("s")
            await wait_for(pilot, lambda: isinstance(app.screen, SaveScreen))
            await pilot.press("enter")
            await wait_for(pilot, lambda: save.exists())

    asyncio.run(run())
    assert json.loads(sidecar_path(save).read_text())["speed"] == "fast"
    assert Session.load(save).settings.speed == "fast"


@pytest.mark.parametrize("size", SIZES)
def test_q_mid_game_saves_and_resumes(size: tuple[int, int], tmp_path: Path) -> None:
    save = tmp_path / "auto.json"

    def ready(s: Session) -> bool:
        return s.view().phase is Phase.PLAY and s.view().trick_number > 3

    session = session_where(ready)
    where = session.view()

    async def run() -> str | None:
        app = PlayApp(session.settings, session=session, save_path=save)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            await pilot.press("q" if size == SIZES[0] else "ctrl+q")  # both save first
            await pilot.pause(0.05)
        return app.return_value

    farewell = asyncio.run(run())
    assert farewell is not None and f"meio play --resume {save}" in farewell
    resumed = Session.load(save)
    assert resumed.view() == where and resumed.settings.bots == session.settings.bots
