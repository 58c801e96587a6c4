"""The tuner: goals, a study that resumes to the same result after a kill, pruned
rulesets that do not hold together, the front and the re-evaluation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from meio.design.report import Plan
from meio.design.rulesets import DesignError
from meio.design.space import parse_vary
from meio.design.tune import Study, front, open_study, parse_goal, reevaluate, summary, tune
from meio.engine.ruleset_file import load_variant

from .conftest import MINI


def _study(*varies: str, goals: tuple[str, ...] = ("max depth", "min seat_gap")) -> Study:
    plan = Plan((MINI,), 2, "heuristic", ("random", "heuristic"), 12, (12,), 4)
    return Study(MINI, tuple(parse_vary(v) for v in varies),
                 tuple(parse_goal(g) for g in goals), plan, seed=4)


def _trials(s: Any) -> list[tuple[str, dict[str, Any], Any]]:
    return [(t.state.name, t.params, t.values) for t in s.get_trials()
            if t.state.name != "FAIL"]


VARY = ("special.Q+.value=10..14", "special.-2H.value=-4..4")


def test_goals_read_as_objectives_and_constraints() -> None:
    assert parse_goal("max depth").direction == "maximize"
    g = parse_goal("seat_gap<0.02")
    assert (g.figure, g.op, g.bound, g.violation(0.05)) == ("seat_gap", "<", 0.02,
                                                            pytest.approx(0.03))
    with pytest.raises(DesignError, match="unknown figure 'fun'"):
        parse_goal("max fun")
    with pytest.raises(DesignError, match="write 'min FIGURE'"):
        parse_goal("depth")
    with pytest.raises(DesignError, match="at least one goal to reach for"):
        _study(*VARY, goals=("seat_gap<0.1",)).check()


def test_a_seeded_study_resumes_to_the_same_result(tmp_path: Path) -> None:
    whole = tune(_study(*VARY), tmp_path / "whole", 5)
    # stopped after 3 trials, and killed while a fourth was running
    part = tune(_study(*VARY), tmp_path / "part", 3)
    part.ask()  # left RUNNING, as a kill leaves it
    resumed = tune(_study(*VARY), tmp_path / "part", 5)
    assert _trials(resumed) == _trials(whole)
    assert [t.state.name for t in resumed.get_trials()].count("FAIL") == 1
    assert [t.params for t in front(resumed, _study(*VARY))] == \
        [t.params for t in front(whole, _study(*VARY))]
    assert len({str(p) for _, p, _ in _trials(whole)}) > 1  # it did search


def test_another_search_in_the_same_folder_is_refused(tmp_path: Path) -> None:
    tune(_study(*VARY), tmp_path, 1)
    with pytest.raises(DesignError, match="other options"):
        open_study(_study("special.Q+.value=10..12"), tmp_path)


def test_a_ruleset_that_does_not_hold_together_is_pruned(tmp_path: Path) -> None:
    # mini's hand is 3 cards: a first half of 3 leaves a pack of 0, which cannot be
    s = tune(_study("hand.first_half=1..3", "special.Q+.value=10..14"), tmp_path, 6)
    pruned = [t for t in s.get_trials() if t.state.name == "PRUNED"]
    complete = [t for t in s.get_trials() if t.state.name == "COMPLETE"]
    assert pruned and complete
    assert all(t.params["hand.first_half"] == 3 for t in pruned)
    assert all(t.params["hand.first_half"] < 3 for t in complete)
    assert any("hand" in line for line in pruned[0].user_attrs["pruned"])


def test_every_trial_is_a_file_a_designer_can_open(tmp_path: Path) -> None:
    s = tune(_study(*VARY), tmp_path, 3)
    for t in s.get_trials():
        v = load_variant(tmp_path / "trials" / f"trial-{t.number:04d}.toml")
        q = next(c for c in v.specials if c.code == "Q+")
        assert q.values == (2 * t.params["special.Q+.value"],) * 2


def test_the_picks_are_played_again_on_fresh_deals(tmp_path: Path) -> None:
    study = _study(*VARY)
    s = tune(study, tmp_path, 4)
    picks = front(s, study)
    again = reevaluate(study, picks[:1], 12)
    row = again[0]["goals"][0]
    assert row["goal"] == "max depth"
    assert row["trial"]["value"] == picks[0].values[0]
    assert row["fresh"]["value"] is not None
    # the shrink is the drop toward worse: for a maximised figure, then minus now
    assert row["shrink"] == pytest.approx(row["trial"]["value"] - row["fresh"]["value"])
    data = summary(s, study, again)
    assert data["front"] == [t.number for t in picks]


def test_a_ruleset_tried_again_is_not_played_again_and_is_on_the_front_once(
        tmp_path: Path) -> None:
    study = _study("special.Q+.value=13..14")  # two rulesets only
    s = tune(study, tmp_path, 4)
    again = [t for t in s.get_trials() if "same_as" in t.user_attrs]
    assert again  # four trials of two rulesets
    for t in again:
        first = s.trials[t.user_attrs["same_as"]]
        assert t.params == first.params and t.values == first.values
    picks = front(s, study)
    assert len({t.params["special.Q+.value"] for t in picks}) == len(picks)


def test_a_study_seats_the_general_players_so_every_trial_has_the_same_player() -> None:
    """A trial whose rules happen to equal an edition's would get the editions' players
    under the plain names: a study plays every trial by the bots' general path."""
    plan = Plan((MINI,), 2, "search:1", ("random", "heuristic", "learned"), 12, (12, 12), 4)
    study = Study(MINI, (parse_vary("special.Q+.value=10..14"),),
                  (parse_goal("max depth"),), plan, seed=4)
    assert study.plan.player == "search:1-any"
    assert study.plan.ladder == ("random", "heuristic-any", "learned-any")
    assert study.plan.deals == 12 and study.plan.pair_deals == (12, 12)
