"""Versioned bot names: an alias moves, a versioned name and its weights never do."""

from __future__ import annotations

import pytest

from meio.bots import bot_kinds, make_bot
from meio.bots.learned import DEFAULT_POLICY, PPO_POLICY
from meio.bots.versions import (
    VERSIONS,
    UnknownVersionError,
    describe_bot,
    file_sha256,
    resolve,
)
from meio.tournament import tournament_bot_kinds


def test_every_shipped_weights_file_is_the_one_its_version_pins() -> None:
    for version in VERSIONS:
        if version.weights_path is not None:
            assert file_sha256(version.weights_path) == version.sha256, version.name
    # learned is the distilled network, ppo the PPO policy: not the same file
    assert resolve("learned").weights_path == DEFAULT_POLICY
    assert resolve("ppo").weights_path == PPO_POLICY


def test_every_alias_and_every_version_is_a_bot_and_plays_under_its_name() -> None:
    kinds = set(bot_kinds())  # what menus list: the short names
    for version in VERSIONS:
        assert version.alias in kinds and version.name not in kinds
        assert version.name in tournament_bot_kinds()
    assert make_bot("learned-v7").name == "learned-v7"
    assert make_bot("ppo-v1").name == "ppo-v1"
    assert make_bot("search:4-v1").name == "search:4-v1"


def test_a_versioned_bot_plays_as_its_alias() -> None:
    from meio.bots import play_match
    from meio.engine import MatchConfig

    for alias, name in (("learned", "learned-v7"), ("heuristic", "heuristic-v1")):
        one = play_match(MatchConfig(players=3, seed=4), [make_bot(alias, s) for s in range(3)])
        two = play_match(MatchConfig(players=3, seed=4), [make_bot(name, s) for s in range(3)])
        assert one.history == two.history


def test_an_unknown_name_is_refused_in_words() -> None:
    with pytest.raises(UnknownVersionError, match=r"learned-v6.*not a shipped bot"):
        resolve("learned-v6")
    assert describe_bot("someone-else") == {}


def test_a_policy_file_is_recorded_by_its_hash() -> None:
    info = describe_bot(f"learned:{PPO_POLICY}")
    assert info["sha256"] == resolve("ppo-v1").sha256


def test_a_versioned_heuristic_plays_a_variant_as_the_heuristic_does() -> None:
    from meio.bots.variant_play import check_variant_bot
    from meio.engine import MatchConfig
    from meio.engine.errors import ConfigError
    from meio.engine.presets import preset

    variant = preset("mini")
    config = MatchConfig(edition=variant.edition, players=2, seed=1, options=variant.options,
                         variant=variant)
    check_variant_bot("heuristic-v1", config)
    with pytest.raises(ConfigError, match="does not play variants"):
        check_variant_bot("learned-v7", config)
