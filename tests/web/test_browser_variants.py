"""A variant table in real Chromium: created from the lobby's form with an uploaded
variant file, its problems shown inline when it has some, and a 6/7 match played by
clicks, the split made with the variant's pack of 7."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from meio.engine.wire import config_from_json
from tests.web.helpers import assert_no_leak
from tests.web.pages import instant, page_report, take_turn, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SIX_SEVEN = Path(__file__).parents[2] / "examples" / "variants" / "six-seven.toml"
SHOTS = Path(os.environ.get("MEIO_SHOT_DIR", "/tmp"))


def test_a_variant_table_is_made_in_the_lobby_and_split_with_its_pack_size(
        server: tuple[str, Any], browser: Any) -> None:
    import json

    base, app = server
    ctx = browser.new_context()
    instant(ctx)
    page = ctx.new_page()
    got: list[dict[str, Any]] = []
    page.on("websocket", lambda ws: ws.on("framereceived",
                                          lambda payload: got.append(json.loads(payload))))
    console = watch_console(page)
    page.goto(base + "/")
    page.fill("#c-name", "Ana")
    page.select_option("#c-players", "2")
    # a variant with a problem: nothing is made, its problems are listed by the form
    page.fill("#c-variant", 'preset = "meio"\n[hand]\nfirst_half = 8\n')
    page.click("#c-go")
    page.wait_for_selector("#c-variant-problems li")
    problems = page.text_content("#c-variant-problems") or ""
    assert "hand: pack sizes 8 + 6 do not add up to the hand of 13" in problems
    assert "/t/" not in page.url
    page.screenshot(path=str(SHOTS / "web-variant-problems.png"), full_page=True)
    # the real file, uploaded: the seats offer only the bots that play variants
    page.set_input_files("#c-variant-file", str(SIX_SEVEN))
    page.wait_for_function("() => document.getElementById('c-variant').value.includes('pack = 7')")
    offered = page.eval_on_selector_all("#c-seat-1 option", "os => os.map(o => o.value)")
    assert offered == ["human", "bot:random", "bot:heuristic"]
    assert page.is_disabled("#c-rated") and page.is_visible("#c-variant-help")
    page.select_option("#c-seat-1", "bot:heuristic")
    page.click("#c-go")
    page.wait_for_url("**/t/*")
    # the split asks for the variant's 7 cards; no hint button, and why
    page.wait_for_selector('#prompt[data-kind="split"]')
    assert "(0/7)" in (page.text_content("#prompt") or "")
    assert page.locator("#split-hint").count() == 0 and page.is_visible("#no-hint")
    cards = page.locator("#hand .card")
    assert cards.count() == 13
    for i in range(6):
        cards.nth(i).click()
    assert page.is_disabled("#split-go")
    cards.nth(6).click()
    cards.nth(7).click()  # an eighth is not taken
    assert "(7/7)" in (page.text_content("#prompt") or "")
    page.screenshot(path=str(SHOTS / "web-variant-split.png"), full_page=True)
    page.click("#split-go")
    # the rules panel says what the variant sets
    rules = page.text_content("#rules-body") or ""
    assert "six-seven" in rules and "6 for the first half, a pack of 7" in rules
    assert "not rated" in rules and "first to 2 round victories" in rules
    deadline = time.time() + 180
    try:
        while not page.is_visible("#match-over"):
            assert time.time() < deadline, "the match did not end in time"
            if not take_turn(page):
                time.sleep(0.03)
    except Exception as exc:
        raise AssertionError(f"{exc}\n{page_report('a', page, console)}") from exc
    store = app.state.hub.store
    table_id = page.url.split("/t/")[1].split("?")[0]
    m = store.match(store.table(table_id).current_match)
    config = config_from_json(m.config)
    actions = [(e.seat, e.action) for e in store.events(m.id)]
    assert config.variant is not None and config.variant.name == "six-seven"
    packs = [a for _, a in actions if a.startswith("pack:")]
    assert packs and all(len(a[5:].split(",")) == 7 for a in packs)
    assert assert_no_leak(config, actions, 0, got) > len(actions) // 2
    # (the one console error is the refused variant's 422)
    assert not [c for c in console if c.startswith("pageerror")], console
    ctx.close()
