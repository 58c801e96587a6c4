"""Batch simulation: seeded, the same over any number of jobs, rules-consistent outcomes."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meio.engine import MatchConfig
from meio.engine import cards as C
from meio.engine.record import Record
from meio.engine.ruleset_file import parse_variant
from meio.sim import as_config, simulate
from tests.sim.conftest import CONFIGS, OPTION_CONFIGS, config_id

FOUR = MatchConfig(players=4, specials=(C.MINUS_ONE, C.A_PLUS, C.PLUS_HALF, C.Q_PLUS))


def test_same_seed_same_games_and_another_seed_other_games() -> None:
    a = simulate(FOUR, 200, seed=5, record=True)
    b = simulate(FOUR, 200, seed=5, record=True)
    c = simulate(FOUR, 200, seed=6, record=True)
    assert a.plays is not None and b.plays is not None and c.plays is not None
    assert np.array_equal(a.plays, b.plays) and np.array_equal(a.piles, b.piles)
    assert not np.array_equal(a.plays, c.plays)


def test_two_jobs_play_exactly_the_games_of_one() -> None:
    one = simulate(FOUR, 301, seed=9, record=True)
    two = simulate(FOUR, 301, seed=9, record=True, jobs=2)
    assert one.plays is not None and two.plays is not None
    assert np.array_equal(one.plays, two.plays)
    assert np.array_equal(one.piles, two.piles)
    assert one.cards_played == two.cards_played


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
def test_every_round_shares_13_tricks_and_the_match_lasts_as_the_rules_say(
    cfg: MatchConfig,
) -> None:
    res = simulate(cfg, 300, seed=2, policy="random")
    played = np.arange(3)[None, :] < res.rounds_played[:, None]
    tricks = res.piles.astype(int).sum(axis=(2, 3))
    assert np.all(tricks[played] == 13) and np.all(tricks[~played] == 0)
    # first-half minus second-half piles over the table is always odd (RULES.md §5)
    net = (res.piles[..., 0].astype(int) - res.piles[..., 1]).sum(axis=2)
    assert np.all(net[played] % 2 == 1)
    if cfg.players == 2 or cfg.partnership:
        assert set(res.rounds_played.tolist()) <= {2, 3}
        assert np.all(res.winners().sum(axis=1) == (2 if cfg.partnership else 1))
    else:
        assert set(res.rounds_played.tolist()) == {3}
        totals = res.totals
        assert np.all(totals[res.winners()] == np.repeat(totals.min(axis=1), res.winners().sum(1)))


@pytest.mark.parametrize("cfg", [FOUR, CONFIGS[0], CONFIGS[4], CONFIGS[7]], ids=config_id)
def test_the_heuristic_playout_policy_keeps_halves_far_better_balanced_than_random(
    cfg: MatchConfig,
) -> None:
    rnd = simulate(cfg, 3000, seed=4, policy="random", rounds=True)
    heu = simulate(cfg, 3000, seed=4, policy="heuristic", rounds=True)
    side = (lambda r: r.team_scores) if cfg.partnership else (lambda r: r.scores)
    assert side(heu)[:, 0].mean() < 0.7 * side(rnd)[:, 0].mean()


def test_config_from_a_mapping() -> None:
    cfg = as_config({"players": 3, "edition": "classic"})
    assert (cfg.players, cfg.edition) == (3, "classic")
    res = simulate({"players": 2, "edition": "classic"}, 5, seed=1, record=True)
    assert len(res.record(0)["rounds"][0]["aside"]) == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"policy": "smart"}, "unknown playout policy 'smart'"),
        ({"n": 0}, "number of games"),
        ({"jobs": 0}, "jobs must be"),
    ],
)
def test_bad_arguments_are_refused_clearly(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"n": 3, "seed": 1, **kwargs}
    with pytest.raises(ValueError, match=message):
        simulate(FOUR, **args)  # type: ignore[arg-type]


def test_records_need_record_true_and_a_real_game() -> None:
    res = simulate(FOUR, 2, seed=1)
    with pytest.raises(ValueError, match="record=True"):
        res.record(0)
    with pytest.raises(IndexError, match="no game 2"):
        simulate(FOUR, 2, seed=1, record=True).record(2)
    with pytest.raises(TypeError, match="MatchConfig"):
        simulate(4, 2, seed=1)  # type: ignore[arg-type]


#: a variant with another split (6 + 7) and a leader rule of its own, as a record writes it
SIX_SEVEN = parse_variant('preset = "meio"\nleader = "rotate"\n[hand]\nfirst_half = 6\npack = 7\n',
                          "six-seven")


@pytest.mark.parametrize(
    "cfg",
    [*CONFIGS, *OPTION_CONFIGS,
     MatchConfig(edition="meio", players=3, variant=SIX_SEVEN, options=SIX_SEVEN.options)],
    ids=lambda c: "six-seven" if c.variant is not None else config_id(c),
)
def test_a_batch_record_is_the_engine_writers_record_of_the_same_game_to_the_byte(
    cfg: MatchConfig,
) -> None:
    res = simulate(cfg, 12, seed=4, record=True, policy="random")
    one = simulate(cfg, 12, seed=4, record=True, policy="random", rounds=True)
    for batch in (res, one):
        for g in range(batch.games):
            text = json.dumps(batch.record(g))
            engine = Record.from_state(Record.from_json(text).to_state())
            # a single round's state has dealt the next round, which the batch did not play
            engine.rounds = engine.rounds[: int(batch.rounds_played[g])]
            assert text == json.dumps(engine.to_json())
            assert engine.to_text() == batch.record_of(g).to_text()
