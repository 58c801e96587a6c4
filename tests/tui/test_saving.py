"""Saving and quitting: q always saves, nothing is overwritten unasked, a resumed match
keeps its log, and the save says that it holds the bots' hands."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path

import pytest

from meio.engine import Phase
from meio.engine.record import Record
from meio.tui import table as table_module
from meio.tui.app import PlayApp
from meio.tui.saved import sidecar_path
from meio.tui.screens import SaveScreen
from meio.tui.session import Session
from meio.tui.start import StartScreen
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


def record(session: Session) -> str:
    return Record.from_state(session.state).to_text()


def finished_session(seed: int = 1) -> Session:
    session = Session.new(fast_settings(seed=seed, players=3))
    rng = random.Random(seed)
    while not session.is_over:
        session.run_bots()
        if not session.is_over:
            legal = session.view().legal_actions()
            session.play(legal[rng.randrange(len(legal))])
    return session


def test_n_after_a_finished_match_keeps_it_and_q_saves_the_next_apart() -> None:
    # after a finished match, n then q autosaved only the new match: the finished one
    # was lost (and both would have gone to the same file)
    session = finished_session()

    async def run() -> str | None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=SIZES[0]) as pilot:
            await ready_table(pilot, app)
            await pilot.press("n")
            await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
            assert "Match saved to meio-autosave.json" in screen_text(app)
            await pilot.press("enter")
            await wait_for(
                pilot, lambda: app.table is not None and app.table.session is not session
            )
            await ready_table(pilot, app)
            await pilot.press("q")
            await pilot.pause(0.05)
        return app.return_value

    farewell = asyncio.run(run())
    assert farewell is not None and "meio-autosave-2.json" in farewell
    finished = Session.load(Path("meio-autosave.json"))
    assert finished.is_over and record(finished) == record(session)
    assert not Session.load(Path("meio-autosave-2.json")).is_over


def test_q_saves_a_finished_match_too() -> None:
    session = finished_session(2)

    async def run() -> str | None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=SIZES[0]) as pilot:
            await ready_table(pilot, app)
            await pilot.press("q")
            await pilot.pause(0.05)
        return app.return_value

    farewell = asyncio.run(run())
    assert farewell is not None and "meio view meio-autosave.json" in farewell
    assert record(Session.load(Path("meio-autosave.json"))) == record(session)


def test_q_never_writes_over_an_earlier_autosave() -> None:
    Path("meio-autosave.json").write_text("an earlier match\n")

    async def run() -> str | None:
        app = PlayApp(fast_settings(), setup=False)
        async with app.run_test(size=SIZES[0]) as pilot:
            await ready_table(pilot, app)
            await pilot.press("q")
            await pilot.pause(0.05)
        return app.return_value

    farewell = asyncio.run(run())
    assert farewell is not None and "meio play --resume meio-autosave-2.json" in farewell
    assert Path("meio-autosave.json").read_text() == "an earlier match\n"
    assert Path("meio-autosave-2.json").exists()


def test_the_save_dialog_warns_before_overwriting_and_tells_what_the_file_holds() -> None:
    Path("meio-game.json").write_text("another match\n")

    async def run() -> None:
        app = PlayApp(fast_settings(), setup=False)
        async with app.run_test(size=SIZES[0]) as pilot:
            await ready_table(pilot, app)
            await pilot.press("s")
            await wait_for(pilot, lambda: isinstance(app.screen, SaveScreen))
            assert "holds every hand of the match, the bots' too" in screen_text(app)
            await pilot.press("enter")
            assert "meio-game.json exists: Enter again replaces it" in screen_text(app)
            assert Path("meio-game.json").read_text() == "another match\n"
            await pilot.press("enter")
            await wait_for(pilot, lambda: not isinstance(app.screen, SaveScreen))
            assert "Saved meio-game.json" in screen_text(app)
            # saving the match again to its own file asks nothing
            await pilot.press("s", "enter")
            await wait_for(pilot, lambda: not isinstance(app.screen, SaveScreen))

    asyncio.run(run())
    assert Session.load(Path("meio-game.json")).view().phase is Phase.SPLIT


def test_a_resumed_match_keeps_its_log(tmp_path: Path) -> None:
    session = session_where(lambda s: s.view().trick_number > 3 and s.view().round_index == 1)
    path = tmp_path / "g.json"
    session.save(path)
    resumed = Session.load(path)
    told, lived = resumed.log[:-1], session.log
    # the same lines (the record keeps the packs in seat order, so the split's lines
    # may come in another order), and the tricks in the order they were played
    assert sorted(e.text for e in told) == sorted(e.text for e in lived)
    assert [e.text for e in told if e.trick] == [e.text for e in lived if e.trick]
    assert resumed.log[-1].text == "Resumed from g.json."
    assert resumed.last_trick == session.last_trick


def test_quitting_does_not_wait_for_the_advisor(monkeypatch: pytest.MonkeyPatch) -> None:
    # q took seconds when the advisor (or a bot) was thinking: the exit waited for it
    def slow_advice(*args: object, **kwargs: object) -> None:
        time.sleep(4)

    monkeypatch.setattr(table_module, "advise_view", slow_advice)

    async def run() -> None:
        app = PlayApp(fast_settings(), setup=False)
        async with app.run_test(size=SIZES[0]) as pilot:
            await ready_table(pilot, app)
            await pilot.press("h")
            await pilot.pause(0.1)
            await pilot.press("q")

    start = time.perf_counter()
    asyncio.run(run())
    assert time.perf_counter() - start < 3


def test_q_in_a_folder_that_cannot_be_written_says_so_and_quits_on_a_second_q(
    tmp_path: Path,
) -> None:
    save = tmp_path / "no-such-folder" / "g.json"

    async def run() -> str | None:
        app = PlayApp(fast_settings(), setup=False, save_path=save)
        async with app.run_test(size=SIZES[0]) as pilot:
            await ready_table(pilot, app)
            await pilot.press("q")
            said = str(app.screen.query_one("#prompt").render())
            assert said.startswith("Could not save: cannot write")
            assert said.endswith("Press q again to leave without saving.")
            assert app.is_running
            await pilot.press("q")
            await pilot.pause(0.05)
        return app.return_value

    assert asyncio.run(run()) is None
    assert not save.exists()
