"""The report card of real games: known answers on the mini rulesets, the side-by-side
rows on the same deals, the plan within a budget, and the page in a browser."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from meio.design.report import Played, make_plan, summarise

from .conftest import MINI, NO_TRUMP

CHROMIUM = "/usr/bin/chromium"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
PLOTS = {"seats-from_leader", "seats-from_first", "seats-wins", "depth-steps", "depth-curve",
         "luck-shares", "specials-worth"}


def _row(entry: list[dict[str, Any]], key: str) -> dict[str, Any]:
    return next(r for r in entry if r["key"] == key)


def test_the_side_by_side_rows_find_the_handicap_the_rules_add(mini_pair: Played) -> None:
    s = summarise(mini_pair)
    seat_gap = _row(s["compare"], "seat_gap")
    diff = seat_gap["differences"][0]
    # without trumps the leader's handicap grows: a larger seat gap, worse for a designer
    assert diff["ci95"][0] > 0 and diff["verdict"] == "worse"
    # the heuristic beats random on both: depth in each, with n the deals it rests on
    for r in s["rulesets"]:
        gap = r["figures"]["depth"]["gap:random>heuristic"]
        assert gap["ci95"][0] > 0 and gap["n"] == 120
    assert s["matches"] == {"self_play": 240, "ladder": {"random>heuristic": 240},
                            "per_ruleset": 480}


def test_the_report_writes_its_three_files(mini_report: Path) -> None:
    data = json.loads((mini_report / "summary.json").read_text())
    assert [r["name"] for r in data["rulesets"]] == ["mini", "mini-no-trump"]
    md = (mini_report / "summary.md").read_text()
    assert "| seat gap: the largest seat edge (round's leader) |" in md
    assert "Side by side" in md and "worse" in md


def test_the_plan_picks_the_strongest_player_that_fits_the_time() -> None:
    seconds = {"random": 0.01, "heuristic": 0.01, "learned": 0.05, "search:1": 1.0,
               "search:2": 5.0}

    def timer(v: object, players: int, kind: str, partnership: bool) -> float:
        return seconds[kind]

    # mini is a variant: the network for any ruleset sits at it (learned plays it)
    plan = make_plan([MINI], 2, seconds=600, jobs=2, timer=timer)
    # half of 0.85 * 600 s * 2 workers: search:2 reaches 510 / (2 * 5 s) = 51 deals,
    # under 150; search:1 reaches 255
    assert plan.player == "search:1"
    # the seats' ±0.02 is out of reach (865 deals at 2 s): they get all the ladder's
    # floors leave, (1020 − 30 deals × 7.13 s) / 2 s, and each step its 30 deals
    assert plan.deals == 403 and plan.pair_deals == (30, 30, 30, 30)
    assert "learned" in plan.ladder
    assert any("the seats' edges reach about ±0.029" in n for n in plan.notes)
    assert any("search:1 → search:2 reaches about ±0.143" in n and "--time 65m" in n
               for n in plan.notes)
    # a network that reads the editions' cards leaves the ladder, with a note
    plan = make_plan([MINI], 2, ladder=("random", "heuristic", "ppo", "search:1"),
                     seconds=600, jobs=2, timer=timer)
    assert "ppo" not in plan.ladder and "search:1" in plan.ladder
    assert any("ppo is left out" in n for n in plan.notes)


def test_a_short_budget_falls_back_to_a_faster_player() -> None:
    seconds = {"random": 0.01, "heuristic": 0.01, "learned": 0.05, "search:1": 1.0,
               "search:2": 5.0}
    plan = make_plan([MINI, NO_TRUMP], 2, seconds=120, jobs=1,
                     timer=lambda v, n, kind, p: seconds[kind])
    # 0.5 * 102 s / 2 rulesets / (2 * 1 s) is under 150 deals for search:1 too; off the
    # editions the network for any ruleset trails the heuristic, so it is no candidate:
    # the heuristic (0.01 s a match) is named
    assert plan.player == "heuristic"
    assert plan.deals >= 150 and plan.pair_deals == (30, 30, 30, 30)
    assert any("named player: heuristic, the strongest of search:2, search:1, heuristic" in n
               for n in plan.notes)
    # on an edition the network is a candidate above search:1, and is named here
    from meio.design.rulesets import ruleset

    plan = make_plan([ruleset("meio")], 4, seconds=120, jobs=1,
                     timer=lambda v, n, kind, p: seconds[kind])
    assert plan.player == "learned"


@pytest.mark.browser
def test_the_report_reads_in_a_browser(mini_report: Path, tmp_path: Path) -> None:
    if not os.path.exists(CHROMIUM) or shutil.which("chromium") is None:
        if IN_CI:
            pytest.fail("Debian chromium is not installed: run scripts/system-deps.sh")
        pytest.skip("Debian chromium is not installed")
    from playwright.sync_api import sync_playwright

    report = mini_report / "report.html"
    text = report.read_text()
    assert "<script" not in text and 'src="http' not in text
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM,
                                     args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1000, "height": 900})
        problems: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(report.as_uri())
        plots: Any = page.eval_on_selector_all(
            "figure[data-plot]",
            "els => els.map(e => [e.dataset.plot, e.querySelector('svg')"
            ".getBoundingClientRect().width])")
        heading = page.inner_text("h1")
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        browser.close()
    assert problems == []
    assert heading == "Report card: mini vs mini-no-trump, 2 players"
    assert {p[0] for p in plots} == PLOTS
    assert all(width > 300 for _, width in plots)
    if os.environ.get("MEIO_KEEP_SCREENSHOT"):
        shutil.copy(tmp_path / "report.png", os.environ["MEIO_KEEP_SCREENSHOT"])


def test_a_deadline_keeps_whole_deals_from_the_first_and_says_so() -> None:
    from meio.design.report import Plan, run

    plan = Plan((MINI,), 2, "heuristic", ("random", "heuristic"), 30, (30,), 1)
    played = run(plan, deadline=0.0)  # stops after the first chunk back
    assert played.plan.deals == 30 and played.plan.ladder == ("random",)
    assert any("the time ran out: 30 of 30 deals" in n for n in played.plan.notes)
    assert any("the ladder stops at random" in n for n in played.plan.notes)
    assert all(t == {} or t["seat"]["deal"].max() < 30 for t in played.self_play)


def test_an_edition_beside_a_ruleset_of_its_own_is_played_by_the_general_players() -> None:
    """Side by side, the box edition and a variant get one player: the bots' general
    path on both (the -any names), never the editions' players on one side only."""
    from meio.design.rulesets import ruleset

    seconds = {"random": 0.01, "heuristic": 0.01, "learned": 0.05, "search:1": 1.0,
               "search:2": 5.0}

    def timer(v: object, players: int, kind: str, partnership: bool) -> float:
        return seconds[kind.removesuffix("-any")]

    six_seven = ruleset(str(Path(__file__).resolve().parents[2] / "examples" / "variants"
                            / "six-seven.toml"))
    plan = make_plan([ruleset("meio"), six_seven], 4, seconds=600, jobs=2, timer=timer)
    assert plan.ladder == ("random", "learned-any", "heuristic-any", "search:1-any",
                           "search:2-any")
    assert plan.player.endswith("-any")
    assert any("general path on both" in n for n in plan.notes)
    named = make_plan([ruleset("meio"), six_seven], 4, player="search:2", deals=4,
                      timer=timer)
    assert named.player == "search:2-any"
    # one edition alone, or two editions, keep the editions' own players
    alone = make_plan([ruleset("meio"), ruleset("classic")], 4, seconds=600, jobs=2,
                      timer=timer)
    assert alone.ladder == ("random", "heuristic", "search:1", "learned", "search:2")
    assert not any("general path" in n for n in alone.notes)
