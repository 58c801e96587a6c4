"""The compiled likelihoods (meio.bots.likelihood) equal the Python reference."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest

from meio.bots import bot_turn, make_bot
from meio.bots.inference import OpponentModel, Reader, infer_positions, reads_play
from meio.engine import MatchConfig, Phase, State, TableOptions, sample_world
from meio.engine import cards as C
from meio.engine.ruleset_file import parse_variant

#: a variant the opponent model reads: the box edition's cards and hands, with its own
#: scoring, match format and leader rule
ROTATE = parse_variant('preset = "meio"\nleader = "rotate"\n[scoring]\nform = "squared"\n'
                       '[match.default]\nform = "totals"\nrounds = 2\n', "rotate.toml")
CONFIGS: list[dict[str, Any]] = [
    {"players": 4},
    {"players": 4, "partnership": True},
    {"players": 3, "edition": "classic"},
    {"players": 5, "options": TableOptions(wild_lead="next")},
    {"players": 4, "options": TableOptions(reveal_specials=False), "specials": (60, 61, 63, 64)},
    {"players": 4, "variant": ROTATE},
    {"players": 3, "variant": ROTATE},
]


def _doctored(world: State, seat: int, rng: random.Random) -> bool:
    """Swap a card of ``seat``'s first-half hand with another seat's, as the real
    history did not allow: the world then often cannot explain a play (-inf)."""
    if world.half != 1:
        return False
    others = [k for k in range(world.config.players) if k != seat and world.hands[k]]
    if not world.hands[seat] or not others:
        return False
    k = rng.choice(others)
    c = rng.choice(C.cards_of(world.hands[seat]))
    d = rng.choice(C.cards_of(world.hands[k]))
    swap = (1 << c) | (1 << d)
    for holding in (world.hands, world.deal):
        holding[seat] ^= swap
        holding[k] ^= swap
    return True


@pytest.mark.parametrize("options", CONFIGS)
def test_compiled_likelihoods_equal_the_python_ones(options: dict[str, Any]) -> None:
    state = State.new(MatchConfig(seed=7, **options))
    bots = [make_bot("search:1" if s == 0 else "heuristic", s)
            for s in range(state.config.players)]
    rng = random.Random(1)
    models = [OpponentModel(), OpponentModel(play_temperature=0.05, split_temperature=0.5,
                                             noise=0.3)]
    compared = infinite = 0
    step = 0
    while not state.rounds:
        if state.phase is Phase.PLAY and step % 6 == 1:
            seat = state.current_seat()
            view = state.view(seat)
            worlds = [sample_world(view, rng) for _ in range(4)]
            for world in worlds[:2]:
                _doctored(world, rng.choice([k for k in range(state.config.players)
                                             if k != seat]), rng)
            # a world drawn for another seat's view fits the public record too
            other = (seat + 1) % state.config.players
            worlds.append(sample_world(state.view(other), rng))
            for model in models:
                reader = Reader(view, model)
                python = [reader.log_likelihood(w) for w in worlds]
                compiled = reader.log_likelihoods(worlds)
                for a, b in zip(python, compiled, strict=True):
                    compared += 1
                    if math.isinf(a):
                        infinite += 1
                        assert b == a
                    else:
                        assert b == pytest.approx(a, rel=1e-9, abs=1e-9)
        bot_turn(state, bots)  # type: ignore[arg-type]
        step += 1
    assert compared > 40
    assert infinite < compared
    if options == CONFIGS[0]:
        assert infinite > 0  # worlds that cannot explain a play were compared too


def test_compiled_likelihoods_follow_the_split_evidence() -> None:
    # at the first card of the round the only evidence is the other seats' splits:
    # giving a seat the heuristic's own pack makes a world likelier
    from meio.bots.policy import rank_packs

    state = State.new(MatchConfig(players=4, seed=3))
    bots = [make_bot("heuristic", s) for s in range(4)]
    while state.phase is Phase.SPLIT:
        bot_turn(state, bots)  # type: ignore[arg-type]
    view = state.view(state.current_seat())
    reader = Reader(view)
    j = (view.seat + 1) % 4
    worlds = [sample_world(view, random.Random(k)) for k in range(12)]
    better = []
    for world in worlds:
        ranking = rank_packs(world.deal[j], view.config)
        best = ranking.pack(ranking.best(1)[0])
        twin = world.clone()
        twin.packs[j] = best
        twin.hands[j] = world.deal[j] & ~best
        better.append(twin)
    before = reader.log_likelihoods(worlds)
    after = reader.log_likelihoods(better)
    for world, value in zip(worlds + better, [*before, *after], strict=True):
        assert value == pytest.approx(reader.log_likelihood(world), rel=1e-9, abs=1e-9)
    assert all(b >= a - 1e-9 for a, b in zip(before, after, strict=True))
    assert sum(b > a + 1.0 for a, b in zip(before, after, strict=True)) >= 6


@pytest.mark.parametrize("options", CONFIGS)
def test_compiled_pack_costs_equal_the_heuristic_ranking(options: dict[str, Any]) -> None:
    from meio.bots.features import TRUMP_RISK
    from meio.bots.inference import _kernel_tables, _words, sample_packs
    from meio.bots.likelihood import pack_logits_of
    from meio.bots.policy import _PARTNER_VAR_PER_CARD, rank_packs

    state = State.new(MatchConfig(seed=2, **options))
    public = state.view(0).config
    t = _kernel_tables(public)
    deck = public.deck if public.specials_known else public.deck | C.mask_of(C.SPECIALS)
    lo, hi = _words(deck)
    deals = np.array([_words(d) for d in state.deal], dtype=np.uint64)
    z = pack_logits_of(public.players, public.partnership, deals, np.uint64(lo),
                       np.uint64(hi), t.ruleset, t.pile, t.cc_fixed, t.cc_base, t.cc_sure,
                       t.cc_trump, TRUMP_RISK, _PARTNER_VAR_PER_CARD, 1.0)
    for j, dealt in enumerate(state.deal):
        ranking = rank_packs(dealt, public)
        assert np.allclose(-z[j], ranking.cost, rtol=1e-12, atol=1e-12)
        # drawn packs follow the model: the likeliest packs come up most
        sharp = OpponentModel(split_temperature=1e-4, noise=1e-6)
        drawn = sample_packs([dealt] * 20, public, random.Random(j), sharp)
        best = ranking.best(1)[0]
        assert all(ranking.cost[ranking.index_of(p)] <= ranking.cost[best] + 2e-3
                   for p in drawn)


def test_a_ruleset_the_model_does_not_read_gets_uniform_worlds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Off the editions' cards (a 6/7 split) the play is not weighed: the worlds are the
    pool's own, dealt uniformly, and no likelihood is computed; on the same cards with
    another leader rule and scoring (:data:`ROTATE`) they are weighed."""
    split = parse_variant('preset = "meio"\n[hand]\nfirst_half = 6\npack = 7\n', "6-7.toml")
    assert not reads_play(MatchConfig(players=4, variant=split))
    assert reads_play(MatchConfig(players=4, variant=ROTATE))
    weighed = []

    def counted(self: Reader, *args: Any) -> Any:
        weighed.append(self.view.config.ruleset.name)
        return original(self, *args)

    original = Reader.log_likelihoods_of
    monkeypatch.setattr(Reader, "log_likelihoods_of", counted)
    for variant in (split, ROTATE):
        state = State.new(MatchConfig(players=4, seed=5, variant=variant))
        bots = [make_bot("heuristic", s) for s in range(4)]
        while state.phase is Phase.SPLIT or len(state.current_trick) < 2:
            bot_turn(state, bots)  # type: ignore[arg-type]
        view = state.view(state.current_seat())
        config, positions = infer_positions(view, 6, 40, random.Random(1))
        assert positions.shape[0] == 6 and config.ruleset.name == variant.name
    assert weighed == [ROTATE.name]
