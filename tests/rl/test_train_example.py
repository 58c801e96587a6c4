"""examples/train_ppo.py trains, saves a policy the learned bot plays, and plots."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow  # about 40 s; skipped where the rl extra (torch) is not installed
def test_a_short_training_run_saves_a_playable_policy(tmp_path: Path) -> None:
    out = tmp_path / "p.npz"
    png = tmp_path / "curve.png"
    subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_ppo.py"), "--minutes", "0.05",
         "--envs", "16", "--horizon", "16", "--minibatch", "128", "--hidden", "16",
         "--reference-matches", "50", "--out", str(out), "--plot", str(png)],
        check=True, capture_output=True, timeout=300,
    )
    assert png.stat().st_size > 0
    assert "reference,random_agent" in out.with_suffix(".csv").read_text()
    from meio.bots import make_bot, play_match
    from meio.engine import MatchConfig

    bots = [make_bot(f"learned:{out}", s) for s in range(3)]
    assert play_match(MatchConfig(players=3, seed=1), bots).is_over
