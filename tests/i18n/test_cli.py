"""The ``meio`` command follows LANG, and ``--lang`` chooses the game's language."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parents[2] / "src")


def meio(*args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(LANG=lang, PYTHONPATH=SRC, COLUMNS="100")
    return subprocess.run(
        [sys.executable, "-m", "meio", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_help_follows_lang() -> None:
    pt = meio("learn", "--help", lang="pt_BR.UTF-8")
    assert pt.returncode == 0 and "idioma do jogo" in pt.stdout
    en = meio("learn", "--help")
    assert en.returncode == 0 and "language of the game" in en.stdout


def test_unknown_language_is_one_clear_line() -> None:
    out = meio("play", "--lang", "fr")
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        "unknown language 'fr': use 'en' (English) or 'pt' (Português)"
    ]


def test_play_refuses_an_unknown_wild_lead() -> None:
    out = meio("play", "--quick", "--wild-lead", "first")
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        "Error: Invalid value for '--wild-lead': 'first' is neither declare nor next. "
        "Help: python -m meio play --help"
    ]
