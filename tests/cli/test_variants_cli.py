"""``--variant FILE`` on the commands that create games (docs/variants.md)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from meio.cli import app
from meio.engine.record import Record, replay_record

runner = CliRunner()

SIX_SEVEN = 'preset = "meio"\n[hand]\nfirst_half = 6\npack = 7\n'


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "six-seven.toml"
    path.write_text(text)
    return path


def test_deal_writes_a_variant_record_that_replays(tmp_path: Path) -> None:
    path = _file(tmp_path, SIX_SEVEN)
    out = tmp_path / "game.json"
    result = runner.invoke(app, ["deal", "--players", "3", "--seed", "5", "--bots", "heuristic",
                                 "--variant", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["variant"]["hand"] == {"size": 13, "first_half": 6, "pack": 7}
    assert all(len(s) == 7 for s in data["rounds"][0]["splits"])
    state, _ = replay_record(data)
    assert state.is_over
    replayed = runner.invoke(app, ["replay", str(out)])
    assert replayed.exit_code == 0 and "variant six-seven" in replayed.output


def test_a_bad_variant_file_prints_each_problem_on_a_line(tmp_path: Path) -> None:
    path = _file(tmp_path, 'preset = "meio"\ntrump = "X"\n[hand]\nfirst_half = 8\n')
    result = runner.invoke(app, ["deal", "--variant", str(path)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert f"{path}: hand: pack sizes 8 + 6 do not add up to the hand of 13" in lines
    assert any(line.startswith(f"{path}: trump: ") for line in lines)
    assert "Traceback" not in result.output


def test_a_bot_that_cannot_play_a_variant_says_so_in_one_line(tmp_path: Path) -> None:
    path = _file(tmp_path, SIX_SEVEN)
    result = runner.invoke(app, ["deal", "--bots", "ppo", "--variant", str(path)])
    assert result.exit_code == 2 and "the ppo bot does not play variants" in result.output


def test_a_variant_tournament_writes_variant_records(tmp_path: Path) -> None:
    path = _file(tmp_path, SIX_SEVEN)
    out = tmp_path / "t"
    result = runner.invoke(app, ["tournament", "--bots", "heuristic,random", "--players", "2",
                                 "--matches", "2", "--variant", str(path), "--out", str(out),
                                 "--json"])
    assert result.exit_code == 0, result.output
    records = sorted((out / "records").rglob("*.json"))
    assert records
    rec = Record.from_json(records[0].read_text())
    assert rec.variant is not None and rec.variant.first_half == 6


def test_the_shipped_example_variants_load_and_differ_from_their_preset() -> None:
    from meio.engine.presets import preset
    from meio.engine.ruleset_file import load_variant

    root = Path(__file__).resolve().parents[2] / "examples" / "variants"
    examples = sorted(root.glob("*.toml"))
    assert examples, "examples/variants holds the README's example"
    for path in examples:
        variant = load_variant(path)
        assert variant != preset(variant.edition), f"{path.name} changes nothing"
        players = str(variant.players[-1])  # mini.toml is for 2 players only
        result = CliRunner().invoke(app, ["deal", "--variant", str(path), "--players", players,
                                          "-o", "-"])
        assert result.exit_code == 0, result.output
        assert "variant" in json.loads(result.stdout), path
    six_seven = load_variant(root / "six-seven.toml")
    assert (six_seven.first_half, six_seven.hand) == (6, 13)


def test_a_variant_file_that_is_not_text_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "binary.toml"
    path.write_bytes(b"\xff\xfe\x00preset")
    result = CliRunner().invoke(app, ["deal", "--variant", str(path), "-o", "-"])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # refused, not crashed
    assert "not a text file" in result.output


def test_advise_takes_a_variant_and_explains_this_hands_own_cards(tmp_path: Path) -> None:
    path = _file(tmp_path, SIX_SEVEN)
    hand = "AS KS 7S 3S QH 9H 4H TD 8D 5D JC 6C -1"
    result = runner.invoke(app, ["advise", hand, "--variant", str(path), "--budget", "0.3",
                                 "--json"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)["best"]["pack"]) == 7  # the variant's pack
    texts = []
    for cards in (hand, "3S 4S 5S 6S 3H 5H 3D 4D 6D 3C 4C 5C -1"):
        shown = runner.invoke(app, ["advise", cards, "--variant", str(path), "--budget",
                                    "0.3"], env={"COLUMNS": "200"})
        assert shown.exit_code == 0, shown.output
        text = " ".join(shown.output.split())
        note = text.split("First half (")[1]
        # the note names this hand's cards, by half, and which of them win or duck
        kept, packed = note.split(")")[0], note.split("second half (")[1].split(")")[0]
        assert sorted((kept + " " + packed).split()) == sorted(cards.split())
        assert "likely winners" in note and "cards to duck with" in note
        texts.append(note)
    # the ace and king of spades take tricks wherever they go; a hand of low cards has
    # no likely winner in either half, and its note says so
    winners = [part.split(",")[0] for part in texts[0].split("likely winners ")[1:]]
    assert "AS" in " ".join(winners) and "KS" in " ".join(winners)
    assert texts[1].count("likely winners none") == 2
    bad = runner.invoke(app, ["advise", hand, "--variant", str(path), "--chosen", "AS KS"])
    assert bad.exit_code == 2 and "--chosen must be 7 cards" in bad.output
