"""Helpers of the browser tests: driving a table page and explaining a failure."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest


def watch_console(page: Any) -> list[str]:
    """Collect a page's console messages and uncaught errors (for failure reports)."""
    lines: list[str] = []
    page.on("console", lambda m: lines.append(f"console.{m.type}: {m.text}"))
    page.on("pageerror", lambda e: lines.append(f"pageerror: {e}"))
    return lines


def page_report(name: str, page: Any, console: list[str]) -> str:
    """What a page shows and logged: to explain a failed browser test."""
    def text(selector: str) -> str:
        try:
            return str(page.evaluate(
                "(s) => { const e = document.querySelector(s); return e ? e.textContent : '-' }",
                selector))
        except Exception as exc:  # a closed or navigating page says why
            return f"<{exc.__class__.__name__}>"

    try:
        seen = page.evaluate("() => ({...document.getElementById('play')?.dataset})")
    except Exception as exc:
        seen = f"<{exc.__class__.__name__}>"
    return (f"--- page {name}: {page.url}\n"
            f"connection: {text('#conn')!r}  status: {text('#status')!r}  seen: {seen}\n"
            f"prompt: {text('#prompt')!r}\nhand: {text('#hand')!r}\n"
            f"log (end): {text('#log')[-600:]!r}\n"
            "console:\n  " + "\n  ".join(console[-30:]))


def instant(context: Any, lang: str | None = "en") -> None:
    """Pages of this browser context play without pauses (a finished trick leaves the
    table at once, no round summary waits) and in ``lang`` (None: the browser's)."""
    choose = "" if lang is None else f" localStorage.setItem('meio:lang', '{lang}');"
    # set once per browser context: a page may change them afterwards
    context.add_init_script(
        "if (!sessionStorage.getItem('meio:test-init')) {"
        " sessionStorage.setItem('meio:test-init', '1');"
        f" localStorage.setItem('meio:pace', 'instant');{choose}"
        "}")


def new_table(base: str, **body: Any) -> dict[str, Any]:
    """Create a table over HTTP (fixed seeds are allowed by the test server)."""
    r = httpx.post(f"{base}/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def open_seat(page: Any, base: str, table: dict[str, Any]) -> None:
    """Give the page's browser the seat token of ``table`` (as the lobby would) and open it."""
    page.goto(base + "/history")
    seat = {"token": table["token"], "seat": table["seat"], "name": "Ana",
            "invite": table["invite"], "spectate": table["spectate"]}
    page.evaluate("([id, seat]) => localStorage.setItem('meio:seats', "
                  "JSON.stringify({[id]: seat}))", [table["table_id"], seat])
    page.goto(f"{base}/t/{table['table_id']}")


def take_turn(page: Any, *, tap: bool = False) -> bool:
    """If it is this page's turn, make a legal move with clicks (or taps); True if it did."""
    def press(locator: Any) -> None:
        locator.tap() if tap else locator.click()

    if page.get_attribute("#status", "data-turn") != "1":
        return False
    kind = page.get_attribute("#prompt", "data-kind") if page.is_visible("#prompt") else None
    if kind == "split":
        cards = page.locator("#hand .card")
        # the pack's size is the table's (a variant's may not be 6)
        for i in range(int(page.get_attribute("#prompt", "data-pack") or 6)):
            press(cards.nth(i))
        press(page.locator("#split-go"))
    elif kind == "pile":
        press(page.locator(".pile-choice").first)
    elif kind == "declare":
        press(page.locator(".declare-suit").first)
    else:
        legal = page.locator('#hand .card[data-legal="1"]')
        if legal.count() == 0:
            return False
        press(legal.first)
        if page.is_visible(".declare-suit"):
            press(page.locator(".declare-suit").first)
    return True


@contextmanager
def serve(db: Path, port: int | None = None, **settings: Any) -> Iterator[tuple[str, Any]]:
    """A real uvicorn server (SQLite at ``db``, fast bots, and ``settings``) in a thread,
    for a whole test module, on ``port`` (a free one by default: give the same one to
    restart a server where its pages reconnect); yields ``(base URL, app)``."""
    import uvicorn

    from meio.web import create_app
    from tests.web.conftest import free_port, make_settings

    app = create_app(make_settings(f"sqlite:///{db}", **{"bot_delay_s": 0.02, **settings}))
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port or free_port(),
                                        log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    while not srv.started:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{srv.config.port}", app
    finally:
        srv.should_exit = True
        thread.join(10)


@contextmanager
def launch_chromium() -> Iterator[Any]:
    """Debian's Chromium through Playwright, for a whole test module (skipped where it
    is missing, except in CI)."""
    from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, IN_CI

    if not os.path.exists(CHROMIUM):
        if IN_CI:
            pytest.fail("Debian chromium is not installed: run scripts/system-deps.sh")
        pytest.skip("Debian chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def played_card_issues(page: Any) -> list[str]:
    """What is wrong with the cards on the table: a card drawn faded, one that overlaps
    a name box or another card (empty when nothing is)."""
    out: list[str] = page.evaluate("""() => {
        const boxes = [...document.querySelectorAll('.seatbox')]
          .map(b => [b.dataset.seat, b.getBoundingClientRect()]);
        const out = [];
        for (const c of document.querySelectorAll('.trick .played .card')) {
          const r = c.getBoundingClientRect();
          if (getComputedStyle(c).opacity !== '1') out.push(`${c.dataset.card} is faded`);
          for (const [seat, b] of boxes)
            if (r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom)
              out.push(`${c.dataset.card} overlaps the name box of seat ${seat}`);
          for (const o of document.querySelectorAll('.trick .played .card')) {
            const q = o.getBoundingClientRect();
            if (o !== c && r.left < q.right && q.left < r.right
                && r.top < q.bottom && q.top < r.bottom)
              out.push(`${c.dataset.card} covers ${o.dataset.card}`);
          }
        }
        return out; }""")
    return out


#: axe-core, installed from tests/web/a11y/package-lock.json (``make browser-tools``)
AXE = Path(__file__).with_name("a11y") / "node_modules" / "axe-core" / "axe.min.js"


def axe_path() -> Path:
    """Where axe-core is (skips the test where it is not installed, except in CI)."""
    from tests.web.conftest import IN_CI

    if not AXE.exists():
        if IN_CI:
            pytest.fail("axe-core is not installed: run make browser-tools")
        pytest.skip("axe-core is not installed (npm ci --prefix tests/web/a11y)")
    return AXE


def axe_problems(page: Any, where: str, impacts: tuple[str, ...] = ("serious", "critical")
                 ) -> list[str]:
    """What axe-core finds on the page as it is now, at ``impacts`` (one line per rule
    and element; empty when nothing)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # evaluated, not added as a script tag: the pages' CSP allows only their own
        page.evaluate(axe_path().read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
          const res = await axe.run(document, { resultTypes: ['violations'] });
          return res.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => n.target.join(' ') + ': ' + (n.failureSummary || '')
              .replace(/\\s+/g, ' ').slice(0, 160)) }));
        }""")
    return [f"{where}: {v['impact']} {v['id']} ({v['help']}) at {node}"
            for v in found if v["impact"] in impacts for node in v["nodes"][:4]]
