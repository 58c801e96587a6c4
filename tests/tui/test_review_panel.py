"""``meio view``'s review panel: the kept review beside the record, step by step."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

import meio.review
from meio.engine.record import Record
from meio.review import Budget, review_match
from meio.tui.replay import Replay, ReplayApp
from meio.tui.review import ReviewPanel, read_review, review_path
from tests.tui.pilot import screen_text, wait_for

BLUNDER = Path(__file__).parents[1] / "data" / "review" / "blunder-4p.json"
SMALL = Budget(card_worlds=24, card_playouts=2, pool=48, split_worlds=8)


def test_the_panel_shows_the_kept_review_of_the_move_on_show(tmp_path: Path) -> None:
    path = tmp_path / "blunder.json"
    shutil.copy(BLUNDER, path)
    review = review_match(Record.from_json(path.read_text()), budget=SMALL, seats=[1])
    review_path(path).write_text(json.dumps(review.to_json()))
    assert read_review(path) is not None

    async def run() -> None:
        app = ReplayApp(Replay.load(path), title="blunder.json")
        async with app.run_test(size=(120, 40)) as pilot:
            assert "Q+=D" not in screen_text(app)
            await pilot.press("v")
            panel = app.query_one(ReviewPanel)
            await wait_for(pilot, lambda: panel.review is not None)
            app.index = 50  # just after the 50th action: seat 1 leads Q+ declaring D
            await pilot.pause()
            text = screen_text(app)
            assert "seat 1 played Q+=D" in text and "blunder" in text
            assert "seat 1:" in text and "% (" in text
            await pilot.press("v")
            assert not panel.display

    asyncio.run(run())


def test_a_match_in_play_is_not_reviewed(tmp_path: Path) -> None:
    record = Record.from_json(BLUNDER.read_text())
    state = record.to_state()
    while state.history and state.phase.name != "SPLIT":
        state.undo()
    path = tmp_path / "live.json"
    path.write_text(Record.from_state(state).to_text())

    async def run() -> None:
        app = ReplayApp(Replay.load(path), title="live.json")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("v")
            assert "only a finished match can be reviewed" in screen_text(app)
            assert not review_path(path).exists()

    asyncio.run(run())


def test_the_review_is_computed_once_then_kept_beside_the_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tiny = Budget(card_worlds=4, card_playouts=1, pool=4, split_worlds=8)
    monkeypatch.setitem(meio.review.BUDGETS, "quick", tiny)
    monkeypatch.setitem(meio.review.BUDGETS, "deep", tiny)
    path = tmp_path / "blunder.json"
    shutil.copy(BLUNDER, path)

    async def run() -> None:
        app = ReplayApp(Replay.load(path), title="blunder.json")
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("v")
            panel = app.query_one(ReviewPanel)
            await wait_for(pilot, lambda: panel.review is not None
                           and panel.review["depth"] == "deep", tries=30_000)
            assert "kept beside the record" in screen_text(app)

    asyncio.run(run())
    kept = read_review(path)
    assert kept is not None and kept["format"] == "meio-review/1"
