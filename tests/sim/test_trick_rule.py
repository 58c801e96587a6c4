"""The trick-winner rule is written once: the engine's function, compiled by numba
for the core and the search bot's likelihoods, gives the same winner everywhere."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meio.bots import likelihood
from meio.engine import cards as C
from meio.engine import tricks as T
from meio.engine.presets import preset
from meio.engine.tricks import winning_index
from meio.sim import kernels as K


def test_the_kernels_are_cached_for_the_rule_as_it_is_now() -> None:
    # numba keys each kernel's cache on its own file: a changed rule must change
    # these files too, or their cached machine code would hold the old rule
    now = K.rule_digest(winning_index)
    assert now == K.TRICK_RULE_DIGEST, f"set TRICK_RULE_DIGEST = {now!r} in meio/sim/kernels.py"
    assert now == likelihood.TRICK_RULE_DIGEST, (
        f"set TRICK_RULE_DIGEST = {now!r} in meio/bots/likelihood.py"
    )
    assert K.CACHE and likelihood.CACHE


def test_the_digest_sees_the_constants_the_rule_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    # numba freezes the rule's tables and constants into the machine code too
    before = K.rule_digest(winning_index)
    monkeypatch.setattr(T, "RELATIVE", T.RELATIVE + 1)
    assert K.rule_digest(winning_index) != before


def test_the_compiled_rule_is_the_engines_function() -> None:
    assert K.trick_rule.py_func is winning_index


@st.composite
def tricks(draw: st.DrawFn) -> tuple[list[int], int, str, int]:
    """A trick as the engine plays it: distinct cards of one deck, the led suit set by
    the first non-wild card (or declared by a wild lead), -1 when all are wild."""
    edition = draw(st.sampled_from(["meio", "classic"]))
    players = draw(st.integers(2, 5 if edition == "meio" else 4))
    pool = list(range(60)) + (list(C.SPECIALS) if edition == "meio" else [])
    cards = draw(st.lists(st.sampled_from(pool), min_size=players, max_size=players,
                          unique=True))
    suits = [C.card_suit(c) for c in cards]
    first = next((s for s in suits if s >= 0), -1)
    declared = draw(st.integers(0, 3))
    led = declared if C.is_wild(cards[0]) and draw(st.booleans()) else first
    return cards, led, edition, draw(st.integers(1, 2))


@settings(max_examples=400, deadline=None)
@given(tricks())
def test_the_engine_and_the_compiled_rule_agree_on_every_trick(
    trick: tuple[list[int], int, str, int],
) -> None:
    cards, led, edition, half = trick
    rules = preset(edition).card_rules
    values = rules.trick_values[half - 1]
    table = np.array(values, dtype=np.int32)
    suit_of = np.array(rules.suit_of, dtype=np.int32)
    expected = winning_index(cards, led, values, rules.suit_of, rules.trump)
    assert expected[0] >= 0  # a trick always has a winner
    assert K.trick_rule(np.array(cards, dtype=np.int32), led, table, suit_of,
                        rules.trump) == expected
    # the core's own entry point, reading the trick from a position
    s = np.zeros(K.STATE_LEN, dtype=np.int32)
    s[K.TRICK : K.TRICK + len(cards)] = cards
    s[K.LED] = led
    val2 = np.array(rules.trick_values, dtype=np.int32)
    assert K.trick_winner(s, len(cards), half, val2) == expected[0]
