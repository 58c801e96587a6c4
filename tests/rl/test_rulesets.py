"""The learning environments on any ruleset: the ruleset plumbing, the action space of
any hand and pack, the attribute observation (compiled in ``VectorEnv`` to the same
numbers as in Python), no hidden card in it, and every checker the editions pass, on
three written variants (a 6/7 split, an invented special, no trumps), ``mini`` and
randomly generated rulesets."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, parallel_api_test

from meio.bots import attributes as AT
from meio.bots import spaces as S
from meio.bots.observation import OBS_SIZE
from meio.engine import MatchConfig, State, sample_world
from meio.engine.errors import ConfigError
from meio.engine.presets import is_standard
from meio.engine.ruleset import Variant
from meio.engine.ruleset_file import VariantError, load_variant
from meio.rl import VectorEnv
from meio.rl import pettingzoo as mpz
from meio.rl.env import MeioEnv, make_env
from meio.rl.layout import action_layout
from meio.rl.table import make_table, observe_table, resolve_ruleset
from tests.sim.test_core_variants import variants

ROOT = Path(__file__).resolve().parents[2]
SIX_SEVEN = ROOT / "examples" / "variants" / "six-seven.toml"

HERE = Path(__file__).resolve().parent / "rulesets"
#: 3 players, two of three specials drawn (3 cards set aside) and hidden, one invented
INVENTED = load_variant(HERE / "invented.toml")
#: the ordinary deck without a trump suit: only the led suit wins
NO_TRUMP = load_variant(HERE / "no-trump.toml")
#: hands of 15 split 7 and 8, 2 players: 6,435 packs, the widest action space
FIFTEEN = load_variant(HERE / "fifteen.toml")

#: (ruleset, players, partnership) of each written table
RULESETS: list[tuple[Any, int, bool]] = [
    (SIX_SEVEN, 4, False), (SIX_SEVEN, 4, True), (INVENTED, 3, False), (NO_TRUMP, 4, False),
    (NO_TRUMP, 2, False), ("mini", 2, False), (FIFTEEN, 2, False),
]
IDS = ["six-seven-4", "six-seven-4p", "invented-3", "no-trump-4", "no-trump-2", "mini",
       "fifteen"]

GENERATED = settings(max_examples=6, deadline=None, derandomize=True,
                     suppress_health_check=[HealthCheck.too_slow,
                                            HealthCheck.filter_too_much])


def _table(variant: Variant, data: st.DataObject) -> tuple[int, bool]:
    players = data.draw(st.sampled_from(variant.players))
    return players, players == 4 and variant.partnership and data.draw(st.booleans())


# -- the ruleset and the action space ----------------------------------------------------------
def test_the_layout_keeps_the_editions_numbers_wherever_they_fit() -> None:
    lay = action_layout(13, 6)
    assert (lay.size, lay.pick_base, lay.packs) == (S.NUM_ACTIONS, S.PICK_BASE, S.NUM_PACKS)
    assert np.array_equal(lay.positions, S.PACK_POSITIONS)
    assert lay.compact == S.COMPACT_ACTIONS
    state = State.new(MatchConfig(players=4, seed=5))
    assert np.array_equal(lay.legal_mask(state, 0), S.legal_mask(state, 0))
    assert np.array_equal(lay.legal_mask(state, 1, split_mode="sequential", picked=0),
                          S.legal_mask(state, 1, split_mode="sequential"))
    # a 6/7 split has as many packs (C(13, 7) = C(13, 6)): the same 1,812 actions
    assert action_layout(13, 7).size == 1812
    wide = action_layout(15, 8)  # 6,435 packs and 15 picks
    assert (wide.packs, wide.pick_base, wide.size, len(wide.compact)) == (
        6435, 83 + 6435, 83 + 6435 + 15, 83 + 15)
    hand = sum(1 << c for c in range(0, 45, 3))  # 15 cards
    for number in (0, 1, 3000, 6434):
        pack = wide.pack_of_number(hand, number)
        assert pack & ~hand == 0 and pack.bit_count() == 8
        assert wide.pack_number(hand, pack) == number
    with pytest.raises(S.ActionSpaceError, match="no pack number 6435"):
        wide.pack_of_number(hand, 6435)
    with pytest.raises(ConfigError, match="no ruleset deals hands of 16"):
        action_layout(16, 8)


def test_a_ruleset_is_a_preset_a_file_or_a_variant() -> None:
    assert resolve_ruleset("mini").name == "mini"
    assert resolve_ruleset(SIX_SEVEN).first_half == 6
    assert resolve_ruleset(str(SIX_SEVEN)).pack == 7
    assert resolve_ruleset(NO_TRUMP) is NO_TRUMP
    # an edition's preset is the standard game: no variant, the standard observation
    table = make_table(ruleset="classic", players=3)
    assert table.variant is None and table.edition == "classic"
    assert table.observation_size == OBS_SIZE
    assert make_table(ruleset=INVENTED, players=3).observation_size == AT.ANY_SIZE


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"ruleset": "tiny"}, "ruleset is a preset \\(meio, classic, mini\\), a .toml"),
    ({"ruleset": 7}, "ruleset is a preset"),
    ({"ruleset": "/nowhere/v.toml"}, "cannot read the variant file"),
    ({"ruleset": "mini", "players": 4}, "the variant 'mini' is for 2 players, not 4"),
    ({"ruleset": INVENTED, "players": 3, "edition": "classic"},
     "edition is the ruleset's own: 'invented' plays edition 'meio', not 'classic'"),
    ({"ruleset": INVENTED, "players": 3, "reveal_specials": True, "wild_lead": "next"},
     "wild_lead is the ruleset's own"),
])
def test_a_bad_ruleset_is_refused_in_one_line(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message) as info:
        MeioEnv(**{"players": 2, **kwargs})
    assert "\n" not in str(info.value)
    with pytest.raises(ConfigError, match=message):
        VectorEnv(1, **{"players": 2, **kwargs})


def test_a_bad_variant_file_lists_its_problems(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('preset = "meio"\n[hand]\nfirst_half = 8\npack = 6\n')
    with pytest.raises(VariantError, match=r"bad.toml: hand: pack sizes 8 \+ 6"):
        mpz.parallel_env(ruleset=bad)


def test_an_editions_preset_plays_the_standard_game_with_its_tensors() -> None:
    for kwargs in ({"players": 4}, {"players": 3, "edition": "classic"}):
        ruleset = kwargs.get("edition", "meio")
        plain = MeioEnv(seed=4, opponents="random", **kwargs)
        named = MeioEnv(seed=4, opponents="random", ruleset=ruleset, players=kwargs["players"])
        (a, ia), (b, ib) = plain.reset(), named.reset()
        assert a.shape == (OBS_SIZE,) and np.array_equal(a, b)
        assert np.array_equal(ia["action_mask"], ib["action_mask"])


# -- the checkers of each library --------------------------------------------------------------
@pytest.mark.parametrize(("ruleset", "players", "partnership"), RULESETS, ids=IDS)
def test_gymnasiums_checker_passes_on_each_ruleset(ruleset: Any, players: int,
                                                  partnership: bool) -> None:
    for backend, mode in (("core", "pack"), ("engine", "sequential")):
        env = MeioEnv(players=players, partnership=partnership, ruleset=ruleset, seed=2,
                      opponents="heuristic", backend=backend, split_mode=mode)
        check_env(env, skip_render_check=True)  # type: ignore[arg-type]
        assert env.observation_space.shape == (AT.ANY_SIZE,)
    compact = make_env(actions="compact", players=players, partnership=partnership,
                       ruleset=ruleset, seed=2)
    check_env(compact, skip_render_check=True)  # type: ignore[arg-type]


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
@pytest.mark.parametrize(("ruleset", "players", "partnership"), RULESETS, ids=IDS)
def test_pettingzoos_api_tests_pass_on_each_ruleset(ruleset: Any, players: int,
                                                    partnership: bool) -> None:
    for mode in ("pack", "sequential"):
        kwargs = {"players": players, "partnership": partnership, "ruleset": ruleset,
                  "split_mode": mode}
        api_test(mpz.env(**kwargs), num_cycles=150)  # type: ignore[arg-type]
        parallel_api_test(mpz.parallel_env(**kwargs), num_cycles=300)


def test_pettingzoo_observes_a_variant_by_its_attributes() -> None:
    p = mpz.parallel_env(players=3, ruleset=INVENTED, split_mode="sequential")
    observations, _ = p.reset(seed=9)
    state = p.match
    assert state is not None
    for seat, agent in enumerate(p.agents):
        obs = observations[agent]["observation"]
        assert obs.shape == (AT.ANY_SIZE,)
        assert np.array_equal(obs, AT.observe_any(state.view(seat)))
    # a sequential split picks as many cards as the pack holds (7 here), then moves on
    for pick in range(INVENTED.pack):
        actions = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in p.agents}
        observations, *_ = p.step(actions)
        assert (state.phase.name == "SPLIT") == (pick < INVENTED.pack - 1)
    assert p.state().shape == (3 * AT.ANY_SIZE,)


# -- the compiled observation is the Python one ------------------------------------------------
def _play_alike(ruleset: Any, players: int, partnership: bool, *, steps: int, seed: int,
                **kwargs: Any) -> int:
    """Step a VectorEnv and as many MeioEnvs through the engine with one random agent and
    compare every observation, mask, reward and ending; returns the matches finished."""
    n = 2
    venv = VectorEnv(num_envs=n, players=players, partnership=partnership, ruleset=ruleset,
                     seed=seed, **kwargs)
    envs = [MeioEnv(players=players, partnership=partnership, ruleset=ruleset, seed=seed + i,
                    backend="engine", strict=True, **kwargs) for i in range(n)]
    vobs, vinfo = venv.reset()
    outs = [e.reset() for e in envs]
    rng = np.random.default_rng(seed)
    ends = 0
    for t in range(steps):
        for i, (obs, info) in enumerate(outs):
            assert np.array_equal(obs, vobs[i]), (t, i, np.flatnonzero(obs != vobs[i]))
            assert np.array_equal(info["action_mask"], vinfo["action_mask"][i]), (t, i)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in vinfo["action_mask"]])
        vobs, vrew, vterm, _, vinfo = venv.step(actions)
        outs = []
        for i, env in enumerate(envs):
            obs, reward, term, _, info = env.step(actions[i])
            assert (reward, term) == (vrew[i], vterm[i]), (t, i)
            if term:
                ends += 1
                assert np.array_equal(obs, venv.final_observations[i]), (t, i, "final")
                obs, info = env.reset()
            outs.append((obs, info))
    return ends


CASES: list[dict[str, Any]] = [
    {"opponents": "random"},
    {"opponents": "heuristic", "split_mode": "sequential"},
    {"opponents": "heuristic", "seat": 1},
]


@pytest.mark.parametrize(("table", "case"),
                         list(itertools.product(zip(RULESETS, IDS, strict=True), CASES)),
                         ids=lambda x: x[1] if isinstance(x, tuple) else str(x))
def test_vector_env_observes_a_variant_as_the_python_encoding(
        table: tuple[tuple[Any, int, bool], str], case: dict[str, Any]) -> None:
    (ruleset, players, partnership), _ = table
    ends = _play_alike(ruleset, players, partnership, steps=150, seed=21, **case)
    assert ends >= 1  # a finished match's final observation and the next match compared


@GENERATED
@given(variants(), st.data())
def test_vector_env_plays_a_generated_ruleset_as_the_engine(variant: Variant,
                                                            data: st.DataObject) -> None:
    if is_standard(variant):
        return
    players, partnership = _table(variant, data)
    mode = data.draw(st.sampled_from(["pack", "sequential"]))
    _play_alike(variant, players, partnership, steps=60, seed=data.draw(st.integers(0, 99)),
                opponents=data.draw(st.sampled_from(["random", "heuristic"])), split_mode=mode)


# -- nothing hidden in the observation ---------------------------------------------------------
@pytest.mark.parametrize(("ruleset", "players", "partnership"), RULESETS, ids=IDS)
def test_a_variant_observation_reads_no_hidden_card(ruleset: Any, players: int,
                                                    partnership: bool) -> None:
    """The no-leak check: a world dealt from the seat's view (the other seats' hidden
    cards, packs and the cards set aside all changed) gives the very same observation."""
    variant = resolve_ruleset(ruleset)
    assert variant is not None and not is_standard(variant)
    rng = random.Random(4)
    changed = 0
    for seed in range(8):
        config = MatchConfig(edition=variant.edition, players=players, partnership=partnership,
                             variant=variant, options=variant.options, seed=seed)
        state = State.new(config)
        for _ in range(rng.randrange(0, players * (variant.hand + 1))):  # into round 1
            if state.is_over:
                break
            seat = state.current_seat()
            legal = state.legal_actions(seat)
            state.apply(legal[rng.randrange(len(legal))], seat)
        if state.is_over:
            continue
        for seat in range(players):
            view = state.view(seat)
            obs = observe_table(view)
            assert obs.shape == (AT.ANY_SIZE,)
            for _ in range(3):
                world = sample_world(view, rng)
                changed += (world.hands, world.packs) != (state.hands, state.packs)
                assert np.array_equal(observe_table(world.view(seat)), obs)
    assert changed  # the worlds did deal the hidden cards otherwise
