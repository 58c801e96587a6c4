"""The core plays the same game as the engine: records it writes replay through the
engine to the same tricks, piles and scores, and engine positions continued by the
core with the same choices end the same way."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from typer.testing import CliRunner

from meio.engine import MatchConfig, Phase, State, TableOptions
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.record import Record, result_json
from meio.engine.wire import options_json
from meio.sim import arrays_to_state, simulate, state_to_arrays
from meio.sim import core as K
from meio.sim.tables import tables_for
from tests.sim.conftest import CONFIGS, OPTION_CONFIGS, config_id

GAMES_PER_CONFIG = 160  # x 10 configs x 2 policies: 3,200 matches per run
#: every table under the default rules, then under the table options (RULES.md §10)
ALL_CONFIGS = CONFIGS + OPTION_CONFIGS


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("cfg", ALL_CONFIGS, ids=config_id)
def test_core_matches_replay_identically_in_the_engine(cfg: MatchConfig, policy: str) -> None:
    plain_next = cfg.options == TableOptions(wild_lead="next")
    games = GAMES_PER_CONFIG if cfg in CONFIGS or plain_next else 40
    res = simulate(cfg, games, seed=hash((config_id(cfg), policy)) & 0xFFFF,
                   policy=policy, record=True)
    assert res.tricks is not None
    winners = res.winners()
    for g in range(res.games):
        rec = res.record(g)
        # the record says which options it played
        assert rec.get("rules", {}) == options_json(cfg.options)
        state = Record.from_json(json.dumps(rec)).to_state()
        assert state.config.options == cfg.options
        doc = result_json(state)
        assert doc["finished"] is True
        assert len(doc["rounds"]) == res.rounds_played[g]
        for r, rnd in enumerate(doc["rounds"]):
            assert [t["winner"] for t in rnd["tricks"]] == res.tricks[g, r, 0].tolist()
            assert [t["pile"] for t in rnd["tricks"]] == res.tricks[g, r, 1].tolist()
            assert rnd["piles"] == res.piles[g, r].tolist()
            assert rnd["scores"] == res.scores[g, r].tolist()
            if cfg.partnership:
                assert res.team_scores is not None
                assert rnd["team_scores"] == res.team_scores[g, r].tolist()
        assert doc["totals"] == res.totals[g].tolist()
        assert sorted(doc["winners"]) == np.flatnonzero(winners[g]).tolist()
        if cfg.players == 2 and cfg.edition == "classic":
            assert len(doc["rounds"]) == 3 and doc["victories"] is None  # 3 rounds on totals


@pytest.mark.parametrize("cfg", ALL_CONFIGS[::3], ids=config_id)
def test_single_rounds_replay_as_a_match_in_progress(cfg: MatchConfig) -> None:
    res = simulate(cfg, 40, seed=3, record=True, rounds=True)
    assert res.rounds_played.tolist() == [1] * 40
    for g in range(res.games):
        rec = res.record(g)
        doc = result_json(Record.from_json(rec).to_state(), rounds=1)
        assert doc["rounds"][0]["piles"] == res.piles[g, 0].tolist()


def test_meio_replay_command_accepts_core_records(tmp_path: object) -> None:
    from pathlib import Path

    from meio.cli import app

    runner = CliRunner()
    for cfg in ALL_CONFIGS:
        res = simulate(cfg, 2, seed=11, record=True)
        for g in range(res.games):
            path = Path(str(tmp_path)) / f"{config_id(cfg)}-{g}.json"
            path.write_text(json.dumps(res.record(g)))
            out = runner.invoke(app, ["replay", str(path), "--json"])
            assert out.exit_code == 0, out.output
            doc = json.loads(out.stdout)
            assert [r["piles"] for r in doc["rounds"]] == res.piles[
                g, : res.rounds_played[g]
            ].tolist()


def _core_legal(state: State) -> set[int]:
    out = np.zeros(32, dtype=np.int32)
    n = K.legal_actions(state_to_arrays(state).array, tables_for(state.config).ruleset, out)
    return set(out[:n].tolist())


def _play_engine_match(cfg: MatchConfig, rng: random.Random) -> tuple[State, list[int]]:
    """A random engine match; checks the core's legal actions at every decision.
    Returns the final state and, per round, one random cut point in the history."""
    state = State.new(cfg)
    cuts: list[int] = []
    cut_round = -1
    while not state.is_over:
        if state.round_index != cut_round and rng.random() < 0.08:
            cuts.append(len(state.history))
            cut_round = state.round_index
        if state.phase is Phase.SPLIT:
            seat = rng.choice(state.seats_to_act())
            state.apply(rng.choice(state.legal_actions(seat)), seat)
            continue
        legal = state.legal_actions()
        assert _core_legal(state) == set(legal), state
        state.apply(rng.choice(legal))
    return state, cuts


@pytest.mark.parametrize("cfg", ALL_CONFIGS, ids=config_id)
def test_engine_positions_continue_identically_in_the_core(cfg: MatchConfig) -> None:
    rng = random.Random(config_id(cfg))
    t = tables_for(cfg)
    checked = 0
    for _ in range(12):
        played, cuts = _play_engine_match(cfg, rng)
        # a record keeps the splits by seat, so its replay may order them differently
        final = Record.from_state(played).to_state()
        doc = result_json(final)
        for cut in cuts:
            # rebuild the engine position at the cut, convert it, continue it in the core
            at_cut = final.clone()
            while len(at_cut.history) > cut:
                at_cut.undo()
            pos = state_to_arrays(at_cut)
            back = arrays_to_state(pos)
            assert back.history == at_cut.history
            assert (back.hands, back.packs, back.piles, back.phase, back.current_trick) == (
                at_cut.hands, at_cut.packs, at_cut.piles, at_cut.phase, at_cut.current_trick
            )
            rest = final.history[cut:]
            seats = np.array([s for s, _ in rest], dtype=np.int32)
            actions = np.array([-1 if A.is_pack(a) else a for _, a in rest], dtype=np.int32)
            packs = np.zeros((len(rest), 6), dtype=np.int32)
            for i, (_, a) in enumerate(rest):
                if A.is_pack(a):
                    packs[i] = C.cards_of(A.pack_of(a))
            s = pos.array.copy()
            done = K.replay_actions(s, t.cfg, t.ruleset, actions, seats, packs)
            assert done > 0
            assert s[K.PHASE] == K.ROUND_DONE
            rnd = doc["rounds"][at_cut.round_index]
            assert [s[K.WINNERS + i] for i in range(13)] == [x["winner"] for x in rnd["tricks"]]
            assert [s[K.PILE_OF + i] for i in range(13)] == [x["pile"] for x in rnd["tricks"]]
            assert [[s[K.PILES + 2 * p], s[K.PILES + 2 * p + 1]] for p in range(cfg.players)] == (
                rnd["piles"]
            )
            checked += 1
    assert checked >= 3
