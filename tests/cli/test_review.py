"""``meio review``, ``meio puzzle`` and ``meio mine-puzzles`` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from meio.cli import app
from meio.engine import MatchConfig, State
from meio.engine.record import Record
from meio.puzzles import shipped

DATA = Path(__file__).parents[1] / "data" / "review"
BLUNDER = DATA / "blunder-4p.json"


def test_review_prints_the_json_review_of_one_seat() -> None:
    out = CliRunner().invoke(app, ["review", str(BLUNDER), "--json", "--depth", "quick",
                                   "--seat", "1"])
    assert out.exit_code == 0, out.output
    review = json.loads(out.stdout)
    assert review["format"] == "meio-review/1" and review["depth"] == "quick"
    assert {d["seat"] for d in review["decisions"]} == {1}
    blunder = next(d for d in review["decisions"] if d["ply"] == 49)
    assert blunder["flag"] == "blunder" and blunder["action"] == "Q+=D"
    assert review["seats"][1]["flags"]["blunder"] >= 1
    assert review["seats"][0]["accuracy"] is None  # not reviewed


def test_review_says_in_words_where_points_were_lost() -> None:
    out = CliRunner().invoke(app, ["review", str(BLUNDER), "--depth", "quick", "--seat", "1"])
    assert out.exit_code == 0, out.output
    assert "seat 1: accuracy" in out.stdout
    assert "round 1, trick 12 (seat 1): blunder: Q+=D lost" in out.stdout


def test_an_unfinished_match_or_a_bad_depth_is_one_line_and_exit_2(tmp_path: Path) -> None:
    state = State.new(MatchConfig(players=4, seed=1))
    path = tmp_path / "live.json"
    path.write_text(Record.from_state(state).to_text())
    out = CliRunner().invoke(app, ["review", str(path)])
    assert out.exit_code == 2 and "only a finished match" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    out = CliRunner().invoke(app, ["review", str(BLUNDER), "--depth", "huge"])
    assert out.exit_code == 2 and "--depth" in out.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    out = CliRunner().invoke(app, ["review", str(broken)])
    assert out.exit_code == 2 and "Traceback" not in out.output


def test_puzzle_checks_the_move_and_keeps_the_rating_and_streak(tmp_path: Path) -> None:
    entry = next(p for p in shipped().puzzles if p.kind != "split")
    progress = tmp_path / "progress.json"
    args = ["puzzle", "--id", entry.id, "--progress", str(progress)]
    out = CliRunner().invoke(app, args, input=f"XX\n{entry.answer}\n")
    assert out.exit_code == 0, out.output
    assert "Solved!" in out.stdout and "streak 1" in out.stdout
    out = CliRunner().invoke(app, args, input=f"{entry.heuristic}\n")
    assert out.exit_code == 0, out.output
    assert f"Not the best: {entry.answer} was." in out.stdout and "streak 0" in out.stdout
    kept = json.loads(progress.read_text())
    assert kept["player"]["solved"] == 1 and kept["player"]["tried"] == 2
    assert kept["puzzles"][entry.id]["games"] == 2


def test_puzzle_refuses_an_unknown_id(tmp_path: Path) -> None:
    out = CliRunner().invoke(app, ["puzzle", "--id", "nope", "--progress",
                                   str(tmp_path / "p.json")])
    assert out.exit_code == 2 and "no puzzle" in out.stderr


def test_puzzle_offers_a_splits_packs_and_checks_the_one_chosen(tmp_path: Path) -> None:
    from meio.engine import actions as A
    from meio.engine import cards as C

    entry = next(p for p in shipped().puzzles if p.kind == "split")
    args = ["puzzle", "--id", entry.id, "--progress", str(tmp_path / "progress.json")]
    answer = C.format_cards(A.pack_of(A.parse_action(entry.answer)))
    right = entry.choices.index(entry.answer) + 1
    out = CliRunner().invoke(app, args, input=f"9\n{right}\n")
    assert out.exit_code == 0, out.output
    assert "Which of these packs is best?" in out.stdout
    for n, choice in enumerate(entry.choices, 1):
        assert f"{n}) {C.format_cards(A.pack_of(A.parse_action(choice)))}" in out.stdout
    assert "choose a pack from 1 to" in out.stdout and "Solved!" in out.stdout
    wrong = entry.choices.index(entry.heuristic) + 1
    out = CliRunner().invoke(app, args, input=f"{wrong}\n")
    assert f"Not the best: {answer} was." in out.stdout
    # the pack may be typed as its cards too, in any order
    out = CliRunner().invoke(app, args, input=" ".join(reversed(answer.split())) + "\n")
    assert "Solved!" in out.stdout
