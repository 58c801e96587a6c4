"""The small commands: meio deal and meio demo."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from meio.cli import app
from meio.engine.record import Record, replay_record

runner = CliRunner()


@pytest.mark.parametrize(
    "args",
    [["-n", "2"], ["-n", "5"], ["--edition", "classic", "-n", "3"], ["--partnership"]],
)
def test_deal_prints_a_finished_legal_record(args: list[str]) -> None:
    result = runner.invoke(app, ["deal", "--seed", "12", *args])
    assert result.exit_code == 0, result.output
    state, outcome = replay_record(result.stdout)
    assert outcome["finished"] and state.is_over
    again = runner.invoke(app, ["deal", "--seed", "12", *args])
    assert again.stdout == result.stdout  # the seed decides everything


def test_deal_writes_a_file(tmp_path: object) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "g.json"
    result = runner.invoke(app, ["deal", "--seed", "3", "--bot", "heuristic", "-o", str(out)])
    assert result.exit_code == 0
    record = Record.from_json(json.loads(out.read_text()))
    assert record.players == 4 and len(record.rounds) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["deal", "-n", "7"], "'--players' / '-n': 7 is not from 2 to 5"),
        (["deal", "--edition", "classic", "-n", "5"], "2 to 4 players"),
        (["deal", "--bot", "nobody"], "unknown bot 'nobody'"),
        (["demo", "-n", "3", "--partnership"], "exactly 4"),
    ],
)
def test_bad_options_exit_2_with_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_demo_shows_every_trick_and_the_winner() -> None:
    result = runner.invoke(app, ["demo", "--seed", "4", "-n", "4"])
    assert result.exit_code == 0
    out = result.stdout
    assert out.count("trick 13") == 3 and "Match over" in out
    record = runner.invoke(app, ["deal", "--seed", "4", "-n", "4"]).stdout
    state = Record.from_json(record).to_state()
    winners = ", ".join(f"seat {w}" for w in state.winners)
    assert f"winner {winners}" in out  # the demo plays the same match as deal


def test_version_and_help_list_every_command() -> None:
    from meio import __version__

    assert runner.invoke(app, ["--version"]).stdout.strip() == f"meio {__version__}"
    out = runner.invoke(app, ["--help"]).stdout
    for command in ("play", "view", "serve", "replay", "deal", "demo", "advise", "tournament",
                    "simulate"):
        assert f" {command} " in out


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_deal_and_demo_play_the_table_options(bot: str) -> None:
    args = ["--seed", "5", "-n", "4", "--bot", bot, "--wild-lead", "next", "--hide-specials"]
    result = runner.invoke(app, ["deal", *args])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["rules"] == {"wild_lead": "next", "reveal_specials": False}
    plays = [p for rnd in doc["rounds"] for p in rnd["plays"]]
    assert not any("=" in p and not p.startswith("pile") for p in plays)
    assert any(p in ("-1", "A+", "+.5", "Q+") for p in plays)
    state, outcome = replay_record(result.stdout)
    assert outcome["finished"] and state.config.options.wild_lead == "next"
    demo = runner.invoke(app, ["demo", *args])
    assert demo.exit_code == 0
    assert "wild lead: next, specials hidden" in demo.stdout
    winners = ", ".join(f"seat {w}" for w in state.winners)
    assert f"winner {winners}" in demo.stdout  # the demo plays the same match as deal


def test_deal_plays_two_player_classic_over_three_rounds() -> None:
    result = runner.invoke(app, ["deal", "--seed", "8", "-n", "2", "--edition", "classic"])
    assert result.exit_code == 0, result.output
    _, outcome = replay_record(result.stdout)
    assert len(outcome["rounds"]) == 3 and outcome["victories"] is None
    totals = outcome["totals"]
    assert outcome["winners"] == [totals.index(min(totals))]


def test_a_bad_wild_lead_exits_2_with_one_line() -> None:
    result = runner.invoke(app, ["deal", "--wild-lead", "first"])
    assert result.exit_code == 2 and result.stdout == ""
    assert "first" in result.stderr and len(result.stderr.strip().splitlines()) == 1
