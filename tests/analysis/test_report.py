"""The HTML report opens in Chromium with no console errors and every plot drawn."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from meio.analysis import Run

CHROMIUM = "/usr/bin/chromium"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
#: every plot the report of a run of all six studies must hold
PLOTS = {"seats-score", "seats-match", "specials-score", "specials-wins", "specials-subsets",
         "skill-gap", "skill-share", "splits-share", "splits-hearts", "splits-high",
         "splits-specials", "rules-score",
         "rules-last", "rules-skill", "length-scores", "length-last"}


@pytest.mark.browser
def test_report_opens_offline_with_every_plot(small_run: tuple[Run, Path]) -> None:
    if not os.path.exists(CHROMIUM) or shutil.which("chromium") is None:
        if IN_CI:
            pytest.fail("Debian chromium is not installed: run scripts/system-deps.sh")
        pytest.skip("Debian chromium is not installed")
    from playwright.sync_api import sync_playwright

    report = small_run[1] / "report.html"
    text = report.read_text()
    assert "<script" not in text and 'href="http' not in text and 'src="http' not in text
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM,
                                     args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
        problems: list[str] = []
        requests: list[str] = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("request", lambda r: requests.append(r.url))
        page.goto(report.as_uri())
        plots: Any = page.eval_on_selector_all(
            "figure[data-plot]",
            "els => els.map(e => [e.dataset.plot, e.querySelector('svg') !== null,"
            " e.querySelector('svg').getBoundingClientRect().width])")
        overflow = page.evaluate("document.documentElement.scrollWidth")
        browser.close()
    assert problems == []
    assert requests == [report.as_uri()]
    assert {p[0] for p in plots} == PLOTS
    assert all(has_svg and 300 < width <= 390 for _, has_svg, width in plots)
    assert overflow <= 390  # the page fits a phone; wide tables scroll inside themselves


def _cells(page: str) -> list[str]:
    import re

    return re.findall(r"<td>(.*?)</td>", page)


def test_a_figure_on_too_few_games_is_named_so_and_not_drawn(
        summary: dict[str, Any]) -> None:
    import copy

    from meio.analysis.report import render

    page = render(summary)
    # the small run plays 6 duplicate deals a pair, as the search bot's pairs get 2
    pair = summary["studies"]["skill"]["meio-4p"]["pairs"]["heuristic-vs-random"]
    assert pair["weaker_minus_stronger"]["n"] == 6
    assert "too few games (n=6)" in page
    s = copy.deepcopy(summary)
    for key in ("weaker_minus_stronger", "skill_share"):
        s["studies"]["skill"]["meio-4p"]["pairs"]["heuristic-vs-random"][key]["n"] = 100
    enough = render(s)
    # a bar (a patch each) is drawn for the pair only once it rests on enough deals
    skill = lambda text: text.split('data-plot="skill-gap"')[1].split("</figure>")[0]  # noqa: E731
    assert skill(enough).count('id="patch_') > skill(page).count('id="patch_')


def test_every_cell_of_the_report_holds_at_most_one_interval(summary: dict[str, Any]) -> None:
    from meio.analysis.report import render

    page = render(summary)
    cells = _cells(page)
    assert cells
    several = [c for c in cells if c.count("[") > 1 and "·" not in c]
    assert several == []
    rules = page.split('id="rules"')[1].split("</section>")[0]
    assert all(c.count("[") <= 1 for c in _cells(rules))


def test_the_report_says_how_the_seats_are_tested_and_names_the_players(
        summary: dict[str, Any]) -> None:
    from meio.analysis.report import render

    page = render(summary)
    assert "p (seat effect)" in page and "p (match wins ≠ 1/N)" in page
    assert "permutation test" in page and "Bonferroni" in page
    assert "core heuristic" in page and "heuristic bot" in page
    assert "out of reach before it" in page and "shared victory" in page


def test_a_plot_label_gives_the_games_of_what_it_draws(summary: dict[str, Any]) -> None:
    import copy

    from meio.analysis.report import render

    s = copy.deepcopy(summary)
    pairs = s["studies"]["skill"]["meio-4p"]["pairs"]
    for key in ("weaker_minus_stronger", "skill_share"):
        pairs["heuristic-vs-random"][key]["n"] = 100
    pairs["search-vs-heuristic"] = copy.deepcopy(pairs["heuristic-vs-random"])
    for key in ("weaker_minus_stronger", "skill_share"):
        pairs["search-vs-heuristic"][key]["n"] = 2  # not drawn: too few deals
    plot = render(s).split('data-plot="skill-gap"')[1].split("</figure>")[0]
    assert "meio 4p (n=100)" in plot and "n=2" not in plot
    seats = render(s).split('data-plot="seats-score"')[1].split("</figure>")[0]
    # the axis starts at 0: its lowest tick is 0, whatever the seats' scores
    assert re.search(r">0\.0<", seats)  # a y tick (the x ticks are whole seats)


def test_the_most_skill_rewarding_set_names_the_players_it_is_judged_by(
        small_run: tuple[Run, Path], summary: dict[str, Any]) -> None:
    subsets = summary["studies"]["specials"]["meio-4p"]["subsets"]
    assert subsets["skill_players"] == ["random", "heuristic"]  # the spec's --bots
    text = (small_run[1] / "findings.md").read_text()
    assert "most skill-rewarding set (heuristic against random)" in text
