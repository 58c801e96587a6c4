"""End to end in real Chromium (Debian's): two people in two browser contexts and two
bots play a whole match through clicks; a reload resumes; a recorder on every
WebSocket frame checks that no hidden card reached the wrong seat."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meio.engine import MatchConfig
from tests.web.conftest import IN_CI, free_port, make_settings
from tests.web.helpers import assert_no_leak

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    import uvicorn

    from meio.web import create_app

    app = create_app(make_settings(f"sqlite:///{tmp_path / 'e2e.db'}", bot_delay_s=0.02))
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", app
    srv.should_exit = True
    thread.join(10)


@pytest.fixture
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM) or shutil.which("chromium") is None:
        if IN_CI:
            pytest.fail("Debian chromium is not installed: run scripts/system-deps.sh")
        pytest.skip("Debian chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def record_frames(page: Any, received: list[dict[str, Any]], sent: list[dict[str, Any]]) -> None:
    def on_ws(ws: Any) -> None:
        ws.on("framereceived", lambda payload: received.append(json.loads(payload)))
        ws.on("framesent", lambda payload: sent.append(json.loads(payload)))

    page.on("websocket", on_ws)


def take_turn(page: Any) -> bool:
    """If it is this page's turn, make a legal move with clicks; True if it did."""
    if page.get_attribute("#status", "data-turn") != "1":
        return False
    kind = page.get_attribute("#prompt", "data-kind") if page.is_visible("#prompt") else None
    if kind == "split":
        cards = page.locator("#hand .card")
        for i in range(6):
            cards.nth(i).click()
        page.click("#split-go")
    elif kind == "pile":
        page.locator(".pile-choice").first.click()
    elif kind == "declare":
        page.locator(".declare-suit").first.click()
    else:
        legal = page.locator('#hand .card[data-legal="1"]')
        if legal.count() == 0:
            return False
        legal.first.click()
        if page.is_visible(".declare-suit"):
            page.locator(".declare-suit").first.click()
    return True


def test_two_people_and_two_bots_play_a_match_in_chromium(server: tuple[str, Any],
                                                          browser: Any) -> None:
    base, app = server
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    a, b = ctx_a.new_page(), ctx_b.new_page()
    got: dict[str, list[dict[str, Any]]] = {"a": [], "b": []}
    sent: dict[str, list[dict[str, Any]]] = {"a": [], "b": []}
    record_frames(a, got["a"], sent["a"])
    record_frames(b, got["b"], sent["b"])
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
    for p in (a, b):
        p.wait_for_selector("#hand .card")
    reloaded = shot = False
    deadline = time.time() + 200
    while not (a.is_visible("#match-over") and b.is_visible("#match-over")):
        assert time.time() < deadline, "the match did not end in time"
        moved = take_turn(a) | take_turn(b)
        events = sum(1 for f in got["a"] if f["type"] == "event")
        if not shot and events > 20 and a.locator(".trick .played").count() >= 2:
            a.screenshot(path=str(Path(os.environ.get("MEIO_SHOT_DIR", "/tmp")) /
                                  "web-table.png"))
            shot = True
        if not reloaded and events > 30:
            b.reload()
            b.wait_for_selector("#hand .card, #match-over")
            reloaded = True
        if not moved:
            time.sleep(0.03)
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
    config = MatchConfig.from_dict(m.config)
    actions = [(e.seat, e.action) for e in store.events(match_id)]
    assert m.finished_at is not None
    assert assert_no_leak(config, actions, 0, got["a"]) > len(actions) // 2
    assert assert_no_leak(config, actions, 1, got["b"]) > len(actions) // 4
    ctx_a.close()
    ctx_b.close()
