"""``meio simulate``."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from meio.cli import app
from meio.engine.record import Record, result_json


def test_simulate_prints_throughput_and_scores_and_writes_replayable_records(
    tmp_path: Path,
) -> None:
    out_file = tmp_path / "games.jsonl"
    res = CliRunner().invoke(app, [
        "simulate", "--players", "3", "--edition", "classic", "--matches", "20",
        "--policy", "random", "--seed", "4", "--records", str(out_file)])
    assert res.exit_code == 0, res.output
    assert "20 matches (60 rounds), classic edition, 3 players" in res.stdout
    assert "cards/s" in res.stdout and "mean round score |H-V|: seat 0" in res.stdout
    lines = out_file.read_text().splitlines()
    assert len(lines) == 20
    assert result_json(Record.from_json(json.loads(lines[0])).to_state())["finished"]


def test_simulate_refuses_bad_input_with_one_line() -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["simulate", "--players", "5", "--edition", "classic"])
    assert res.exit_code == 2 and "classic edition is for 2 to 4 players" in res.stderr
    res = runner.invoke(app, ["simulate", "--rounds", "5", "--matches", "5"])
    assert res.exit_code == 2 and "either --rounds or --matches" in res.stderr
    res = runner.invoke(app, ["simulate", "--policy", "clever", "--rounds", "5"])
    assert res.exit_code == 2 and "unknown playout policy" in res.stderr
