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


def test_simulate_plays_the_table_options_and_records_them(tmp_path: Path) -> None:
    out_file = tmp_path / "games.jsonl"
    res = CliRunner().invoke(app, [
        "simulate", "--players", "2", "--edition", "classic", "--matches", "12",
        "--wild-lead", "next", "--hide-specials", "--seed", "2", "--records", str(out_file)])
    assert res.exit_code == 0, res.output
    # 2-player classic: every match is 3 rounds on totals
    assert "12 matches (36 rounds), classic edition, 2 players" in res.stdout
    assert "wild lead: next, specials hidden" in res.stdout
    for line in out_file.read_text().splitlines():
        doc = json.loads(line)
        assert doc["rules"] == {"wild_lead": "next", "reveal_specials": False}
        result = result_json(Record.from_json(doc).to_state())
        assert result["finished"] and result["victories"] is None
    res = CliRunner().invoke(app, ["simulate", "--rounds", "3", "--wild-lead", "both"])
    assert res.exit_code == 2 and "both" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
