"""The ruleset file's documented limits (docs/variants.md), one line a problem, and a
variant record that leaves its table options to the variant
(:mod:`meio.engine.ruleset_file`)."""

from __future__ import annotations

import random

import pytest

from meio.engine import MatchConfig, State
from meio.engine.errors import RecordError
from meio.engine.presets import PRESETS, preset
from meio.engine.record import Record, replay_record
from meio.engine.ruleset_file import VariantError, parse_variant, variant_from_json, variant_json

#: a deck for small hands only: 2 players, the four Aces and two specials
SMALL_DECK = '[deck]\n3 = false\n4 = false\n5 = false\n[deck.2]\nranks = "A"\nspecials = 2\n'


def _problems(text: str) -> list[str]:
    with pytest.raises(VariantError) as info:
        parse_variant('preset = "meio"\npartnership = false\n' + text, "x.toml")
    return info.value.problems


@pytest.mark.parametrize(
    ("hand", "line"),
    [
        ("size = 1\nfirst_half = 1\npack = 0\n", "hand.size: must be a whole number from 2 to 15"),
        ("size = 3\nfirst_half = 0\npack = 3\n", "hand.first_half: must be a whole number from 1"),
        ("size = 3\nfirst_half = 3\npack = 0\n", "hand.pack: must be a whole number from 1 to 14"),
        ("size = 16\nfirst_half = 8\npack = 8\n", "hand.size: must be a whole number from 2 to 15"),
    ],
)
def test_the_hand_limits_are_those_the_docs_give(hand: str, line: str) -> None:
    assert f"x.toml: {line}" in [p[: len(line) + 8] for p in _problems("[hand]\n" + hand)]


def test_a_bad_hand_size_is_one_problem_on_one_line() -> None:
    # no second line checking the deck against a hand size the file did not give
    lines = _problems("[hand]\nsize = 16\nfirst_half = 8\npack = 8\n" + SMALL_DECK)
    assert lines == ["x.toml: hand.size: must be a whole number from 2 to 15, not 16"]


def test_the_smallest_hand_plays() -> None:
    v = parse_variant('preset = "meio"\npartnership = false\n[hand]\nsize = 2\n'
                      "first_half = 1\npack = 1\n" + SMALL_DECK)
    st = State.new(MatchConfig(players=2, variant=v, seed=3))
    rng = random.Random(3)
    while not st.is_over:
        st.apply(rng.choice(st.legal_actions()))
    assert all(len(r.tricks) == 2 for r in st.rounds)


@pytest.mark.parametrize(("bonus", "ok"), [(0, False), (1, True), (13, True), (14, False)])
def test_the_bonus_runs_from_1_to_13(bonus: int, ok: bool) -> None:
    text = f'preset = "meio"\n[scoring]\nform = "balance_bonus"\nbonus = {bonus}\n'
    if ok:
        assert parse_variant(text).bonus == bonus
    else:
        with pytest.raises(VariantError, match=r"scoring\.bonus: must be a whole number from 1 t"):
            parse_variant(text)


def test_the_presets_are_their_own_files() -> None:
    # the presets are values in code: each reads back from its file form unchanged
    for name in PRESETS:
        assert variant_from_json(variant_json(preset(name))) == preset(name)


class TestVariantRecordOptions:
    NEXT = parse_variant('preset = "meio"\nleader = "rotate"\n[options]\nwild_lead = "next"\n')

    def _record(self) -> dict[str, object]:
        cfg = MatchConfig(players=3, variant=self.NEXT, options=self.NEXT.options, seed=5)
        st = State.new(cfg)
        rng = random.Random(5)
        while not st.is_over:
            st.apply(rng.choice(st.legal_actions()))
        return Record.from_state(st).to_json()

    def test_a_variant_record_without_rules_plays_by_the_variants_options(self) -> None:
        data = self._record()
        assert data["rules"] == {"wild_lead": "next"}
        without = {k: v for k, v in data.items() if k != "rules"}
        state, _ = replay_record(without)
        assert state.config.options == self.NEXT.options
        assert Record.from_state(state).to_json() == data

    def test_rules_that_contradict_the_variant_are_still_refused(self) -> None:
        data = {**self._record(), "rules": {"wild_lead": "declare"}}
        with pytest.raises(RecordError, match="the variant's own"):
            replay_record(data)
