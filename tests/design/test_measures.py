"""The measures on synthetic games with a known answer: a seat advantage built in is
found and a fair table is not flagged; a coin-flip ladder has no depth and a real gap
is depth; the luck share of a game of pure luck is all luck."""

from __future__ import annotations

import numpy as np
import pytest

from meio.design.games import Columns, Tables
from meio.design.measures import Card, depth, seats


def _self_play(deals: int, players: int, edge: float, seed: int) -> Columns:
    """Self-play rows: every deal from every first leader, 3 rounds; the seat at
    position 0 from the round's leader scores ``edge`` more than the others."""
    rng = np.random.default_rng(seed)
    rows: dict[str, list[float]] = {k: [] for k in (
        "deal", "rotation", "round", "seat", "from_leader", "from_first", "side",
        "others", "match_win")}
    for d in range(deals):
        for rot in range(players):
            for r in range(3):
                leader = (rot + r) % players
                scores = rng.poisson(1.0, players).astype(float)
                scores[leader] += edge
                for s in range(players):
                    rows["deal"].append(d)
                    rows["rotation"].append(rot)
                    rows["round"].append(r)
                    rows["seat"].append(s)
                    rows["from_leader"].append((s - leader) % players)
                    rows["from_first"].append((s - rot) % players)
                    rows["side"].append(scores[s])
                    rows["others"].append((scores.sum() - scores[s]) / (players - 1))
                    rows["match_win"].append(float(s == rng.integers(players)))
    return {k: np.asarray(v) for k, v in rows.items()}


def test_a_built_in_seat_advantage_is_found_at_its_seat_only() -> None:
    c = Card()
    seats(c, _self_play(300, 4, 0.4, seed=1), 4, 300, 4)
    positions = c.detail["seats"]["from_leader"]["positions"]
    assert positions[0]["p_holm"] < 0.001 and positions[0]["ci95"][0] > 0.2
    assert all(p["p_holm"] > 0.05 for p in positions[1:]) or \
        all(p["value"] < 0 for p in positions[1:])  # the others share the leader's edge
    gap = c.rows["seat_gap"].measure.estimate()
    assert gap.low > 0.2


def test_a_fair_table_is_not_flagged_after_the_correction() -> None:
    flagged = 0
    for seed in range(10):
        c = Card()
        seats(c, _self_play(150, 4, 0.0, seed=100 + seed), 4, 150, 4)
        ps = [p["p_holm"] for p in c.detail["seats"]["from_leader"]["positions"]]
        flagged += min(ps) < 0.05
    assert flagged <= 2  # 5% of ten tables; uncorrected, four seats would flag ~2 in 10


def _pair(deals: int, gap: float, seed: int, luck: float = 0.0, noise: float = 1.0) -> Tables:
    """A ladder step: each deal in two lineups (the weaker in seats 0, 2 then 1, 3);
    the stronger scores ``gap`` less; ``luck`` of each seat's score is the deal's, and
    ``noise`` the spread of the rest."""
    rng = np.random.default_rng(seed)
    cols: dict[str, list[float]] = {k: [] for k in ("deal", "rotation", "round", "seat",
                                                    "stronger", "side")}
    for d in range(deals):
        hands = rng.normal(0, 1, (3, 4))
        for rot in range(2):
            for r in range(3):
                for s in range(4):
                    strong = (s + rot) % 2 == 1
                    score = luck * hands[r, s] + rng.normal(0, noise) - (gap if strong else 0)
                    for k, v in (("deal", d), ("rotation", rot), ("round", r), ("seat", s),
                                 ("stronger", strong), ("side", score)):
                        cols[k].append(v)
    return {"seat": {k: np.asarray(v) for k, v in cols.items()}}


def test_a_coin_flip_ladder_has_no_depth() -> None:
    c = Card()
    # a spread of 0.2 a score: each step's gap to about ±0.012, below the smallest gain
    # that matters
    depth(c, [(("a", "b"), _pair(200, 0.0, 7, noise=0.2)),
              (("b", "c"), _pair(200, 0.0, 8, noise=0.2))], 200)
    assert c.detail["depth"]["clear_steps"] == 0
    assert c.detail["depth"]["flattens_at"] == "a"
    assert [s["reading"] for s in c.detail["depth"]["steps"]] == ["flat", "flat"]
    for key in ("gap:a>b", "gap:b>c"):
        e = c.rows[key].measure.estimate()
        assert e.low < 0 < e.high
    # and no player explains anything: the rounds to win three in four are unbounded
    k = c.rows["rounds75:a>b"].measure.estimate()
    assert k.high == np.inf or k.value > 50


def test_a_real_gap_is_depth_and_the_curve_flattens_after_it() -> None:
    c = Card()
    depth(c, [(("a", "b"), _pair(200, 0.5, 9)), (("b", "c"), _pair(200, 0.0, 10, noise=0.2))],
          200)
    assert c.detail["depth"]["clear_steps"] == 1
    assert c.detail["depth"]["flattens_at"] == "b"
    assert c.rows["depth"].measure.estimate().low > 0.3
    curve = c.detail["depth"]["curve"]
    assert [p["rung"] for p in curve] == ["a", "b", "c"]
    assert curve[1]["ci95"][0] > 0.3  # b is clearly above a, and c no higher than b
    assert curve[2]["value"] == pytest.approx(c.rows["depth"].measure.value, abs=1e-6)
    k = c.rows["rounds75:a>b"].measure.value  # gap 0.5, a round's spread about 1.0
    assert 1.0 < k < 4.0


def test_a_step_too_wide_to_read_does_not_flatten_the_curve() -> None:
    c = Card()
    # b over a is clear; c over b has no gain, but at a spread of 1 a score its interval
    # (about ±0.06) also holds a gain that matters: the page cannot say it flattens
    depth(c, [(("a", "b"), _pair(200, 0.5, 9)), (("b", "c"), _pair(200, 0.0, 10))], 200)
    d = c.detail["depth"]
    assert d["clear_steps"] == 1 and d["flattens_at"] is None and d["unclear_at"] == "b"
    step = d["steps"][1]
    gap = c.rows["gap:b>c"].measure.estimate()
    assert step["reading"] == "unclear" and gap.low < 0 and gap.high > 0.03
    # about (half-width / 0.03)² times the deals would tell
    assert step["deals_to_tell"] == pytest.approx(200 * ((gap.high - gap.low) / 2 / 0.03) ** 2,
                                                  abs=1)
    from meio.design.html import depth_reading

    text = depth_reading({"name": "wide", **c.json()})
    assert "cannot say whether it flattens at b" in text and "; flattens at" not in text
    assert f"about {step['deals_to_tell']:,} deals would tell" in text
    c2 = Card()
    depth(c2, [(("a", "b"), _pair(200, 0.5, 9)), (("b", "c"), _pair(200, 0.0, 10, noise=0.2))],
          200)
    assert depth_reading({"name": "narrow", **c2.json()}).startswith(
        "narrow: 1 clear step(s) from the bottom; flattens at b: c adds less than 0.03")


def test_a_rung_weaker_than_the_one_below_or_a_curve_that_rises_again_is_no_flattening(
        ) -> None:
    """A 10-minute report of the box edition read "flattens at learned" where search:1
    scored clearly worse than learned and search:2 then rose clearly: the ladder's order
    was not the players' strength, and the curve had not flattened."""
    from meio.design.html import depth_reading

    c = Card()
    depth(c, [(("a", "b"), _pair(200, 0.5, 9)), (("b", "c"), _pair(200, -0.3, 12, noise=0.2)),
              (("c", "d"), _pair(200, 0.4, 13, noise=0.2))], 200)
    d = c.detail["depth"]
    assert [s["reading"] for s in d["steps"]] == ["rises", "falls", "rises"]
    assert d["clear_steps"] == 1 and d["falls_at"] == "b" and d["rises_again_at"] == "d"
    assert d["flattens_at"] is None
    text = depth_reading({"name": "order", **c.json()})
    assert "c scores worse than b here" in text and "rises again at d" in text
    assert "flattens at" not in text
    c2 = Card()
    depth(c2, [(("a", "b"), _pair(200, 0.5, 9)), (("b", "c"), _pair(200, 0.0, 10, noise=0.2)),
               (("c", "d"), _pair(200, 0.4, 13, noise=0.2))], 200)
    d2 = c2.detail["depth"]
    assert d2["steps"][1]["reading"] == "flat" and d2["flattens_at"] is None
    text2 = depth_reading({"name": "again", **c2.json()})
    assert "so it does not flatten there" in text2 and "rises again at d" in text2


def test_a_game_of_luck_is_explained_by_the_deal() -> None:
    c = Card()
    depth(c, [(("a", "b"), _pair(300, 0.0, 11, luck=3.0))], 300)
    luck = c.rows["luck:a>b"].measure.estimate()
    skill = c.rows["skill:a>b"].measure.estimate()
    assert luck.low > 0.85 and luck.high < 0.95  # 9 / (9 + 1) of the variance
    assert skill.value < 0.01
