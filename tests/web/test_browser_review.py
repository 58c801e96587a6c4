"""The puzzle page and the review beside the history's replay, in Debian's Chromium."""

from __future__ import annotations

import time
from typing import Any

import pytest

import meio.review
from meio.engine import actions as A
from meio.puzzles import shipped
from meio.review import Budget
from tests.web.pages import instant, new_table, open_seat, take_turn, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
SMALL = Budget(card_worlds=8, card_playouts=1, pool=8, split_worlds=8)


def test_a_puzzle_is_solved_on_a_phone_and_counts_in_the_streak(
        server: tuple[str, Any], browser: Any) -> None:
    base, _ = server
    entry = next(p for p in shipped().puzzles
                 if p.kind in ("lead", "follow") and A.declared_suit(A.parse_action(p.answer)) < 0)
    ctx = browser.new_context(**PHONE)
    instant(ctx)
    page = ctx.new_page()
    console = watch_console(page)
    page.goto(f"{base}/puzzles#{entry.id}")
    page.wait_for_selector(f'#p-board .card[data-card="{entry.answer}"]')
    assert page.text_content("#p-title") == f"Puzzle {entry.id}"
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 390, f"the puzzle page scrolls sideways: {width}px"
    page.tap(f'#p-board .card[data-card="{entry.answer}"]')
    page.tap("#p-play")
    page.wait_for_selector("#p-result strong")
    assert page.text_content("#p-result strong") == "Solved!"
    assert page.text_content("#p-streak") == "Streak: 1 (best 1)"
    assert not [m for m in console if "error" in m.lower()], console
    ctx.close()


def test_a_split_puzzle_is_answered_by_choosing_a_pack_on_a_phone(
        server: tuple[str, Any], browser: Any) -> None:
    base, _ = server
    entry = next(p for p in shipped().puzzles if p.kind == "split")
    ctx = browser.new_context(**PHONE)
    instant(ctx)
    page = ctx.new_page()
    console = watch_console(page)
    page.goto(f"{base}/puzzles#{entry.id}")
    page.wait_for_selector("#p-board .choice")
    # the hand is shown, not picked from: the packs offered are chosen whole
    assert page.locator("#p-board .choice").count() == len(entry.choices)
    assert page.locator("#p-board button.card").count() == 0
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 390, f"the puzzle page scrolls sideways: {width}px"
    wrong = entry.choices.index(entry.heuristic)
    page.locator("#p-board .choice").nth(wrong).tap()
    page.tap("#p-play")
    page.wait_for_selector("#p-result strong")
    assert page.text_content("#p-result strong").startswith("Not the best")
    page.goto(f"{base}/puzzles#{entry.id}")
    page.reload()
    page.wait_for_selector("#p-board .choice")
    page.locator("#p-board .choice").nth(entry.choices.index(entry.answer)).tap()
    page.tap("#p-play")
    page.wait_for_selector("#p-result strong")
    assert page.text_content("#p-result strong") == "Solved!"
    assert not [m for m in console if "error" in m.lower()], console
    ctx.close()


def test_the_replay_shows_the_review_and_jumps_to_a_move(
        server: tuple[str, Any], browser: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(meio.review.BUDGETS, "quick", SMALL)
    monkeypatch.setitem(meio.review.BUDGETS, "deep", SMALL)
    base, _ = server
    table = new_table(base, players=2, name="Ana", seed=21,
                      seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    instant(ctx)
    page = ctx.new_page()
    console = watch_console(page)
    open_seat(page, base, table)
    end = time.time() + 120
    while not page.is_visible("#match-over"):
        assert time.time() < end, "the match did not end in time"
        if not take_turn(page):
            time.sleep(0.03)
    page.goto(f"{base}/history")
    page.click("button[data-match]")
    page.wait_for_selector("#v-review svg.review-graph circle", timeout=120_000)
    assert "accuracy" in page.text_content("#v-review")
    # a point of the graph jumps the replay to that move
    before = page.text_content("#v-where")
    page.locator("#v-review circle").nth(5).click()
    assert page.text_content("#v-where") != before
    assert not [m for m in console if "error" in m.lower()], console
    ctx.close()
