"""Ties under every leader rule and every match format (docs/variants.md: a tie is
drawn or shared, never given to one side), and the plain-int rules the compiled core
compiles (:mod:`meio.engine.scoring`)."""

from __future__ import annotations

import random

import pytest

from meio.engine import MatchConfig, State
from meio.engine.record import Record, replay_record
from meio.engine.ruleset_file import parse_variant
from meio.engine.scoring import (
    LAST_TRICK,
    MOST_POINTS,
    ROTATE,
    VICTORY_ROUND_LIMIT,
    RoundResult,
    eligible_leaders,
    leader_seats,
    match_finished,
    match_over,
    match_winners,
    round_victory,
    score_round,
)
from meio.engine.tricks import Trick

#: a partnership ruleset whose team scores can tie: hands of 12, halves of 6
EVEN = parse_variant('preset = "meio"\n[hand]\nsize = 12\nfirst_half = 6\npack = 6\n')


def _random_match(cfg: MatchConfig, seed: int) -> State:
    st = State.new(cfg)
    rng = random.Random(seed)
    while not st.is_over:
        st.apply(rng.choice(st.legal_actions()))
    return st


def _result(cfg: MatchConfig, piles: list[list[int]], leader: int = 0,
            last_winner: int = 0) -> RoundResult:
    trick = Trick(leader, ((last_winner, 0),), -1, last_winner, 1, 0)
    return score_round(cfg, piles, (trick,), leader)


class TestLeaderRules:
    def test_tied_teams_under_most_points_let_any_seat_lead(self) -> None:
        cfg = MatchConfig(players=4, partnership=True, variant=EVEN, seed=1)
        result = _result(cfg, [[3, 1], [3, 1], [1, 1], [1, 1]])
        assert result.team_scores == (2, 2)
        assert eligible_leaders(cfg, result) == (0, 1, 2, 3)

    def test_the_team_that_scored_more_leads_when_the_teams_differ(self) -> None:
        cfg = MatchConfig(players=4, partnership=True, variant=EVEN, seed=1)
        result = _result(cfg, [[4, 1], [2, 2], [1, 1], [2, 2]])
        assert result.team_scores == (3, 0)
        assert eligible_leaders(cfg, result) == (0, 2)

    def test_tied_seats_under_most_points_may_each_lead(self) -> None:
        cfg = MatchConfig(players=3, seed=1)
        result = _result(cfg, [[5, 0], [4, 2], [0, 2]])
        assert result.scores == (5, 2, 2) and eligible_leaders(cfg, result) == (0,)
        result = _result(cfg, [[4, 1], [1, 1], [5, 2]])
        assert result.scores == (3, 0, 3) and eligible_leaders(cfg, result) == (0, 2)

    @pytest.mark.parametrize("partnership", [False, True])
    def test_last_trick_and_rotate_name_one_seat_even_when_the_scores_tie(
        self, partnership: bool
    ) -> None:
        for rule, expected in (("last_trick", (3,)), ("rotate", (2,))):
            v = parse_variant(f'preset = "meio"\nleader = "{rule}"\n[hand]\nsize = 12\n'
                              "first_half = 6\npack = 6\n")
            cfg = MatchConfig(players=4, partnership=partnership, variant=v, seed=1)
            result = _result(cfg, [[3, 3], [3, 3], [0, 0], [0, 0]], leader=1, last_winner=3)
            assert eligible_leaders(cfg, result) == expected

    def test_after_tied_teams_the_deals_give_the_lead_to_either_team(self) -> None:
        teams: set[int] = set()
        for seed in range(60):
            cfg = MatchConfig(players=4, partnership=True, variant=EVEN, seed=seed)
            done = _random_match(cfg, seed)
            for before, after in zip(done.rounds, done.rounds[1:], strict=False):
                assert before.team_scores is not None
                if before.team_scores[0] == before.team_scores[1]:
                    teams.add(after.leader % 2)
            # a record whose lead passes to either team after a tie replays
            state, _ = replay_record(Record.from_state(done).to_json())
            assert state.rounds == done.rounds
        assert teams == {0, 1}

    def test_the_compiled_form_matches(self) -> None:
        assert leader_seats(MOST_POINTS, 4, True, [1, 1], 0, 0) == 0b1111
        assert leader_seats(MOST_POINTS, 4, True, [0, 1], 0, 0) == 0b1010
        assert leader_seats(MOST_POINTS, 5, False, [1, 3, 0, 3, 2], 0, 0) == 0b01010
        assert leader_seats(LAST_TRICK, 3, False, [1, 1, 1], 2, 0) == 0b100
        assert leader_seats(ROTATE, 3, False, [1, 1, 1], 2, 2) == 0b001


class TestMatchFormats:
    def test_a_tied_round_gives_nobody_a_victory(self) -> None:
        assert round_victory([2, 2]) == -1
        assert round_victory([3, 1, 1]) == -1
        assert round_victory([3, 0, 1]) == 1
        cfg = MatchConfig(players=4, partnership=True, variant=EVEN, seed=1)
        assert _result(cfg, [[3, 1], [3, 1], [1, 1], [1, 1]]).victory is None
        two = MatchConfig(players=2, variant=EVEN, seed=1)
        tied = _result(two, [[4, 2], [3, 3]])
        assert tied.scores == (2, 0) and tied.victory == 1
        tied = _result(two, [[4, 2], [2, 4]])
        assert tied.scores == (2, 2) and tied.victory is None

    def test_a_match_to_victories_stops_at_the_round_limit_and_shares_the_lead(self) -> None:
        cfg = MatchConfig(players=4, partnership=True, variant=EVEN, seed=1)
        tie = _result(cfg, [[3, 1], [3, 1], [1, 1], [1, 1]])
        win0 = _result(cfg, [[3, 3], [4, 1], [0, 0], [1, 0]])
        win1 = _result(cfg, [[4, 1], [3, 3], [1, 0], [0, 0]])
        assert (tie.victory, win0.victory, win1.victory) == (None, 0, 1)
        limit = VICTORY_ROUND_LIMIT * 2
        rounds = [win0, win1] + [tie] * (limit - 3)
        assert not match_finished(cfg, rounds)
        rounds.append(tie)
        assert match_finished(cfg, rounds)
        assert match_winners(cfg, rounds) == [0, 1, 2, 3]
        assert match_winners(cfg, [win0, tie, win0]) == [0, 2]

    def test_a_tie_on_totals_is_shared_or_played_on(self) -> None:
        assert match_over(3, 3, 0, True, [4, 4, 6], [])
        assert not match_over(3, 3, 0, False, [4, 4, 6], [])
        assert match_over(4, 3, 0, False, [5, 4, 6], [])
        cfg = MatchConfig(players=3, seed=1)
        rounds = [_result(cfg, [[2, 0], [2, 0], [1, 0]])] * 3
        assert match_finished(cfg, rounds) and match_winners(cfg, rounds) == [2]
        tied = [_result(cfg, [[1, 0], [1, 0], [2, 0]])] * 3
        assert match_winners(cfg, tied) == [0, 1]
        unshared = parse_variant('preset = "meio"\n[match.default]\nform = "totals"\n'
                                 "rounds = 3\nshared = false\n")
        ucfg = MatchConfig(players=3, variant=unshared, seed=1)
        utied = [_result(ucfg, [[1, 0], [1, 0], [2, 0]])] * 3
        assert not match_finished(ucfg, utied)
        assert match_finished(ucfg, [*utied, _result(ucfg, [[1, 0], [0, 0], [0, 0]])])
