"""The trick-winner rule is written once: the engine's function, compiled by numba
for the core (on an edition's preset tables), gives the same winner everywhere; and
numba's cache never keeps the machine code of a rule file that changed."""

from __future__ import annotations

import os
import pathlib

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from meio.engine import MatchConfig
from meio.engine import cards as C
from meio.engine import tricks as T
from meio.engine.presets import preset
from meio.engine.tricks import winning_index
from meio.sim import core as K
from meio.sim.diskcache import cache_flag
from meio.sim.tables import tables_for


def test_a_kernel_file_older_than_a_rule_it_compiles_gets_a_fresh_stamp(
    tmp_path: pathlib.Path,
) -> None:
    # numba keys each kernel's cache on its own file's stamp: a changed rule file must
    # change that stamp, or the cached machine code would hold the old rule
    kernel, rule = tmp_path / "kernels.py", tmp_path / "rule.py"
    kernel.write_text("# kernels\n")
    rule.write_text("# rule\n")
    os.utime(kernel, ns=(10**18, 10**18))
    os.utime(rule, ns=(10**18 + 5, 10**18 + 5))
    assert cache_flag(str(kernel), str(rule))
    assert kernel.stat().st_mtime_ns == 10**18 + 5
    assert cache_flag(str(kernel), str(rule))  # nothing newer now: left alone
    assert kernel.stat().st_mtime_ns == 10**18 + 5


def test_a_kernel_file_that_cannot_be_restamped_compiles_without_the_cache(
    tmp_path: pathlib.Path,
) -> None:
    rule = tmp_path / "rule.py"
    rule.write_text("# rule\n")
    assert not cache_flag(str(tmp_path / "missing.py"), str(rule))


def test_the_kernels_are_stamped_after_the_engines_rule() -> None:
    assert K.CACHE
    assert pathlib.Path(K.__file__).stat().st_mtime_ns >= pathlib.Path(T.__file__).stat(
    ).st_mtime_ns


def test_the_compiled_rule_is_the_engines_function() -> None:
    assert K.trick_rule.py_func is T.winning_index


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
    expected = winning_index(cards, led, rules.trick_values[half - 1], rules.suit_of, rules.trump)
    assert expected[0] >= 0  # a trick always has a winner
    # the edition as the core reads it: its preset's ruleset tables
    ruleset = tables_for(MatchConfig(edition=edition, players=2)).ruleset
    got = K.trick_rule(np.array(cards, dtype=np.int32), led, ruleset[K.R_VALUES + half - 1],
                       ruleset[K.R_SUIT], ruleset[K.R_NUMBERS, K.N_TRUMP])
    assert got == expected
    # the core's own entry point, reading the trick from a position
    s = np.zeros(K.STATE_LEN, dtype=np.int32)
    s[K.TRICK : K.TRICK + len(cards)] = cards
    s[K.LED] = led
    assert K.trick_winner(s, len(cards), half, ruleset) == expected[0]
