"""The bots in a variant game (meio.bots.variant_play): which play, and how well."""

from __future__ import annotations

import pytest

from meio.bots import make_bot, play_match
from meio.engine import MatchConfig
from meio.engine.ruleset_file import parse_variant

ODD = parse_variant(
    'preset = "meio"\ntrump = "S"\nleader = "last_trick"\n'
    "[hand]\nsize = 12\nfirst_half = 7\npack = 5\n"
    '[[special]]\ncode = "-2H"\nvalue = 13.5\nsuit = "D"\nfollows = false\npile = "other_half"\n'
    '[[special]]\ncode = "+.5"\nvalue = ["above", 16]\nsuit = "wild"\npile = "winner_chooses"\n'
    '[[special]]\npreset = "A+"\n[deck.4]\nspecials = 3\n[deck.5]\nspecials = 3\n'
)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_heuristic_plays_an_invented_variant_better_than_random(players: int) -> None:
    mean = {}
    for bot in ("heuristic", "random"):
        total = 0.0
        for seed in range(12):
            cfg = MatchConfig(players=players, seed=seed, variant=ODD)
            done = play_match(cfg, [make_bot(bot, seed * 10 + s) for s in range(players)])
            total += sum(sum(r.scores) for r in done.rounds) / len(done.rounds) / players
        mean[bot] = total / 12
    assert mean["heuristic"] < mean["random"]
