"""Chat safety in Chromium: a player mutes another (this browser stops showing their
lines, until unmuted) and reports a line, which the server keeps for the operator."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.pages import instant, new_table, open_seat, page_report, watch_console

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def lines(page: Any) -> list[str]:
    return list(page.locator("#chat-log .chat-msg .text").all_text_contents())


def test_a_player_mutes_and_reports_another(server: tuple[str, Any], browser: Any) -> None:
    base, app = server
    table = new_table(base, players=2, name="Ana", seed=6,
                      seats=[{"kind": "human"}, {"kind": "human"}])
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    for ctx in (ctx_a, ctx_b):
        instant(ctx)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    console = {"a": watch_console(a), "b": watch_console(b)}
    try:
        open_seat(a, base, table)
        b.goto(base + table["invite_url"])
        b.fill("#join-name", "Bo")
        b.click("#join-go")
        for p in (a, b):
            p.wait_for_selector("#play:not(.hidden)")
        a.fill("#chat-text", "you play like a potato")
        a.click("#chat-send")
        b.wait_for_selector("#chat-log .chat-msg .report")
        # Ana's own line has neither button on her page
        assert a.locator("#chat-log .chat-act").count() == 0
        b.click("#chat-log .chat-msg .report")
        b.wait_for_function("() => (document.getElementById('toast')?.textContent || '')"
                            ".startsWith('Reported')")
        store = app.state.hub.store
        for _ in range(50):
            if store.reports():
                break
            b.wait_for_timeout(100)
        [kept] = store.reports()
        assert (kept.text, kept.author, kept.seat, kept.reporter_seat) == (
            "you play like a potato", "Ana", 0, 1)
        # Bo mutes Ana: her lines go, now and later, and after a reload
        b.click("#chat-log .chat-msg .mute")
        b.wait_for_selector(".muted-note")
        assert lines(b) == []
        a.fill("#chat-text", "still there?")
        a.click("#chat-send")
        a.wait_for_function("() => document.querySelectorAll('#chat-log .chat-msg').length === 2")
        b.wait_for_timeout(300)
        assert lines(b) == []
        b.reload()
        b.wait_for_selector(".muted-note")
        assert lines(b) == [] and "You muted Ana." in (b.text_content("#chat-log") or "")
        b.click(".muted-note .unmute")
        b.wait_for_function("() => document.querySelectorAll('#chat-log .chat-msg .text')"
                            ".length === 2")
        assert lines(b) == ["you play like a potato", "still there?"]
    except Exception as exc:
        report = "\n".join(page_report(n, p, console[n]) for n, p in (("a", a), ("b", b)))
        raise AssertionError(f"{exc}\n{report}") from exc
    finally:
        ctx_a.close()
        ctx_b.close()
