"""``meio train``: a tiny training saves a policy the learned bot plays, by default
in the working directory and never inside the package; a step budget repeats a
run exactly; ``--resume`` continues one; without PyTorch the command says so in
one line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meio.cli import app

runner = CliRunner()


@pytest.mark.slow  # about 20 s: torch, a short training, 200 reference matches
def test_train_saves_a_policy_the_learned_bot_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("torch")
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "meio-policy.npz"  # the default: the working directory
    result = runner.invoke(
        app, ["train", "--steps", "1024", "--envs", "16", "--hidden", "16",
              "--players", "3", "--opponents", "random", "--seed", "2"],
    )
    assert result.exit_code == 0, result.output
    assert "learned:meio-policy.npz" in result.output
    assert (tmp_path / "meio-policy.ckpt.pt").exists()
    rows = out.with_suffix(".csv").read_text().splitlines()
    assert rows[0] == "steps,seconds,mean_match_score" and len(rows) > 3
    assert rows[-4].startswith("1024,")  # two updates of 16 x 32 steps
    assert any(r.startswith("reference,random_agent,") for r in rows)
    from meio.bots.learned import load_policy

    assert load_policy(out).hidden == 16  # the width asked for
    from meio.bots import make_bot, play_match
    from meio.engine import MatchConfig

    bots = [make_bot(f"learned:{out}", s) for s in range(3)]
    assert play_match(MatchConfig(players=3, seed=1), bots).is_over


def test_train_without_torch_is_one_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now fails
    monkeypatch.delitem(sys.modules, "meio.rl.train", raising=False)
    result = runner.invoke(app, ["train", "--out", str(tmp_path / "p.npz")])
    assert result.exit_code == 2
    assert "pip install 'meio[rl]'" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "p.npz").exists()


def test_train_refuses_unknown_opponents(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["train", "--out", str(tmp_path / "p.npz"), "--opponents", "search"]
    )
    assert result.exit_code == 2 and "random or heuristic" in result.output


def test_train_refuses_to_write_into_the_installed_package() -> None:
    pytest.importorskip("torch")
    import meio

    out = Path(meio.__file__).parent / "bots" / "policies" / "mine.npz"
    result = runner.invoke(app, ["train", "--out", str(out), "--steps", "10"])
    assert result.exit_code == 2
    assert "inside the installed meio package" in result.output
    assert not out.exists()


def test_train_refuses_a_file_that_is_no_checkpoint(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    bad = tmp_path / "notes.ckpt.pt"
    bad.write_text("not a checkpoint")
    result = runner.invoke(app, ["train", "--out", str(tmp_path / "p.npz"), "--steps", "10",
                                 "--resume", str(bad)])
    assert result.exit_code == 2 and "is not a meio training checkpoint" in result.output
    assert "Traceback" not in result.output
