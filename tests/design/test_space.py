"""The tuner's keys: ranges, the keys of a variant file, clear refusals, and the TOML a
trial is written as."""

from __future__ import annotations

import pytest

from meio.design.rulesets import DesignError
from meio.design.space import changed, check_key, parse_vary, variant_toml
from meio.engine.presets import preset
from meio.engine.ruleset_file import VariantError, parse_variant


def test_ranges_and_choices() -> None:
    assert parse_vary("hand.first_half=5..8").integer
    v = parse_vary("special.Q+.value=10.5..14")
    assert (v.low, v.high, v.integer) == (10.5, 14.0, False)
    assert parse_vary("trump=H,none").choices == ("H", "none")


@pytest.mark.parametrize("text, words", [
    ("hand.first_half", "write KEY=LOW..HIGH"),
    ("hand.first_half=8..5", "low end must be below"),
    ("hand.first_half=a..b", "not a range of numbers"),
    ("trump=H", "at least two choices"),
])
def test_a_bad_range_is_refused_with_its_reason(text: str, words: str) -> None:
    with pytest.raises(DesignError, match=words):
        parse_vary(text)


@pytest.mark.parametrize("key, words", [
    ("hand.firsthalf", "hand has no key 'firsthalf' \\(known: first_half, pack, size\\)"),
    ("special.Q++.value", "no special card 'Q\\+\\+'"),
    ("special.Q+.colour", "no attribute 'colour'"),
    ("deck.7.specials", "deck has no key '7'"),
    ("hand", "hand is a table; name one of its keys"),
    ("special.Q+", "special.<code>.<attribute>"),
])
def test_an_unknown_key_is_refused_naming_the_known_ones(key: str, words: str) -> None:
    with pytest.raises(DesignError, match=words):
        check_key(preset("meio"), key)


def test_a_first_half_alone_keeps_the_hand_and_a_half_value_keeps_the_other() -> None:
    v = changed(preset("meio"), {"hand.first_half": 5, "special.Q+.value_half_2": 3})
    assert (v.hand, v.first_half, v.pack) == (13, 5, 8)
    q = next(s for s in v.specials if s.code == "Q+")
    assert q.values == (25, 6)  # doubled: 12.5 in the first half, 3 in the second


def test_a_ruleset_that_does_not_hold_together_lists_its_problems() -> None:
    with pytest.raises(VariantError, match=r"hand\.size"):
        changed(preset("meio"), {"hand.size": 16})


@pytest.mark.parametrize("name", ["meio", "classic", "mini"])
def test_a_written_ruleset_reads_back_the_same(name: str) -> None:
    assert parse_variant(variant_toml(preset(name))) == preset(name)
    v = changed(preset(name), {"leader": "rotate"}, "rotating")
    assert parse_variant(variant_toml(v, "a comment\\nover two lines"), "rotating.toml") == v
