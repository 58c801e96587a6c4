"""The livelier table (issue 40 §2) in Debian's Chromium: a fresh lead shown at once,
each seat's piles and card backs, the turn cues, and the table's pictures on a phone
and a desktop. One browser and one server for the module."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.pages import (
    instant,
    launch_chromium,
    new_table,
    open_seat,
    page_report,
    serve,
    take_turn,
    watch_console,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]
SHOTS = Path(os.environ.get("MEIO_SHOT_DIR", "/tmp"))

#: records, at every change of the status line, whether the page says "follow" while
#: the middle of the table still shows a finished trick (its winner ringed)
FOLLOW_SPY = """
window.meioFollow = { seen: {}, turns: 0, hidden: [] };
document.addEventListener('DOMContentLoaded', () => {
  const status = document.getElementById('status');
  new MutationObserver(() => {
    if (status.dataset.turn !== '1' || status.textContent !== 'Your turn: follow.') return;
    const shown = [...document.querySelectorAll('#trick .played')];
    const seq = document.getElementById('play').dataset.seq;
    const spy = window.meioFollow;
    if (!spy.seen[seq]) { spy.seen[seq] = 1; spy.turns += 1; }
    if (document.querySelector('#trick .played.winner') || shown.length === 0)
      window.meioFollow.hidden.push(shown.map(p => p.dataset.seat + ':' +
        p.querySelector('.card').dataset.card).join(' '));
  }).observe(status, { childList: true, characterData: true, subtree: true, attributes: true });
});
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    with serve(tmp_path_factory.mktemp("livelier") / "e2e.db") as found:
        yield found


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with launch_chromium() as b:
        yield b


def two_player_table(base: str, seed: int = 5) -> dict[str, Any]:
    return new_table(base, edition="classic", players=2, name="Ana", seed=seed,
                     seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])


def test_a_fresh_lead_is_shown_at_once_when_you_must_follow(
        site: tuple[str, Any], chromium: Any) -> None:
    base, _ = site
    table = two_player_table(base)
    ctx = chromium.new_context(viewport={"width": 1200, "height": 900})
    instant(ctx)
    # the normal pace: a finished trick stays 1.4 s; no wait between rounds
    ctx.add_init_script("localStorage.setItem('meio:pace', 'normal');"
                        " localStorage.setItem('meio:round-ms', '0');")
    ctx.add_init_script(FOLLOW_SPY)
    page = ctx.new_page()
    console = watch_console(page)
    try:
        open_seat(page, base, table)
        page.wait_for_selector('#prompt[data-kind="split"]')
        end = time.time() + 90
        # the bot leads right after each trick it wins (20 ms): each such follow counts
        while page.evaluate("() => window.meioFollow.turns") < 5:
            assert time.time() < end, "too few turns to follow"
            if not take_turn(page):
                time.sleep(0.03)
        hidden = page.evaluate("() => window.meioFollow.hidden")
        assert hidden == [], f"the board showed a finished trick, not the lead: {hidden}"
    except Exception as exc:
        raise AssertionError(f"{exc}\n{page_report('ana', page, console)}") from exc
    finally:
        ctx.close()


#: the page believes its tab is hidden (as when the player looks at another tab)
HIDDEN_TAB = """
Object.defineProperty(document, 'hidden',
  { configurable: true, get: () => window.meioHidden === true });
"""


def test_turn_cues_a_sound_switch_kept_and_the_tab_marked_while_hidden(
        site: tuple[str, Any], chromium: Any) -> None:
    base, _ = site
    table = two_player_table(base, seed=8)
    ctx = chromium.new_context(viewport={"width": 1200, "height": 900})
    instant(ctx)
    ctx.add_init_script(HIDDEN_TAB)
    page = ctx.new_page()
    console = watch_console(page)
    try:
        open_seat(page, base, table)
        page.wait_for_selector('#prompt[data-kind="split"]')
        # off by default; one press turns it on (with a chime), and it is remembered
        assert page.get_attribute("#sound", "aria-pressed") == "false"
        page.click("#sound")
        assert page.get_attribute("#sound", "aria-pressed") == "true"
        assert page.evaluate("() => localStorage.getItem('meio:sound')") == "1"
        page.reload()
        page.wait_for_selector('#prompt[data-kind="split"]')
        assert page.get_attribute("#sound", "aria-pressed") == "true"
        assert page.title() == "MEIO — table"
        # the tab is hidden: when the turn comes back, a chime, the title and the icon
        page.evaluate("() => { window.meioHidden = true; window.meioChimes = 0; }")
        take_turn(page)                                   # the split; the bot splits too
        page.wait_for_function("() => document.title.startsWith('● Your turn')", timeout=20000)
        assert page.evaluate("() => window.meioChimes") >= 1
        assert (page.get_attribute("link[rel=icon]", "href") or "").startswith("data:image/svg+xml")
        # back on the tab: the title and the icon as they were
        page.evaluate("() => { window.meioHidden = false;"
                      " document.dispatchEvent(new Event('visibilitychange')); }")
        assert page.title() == "MEIO — table"
        assert page.get_attribute("link[rel=icon]", "href") == "data:,"
        # a toast while the chat's input is in use (at the bottom of the screen) is
        # shown clear of it
        page.evaluate("() => document.getElementById('chat-text').scrollIntoView({block: 'end'})")
        page.focus("#chat-text")
        page.evaluate("async () => (await import('/static/js/api.js')).toast('A word')")
        overlap = page.evaluate("""() => {
            const a = document.getElementById('toast').getBoundingClientRect();
            const b = document.getElementById('chat-text').getBoundingClientRect();
            return a.left < b.right && b.left < a.right
              && a.top < b.bottom && b.top < a.bottom; }""")
        assert overlap is False
    except Exception as exc:
        raise AssertionError(f"{exc}\n{page_report('ana', page, console)}") from exc
    finally:
        ctx.close()


#: what the seats show, read from the page: per seat its backs, the number of cards it
#: says it holds, its live piles, and its box's width
SEATS = """() => [...document.querySelectorAll('.seatbox')].map(b => ({
  seat: Number(b.dataset.seat), backs: b.querySelectorAll('.backs .back').length,
  cards: Number((b.querySelector('.cards-left').textContent.match(/\\d+/) || [-1])[0]),
  live: [...b.querySelectorAll('.pile.live')].map(p => p.dataset.pile),
  stacks: [...b.querySelectorAll('.pile .stack')].map(s => s.children.length),
  piles: b.querySelector('.piles').dataset.piles,
  pos: [...b.classList].find(c => c.startsWith('seat-pos-')),
  width: Math.round(b.getBoundingClientRect().width) }))"""


#: how many tricks the seats' piles hold together
TRICKS_DONE = """() => [...document.querySelectorAll('.seatbox .piles')]
  .map(p => p.dataset.piles.split(',').map(Number)).flat().reduce((a, b) => a + b, 0)"""


@pytest.mark.parametrize(("device", "size"), [("desktop", (1280, 800)), ("phone", (390, 844))])
def test_the_table_mid_trick_shows_piles_backs_and_the_mover(
        site: tuple[str, Any], chromium: Any, device: str, size: tuple[int, int]) -> None:
    base, _ = site
    table = new_table(base, edition="meio", players=4, name="Ana", seed=11,
                      seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * 3)
    phone = device == "phone"
    ctx = chromium.new_context(viewport={"width": size[0], "height": size[1]},
                               is_mobile=phone, has_touch=phone)
    instant(ctx)
    page = ctx.new_page()
    console = watch_console(page)
    try:
        open_seat(page, base, table)
        page.wait_for_selector('#prompt[data-kind="split"]')
        # choosing the pack: the hand large, the pack built in the middle of the felt
        assert page.locator("#play.splitting .trick.packing .slot").count() == 6
        page.locator("#hand .card").nth(0).click()
        page.locator("#hand .card").nth(1).click()
        assert page.locator(".pack-build .card").count() == 2
        assert page.locator(".pack-build .slot").count() == 4
        hand_w = page.evaluate(
            "() => document.querySelector('#hand .card').getBoundingClientRect().width")
        page.locator("#hand .card").nth(0).click()
        page.locator("#hand .card").nth(1).click()
        end = time.time() + 90
        # play on until it is Ana's turn to follow in trick 4 or later
        while not (page.get_attribute("#status", "data-turn") == "1"
                   and page.locator("#trick .played").count() >= 2
                   and page.evaluate(TRICKS_DONE) >= 3):
            assert time.time() < end, "no trick to follow in time"
            if not take_turn(page, tap=phone):
                time.sleep(0.03)
        page.screenshot(path=str(SHOTS / ("web-table.png" if device == "desktop"
                                          else "web-table-phone.png")))
        assert page.locator("#play.splitting").count() == 0
        if phone:
            assert hand_w >= 46
        seats = page.evaluate(SEATS)
        for s in seats:
            # the others' hands as backs, as many as the cards they hold; not Ana's own
            assert s["backs"] == (0 if s["seat"] == 0 else s["cards"]), s
            # every seat's H pile is the one in play (the first half), its stack as tall
            # as its tricks
            assert s["live"] == ["1"], s
            assert ",".join(str(n) for n in s["stacks"]) == s["piles"], s
        widths = {s["pos"]: s["width"] for s in seats}
        assert abs(widths["seat-pos-left"] - widths["seat-pos-right"]) <= 2, widths
        # Ana is to move: her box says so
        assert page.locator(".seatbox[data-seat='0'].turn .to-move").count() == 1
        assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0]
    except Exception as exc:
        raise AssertionError(f"{exc}\n{page_report('ana', page, console)}") from exc
    finally:
        ctx.close()


#: the score sheet's first heading: its text and on how many lines it is drawn
SHEET_HEAD_LINES = """() => { const th = document.querySelector('#sheet table.sheet th');
  const r = document.createRange(); r.selectNodeContents(th);
  return [th.textContent, new Set([...r.getClientRects()].map(x => Math.round(x.top))).size]; }"""


def test_rodada_keeps_to_one_line_on_a_phones_score_sheet(
        site: tuple[str, Any], chromium: Any) -> None:
    """Issue 40 §2: the Portuguese sheet's first column read "rodad/a" on a phone
    (with the style sheet before, this measures two lines)."""
    base, _ = site
    table = new_table(base, edition="meio", players=4, name="Ana", seed=3,
                      seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * 3)
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True)
    instant(ctx, "pt_BR")
    page = ctx.new_page()
    console = watch_console(page)
    try:
        open_seat(page, base, table)
        page.wait_for_selector("#sheet table.sheet th")
        assert page.evaluate(SHEET_HEAD_LINES) == ["rodada", 1]
    except Exception as exc:
        raise AssertionError(f"{exc}\n{page_report('ana', page, console)}") from exc
    finally:
        ctx.close()


#: records each finished trick's slide: the rectangles the page measured (each card, and
#: the pile it aims at, caught as the page asks for them), where the page sends each card
#: (its transform), and which pile the label names at the seat ringed
SWEEP_SPY = """
window.meioSweeps = [];
const measure = Element.prototype.getBoundingClientRect;
const seen = new WeakMap();
let aimed = null;
Element.prototype.getBoundingClientRect = function () {
  const r = measure.call(this);
  if (this.classList?.contains('played')) seen.set(this, r);
  if (this.classList?.contains('stack')) { seen.set(this, r); aimed = this; }
  return r;
};
const centre = (r) => [r.left + r.width / 2, r.top + r.height / 2];
document.addEventListener('DOMContentLoaded', () => {
  new MutationObserver(() => {
    const trick = document.getElementById('trick');
    const cards = trick ? [...trick.querySelectorAll('.played.sweep')] : [];
    if (!cards.length || !aimed || cards.some(c => !seen.has(c))) return;
    const winner = trick.querySelector('.played.winner')?.dataset.seat;
    const label = document.getElementById('takes')?.textContent || '';
    const target = aimed;
    const from = cards.map(c => centre(seen.get(c)));
    requestAnimationFrame(() => window.meioSweeps.push({ winner, label,
      pile: /→ V/.test(label) ? '2' : '1',
      aimed: target.closest('.seatbox')?.dataset.seat + ':' + target.closest('.pile')?.dataset.pile,
      target: centre(seen.get(target)), from, moves: cards.map(c => c.style.transform) }));
  }).observe(document.body, { childList: true, subtree: true });
});
"""


def test_a_finished_trick_slides_onto_its_winners_pile(
        site: tuple[str, Any], chromium: Any) -> None:
    """Issue 40 §2: a finished trick moves to its winner's pile (the one its label
    names: H or V) at the normal pace, when no card is led meanwhile."""
    base, _ = site
    table = new_table(base, edition="meio", players=4, name="Ana", seed=11,
                      seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * 3)
    ctx = chromium.new_context(viewport={"width": 1280, "height": 800})
    instant(ctx)
    ctx.add_init_script("localStorage.setItem('meio:pace', 'normal');"
                        " localStorage.setItem('meio:round-ms', '0');")
    ctx.add_init_script(SWEEP_SPY)
    page = ctx.new_page()
    console = watch_console(page)
    try:
        open_seat(page, base, table)
        page.wait_for_selector('#prompt[data-kind="split"]')
        end = time.time() + 120
        # a trick slides away once held its time (1.4 s), unless the next card is led
        # before: so Ana leads only once the trick she won has gone
        while page.evaluate("() => window.meioSweeps.length") < 3:
            assert time.time() < end, "too few tricks slid away in time"
            if page.locator("#trick .played.winner").count() or not take_turn(page):
                time.sleep(0.03)
        sweeps = page.evaluate("() => window.meioSweeps")
        for sweep in sweeps:
            assert sweep["winner"] is not None and sweep["target"], sweep
            assert len(sweep["moves"]) == 4, sweep
            for (x, y), move in zip(sweep["from"], sweep["moves"], strict=True):
                # the browser writes "calc(-50% - 176.8px)" for the page's "+ -176.8px"
                found = re.fullmatch(r"translate\(calc\(-50% ([-+]) ([\d.e+-]+)px\), "
                                     r"calc\(-50% ([-+]) ([\d.e+-]+)px\)\) scale\(0?\.4\)",
                                     move)
                assert found, move
                dx = float(found[2]) * (-1 if found[1] == "-" else 1)
                dy = float(found[4]) * (-1 if found[3] == "-" else 1)
                # each card sent onto the centre of the pile the page aimed at
                assert abs(x + dx - sweep["target"][0]) < 1, sweep
                assert abs(y + dy - sweep["target"][1]) < 1, sweep
            # ... which is the pile the label names (H, or V: Q+'s too), at the seat ringed
            assert sweep["aimed"] == f"{sweep['winner']}:{sweep['pile']}", sweep
    except Exception as exc:
        raise AssertionError(f"{exc}\n{page_report('ana', page, console)}") from exc
    finally:
        ctx.close()
