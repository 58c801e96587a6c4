"""``meio design report`` and ``meio design tune`` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meio.cli import app

runner = CliRunner()


def test_report_writes_a_card_with_its_player_and_ladder(tmp_path: Path) -> None:
    out = tmp_path / "card"
    result = runner.invoke(app, ["design", "report", "mini", "--players", "2", "--deals", "8",
                                 "--player", "heuristic", "--ladder", "random,heuristic",
                                 "--out", str(out), "--seed", "3"])
    assert result.exit_code == 0, result.output
    data = json.loads((out / "summary.json").read_text())
    assert data["plan"]["player"] == "heuristic" and data["plan"]["deals"] == 8
    assert data["rulesets"][0]["figures"]["seats"]["seat_gap"]["n"] == 8
    assert (out / "report.html").read_text().startswith("<!doctype html>")


@pytest.mark.parametrize("name", ["meio", "classic", "examples/variants/six-seven.toml"])
def test_report_on_the_box_the_classic_edition_and_a_variant_file(
        tmp_path: Path, name: str) -> None:
    # the network named: it plays the editions and, through its form for any ruleset,
    # a variant file
    result = runner.invoke(app, ["design", "report", name, "--players", "3", "--deals", "2",
                                 "--player", "learned", "--ladder", "random,heuristic",
                                 "--out", str(tmp_path), "--seed", "4"])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "summary.json").read_text())
    card = data["rulesets"][0]
    assert data["plan"]["player"] == "learned" and card["name"] == Path(name).stem
    assert card["figures"]["seats"]["seat_gap"]["n"] == 2
    assert card["figures"]["depth"]["gap:random>heuristic"]["n"] == 2
    specials = card["figures"].get("specials", {})
    # classic has no special cards; the box and the variant have the box's
    assert ("worth:Q+" in specials) == (name != "classic")
    assert "<h2>Depth</h2>" in (tmp_path / "report.html").read_text()


@pytest.mark.parametrize("name, vary", [
    ("classic", "trump=H,none"),
    ("examples/variants/six-seven.toml", "special.Q+.value=10..14"),
])
def test_tune_on_the_classic_edition_and_a_variant_file(tmp_path: Path, name: str,
                                                        vary: str) -> None:
    result = runner.invoke(app, ["design", "tune", name, "--players", "3", "--vary", vary,
                                 "--vary", "hand.first_half=5..7", "--goal", "max depth",
                                 "--trials", "2", "--deals", "3", "--pick", "1",
                                 "--out", str(tmp_path), "--seed", "8"])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "tune.json").read_text())
    assert data["plan"]["rulesets"] == [Path(name).stem]
    assert [t["state"] for t in data["trials"]] == ["COMPLETE", "COMPLETE"]
    from meio.engine.ruleset_file import load_variant

    trial = load_variant(tmp_path / "trials" / "trial-0000.toml")
    assert trial.first_half == data["trials"][0]["params"]["hand.first_half"]


def test_a_ruleset_without_special_cards_says_so(tmp_path: Path) -> None:
    result = runner.invoke(app, ["design", "tune", "classic", "--vary", "special.Q+.value=1..2",
                                 "--goal", "max depth", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "classic has no special cards" in result.stderr


@pytest.mark.parametrize("args, words", [
    (["nowhere"], "'nowhere' is neither a preset"),
    (["mini", "--players", "4"], "mini is played by 2 players, not 4"),
    (["meio", "--player", "best"], "unknown player 'best'"),
    (["mini", "--players", "2", "--player", "ppo"], "ppo does not play every ruleset"),
    (["mini", "--time", "soon"], "--time 'soon'"),
])
def test_report_refuses_in_one_line(tmp_path: Path, args: list[str], words: str) -> None:
    result = runner.invoke(app, ["design", "report", *args, "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert words in result.stderr
    assert "Traceback" not in result.output


def test_a_variant_files_problems_are_listed(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('preset = "meio"\n[hand]\nfirst_half = 8\n')
    result = runner.invoke(app, ["design", "report", str(bad), "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert "bad.toml: hand: pack sizes 8 + 6 do not add up to the hand of 13" in result.stderr


def test_tune_runs_resumes_and_writes_its_front(tmp_path: Path) -> None:
    args = ["design", "tune", "mini", "--players", "2", "--vary", "special.Q+.value=10..14",
            "--goal", "max depth", "--goal", "seat_gap<0.5", "--deals", "6",
            "--fresh-deals", "6", "--pick", "1", "--out", str(tmp_path), "--seed", "2"]
    first = runner.invoke(app, [*args, "--trials", "2"])
    assert first.exit_code == 0, first.output
    again = runner.invoke(app, [*args, "--trials", "3"])
    assert again.exit_code == 0, again.output
    data = json.loads((tmp_path / "tune.json").read_text())
    assert len(data["trials"]) == 3 and data["reevaluated"][0]["goals"][0]["fresh"]
    assert "## Pareto front" in (tmp_path / "tune.md").read_text()
    assert sorted(p.name for p in (tmp_path / "trials").iterdir()) == [
        "trial-0000.toml", "trial-0001.toml", "trial-0002.toml"]


@pytest.mark.parametrize("args, words", [
    (["--vary", "hand.firsthalf=5..8", "--goal", "max depth"], "no key 'firsthalf'"),
    (["--vary", "hand.first_half=1..2", "--goal", "max fun"], "unknown figure 'fun'"),
    (["--vary", "hand.first_half=1..2", "--goal", "depth>1"], "at least one goal"),
    (["--vary", "hand.first_half=1..2", "--goal", "max depth", "--player", "ppo"],
     "ppo does not play variants"),
    (["--vary", "hand.first_half=1..2", "--goal", "max depth", "--sampler", "cma"],
     "--sampler is tpe or nsga2"),
])
def test_tune_refuses_in_one_line(tmp_path: Path, args: list[str], words: str) -> None:
    result = runner.invoke(app, ["design", "tune", "mini", "--players", "2", *args,
                                 "--out", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert words in result.stderr


def test_the_help_names_the_ladder_and_the_figures_meio_design_knows() -> None:
    from meio.cli.design import FIGURES, LADDER, LADDER_ANY
    from meio.design.report import LADDER as KINDS
    from meio.design.report import LADDER_ANY as KINDS_ANY
    from meio.design.tune import GOALS

    assert LADDER.split(", ") == list(KINDS)
    assert LADDER_ANY.split(", ") == list(KINDS_ANY)
    assert FIGURES.split(", ") == list(GOALS)
