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
    assert "cards/s" in res.stdout
    assert "mean round score |H-V| by seat after the round's leader" in res.stdout
    lines = out_file.read_text().splitlines()
    assert len(lines) == 20
    assert result_json(Record.from_json(json.loads(lines[0])).to_state())["finished"]


def test_simulate_counts_seats_from_the_round_leader_with_intervals(tmp_path: Path) -> None:
    out_file = tmp_path / "games.jsonl"
    res = CliRunner().invoke(app, [
        "simulate", "--players", "3", "--edition", "classic", "--matches", "30",
        "--bots", "random", "--seed", "7", "--records", str(out_file)])
    assert res.exit_code == 0, res.output
    by_offset: list[list[int]] = [[], [], []]
    first_leader_wins = 0.0
    for line in out_file.read_text().splitlines():
        state = Record.from_json(json.loads(line)).to_state()
        for result in state.rounds:
            for k in range(3):
                by_offset[k].append(result.scores[(result.leader + k) % 3])
        if state.rounds[0].leader in state.winners:
            first_leader_wins += 1
    line = next(x for x in res.stdout.splitlines() if "after the round's leader" in x)
    for k, name in enumerate(("leader", "+1", "+2")):
        mean = sum(by_offset[k]) / len(by_offset[k])
        shown = line.split(f"{name} ")[1].split(" ")[0]
        assert shown == f"{mean:.3f}", (name, line)
    assert "[" in line.split("leader ")[1].split("·")[0]  # an interval follows each mean
    wins = next(x for x in res.stdout.splitlines() if "first round's leader" in x)
    assert f"leader {100 * first_leader_wins / 30:.1f} [" in wins


def test_simulate_answers_the_network_with_where_it_plays() -> None:
    res = CliRunner().invoke(app, ["simulate", "--bots", "learned", "--rounds", "5"])
    assert res.exit_code == 2 and "meio analyze --bots learned" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


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
