"""End to end in real Chromium (Debian's): two people in two browser contexts and two
bots play a whole match through clicks; a reload resumes; a recorder on every
WebSocket frame checks that no hidden card reached the wrong seat."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from meio.engine.wire import config_from_json
from tests.web.helpers import assert_no_leak
from tests.web.pages import instant, page_report, take_turn, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


def record_frames(page: Any, received: list[dict[str, Any]], sent: list[dict[str, Any]]) -> None:
    def on_ws(ws: Any) -> None:
        ws.on("framereceived", lambda payload: received.append(json.loads(payload)))
        ws.on("framesent", lambda payload: sent.append(json.loads(payload)))

    page.on("websocket", on_ws)


def resumed(page: Any, seq: int) -> None:
    """Wait until a (re)loaded page has its seat back and has caught up to ``seq``.

    Not "until it shows cards": at the last trick of a half the hand may be empty
    while the other person, driven by this same test, is the one to play.
    """
    page.wait_for_function(
        "(seq) => document.getElementById('conn').textContent.startsWith('seat') &&"
        " Number(document.getElementById('play').dataset.seq) >= seq", arg=seq)


def play_match(a: Any, b: Any, got_a: list[dict[str, Any]]) -> tuple[bool, bool]:
    """Both people play by clicks until the match is over; ``b`` reloads once midway."""
    for p in (a, b):
        p.wait_for_selector("#hand .card")
    reloaded = shot = False
    deadline = time.time() + 200
    while not (a.is_visible("#match-over") and b.is_visible("#match-over")):
        assert time.time() < deadline, "the match did not end in time"
        events = sum(1 for f in got_a if f["type"] == "event")
        if not shot and events > 20 and a.text_content("#status") == "Your turn: follow." and (
                a.locator(".trick .played").count() >= 2):
            a.wait_for_timeout(400)  # the last card's slide-in ends; nothing moves meanwhile
            a.screenshot(path=str(Path(os.environ.get("MEIO_SHOT_DIR", "/tmp")) /
                                  "web-match.png"))  # web-table.png: the livelier test
            shot = True
        moved = take_turn(a) | take_turn(b)
        if not reloaded and events > 30:
            seen = int(b.get_attribute("#play", "data-seq") or 0)
            b.reload()
            resumed(b, seen)
            reloaded = True
        if not moved:
            time.sleep(0.03)
    return reloaded, shot


def test_two_people_and_two_bots_play_a_match_in_chromium(server: tuple[str, Any],
                                                          browser: Any) -> None:
    base, app = server
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    for ctx in (ctx_a, ctx_b):
        instant(ctx)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    got: dict[str, list[dict[str, Any]]] = {"a": [], "b": []}
    sent: dict[str, list[dict[str, Any]]] = {"a": [], "b": []}
    record_frames(a, got["a"], sent["a"])
    record_frames(b, got["b"], sent["b"])
    console = {"a": watch_console(a), "b": watch_console(b)}
    # Ana starts a table in the lobby: 4 players, seats 3 and 4 are random bots
    a.goto(base + "/")
    a.fill("#c-name", "Ana")
    a.select_option("#c-players", "4")
    a.select_option("#c-seat-1", "human")
    a.select_option("#c-seat-2", "bot:random")
    a.select_option("#c-seat-3", "bot:random")
    a.click("#c-go")
    a.wait_for_url("**/t/*")
    a.wait_for_selector("#invite-link:not(:empty)")
    invite = a.text_content("#invite-link")
    assert invite and "invite=" in invite
    # Bo opens the invite link in another browser and sits down
    b.goto(invite)
    b.fill("#join-name", "Bo")
    b.click("#join-go")
    try:
        reloaded, shot = play_match(a, b, got["a"])
    except Exception as exc:
        report = "\n".join(page_report(n, p, console[n]) for n, p in (("a", a), ("b", b)))
        raise AssertionError(f"{exc}\n{report}") from exc
    assert reloaded and shot
    # the reload resumed from the last sequence number it had seen
    hellos = [f for f in sent["b"] if f["type"] == "hello"]
    assert len(hellos) >= 2 and hellos[-1]["since"] and hellos[-1]["since"]["seq"] > 0
    # the end of the match: winners, a record to download, and a rematch button
    assert "wins" in (a.text_content("#match-over") or "") or "win" in (
        a.text_content("#match-over") or "")
    assert a.is_visible("#rematch") and a.is_visible("#download")
    # every frame to every seat carried only cards that seat could see
    store = app.state.hub.store
    table_id = a.url.split("/t/")[1].split("?")[0]
    match_id = store.table(table_id).current_match
    m = store.match(match_id)
    config = config_from_json(m.config)
    actions = [(e.seat, e.action) for e in store.events(match_id)]
    assert m.finished_at is not None
    assert assert_no_leak(config, actions, 0, got["a"]) > len(actions) // 2
    assert assert_no_leak(config, actions, 1, got["b"]) > len(actions) // 4
    # a rematch needs both people: Ana asks and waits for Bo, who is told and agrees
    a.click("#rematch")
    a.wait_for_selector(".rematch-note")
    assert "Waiting for Bo" in (a.text_content(".rematch-note") or "")
    assert a.is_disabled("#rematch")
    b.wait_for_selector(".rematch-note")
    assert "Ana asked for a rematch" in (b.text_content(".rematch-note") or "")
    assert store.table(table_id).current_match == match_id  # nothing started yet
    b.click("#rematch")
    deadline = time.monotonic() + 20
    while store.table(table_id).current_match == match_id:
        assert time.monotonic() < deadline, "the rematch did not start"
        time.sleep(0.05)
    a.wait_for_selector("#match-over", state="hidden")
    b.wait_for_selector("#match-over", state="hidden")
    assert not a.is_visible(".rematch-note") and not b.is_visible(".rematch-note")
    ctx_a.close()
    ctx_b.close()
