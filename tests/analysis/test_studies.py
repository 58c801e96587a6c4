"""Each study on a small run: the figures it must give, and what they must say."""

from __future__ import annotations

from typing import Any

import pytest

from meio.analysis import AnalysisError, AnalysisSpec
from meio.analysis.plan import Table
from tests.analysis.conftest import SMALL

TABLES = {t.key for t in SMALL.tables()}


def test_the_small_run_covers_every_table_of_the_spec(summary: dict[str, Any]) -> None:
    assert {"meio-2p", "meio-4p", "meio-4p-team", "classic-2p", "classic-4p",
                      "classic-4p-team"} == TABLES
    for study in ("seats", "splits", "length"):
        assert set(summary["studies"][study]) == TABLES, study
    # a MEIO 4-player table is split into one cell per set of 4 specials (5 of them)
    cells = [k for k in summary["games"] if k.startswith("meio-4p.") and
             k.endswith(".heuristic")]
    assert len(cells) == 5 and all(summary["games"][k] == 60 for k in cells)


def test_seats_gives_one_figure_per_seat_and_rates_that_add_up(
        summary: dict[str, Any]) -> None:
    for key, e in summary["studies"]["seats"].items():
        players = int(key.split("-")[1][0])
        assert len(e["score_by_leader_offset"]) == players
        wins = [x["value"] for x in e["round_win_by_leader_offset"]]
        if "team" in key:
            assert sum(wins) == pytest.approx(2.0)  # both seats of the winning team
        else:
            assert sum(wins) == pytest.approx(1.0)  # shared wins split
        for x in e["score_by_leader_offset"]:
            lo, hi = x["ci95"]
            assert lo <= x["value"] <= hi and x["n"] == e["games"]


def test_specials_covers_every_card_with_its_halves(summary: dict[str, Any]) -> None:
    spec = summary["studies"]["specials"]
    assert set(spec) == {"meio-2p", "meio-4p", "meio-4p-team"}  # classic has none
    for e in spec.values():
        assert set(e["cards"]) == {"-1", "A+", "-2H", "+.5", "Q+"}
        for card in e["cards"].values():
            assert 0 <= card["wins_its_trick"]["value"] <= 1
            assert 0 <= card["share_kept_second_half"]["value"] <= 1
    subsets = spec["meio-2p"]["subsets"]
    assert len(subsets["sets"]) == 10  # C(5, 2)
    names = {s["specials"] for s in subsets["sets"]}
    for kind in ("balance_rank", "skill_rank"):
        shares = [s[kind]["p_first"] for s in subsets["sets"]]
        assert sum(shares) == pytest.approx(1.0, abs=1e-3)
        for s in subsets["sets"]:
            lo, hi = s[kind]["rank_ci95"]
            assert 1 <= lo <= hi <= 10
    # 30 games a set cannot tell ten sets apart: no winner is named, only candidates
    assert subsets["most_balanced"] is None
    assert set(subsets["balanced_candidates"]) <= names
    assert len(subsets["balanced_candidates"]) > 1
    for s in subsets["sets"]:  # the seat gap's interval holds its own estimate
        gap = s["seat_gap"]
        assert gap["ci95"][0] <= gap["value"] <= gap["ci95"][1]


def test_skill_finds_the_heuristic_beats_random(summary: dict[str, Any]) -> None:
    skill = summary["studies"]["skill"]
    assert set(skill) == TABLES
    for e in skill.values():
        pair = e["pairs"]["heuristic-vs-random"]
        assert pair["weaker_minus_stronger"]["n"] == 6  # 300 games / 50 deals
        assert 0 <= pair["skill_share"]["value"] <= 1
    # pooled over the tables the heuristic is clearly better (lower scores)
    gaps = [e["pairs"]["heuristic-vs-random"]["weaker_minus_stronger"]["value"]
            for e in skill.values()]
    assert sum(gaps) / len(gaps) > 0.2


def test_splits_shares_and_distributions(summary: dict[str, Any]) -> None:
    for key, e in summary["studies"]["splits"].items():
        assert sum(e["hearts"]["pack_count_distribution"]) == pytest.approx(1.0, abs=1e-5)
        assert ("specials" in e) == key.startswith("meio")
        assert 0 < e["hearts"]["share_to_second_half"]["value"] < 1


def test_length_distributions_and_match_formats(summary: dict[str, Any]) -> None:
    length = summary["studies"]["length"]
    # 4 players: always 3 rounds; 2-player classic: 3 rounds on totals; 2-player MEIO and
    # partnership: first to 2 victories, so 2 or 3 rounds
    assert length["meio-4p"]["match_rounds_distribution"] == [0.0, 0.0, 1.0]
    assert length["classic-2p"]["match_rounds_distribution"] == [0.0, 0.0, 1.0]
    two = length["meio-2p"]["match_rounds_distribution"]
    assert two[0] == 0 and two[1] > 0 and two[2] > 0
    # a first-to-2 match is decided in its last round exactly when it goes to 3 rounds
    assert length["meio-2p"]["decided_in_last_round"]["value"] == pytest.approx(two[2])
    for e in length.values():
        assert sum(e["round_score_distribution"]) == pytest.approx(1.0, abs=1e-5)


def test_rules_sets_each_reading_beside_the_default(summary: dict[str, Any]) -> None:
    rules = summary["studies"]["rules"]
    assert set(rules) == TABLES
    meio4 = rules["meio-4p"]["variants"]
    readings = {v["label"] for v in meio4.values()}
    assert any("wild lead next" in r for r in readings)
    assert any("specials hidden" in r for r in readings)
    for v in meio4.values():
        if "wild lead" in v["label"] or "hidden" in v["label"]:
            assert "score_change" in v  # compared with a default played the same way
        assert set(v["specials"]) == {"-1", "A+", "-2H", "+.5", "Q+"}  # each card's effect
    assert set(rules["classic-4p"]["variants"]) == {"classic-4p"}  # no option applies
    fmt = rules["classic-2p"]["format"]
    assert fmt["three_round_matches"] == 300 and 0 <= fmt["winners_differ"]["value"] <= 1


def test_rules_gives_the_split_and_skill_studies_under_each_reading(
        summary: dict[str, Any]) -> None:
    rules, found = summary["studies"]["rules"], summary["studies"]
    for key in TABLES:
        base = rules[key]["variants"][key]  # the default reading, played by the core
        # the same games as the splits study's: the same figures
        for name, x in base["second_half_share"].items():
            assert x == found["splits"][key][name]["share_to_second_half"], (key, name)
        # the default reading's skill gap is the skill study's (the same duplicate deals)
        gap = rules[key]["skill"][key]
        assert gap["weaker_minus_stronger"] == \
            found["skill"][key]["pairs"]["heuristic-vs-random"]["weaker_minus_stronger"]
    skill4 = rules["meio-4p"]["skill"]
    assert set(skill4) == {"meio-4p", "meio-4p-next", "meio-4p-hidden"}
    ref = skill4["meio-4p"]["weaker_minus_stronger"]["value"]
    for key in ("meio-4p-next", "meio-4p-hidden"):
        e = skill4[key]
        assert e["weaker_minus_stronger"]["value"] > 0  # the heuristic still beats random
        assert e["change"]["value"] == pytest.approx(
            e["weaker_minus_stronger"]["value"] - ref, abs=1e-5)
    hidden = rules["meio-4p"]["variants"]["meio-4p-hidden@engine"]  # the engine plays it
    assert set(hidden["second_half_share"]) == {"hearts", "high", "specials"}
    assert "specials" not in rules["classic-4p"]["variants"]["classic-4p"]["second_half_share"]


def test_bad_requests_are_clear_errors() -> None:
    with pytest.raises(AnalysisError, match="unknown study"):
        AnalysisSpec(questions=("luck",))
    with pytest.raises(AnalysisError, match="classic is for 2 to 4"):
        AnalysisSpec(questions=("seats",), players=(5,), editions=("classic",))
    with pytest.raises(AnalysisError, match="policy"):
        AnalysisSpec(questions=("seats",), policy="oracle")


def test_rule_tables_leave_out_readings_that_change_nothing() -> None:
    spec = AnalysisSpec(questions=("rules",), players=(3, 5), editions=("meio", "classic"))
    keys = {t.key for t in spec.rule_tables()}
    assert keys == {"meio-3p", "meio-3p-next", "meio-3p-hidden", "meio-5p", "meio-5p-next",
                    "classic-3p"}
    assert Table("meio", 4, True, "next", False).key == "meio-4p-team-next-hidden"


def test_rate_intervals_stay_between_0_and_1(summary: dict[str, Any]) -> None:
    for e in summary["studies"]["seats"].values():
        for x in e["match_win_by_first_leader_offset"] + e["round_win_by_leader_offset"]:
            assert 0.0 <= x["ci95"][0] <= x["value"] <= x["ci95"][1] <= 1.0
    for e in summary["studies"]["skill"].values():
        for pair in e["pairs"].values():
            for x in pair["match_win"].values():
                assert 0.0 <= x["ci95"][0] <= x["ci95"][1] <= 1.0


def test_each_reading_is_played_where_it_is_played_faithfully() -> None:
    from meio.analysis.play import core_plays

    hidden = Table("meio", 3, reveal_specials=False)
    assert core_plays(hidden, "random")  # random play knows nothing to hide
    assert not core_plays(hidden, "heuristic")  # the core's heuristic knows the deck
    assert core_plays(Table("meio", 3, wild_lead="next"), "heuristic")
    assert not core_plays(Table("meio", 3), "search")
