"""Ratings: pools, the order a finished match puts its seats in, and the update."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from meio.engine import MatchConfig, State
from meio.ratings import (
    PROVISIONAL_GAMES,
    Pool,
    Rating,
    RatingError,
    match_ranks,
    nearest,
    rate,
)

BETA, KAPPA, TAU = 25 / 6, 1e-4, 25 / 300


Teams = list[list[tuple[float, float]]]


def plackett_luce(teams: Teams, ranks: list[int]) -> Teams:
    """Weng & Lin (2011), algorithm 4, written out here apart from openskill.

    With openskill's defaults: beta 25/6, kappa 1e-4, gamma sqrt(team variance)/c,
    and tau 25/300 added to every sigma before the update.
    """
    teams = [[(mu, math.sqrt(sigma**2 + TAU**2)) for mu, sigma in team] for team in teams]
    mus = [sum(mu for mu, _ in team) for team in teams]
    variances = [sum(sigma**2 for _, sigma in team) for team in teams]
    c = math.sqrt(sum(v + BETA**2 for v in variances))
    k = range(len(teams))
    sum_q = [sum(math.exp(mus[s] / c) for s in k if ranks[s] >= ranks[q]) for q in k]
    ties = [sum(ranks[s] == ranks[q] for s in k) for q in k]
    out = []
    for i in k:
        omega = delta = 0.0
        for q in k:
            if ranks[q] <= ranks[i]:
                p = math.exp(mus[i] / c) / sum_q[q]
                delta += p * (1 - p) / ties[q]
                omega += ((1 - p) if q == i else -p) / ties[q]
        omega *= variances[i] / c
        delta *= variances[i] / c**2 * math.sqrt(variances[i]) / c
        out.append([
            (mu + sigma**2 / variances[i] * omega,
             sigma * math.sqrt(max(1 - sigma**2 / variances[i] * delta, KAPPA)))
            for mu, sigma in teams[i]
        ])
    return out


def finished(config: MatchConfig, seed: int) -> State:
    state = State.new(config)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_a_pool_is_named_by_its_table_and_parses_back() -> None:
    for pool in (Pool("meio", 2), Pool("meio", 5), Pool("classic", 3), Pool("meio", 4, True)):
        assert Pool.parse(pool.key) == pool
    assert Pool.of(MatchConfig(players=4, partnership=True, seed=3)).key == "meio-4p-partners"


@pytest.mark.parametrize("text", ["", "meio", "meio-4", "chess-4p", "meio-4p-teams", "meio-44p",
                                  "meio-9p", "classic-5p", "meio-3p-partners"])
def test_a_text_that_names_no_table_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(RatingError) as err:
        Pool.parse(text)
    assert "\n" not in str(err.value)


def test_free_for_all_places_follow_the_totals_and_a_shared_victory_is_a_tie() -> None:
    cfg = MatchConfig(players=5, seed=1)
    assert match_ranks(cfg, [4, 2, 2, 7, 4], [1, 2]) == [3, 1, 1, 5, 3]
    assert match_ranks(MatchConfig(edition="classic", players=2, seed=1), [5, 2], [1]) == [2, 1]


def test_two_player_meio_and_partnership_rank_by_the_match_winner_not_the_totals() -> None:
    # in a duel of round victories the winner may have the higher total
    assert match_ranks(MatchConfig(players=2, seed=1), [1, 4], [1]) == [2, 1]
    partners = MatchConfig(players=4, partnership=True, seed=1)
    assert match_ranks(partners, [0, 9, 0, 9], [1, 3]) == [2, 1, 2, 1]


def test_the_places_of_real_finished_matches_agree_with_their_winners() -> None:
    for config in (MatchConfig(players=n, seed=n) for n in (2, 3, 4, 5)):
        for seed in range(5):
            state = finished(config, seed)
            ranks = match_ranks(config, state.totals, state.winners)
            assert {s for s, r in enumerate(ranks) if r == 1} == set(state.winners)


def test_an_outcome_that_is_not_a_finished_match_is_refused() -> None:
    cfg = MatchConfig(players=3, seed=1)
    for totals, winners in (([1, 2], [0]), ([1, 2, 3], []), ([1, 2, 3], [3])):
        with pytest.raises(RatingError):
            match_ranks(cfg, totals, winners)


@given(st.lists(st.tuples(st.floats(10, 40), st.floats(1, 9)), min_size=2, max_size=5),
       st.data())
def test_the_update_is_plackett_luce_with_ties(
    players: list[tuple[float, float]], data: st.DataObject
) -> None:
    n = len(players)
    ranks = data.draw(st.lists(st.integers(1, n), min_size=n, max_size=n))
    before = [Rating(mu, sigma, games=3) for mu, sigma in players]
    after = rate(before, ranks)
    expected = plackett_luce([[p] for p in players], ranks)
    for got, [(mu, sigma)] in zip(after, expected, strict=True):
        assert got.mu == pytest.approx(mu, abs=1e-9)
        assert got.sigma == pytest.approx(sigma, abs=1e-9)
        assert got.games == 4


def test_partners_are_rated_as_a_team_and_move_together() -> None:
    before = [Rating(30, 4), Rating(20, 6), Rating(25, 8), Rating(22, 3)]
    after = rate(before, [2, 1, 2, 1], partnership=True)
    expected = plackett_luce([[(30, 4), (25, 8)], [(20, 6), (22, 3)]], [2, 1])
    for team, seats in zip(expected, ((0, 2), (1, 3)), strict=True):
        for (mu, sigma), seat in zip(team, seats, strict=True):
            assert (after[seat].mu, after[seat].sigma) == pytest.approx((mu, sigma))
    assert after[0].mu < 30 and after[2].mu < 25 and after[1].mu > 20 and after[3].mu > 22
    with pytest.raises(RatingError, match="splits a team"):
        rate(before, [1, 2, 3, 4], partnership=True)


def test_a_rating_is_provisional_until_enough_games_and_shows_its_conservative_value() -> None:
    fresh = Rating()
    assert fresh.ordinal == pytest.approx(0.0) and str(fresh) == "0.0?"
    settled = Rating(30.0, 2.0, games=PROVISIONAL_GAMES)
    assert not settled.provisional and str(settled) == "24.0"
    assert Rating(games=PROVISIONAL_GAMES - 1).provisional
    for bad in ((float("nan"), 1.0), (25.0, 0.0), (float("inf"), 1.0)):
        with pytest.raises(RatingError):
            Rating(*bad)


def test_wins_raise_a_rating_and_losses_lower_it_over_many_matches() -> None:
    ratings = [Rating()] * 3
    for _ in range(20):
        ratings = rate(ratings, [1, 2, 3])
    assert ratings[0].mu > ratings[1].mu > ratings[2].mu
    assert all(r.sigma < Rating().sigma for r in ratings)
    assert ratings[0].ordinal > 0 > ratings[2].ordinal


def test_the_nearest_candidate_is_chosen_by_mean() -> None:
    bots = {"beginner": Rating(15.0), "easy": Rating(22.0), "strong": Rating(28.0)}
    assert nearest(Rating(26.0, 1.0), bots) == "strong"
    assert nearest(Rating(10.0), bots) == "beginner"
    with pytest.raises(RatingError):
        nearest(Rating(), {})
