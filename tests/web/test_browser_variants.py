"""A variant table in real Chromium: created from the lobby's form with an uploaded
variant file, its problems shown inline when it has some, and a 6/7 match played by
clicks, the split made with the variant's pack of 7."""

from __future__ import annotations

import os
import time
from dataclasses import replace
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
    page.click("#more-options summary")   # the variant box is among the more options
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
    # every level (the network plays any ruleset too: learned is among the variant bots)
    from meio.bots import LEVELS
    from meio.bots.variant_play import VARIANT_BOTS

    assert offered == ["human"] + [f"bot:{lv.kind}" for lv in LEVELS]
    assert all(lv.kind in VARIANT_BOTS for lv in LEVELS) and "learned" in VARIANT_BOTS
    assert "bot:expert" in offered
    assert page.is_disabled("#c-rated") and page.is_visible("#c-variant-help")
    page.select_option("#c-seat-1", "bot:heuristic")
    page.click("#c-go")
    page.wait_for_url("**/t/*")
    # the split asks for the variant's 7 cards; the advisor hints there too
    page.wait_for_selector('#prompt[data-kind="split"]')
    assert "(0/7)" in (page.text_content("#prompt") or "")
    assert page.is_visible("#split-hint") and page.locator("#no-hint").count() == 0
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


GAMBLER = '''name = "gambler"
preset = "meio"
trump = "none"
partnership = false
[hand]
size = 12
first_half = 6
pack = 6
[deck.2]
ranks = "9TJQKA"
specials = 1
[deck]
3 = false
4 = false
5 = false
[[special]]
code = "-2H"
name = "the gambler"
value = [20, "above"]
suit = "S"
follows = false
pile = "winner_chooses"
[scoring]
form = "squared"
[match.2]
form = "totals"
rounds = 2
shared = true
'''


def test_an_invented_special_shows_its_code_and_attributes_and_no_trump(
        server: tuple[str, Any], browser: Any) -> None:
    from meio.engine import State
    from meio.engine import cards as C
    from meio.web.seating import match_config
    from meio.web.tablesetup import TableSetup
    from meio.web.variants import read_variant
    from tests.web.pages import new_table, open_seat

    base, _ = server
    # a seed whose first deal gives seat 1 the invented card (the seeds are the server's)
    setup = TableSetup(players=2, variant=read_variant(GAMBLER, 16384))
    seed = next(s for s in range(100) if C.parse_card("-2H") in C.cards_of(
        State.new(match_config(replace(setup, seed=s), 1)).deal[0]))
    table = new_table(base, players=2, name="Ana", seed=seed, variant=GAMBLER,
                      seats=[{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}])
    ctx = browser.new_context()
    instant(ctx)
    page = ctx.new_page()
    console = watch_console(page)
    open_seat(page, base, table)
    page.wait_for_selector('#prompt[data-kind="split"]')
    assert page.locator("#hand .card").count() == 12
    # the invented card is drawn by its code with its half-1 value, not as the box's −2♥
    card = page.locator('#hand .card[data-card="-2H"]')
    assert (card.locator(".rank").text_content() or "").strip() == "-2H♠"
    assert (card.locator(".value").text_content() or "").strip() == "20"
    assert "red" not in (card.get_attribute("class") or "")   # a spade
    rules = page.text_content("#rules-body") or ""
    for words in ("gambler", "12 cards: 6 for the first half, a pack of 6",
                  "no trump: only the suit led wins", "2 rounds; the lowest total wins",
                  "the square of the difference",
                  "worth 20 in the first half, ½ above the card played before it in the second",
                  "a spades card that may be played on any trick",
                  "its winner chooses the pile", "(the gambler)"):
        assert words in rules, (words, rules)
    assert "Leading a wild" not in rules  # the variant has no wild
    page.screenshot(path=str(SHOTS / "web-variant-invented.png"), full_page=True)
    deadline = time.time() + 150
    try:
        while not page.is_visible("#match-over"):
            assert time.time() < deadline, "the match did not end in time"
            if not take_turn(page):
                time.sleep(0.03)
    except Exception as exc:
        raise AssertionError(f"{exc}\n{page_report('a', page, console)}") from exc
    assert "-2H" in (page.text_content("#log") or "")
    assert not [c for c in console if c.startswith("pageerror")], console
    ctx.close()
