"""MeioEnv stepped in the compiled core plays exactly as MeioEnv stepped in the engine."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest

from meio.engine import IllegalActionError
from meio.engine.errors import ConfigError
from meio.rl.env import MeioEnv
from tests.rl.conftest import TABLES, option_sets

CASES: list[dict[str, Any]] = [
    {"players": p, "edition": e, "partnership": part, "opponents": opp, "seat": seat,
     "split_mode": mode, **opts}
    for k, (p, e, part) in enumerate(TABLES)
    for opts in option_sets()[k % 2 :: 2]
    for opp, seat, mode in [("random", 0, "pack"), ("heuristic", p - 1, "sequential")]
]


def _pair(case: dict[str, Any], seed: int) -> tuple[MeioEnv, MeioEnv]:
    core = MeioEnv(seed=seed, backend="core", **case)
    engine = MeioEnv(seed=seed, backend="engine", **case)
    assert core.backend == "core" and engine.backend == "engine"
    return core, engine


def _same(a: tuple[Any, ...], b: tuple[Any, ...], where: object) -> None:
    """Two (obs, reward, terminated, truncated, info) or (obs, info) results agree."""
    assert np.array_equal(a[0], b[0]), (where, np.flatnonzero(a[0] != b[0]))
    assert a[1:-1] == b[1:-1], where
    ia, ib = a[-1], b[-1]
    assert np.array_equal(ia["action_mask"], ib["action_mask"]), where
    assert ia["view"] == ib["view"], where
    assert set(ia) == set(ib), where


@pytest.mark.parametrize("case", CASES, ids=str)
def test_core_backend_plays_as_the_engine_backend(case: dict[str, Any]) -> None:
    rng = np.random.default_rng(len(str(case)))
    ends = 0
    for seed in (3, 41):
        core, engine = _pair(case, seed)
        a, b = core.reset(), engine.reset()
        _same(a, b, (seed, "reset"))
        for t in range(130):
            action = int(rng.choice(np.flatnonzero(a[-1]["action_mask"])))
            a, b = core.step(action), engine.step(action)
            _same(a, b, (seed, t))
            if a[2]:
                ends += 1
                assert core.state.is_over and engine.state.is_over
                assert core.state.history == engine.state.history
                a, b = core.reset(), engine.reset()
                _same(a, b, (seed, t, "next match"))
        assert core.state.history == engine.state.history
        assert core.render() == engine.render()
    assert ends >= 2  # the final observations and the next matches were compared


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_seeds_play_alike(players: int) -> None:
    """Whole matches of 8 seeds per table size, both opponents, every step compared."""
    for seed in range(100, 108):
        opponents = "random" if seed % 2 else "heuristic"
        core, engine = _pair({"players": players, "opponents": opponents}, seed)
        a, b = core.reset(), engine.reset()
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(a[-1]["action_mask"])))
            a, b = core.step(action), engine.step(action)
            _same(a, b, (players, seed))
            done = a[2]
        assert core.state.history == engine.state.history


def test_a_reset_mid_match_and_a_reset_with_a_seed_agree() -> None:
    core, engine = _pair({"players": 4, "opponents": "heuristic"}, 8)
    rng = np.random.default_rng(0)
    for seed in (None, None, 77, None):
        a, b = core.reset(seed=seed), engine.reset(seed=seed)
        _same(a, b, seed)
        for t in range(20):
            action = int(rng.choice(np.flatnonzero(a[-1]["action_mask"])))
            a, b = core.step(action), engine.step(action)
            _same(a, b, (seed, t))


def test_an_illegal_action_ends_the_episode_alike() -> None:
    core, engine = _pair({"players": 3, "opponents": "random"}, 1)
    core.reset()
    engine.reset()
    a, b = core.step(0), engine.step(0)  # a card during the split
    _same(a, b, "illegal")
    assert a[2] and a[-1]["illegal_action"] and a[1] == core.illegal_reward
    strict = MeioEnv(players=3, opponents="random", seed=1, strict=True)
    strict.reset()
    with pytest.raises(IllegalActionError, match="not legal"):
        strict.step(0)


def test_an_earlier_steps_view_is_that_steps_view() -> None:
    """The view is built when read, from the core's record: read late, it is still
    the view of the step that returned it, across rounds and into the next match."""
    core, engine = _pair({"players": 2, "opponents": "random"}, 5)
    kept: list[tuple[dict[str, Any], Any]] = []
    a, b = core.reset(), engine.reset()
    rng = np.random.default_rng(3)
    for _ in range(120):
        kept.append((a[-1], b[-1]["view"]))
        action = int(rng.choice(np.flatnonzero(a[-1]["action_mask"])))
        a, b = core.step(action), engine.step(action)
        if a[2]:
            kept.append((a[-1], b[-1]["view"]))
            a, b = core.reset(), engine.reset()
    rounds = {view.round_index for _, view in kept}
    assert len(rounds) >= 2 and any(view.is_over for _, view in kept)
    for info, view in reversed(kept):
        assert info["view"] == view


def test_the_info_is_a_dict_with_its_view() -> None:
    """However an info dict is read, it holds the view: the view is built on demand."""
    env = MeioEnv(players=4, opponents="random", seed=2)
    expected = MeioEnv(players=4, opponents="random", seed=2, backend="engine").reset()[1]
    readers: list[Any] = [
        lambda i: i["view"], lambda i: i.get("view"), lambda i: dict(i)["view"],
        lambda i: {**i}["view"], lambda i: (i | {})["view"], lambda i: i.copy()["view"],
        lambda i: copy.deepcopy(i)["view"], lambda i: pickle.loads(pickle.dumps(i))["view"],
        lambda i: dict(i.items())["view"], lambda i: next(v for k, v in i.items() if k == "view"),
    ]
    for read in readers:
        _, info = env.reset(seed=2)
        assert isinstance(info, dict) and "view" in info and len(info) == 2
        assert read(info) == expected["view"]
    _, info = env.reset(seed=2)
    other = {"action_mask": dict.__getitem__(info, "action_mask"), "view": expected["view"]}
    assert (info != other) is False and info == other
    _, info = env.reset(seed=2)
    assert sorted(info) == ["action_mask", "view"]


def test_the_core_backend_needs_compiled_opponents() -> None:
    with pytest.raises(ConfigError, match="compiled opponents"):
        MeioEnv(players=4, opponents="search", backend="core")
    with pytest.raises(ConfigError, match="backend"):
        MeioEnv(players=4, backend="fast")  # type: ignore[arg-type]
    assert MeioEnv(players=4, opponents="search").backend == "engine"
