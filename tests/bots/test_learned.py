"""Learned policies: saved and loaded as NumPy, played by make_bot through the engine."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from meio.bots import bot_kinds, make_bot, play_match
from meio.bots.learned import (
    DEFAULT_POLICY,
    LOCAL_ACTIONS,
    PolicyFileError,
    load_policy,
    save_policy,
)
from meio.bots.observation import OBS_SIZE
from meio.engine import MatchConfig


def _random_policy(path: Path, hidden: int = 16) -> Path:
    rng = np.random.default_rng(0)
    shapes = {"w1": (OBS_SIZE, hidden), "b1": (hidden,), "w2": (hidden, hidden),
              "b2": (hidden,), "w3": (hidden, len(LOCAL_ACTIONS)), "b3": (len(LOCAL_ACTIONS),)}
    save_policy(path, {k: rng.normal(size=s) for k, s in shapes.items()}, players=4)
    return path


@pytest.mark.parametrize("players,partnership", [(2, False), (4, True), (5, False)])
def test_learned_path_plays_whole_matches(tmp_path: Path, players: int,
                                          partnership: bool) -> None:
    path = _random_policy(tmp_path / "p.npz")
    bots = [make_bot(f"learned:{path}", s) for s in range(players)]
    state = play_match(MatchConfig(players=players, partnership=partnership, seed=3), bots)
    assert state.is_over
    again = play_match(MatchConfig(players=players, partnership=partnership, seed=3),
                       [make_bot(f"learned:{path}", s) for s in range(players)])
    assert again.history == state.history  # greedy: the same view gives the same action


def test_shipped_policy_is_a_bot_kind_and_loads() -> None:
    assert "learned" in bot_kinds()
    policy = load_policy(DEFAULT_POLICY)
    assert policy.players == 4 and DEFAULT_POLICY.stat().st_size < 2_000_000
    bot = make_bot("learned")
    assert bot.name == "learned"


def test_bad_policy_files_get_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(PolicyFileError, match="no policy file"):
        make_bot(f"learned:{tmp_path / 'missing.npz'}")
    bad = tmp_path / "bad.npz"
    np.savez(bad, w1=np.zeros((3, 3)))
    with pytest.raises(PolicyFileError, match="not a"):
        load_policy(bad)
    text = tmp_path / "text.npz"
    text.write_text("hello")
    with pytest.raises(PolicyFileError):
        load_policy(text)
