"""Accessibility, checked by axe-core in Debian's Chromium: no serious or critical
violation on the lobby, the tutorial, the history and the table in every phase (the
split, a trick, the +½ pile choice, a round's summary, the match's end), and a focus
ring that is not the mark of a selected card. On the way, the history's replay of the
match played: its deal, its split and its tricks, with the hands."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.pages import (
    axe_path,
    axe_problems,
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
#: a 2-player deal where the bot leads trick 1 and Ana holds +½ (she wins it by following)
PILE_SEED = 5


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    with serve(tmp_path_factory.mktemp("a11y") / "e2e.db") as found:
        yield found


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    axe_path()
    with launch_chromium() as b:
        yield b


def follow_with_half(page: Any) -> bool:
    """Play +½ when it may follow (it then wins: it is worth the card before plus ½)."""
    if page.get_attribute("#status", "data-turn") != "1":
        return False
    half = page.locator('#hand .card[data-card="+.5"][data-legal="1"]')
    if page.locator(".trick .played").count() and half.count():
        half.click()
        return True
    return take_turn(page)


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_the_table_in_every_phase_has_no_serious_violation(
        site: tuple[str, Any], chromium: Any, lang: str) -> None:
    base, _ = site
    table = new_table(base, players=2, name="Ana", seed=PILE_SEED, specials=["+.5", "Q+"],
                      seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    ctx = chromium.new_context(viewport={"width": 1200, "height": 900})
    instant(ctx, lang)
    page = ctx.new_page()
    console = watch_console(page)
    problems: list[str] = []
    try:
        open_seat(page, base, table)
        page.wait_for_selector('#prompt[data-kind="split"]')
        problems += axe_problems(page, "split")
        cards = page.locator("#hand .card")
        for i in range(6):
            cards.nth(i).click()
        problems += axe_problems(page, "split, 6 selected")
        page.click("#split-go")
        page.wait_for_selector('#status[data-turn="1"]')
        problems += axe_problems(page, "a trick")
        page.evaluate("() => localStorage.setItem('meio:round-ms', '60000')")
        seen: set[str] = set()
        deadline = time.time() + 120
        while "over" not in seen:
            assert time.time() < deadline, f"the match did not end in time (saw {seen})"
            if page.is_visible('#prompt[data-kind="pile"]') and "pile" not in seen:
                seen.add("pile")
                problems += axe_problems(page, "the pile choice")
            if page.is_visible("#summary-close"):
                if "summary" not in seen:
                    seen.add("summary")
                    problems += axe_problems(page, "a round's summary")
                page.click("#summary-close")
            if page.is_visible("#match-over"):
                seen.add("over")
                problems += axe_problems(page, "the match's end")
            elif not follow_with_half(page):
                time.sleep(0.03)
        assert seen == {"pile", "summary", "over"}
        # the history, with the replay of this match open
        page.goto(f"{base}/history#{page.get_attribute('#play', 'data-match')}")
        page.wait_for_selector("#viewer:not(.hidden)")
        problems += axe_problems(page, "the history")
        # the replay steps through the deal, the split, then the tricks, every hand shown
        steps = []
        for _ in range(3):
            steps.append(page.evaluate("""() => ({
                where: document.getElementById('v-where').textContent,
                hands: [...document.querySelectorAll('.v-hand')].map(h =>
                  h.querySelectorAll('.card').length),
                packed: document.querySelectorAll('.v-hand .card.packed').length,
                trick: document.querySelectorAll('#v-trick .card').length })"""))
            page.click("#v-next")
        problems += axe_problems(page, "the replay of a trick")
    except Exception as exc:
        raise AssertionError(f"{exc}\n{page_report('a11y', page, console)}") from exc
    ctx.close()
    assert not problems, "\n".join(problems)
    assert [(s["hands"], s["packed"], s["trick"]) for s in steps] == [
        ([13, 13], 0, 0), ([13, 13], 12, 0), ([6, 6], 0, 2)]
    if lang == "en":
        assert steps[0]["where"].startswith("round 1: the deal (1/")
        assert steps[1]["where"].startswith("round 1: the split (2/")
        assert steps[2]["where"].startswith("round 1, trick 1 of 13 (3/")


@pytest.mark.parametrize("lang", ["en", "pt_BR"])
def test_the_lobby_and_every_step_of_the_tutorial_have_no_serious_violation(
        site: tuple[str, Any], chromium: Any, lang: str) -> None:
    base, _ = site
    ctx = chromium.new_context(viewport={"width": 1200, "height": 900})
    instant(ctx, lang)
    page = ctx.new_page()
    problems: list[str] = []
    page.goto(base + "/")
    page.wait_for_selector("#c-seat-1")
    problems += axe_problems(page, "the lobby")
    page.goto(base + "/learn")
    page.wait_for_selector("#lesson-title:not(:empty)")
    for _ in range(40):
        step = page.get_attribute("#lesson-step", "data-step")
        problems += axe_problems(page, f"tutorial step {step}")
        if page.is_visible("#lesson-play"):
            break
        kind = page.get_attribute("#prompt", "data-kind")
        if kind == "split":
            for card in page.locator("#hand .card.hint").all():
                card.click()
            page.click("#split-go")
        elif kind == "pile":
            page.locator(".pile-choice").first.click()
        elif kind == "declare":
            page.locator(".declare-suit:not([disabled])").click()
        elif page.is_visible("#lesson-next"):
            page.click("#lesson-next")
        else:
            page.locator('#hand .card[data-legal="1"]').click()
    else:
        raise AssertionError("the tutorial never reached its last step")
    ctx.close()
    assert not problems, "\n".join(problems)


def test_the_focus_ring_differs_from_the_mark_of_a_selected_card(
        site: tuple[str, Any], chromium: Any) -> None:
    base, _ = site
    table = new_table(base, players=2, name="Ana", seed=PILE_SEED, specials=["+.5", "Q+"],
                      seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    ctx = chromium.new_context(viewport={"width": 1200, "height": 900})
    instant(ctx)
    page = ctx.new_page()
    open_seat(page, base, table)
    page.wait_for_selector('#prompt[data-kind="split"]')
    looks = """(sel) => { const e = document.querySelector(sel); const s = getComputedStyle(e);
        const mark = getComputedStyle(e, '::after');
        return { outline: s.outlineStyle + ' ' + s.outlineColor, shadow: s.boxShadow,
                 mark: mark.content, raised: s.transform } }"""
    first = "#hand .card:nth-child(1)"
    page.click(first)               # selected, and then focused from the keyboard
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    selected_focused = page.evaluate(looks, first)
    second = "#hand .card:nth-child(2)"
    page.keyboard.press("ArrowRight")
    focused = page.evaluate(looks, second)
    selected = page.evaluate(looks, first)
    # a raised card stays clear of the line above the hand
    clear = page.evaluate("""(sel) => document.querySelector(sel).getBoundingClientRect().top
        >= document.getElementById('trick-label').getBoundingClientRect().bottom""", first)
    ctx.close()
    assert clear, "a selected card covers the trick label"
    # a selected card carries a mark of its own (not only a colour) and is raised
    assert selected["mark"] not in ("none", "normal", "") and selected["raised"] != "none"
    assert focused["mark"] in ("none", "normal", "")
    # the focus ring is an outline, the selection a ring of another colour
    assert focused["outline"].startswith("solid") and not selected["outline"].startswith("solid")
    assert selected_focused["outline"].startswith("solid")
    assert focused["outline"].split(" ", 1)[1] not in selected["shadow"]
