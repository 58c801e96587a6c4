"""Bots make only legal moves, finish matches everywhere, and are deterministic."""

from __future__ import annotations

import pytest

from meio.bots import make_bot, play_match
from meio.bots.playout import evaluate_actions as python_evaluate
from meio.bots.search import LEVELS, Level, SearchBot
from meio.engine import MatchConfig
from meio.engine.record import Record

CONFIGS = [
    ("meio", 2, False), ("meio", 3, False), ("meio", 4, False), ("meio", 5, False),
    ("meio", 4, True), ("classic", 2, False), ("classic", 3, False), ("classic", 4, False),
]
TINY = Level(card_worlds=3, card_playouts=1, split_candidates=3, split_worlds=3,
             split_playouts=1)


def tiny_search(seed: int) -> SearchBot:
    return SearchBot(seed, budget=TINY, evaluate=python_evaluate)


@pytest.mark.parametrize(("edition", "players", "partnership"), CONFIGS)
def test_heuristic_and_random_play_only_legal_moves(edition: str, players: int,
                                                    partnership: bool) -> None:
    # play_match applies every action with State.apply, which raises on an illegal one
    finished = 0
    for seed in range(120):
        cfg = MatchConfig(edition=edition, players=players,  # type: ignore[arg-type]
                          partnership=partnership, seed=seed)
        kinds = ["heuristic", "random"] if seed % 2 else ["random", "heuristic"]
        bots = [make_bot(kinds[s % 2], seed * 10 + s) for s in range(players)]
        state = play_match(cfg, bots)
        finished += state.is_over and bool(state.winners)
    assert finished == 120


@pytest.mark.parametrize(("edition", "players", "partnership"), CONFIGS)
def test_search_completes_matches(edition: str, players: int, partnership: bool) -> None:
    cfg = MatchConfig(edition=edition, players=players,  # type: ignore[arg-type]
                      partnership=partnership, seed=7)
    bots = [tiny_search(s) if s % 2 == 0 else make_bot("heuristic", s) for s in range(players)]
    state = play_match(cfg, bots)
    assert state.is_over and state.winners


def _record(kinds: list[str], seed: int) -> dict[str, object]:
    cfg = MatchConfig(players=len(kinds), seed=seed)
    bots = [tiny_search(seed + s) if k == "search" else make_bot(k, seed + s)
            for s, k in enumerate(kinds)]
    return Record.from_state(play_match(cfg, bots)).to_json()


def test_bots_are_deterministic_given_a_seed() -> None:
    for kinds in (["heuristic", "random", "heuristic"], ["search", "random", "heuristic"]):
        assert _record(kinds, 3) == _record(kinds, 3)
    # and the seed matters
    a = make_bot("random", 1)
    b = make_bot("random", 2)
    picks_a = [a.choose(None, list(range(100))) for _ in range(5)]  # type: ignore[arg-type]
    picks_b = [b.choose(None, list(range(100))) for _ in range(5)]  # type: ignore[arg-type]
    assert picks_a != picks_b


def test_registry_knows_every_bot_and_level() -> None:
    from meio.bots import bot_kinds

    assert {"random", "heuristic", "search", "search:1", "search:2", "search:3", "search:4",
            "expert"} <= set(bot_kinds())
    assert make_bot("search", 0).name == "search"
    assert make_bot("search:1", 0).name == "search:1"
    assert make_bot("expert", 0).name == "expert"
    assert set(LEVELS) == {1, 2, 3, 4}
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("alphameio", 0)
    with pytest.raises(ValueError, match="level 9"):
        SearchBot(0, 9)


def test_importing_a_bot_module_registers_nothing() -> None:
    """The built-in bots are listed explicitly; importing a module has no side effect,
    and a bot added by hand is removed again."""
    import subprocess
    import sys

    code = ("import meio.bots as b, meio.bots.random_bot, meio.bots.heuristic, "
            "meio.bots.search; print(sorted(set(b.bot_kinds()) - set(b.builtin_bots())))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
    from meio.bots import register, unregister
    from meio.bots.random_bot import RandomBot
    from meio.engine import MeioError

    register("tmp-test", RandomBot)
    assert make_bot("tmp-test", 1).name == "random"
    unregister("tmp-test")
    with pytest.raises(MeioError, match="unknown bot 'tmp-test'"):
        make_bot("tmp-test", 1)
