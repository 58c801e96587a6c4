"""The table page on a phone screen and with the keyboard only, in Debian's Chromium."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.pages import (
    instant,
    new_table,
    open_seat,
    page_report,
    played_card_issues,
    take_turn,
    watch_console,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}
#: the parts of the table a player must be able to see
PARTS = ["#status", "#board", "#trick", "#hand", "#sheet"]


def overflow(page: Any, width: int) -> list[str]:
    """What sticks out of a ``width`` pixel wide screen (empty when nothing does)."""
    out: list[str] = page.evaluate(
        """(width) => {
          const out = [];
          const doc = document.scrollingElement;
          if (doc.scrollWidth > width) out.push(`the page scrolls sideways: ${doc.scrollWidth}px`);
          for (const el of document.querySelectorAll('#play *')) {
            const r = el.getBoundingClientRect();
            if (r.width && (r.left < -0.5 || r.right > width + 0.5))
              out.push(`${el.tagName}#${el.id}.${el.className} spans ${r.left}..${r.right}`);
          }
          return out;
        }""", width)
    return out


def assert_fits(page: Any, parts: list[str]) -> None:
    for part in parts:
        assert page.is_visible(part), f"{part} is not visible"
    sticking_out = overflow(page, PHONE["viewport"]["width"])  # type: ignore[index]
    assert not sticking_out, "\n".join(sticking_out[:10])


def test_a_phone_shows_the_whole_table_without_sideways_scrolling(
        server: tuple[str, Any], browser: Any) -> None:
    base, _ = server
    table = new_table(base, players=5, name="Ana Beatriz da Conceição", seed=11,
                      seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 4)
    ctx = browser.new_context(**PHONE)
    instant(ctx)
    page = ctx.new_page()
    console = watch_console(page)
    try:
        open_seat(page, base, table)
        page.wait_for_selector('#prompt[data-kind="split"]')
        assert_fits(page, [*PARTS, "#prompt"])
        # round 1 by taps, then the split of round 2 and its first trick; the round's
        # summary waits for a tap and fits the screen too
        page.evaluate("() => localStorage.setItem('meio:round-ms', '60000')")
        summaries = clear = 0
        deadline = time.time() + 60
        while page.locator("#sheet tr").count() < 3 or page.text_content(
                "#status") != "Your turn: follow.":
            assert time.time() < deadline, "round 2 did not get going in time"
            if page.locator(".trick .played").count() >= 4 and not clear:
                page.wait_for_timeout(300)   # the slide-in ends
                assert played_card_issues(page) == []
                clear += 1
            if not take_turn(page, tap=True):
                time.sleep(0.03)
            if page.is_visible("#summary-close"):
                assert_fits(page, [*PARTS, "#summary"])
                page.tap("#summary-close")
                summaries += 1
        assert page.text_content("#sheet tr:nth-child(2) td") == "1"  # round 1 is scored
        assert summaries == 1 and clear == 1
        assert_fits(page, PARTS)
        shots = Path(os.environ.get("MEIO_SHOT_DIR", "/tmp"))
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(400)  # the last card's slide-in ends
        page.screenshot(path=str(shots / "web-phone.png"))
    except Exception as exc:
        raise AssertionError(f"{exc}\n{page_report('phone', page, console)}") from exc
    ctx.close()


def active(page: Any, selector: str) -> bool:
    """Whether the focused element matches ``selector``."""
    return bool(page.evaluate("(s) => !!document.activeElement?.matches(s)", selector))


def tab_to(page: Any, selector: str, limit: int = 8) -> int:
    """Press Tab until the focus is on ``selector``; returns how many presses it took."""
    for n in range(1, limit + 1):
        page.keyboard.press("Tab")
        if active(page, selector):
            return n
    raise AssertionError(f"{limit} presses of Tab never reached {selector}")


def test_the_keyboard_alone_plays_the_split_and_cards(server: tuple[str, Any],
                                                       browser: Any) -> None:
    base, app = server
    table = new_table(base, players=3, name="Ana", seed=5, specials=["-1", "+.5", "Q+"],
                      seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 2)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    instant(ctx)
    page = ctx.new_page()
    console = watch_console(page)
    try:
        open_seat(page, base, table)
        page.wait_for_selector('#prompt[data-kind="split"]')
        # what the status says in the very task of a press (frames may come right after)
        page.evaluate("document.addEventListener('click', () => { window.turnAfterPress ="
                      " document.getElementById('status').dataset.turn })")
        # the hand is one Tab stop, right after the header's links and the language
        # switch
        header = page.locator("header.top a, header.top select").count()
        assert tab_to(page, "#hand .card", header + 4) <= header + 1
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline == "solid", "the focused card shows no focus ring"
        picked = []
        for _ in range(6):
            picked.append(page.evaluate("document.activeElement.dataset.card"))
            page.keyboard.press("Space")
            assert active(page, '#hand .card[aria-pressed="true"]')  # still focused
            page.keyboard.press("ArrowRight")
        assert page.locator('#hand .card[aria-pressed="true"]').count() == 6
        assert tab_to(page, "#split-go") == 1
        page.keyboard.press("Enter")
        # from the press on, the page waits for the server: no second split can be made
        assert page.evaluate("window.turnAfterPress") == "0"
        played = 0
        deadline = time.time() + 40
        while played < 5:
            page.wait_for_selector('#status[data-turn="1"]', timeout=20_000)
            assert time.time() < deadline, "the bots did not let us play in time"
            kind = page.get_attribute("#prompt", "data-kind") if page.is_visible(
                "#prompt") else None
            if kind == "pile":  # our +½ won: the focus waits on the first pile
                assert active(page, ".pile-choice")
                page.keyboard.press("Enter")
                continue
            # after each move the focus stays in the hand: no Tab needed
            assert active(page, "#hand .card"), "the focus left the hand"
            for _ in range(14):
                if active(page, '#hand .card[data-legal="1"]'):
                    break
                page.keyboard.press("ArrowRight")
            else:
                raise AssertionError("the arrow keys never reached a playable card")
            card = page.evaluate("document.activeElement.dataset.card")
            seq = int(page.get_attribute("#play", "data-seq") or 0)
            page.keyboard.press("Enter")
            if page.is_visible(".declare-suit"):  # leading a wild: the suit comes next
                assert active(page, ".declare-suit")
                page.keyboard.press("Escape")  # changed our mind: back on the card
                assert not page.is_visible(".declare-suit")
                assert page.evaluate("document.activeElement.dataset.card") == card
                page.keyboard.press("Enter")
                assert active(page, ".declare-suit")
                page.keyboard.press("Enter")
            assert page.evaluate("window.turnAfterPress") == "0"
            page.wait_for_function(
                "([card, seq]) => Number(document.getElementById('play').dataset.seq) > seq"
                " && !document.querySelector(`#hand .card[data-card=\"${card}\"]`)",
                arg=[card, seq])
            played += 1
    except Exception as exc:
        raise AssertionError(f"{exc}\n{page_report('keyboard', page, console)}") from exc
    # the server took our split and our cards, all made by a person (not a timeout)
    store = app.state.hub.store
    match_id = store.table(table["table_id"]).current_match
    ours = [e for e in store.events(match_id) if e.seat == table["seat"]]
    assert ours[0].action.startswith("pack:") and set(ours[0].action[5:].split(",")) == set(
        picked)
    assert len(ours) >= 6 and all(e.source == "human" for e in ours)
    ctx.close()
