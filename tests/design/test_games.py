"""Playing a report card's games through the engine: duplicate deals from every first
leader, the same deals under two rulesets, and the round's certainty read from tricks."""

from __future__ import annotations

import numpy as np
import pytest

from meio.design.games import Work, certain_after, play, sides_of
from meio.design.rulesets import DesignError, config, ruleset
from meio.engine.tricks import Trick

from .conftest import MINI, NO_TRUMP


def test_each_deal_is_played_from_every_first_leader() -> None:
    t = play(Work(ruleset("meio"), 3, ("heuristic",), 0, 4, seed=2))
    seat = t["seat"]
    assert len(t["match"]["deal"]) == 4 * 3
    first = seat["round"] == 0
    for d in range(4):
        mine = first & (seat["deal"] == d)
        # each seat sits at each position from the first leader once per deal
        assert sorted(zip(seat["seat"][mine], seat["from_first"][mine], strict=True)) == \
            sorted((s, p) for s in range(3) for p in range(3))
    assert set(np.unique(t["special"]["card"])) <= {"-1", "A+", "-2H", "+.5", "Q+"}


def test_two_rulesets_deal_the_same_cards_on_the_same_deal() -> None:
    a = config(MINI, 2, 77, 0)
    b = config(NO_TRUMP, 2, 77, 0)
    from meio.engine import State

    assert State.new(a).hands == State.new(b).hands


def test_only_a_preset_by_its_name_plays_as_the_standard_game() -> None:
    from meio.design.space import changed
    from meio.engine.presets import preset

    assert config(preset("meio"), 4, 1).variant is None
    # a tuning trial with the edition's numbers is still a variant: the same player
    # (the heuristic's variant rule) as every other trial
    assert config(changed(preset("meio"), {}, "trial-0016"), 4, 1).variant is not None


def test_a_ruleset_without_that_table_size_is_refused() -> None:
    with pytest.raises(DesignError, match="mini is played by 2 players, not 4"):
        config(MINI, 4, 0)


def test_the_leaders_handicap_built_into_a_ruleset_is_found() -> None:
    """Without trumps a mini trick goes to the highest card of the suit led, so the
    leader shows a suit the other may beat: the round's leader scores worse."""
    from meio.design.measures import Card, seats

    c = Card()
    rows = play(Work(NO_TRUMP, 2, ("heuristic",), 0, 150, seed=3))["seat"]
    seats(c, rows, 2, 150, 2)
    lead = c.detail["seats"]["from_leader"]["positions"][0]
    assert lead["ci95"][0] > 0.1 and lead["p_holm"] < 0.001
    assert c.rows["seat_gap"].measure.estimate().low > 0.1


def _trick(winner: int, pile: int, plays: tuple[tuple[int, int], ...] = ()) -> Trick:
    return Trick(leader=0, plays=plays, declared=-1, winner=winner, pile=pile)


def test_a_round_is_certain_once_no_remaining_trick_can_change_the_lowest() -> None:
    cfg = config(ruleset("classic"), 2, 5)
    sides = sides_of(cfg)
    # seat 0 takes the whole first half (H = 7): however the 6 second-half tricks are
    # shared (x to seat 0, 6 - x to seat 1) seat 0 scores 7 - x and seat 1 scores
    # 6 - x, one less: certain after trick 7, and not after trick 6 (had seat 1 taken
    # trick 7, seat 0 could still end on 0 and win)
    tricks = [_trick(0, 1)] * 7 + [_trick(0, 2)] * 6
    assert certain_after(cfg, tricks, sides) == 7


def test_a_tied_round_is_certain_only_at_its_end() -> None:
    cfg = config(ruleset("classic"), 4, 5)
    # seat 0 takes every trick: it scores 1 and the three others tie on 0
    tricks = [_trick(0, 1)] * 7 + [_trick(0, 2)] * 6
    assert certain_after(cfg, tricks, sides_of(cfg)) == 13


def test_a_lone_lowest_score_is_certain_before_the_end() -> None:
    cfg = config(ruleset("classic"), 3, 5)
    # seat 0 takes the first half (H 7), then seat 1 every second-half trick; seat 2
    # takes nothing and ends on 0. After trick t (8..13) seat 1 has V = t - 7 and 13 - t
    # tricks remain: seat 2 could still reach 13 - t, which ties seat 1 at t = 10 and
    # stays below it from t = 11 (seat 0 cannot go below 7 - (13 - t))
    tricks = [_trick(0, 1)] * 7 + [_trick(1, 2)] * 6
    assert certain_after(cfg, tricks, sides_of(cfg)) == 11
