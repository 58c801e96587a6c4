"""``meio play`` in a real pseudo-terminal (tmux): deal, split and play a round by keystrokes."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

MEIO = str(Path(sys.executable).with_name("meio"))


def tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", *args], check=True, capture_output=True, text=True, timeout=10
    ).stdout


def wait_screen(session: str, ready: Callable[[str], bool], timeout: float = 30) -> str:
    end = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < end:
        screen = tmux("capture-pane", "-p", "-t", session)
        if ready(screen):
            return screen
        time.sleep(0.1)
    raise AssertionError("screen never showed what was expected:\n" + screen)


def test_play_a_round_in_tmux(tmp_path: Path) -> None:
    session = f"meio-{uuid.uuid4().hex[:8]}"
    command = (
        f"{MEIO} play --quick --players 2 --seed 3 --bots random --speed instant "
        f"--save {tmp_path / 'g.json'}"
    )
    tmux(
        "new-session",
        "-d",
        "-s",
        session,
        "-x",
        "80",
        "-y",
        "24",
        "env",
        "TERM=xterm-256color",
        *command.split(),
    )
    try:
        screen = wait_screen(session, lambda s: "Pick 6 cards" in s)
        assert "♠" in screen or "♥" in screen
        tmux("send-keys", "-t", session, "Home", *(["Space", "Right"] * 6))
        wait_screen(session, lambda s: "(6/6)" in s)
        tmux("send-keys", "-t", session, "c")
        wait_screen(session, lambda s: "Your pack for tricks 8–13" in s)
        # play by trying each card in turn: illegal ones are refused and explained
        for _ in range(400):
            screen = tmux("capture-pane", "-p", "-t", session)
            if "Round 1 is over" in screen:
                break
            tmux("send-keys", "-t", session, "Enter", "Right")
            time.sleep(0.05)
        assert "Round 1 is over" in screen
        assert "Score" in screen and "Total" in screen
        tmux("send-keys", "-t", session, "Enter")
        wait_screen(session, lambda s: "Round 2" in s)
        tmux("send-keys", "-t", session, "q")
        wait_screen(session, lambda s: "Pick 6 cards" not in s, timeout=10)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, timeout=10)
