"""The lab's statistics on data whose truth is known: the seat test holds its level
and finds a real effect, spreads get intervals that hold their estimate, rankings
name no winner the data cannot separate, the new length figures match a recount,
and the saved chunks are small."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meio.analysis import Run, read_table
from meio.analysis.frame import Frame
from meio.analysis.stats import cluster_mean, permutation_test, range_interval
from meio.analysis.studies import decided_before_last, rank_by_draws, swing_bound


def _spread(m: np.ndarray) -> float:
    return float(m.max() - m.min())


def _rounds(rng: np.random.Generator, n: int, effect: float) -> np.ndarray:
    """``n`` rounds of 5 seats' scores; the last seat scores ``effect`` more."""
    scores = rng.integers(0, 4, (n, 5)).astype(np.float64)
    scores[:, -1] += effect
    return scores


def test_the_seat_test_rejects_a_fair_table_about_one_time_in_twenty() -> None:
    rng = np.random.default_rng(7)
    trials = 60
    rejected = sum(permutation_test(_rounds(rng, 150, 0.0), _spread, reps=199, seed=i) < 0.05
                   for i in range(trials))
    assert rejected <= 9  # 3 expected; the plain interval of worst − best below does far worse
    naive = 0
    for _ in range(trials):
        m = _rounds(rng, 150, 0.0)
        means = m.mean(0)
        worst, best = int(means.argmax()), int(means.argmin())
        diff = cluster_mean(m[:, worst] - m[:, best], np.arange(len(m)))
        naive += diff.significant
    assert naive > 2 * max(rejected, 1)


def test_the_seat_test_finds_a_real_seat_effect() -> None:
    rng = np.random.default_rng(8)
    found = sum(permutation_test(_rounds(rng, 300, 0.4), _spread, reps=199, seed=i) < 0.05
                for i in range(20))
    assert found >= 18


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 6), min_size=3, max_size=3), min_size=2,
                max_size=40))
def test_a_spread_interval_always_holds_its_estimate(rows: list[list[int]]) -> None:
    m = np.array(rows, dtype=np.float64)
    e = range_interval(m, np.arange(len(m)))
    assert e.low <= e.value <= e.high
    assert e.low >= 0


def test_a_ranking_names_a_winner_only_when_the_data_separate_it() -> None:
    rng = np.random.default_rng(3)
    clear = {"a": rng.normal(0.01, 0.002, 400), "b": rng.normal(0.05, 0.002, 400),
             "c": rng.normal(0.06, 0.002, 400)}
    ranked = rank_by_draws(clear, lowest=True)
    assert ranked["winner"] == "a" and ranked["candidates"] == ["a"]
    assert ranked["sets"]["a"]["rank_ci95"] == [1, 1]
    tied = {k: rng.normal(0.03, 0.01, 400) for k in "abc"}
    ranked = rank_by_draws(tied, lowest=True)
    assert ranked["winner"] is None and set(ranked["candidates"]) == {"a", "b", "c"}


def _cols(run: tuple[Run, Path]) -> dict[str, np.ndarray]:
    frame = read_table(run[1] / "games.parquet")
    return {key: frame[key] for key in frame.cols}


@pytest.mark.parametrize("table", ["meio-4p", "classic-4p"])
def test_shared_victories_and_early_decisions_match_a_recount(
        small_run: tuple[Run, Path], summary: dict[str, Any], table: str) -> None:
    cols = _cols(small_run)
    m = (cols["table"] == table) & (cols["policy"] == "heuristic") & ~cols["engine"]
    games: dict[tuple[str, int], list[int]] = {}
    for i in np.nonzero(m)[0]:
        games.setdefault((str(cols["cell"][i]), int(cols["game"][i])), []).append(i)
    shared = decided = 0
    piles = decisions = 0.0
    # what one side gains on another in a round, every pair of sides of every round
    swings = []
    for rows in games.values():
        for r in {int(cols["round"][i]) for i in rows}:
            scores = [int(cols["side_score"][i]) for i in rows if cols["round"][i] == r]
            swings += [abs(a - b) for j, a in enumerate(scores) for b in scores[j + 1:]]
    reach = sorted(swings)[int(np.ceil(0.95 * (len(swings) - 1)))]
    for rows in games.values():
        first = [i for i in rows if cols["round"][i] == 0]
        shared += sum(0 < cols["match_win"][i] < 1 for i in first) > 0
        last = [i for i in rows if cols["round"][i] == cols["rounds"][i] - 1]
        before = sorted(int(cols["total"][i]) - int(cols["side_score"][i]) for i in last)
        # out of reach: the leader was further ahead than a side gains in 95% of rounds
        decided += before[1] - before[0] > reach
        rounds = int(cols["rounds"][rows[0]])
        plus_half = sum(bool(cols["won_specials"][i] & 8) for i in rows)
        piles += plus_half
        decisions += rounds * 14 + plus_half / 4
    length = summary["studies"]["length"][table]
    assert length["shared_victory"]["value"] == pytest.approx(shared / len(games), abs=1e-6)
    assert length["out_of_reach_lead"] == reach
    assert length["decided_before_last_round"]["value"] == pytest.approx(
        decided / len(games), abs=1e-6)
    assert length["decisions_per_player"]["value"] == pytest.approx(
        decisions / len(games), abs=1e-6)
    assert length["minutes_per_match"]["value"] > 0
    if table == "meio-4p":
        assert piles > 0  # the pile choices of +.5 are counted
    else:
        assert piles == 0


def test_a_match_is_decided_early_only_when_no_last_round_could_catch_the_leader() -> None:
    # two 3-player matches of 3 rounds; only the last round's rows matter: the totals
    # before it are [0, 10, 12] (decided: 10 > 9) and [0, 9, 12] (9 can still be caught)
    rows: dict[str, list[int]] = {"cluster": [], "round": [], "rounds": [], "seat": [],
                                  "total": [], "side_score": []}
    for game, before in enumerate(([0, 10, 12], [0, 9, 12])):
        for seat, b in enumerate(before):
            for key, value in (("cluster", game), ("round", 2), ("rounds", 3),
                               ("seat", seat), ("total", b + 1), ("side_score", 1)):
                rows[key].append(value)
    frame = Frame({k: np.array(v) for k, v in rows.items()})
    assert decided_before_last(frame, 3, 9).tolist() == [1.0, 0.0]


def test_a_lead_beyond_what_a_round_swings_is_out_of_reach_and_the_figure_moves() -> None:
    # 40 matches of 3 rounds, 3 sides; each round the sides score 0, 1, 2 in turn, so a
    # side gains at most 2 on another in a round; before the last round match g leads
    # by g % 5 points: those leading by 3 or 4 (16 of 40) are out of reach
    rows: dict[str, list[int]] = {k: [] for k in ("cluster", "round", "rounds", "seat",
                                                  "total", "side_score")}
    for game in range(40):
        lead = game % 5
        before = [0, lead, lead + 1]
        for r in range(3):
            for seat in range(3):
                score = (seat + r) % 3
                for key, value in (("cluster", game), ("round", r), ("rounds", 3),
                                   ("seat", seat), ("total", before[seat] + score),
                                   ("side_score", score)):
                    rows[key].append(value)
    frame = Frame({k: np.array(v) for k, v in rows.items()})
    reach = swing_bound(frame, 3)
    assert reach == 2.0
    settled = decided_before_last(frame, 3, reach)
    assert settled.sum() == 16 and settled.mean() == pytest.approx(0.4)


def test_matches_to_two_victories_have_no_early_decision_figure(
        summary: dict[str, Any]) -> None:
    length = summary["studies"]["length"]
    assert "decided_before_last_round" not in length["meio-2p"]
    assert "decided_before_last_round" not in length["meio-4p-team"]
    assert "decided_before_last_round" in length["classic-2p"]


def test_saved_chunks_take_little_room_a_game(small_run: tuple[Run, Path],
                                              summary: dict[str, Any]) -> None:
    chunks = list((small_run[1] / "chunks").glob("*.npz"))
    size = sum(p.stat().st_size for p in chunks)
    games = sum(summary["games"].values())
    # every text column of a chunk is one value, kept once; the rest compressed
    # (before: ~2.5 KB a game, most of it the cell, table and specials names per row)
    assert size / games < 600


@pytest.mark.parametrize("effect", [0.0, 0.15])
def test_the_normal_limit_of_the_seat_test_agrees_with_shuffling(
        monkeypatch: pytest.MonkeyPatch, effect: float) -> None:
    from meio.analysis import stats

    m = _rounds(np.random.default_rng(5), 3000, effect)
    monkeypatch.setattr(stats, "EXACT_LIMIT", 10**12)
    exact = stats.permutation_test(m, _spread, reps=999, seed=1)
    monkeypatch.setattr(stats, "EXACT_LIMIT", 0)
    normal = stats.permutation_test(m, _spread, reps=999, seed=1)
    assert abs(exact - normal) < 0.04
    assert (exact < 0.05) == (normal < 0.05) == (effect > 0)
