"""A turn-based table in Chromium: made in the lobby with a day to move, the page's
opt-in notification when it becomes your turn while the page is not in view, the
lobby's "Your turn" list, and the table's clock carried across a server restart."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import free_port
from tests.web.pages import instant, page_report, serve, take_turn, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

#: records every notification the page makes, and lets the test say the page is hidden
SPY = """
(() => {
  window.__notes = [];
  if (!('Notification' in window)) return;
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) { super(title, options); window.__notes.push(title); }
  };
  Object.defineProperty(Document.prototype, 'hidden', { get() { return !!window.__hidden; } });
})();
"""


def deadline_of(app: Any, table_id: str) -> float | None:
    room = app.state.hub.tables.get(table_id)
    return None if room is None else room.table.deadline()


def test_a_turn_based_table_notifies_lists_your_turn_and_keeps_its_clock_over_a_restart(
        browser: Any, tmp_path: Path) -> None:
    db, port = tmp_path / "turns.db", free_port()
    ctx_a = browser.new_context(permissions=["notifications"])
    ctx_b = browser.new_context()
    for ctx in (ctx_a, ctx_b):
        instant(ctx)
    ctx_a.add_init_script(SPY)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    console = {"a": watch_console(a), "b": watch_console(b)}
    with serve(db, port, lease_ttl_s=1.5) as (base, app):
        a.goto(base + "/")
        a.fill("#c-name", "Ana")
        a.select_option("#c-players", "2")
        a.select_option("#c-seat-1", "human")
        a.click("#more-options summary")
        a.select_option("#c-turn-based", "86400")
        a.click("#c-go")
        a.wait_for_url("**/t/*")
        table_id = a.url.split("/t/")[1].split("?")[0]
        a.wait_for_selector("#invite-link:not(:empty)")
        invite = a.text_content("#invite-link") or ""
        b.goto(invite)
        b.fill("#join-name", "Bo")
        b.click("#join-go")
        try:
            a.wait_for_selector('#prompt[data-kind="split"]')
            # a day to move, shown in hours
            a.wait_for_function("() => document.getElementById('timer').textContent"
                                ".startsWith('⏱ 23 h')")
            a.click("#notify")
            a.wait_for_selector('#notify[aria-pressed="true"]')
            assert take_turn(a)            # Ana splits; the page is then out of view
            a.evaluate("() => { window.__hidden = true; }")
            end = time.time() + 60
            while a.get_attribute("#status", "data-turn") != "1":
                assert time.time() < end, "Ana's turn never came"
                if not take_turn(b):
                    time.sleep(0.05)
            a.wait_for_function("() => window.__notes.length > 0")
            assert a.evaluate("() => window.__notes") == ["Your turn at MEIO"]
            # the lobby lists the table under "Your turn"
            lobby = ctx_a.new_page()
            lobby.goto(base + "/")
            lobby.wait_for_selector(f'#your-turn a[href="/t/{table_id}"]')
            lobby.close()
            before = deadline_of(app, table_id)
            assert before is not None and before > time.time() + 86000
        except Exception as exc:
            report = "\n".join(page_report(n, p, console[n]) for n, p in (("a", a), ("b", b)))
            raise AssertionError(f"{exc}\n{report}") from exc
    # the server stops and another starts on the same database and port: the page
    # reconnects, and the clock is the one it had
    with serve(db, port, lease_ttl_s=1.5) as (base, app):
        a.evaluate("() => { window.__hidden = false; }")
        a.wait_for_function("() => document.getElementById('conn').textContent"
                            ".startsWith('seat')", timeout=30000)
        end = time.time() + 20
        while deadline_of(app, table_id) is None:
            assert time.time() < end, "the table was not loaded after the restart"
            time.sleep(0.1)
        assert deadline_of(app, table_id) == pytest.approx(before, abs=1e-3)
        a.wait_for_function("() => document.getElementById('timer').textContent"
                            ".startsWith('⏱ 23 h')")
        assert a.get_attribute("#status", "data-turn") == "1"
    for ctx in (ctx_a, ctx_b):
        ctx.close()
