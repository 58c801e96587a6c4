"""The lab on variants: ``meio analyze --variant FILE`` and ``meio analyze compare``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from meio.analysis import AnalysisError, AnalysisSpec, LocalBackend, run_analysis
from meio.analysis.compare import run_compare, same_deals
from meio.analysis.plan import Cell, Chunk, Table, derive
from meio.analysis.play import core_plays, engine_batch, match_config, play_chunk
from meio.bots import make_bot, play_match
from meio.cli import app
from meio.engine.presets import preset
from meio.engine.ruleset import Variant
from meio.engine.ruleset_file import parse_variant
from meio.engine.scoring import match_winners

#: ten cards a seat, 4 + 6; the 2-player deck has no specials; squared scores; first
#: to 3 victories with 2 players, 2 rounds on totals with unshared ties otherwise
ODD = """
name = "odd"
preset = "meio"
[hand]
size = 10
first_half = 4
pack = 6
[deck.2]
specials = 0
[scoring]
form = "squared"
[match.default]
form = "totals"
rounds = 2
shared = false
[match.2]
form = "victories"
to_win = 3
"""
SQUARED = parse_variant('preset = "meio"\nname = "squared"\n[scoring]\nform = "squared"\n')
TWELVE = parse_variant('preset = "meio"\nname = "twelve"\n[hand]\nsize = 12\nfirst_half = 6\n'
                       'pack = 6\n')


def _odd() -> Variant:
    return parse_variant(ODD, "odd.toml")


def test_a_variant_table_is_played_by_the_engine_with_its_own_sizes_and_results() -> None:
    variant = _odd()
    seen: set[bool] = set()
    for players in (2, 3):
        table = Table.of_variant(variant, players)
        assert not core_plays(table, "heuristic") and not core_plays(table, "random")
        cell = Cell(table, table.special_sets()[0], "random")
        chunk = Chunk(cell, 0, 12, seed=3)
        batch = engine_batch(chunk)
        assert batch.deals.shape[-1] == 10 and batch.splits.shape[-1] == 6
        rows = play_chunk(chunk)
        for g in range(12):
            seed = chunk.game_seed(g)
            config = match_config(table, cell.specials, seed)
            state = play_match(config, [make_bot("random", derive(seed, s))
                                        for s in range(players)])
            mine = (rows["game"] == g) & (rows["round"] == 0)
            winners = sorted(int(s) for s in rows["seat"][mine][rows["match_win"][mine] > 0])
            assert winners == sorted(state.winners)
            assert int(rows["rounds"][mine][0]) == len(state.rounds)
            # the last round decides when the leaders before it are not the winners
            before = match_winners(config, state.rounds[:-1]) if len(state.rounds) > 1 \
                else list(range(players))
            decided = sorted(before) != sorted(state.winners)
            assert bool(rows["decided_last"][mine][0]) == decided
            seen.add(decided)
            for r, result in enumerate(state.rounds):
                at = (rows["game"] == g) & (rows["round"] == r)
                assert rows["side_score"][at].tolist() == list(result.scores)
    assert seen == {True, False}  # both cases came up


def test_a_variant_analysis_names_the_variant_and_says_what_it_skips(tmp_path: Path) -> None:
    path = tmp_path / "odd.toml"
    path.write_text(ODD)
    out = tmp_path / "lab"
    result = CliRunner().invoke(app, [
        "analyze", "seats", "specials", "splits", "rules", "length", "--variant",
        str(path), "--players", "2", "--players", "3", "--games", "30", "--bots", "random",
        "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    v = summary["variant"]
    assert (v["name"], v["hand"], v["first_half"], v["pack"]) == ("odd", 10, 4, 6)
    tag = v["tag"]
    assert set(summary["studies"]["seats"]) == {f"{tag}-2p", f"{tag}-3p"}
    skipped = summary["skipped"]
    assert "table options" in skipped["rules"]
    assert "no special cards with 2 players" in skipped[f"specials/{tag}-2p"]
    assert "rules" not in summary["studies"]
    assert set(summary["studies"]["specials"]) == {f"{tag}-3p"}
    assert summary["studies"]["splits"][f"{tag}-3p"]["random_share"] == pytest.approx(0.6)
    assert len(summary["studies"]["splits"][f"{tag}-3p"]["hearts"][
        "pack_count_distribution"]) == 7
    page = (out / "report.html").read_text()
    assert "Ruleset odd" in page and "10 cards dealt, 4 kept" in page
    assert "no special cards with 2 players" in page
    assert "Skipped rules" in (out / "findings.md").read_text()


def test_a_changed_variant_file_does_not_reuse_the_old_chunks(tmp_path: Path) -> None:
    old = _odd()
    new = parse_variant(ODD.replace("pack = 6", "pack = 5").replace("size = 10", "size = 9"),
                        "odd.toml")
    assert old.name == new.name
    spec = AnalysisSpec(questions=("seats",), players=(3,), games=4, policy="random",
                        variant=old)
    run_analysis(spec, tmp_path, LocalBackend(1))
    changed = AnalysisSpec(questions=("seats",), players=(3,), games=4, policy="random",
                           variant=new)
    with pytest.raises(AnalysisError, match="other options"):
        run_analysis(changed, tmp_path, LocalBackend(1))
    saved = {p.name for p in (tmp_path / "chunks").iterdir()}
    cell = Cell(changed.tables()[0], changed.tables()[0].special_sets()[0], "random")
    assert saved and f"{Chunk(cell, 0, 4, 0).key}.npz" not in saved


def _compare(tmp_path: Path, base: Variant, variant: Variant, games: int = 40,
             questions: tuple[str, ...] = ("seats", "specials", "skill", "splits", "length")
             ) -> dict[str, Any]:
    spec = AnalysisSpec(questions=questions, players=(4,), partnership=False, games=games,
                        seed=9, policy="random")
    summary, _, _ = run_compare(spec, base, variant, tmp_path, LocalBackend(1))
    table: dict[str, Any] = summary["compare"]["tables"]["4p"]
    return table


def _rows(table: dict[str, Any]) -> dict[str, Any]:
    return {f"{s}: {k}": r for s, rows in table["studies"].items() for k, r in rows.items()}


def test_a_ruleset_compared_with_itself_differs_by_nothing(tmp_path: Path) -> None:
    table = _compare(tmp_path, preset("meio"), preset("meio"))
    assert table["paired"]
    rows = _rows(table)
    assert {"seats: seat spread (worst − best)", "length: mean round score",
            "skill: heuristic vs random: weaker − stronger", "specials: Q+: holder − others",
            "splits: hearts kept for the second half"} <= set(rows)
    for name, row in rows.items():
        low, high = row["difference"]["ci95"]
        assert row["difference"]["value"] == 0 and low <= 0 <= high, name
        assert not row["separates"] and row["higher"] is None, name


def test_compare_finds_a_planted_difference_with_its_sign(tmp_path: Path) -> None:
    # the random bots play the same cards under both (same seeds, same legal moves),
    # so every squared score is at least the plain one, and larger where it exceeds 1
    table = _compare(tmp_path, preset("meio"), SQUARED, questions=("length",))
    assert table["paired"]
    row = table["studies"]["length"]["mean round score"]
    assert row["difference"]["value"] > 0.5 and row["difference"]["ci95"][0] > 0
    assert row["separates"] and row["higher"] == "variant"
    same = table["studies"]["length"]["rounds per match"]
    assert same["difference"]["value"] == 0 and not same["separates"]


def test_rulesets_that_deal_differently_are_compared_unpaired(tmp_path: Path) -> None:
    meio4 = Table.of_variant(preset("meio"), 4)
    assert same_deals(meio4, Table.of_variant(parse_variant(
        'preset = "meio"\nname = "ss"\n[hand]\nfirst_half = 6\npack = 7\n'), 4))
    assert not same_deals(meio4, Table.of_variant(TWELVE, 4))
    assert not same_deals(meio4, Table.of_variant(preset("classic"), 4))
    assert same_deals(meio4, Table.of_variant(parse_variant(
        'preset = "meio"\nname = "nx"\n[options]\nwild_lead = "next"\n'), 4))
    table = _compare(tmp_path, preset("meio"), TWELVE, questions=("length",))
    assert not table["paired"] and "unpaired" in table["pairing"]
    row = table["studies"]["length"]["mean round score"]
    a, b, d = row["base"], row["variant"], row["difference"]
    assert d["value"] == pytest.approx(b["value"] - a["value"], abs=2e-6)
    half = np.hypot(a["value"] - a["ci95"][0], b["value"] - b["ci95"][0])
    assert d["ci95"][1] - d["value"] == pytest.approx(half, abs=2e-6)


def test_a_difference_on_too_few_games_names_no_ruleset(tmp_path: Path) -> None:
    table = _compare(tmp_path, preset("meio"), SQUARED, games=6, questions=("length",))
    row = table["studies"]["length"]["mean round score"]
    assert row["difference"]["ci95"][0] > 0  # an interval that excludes 0, but n = 6
    assert not row["separates"] and row["higher"] is None and "too few games" in row["reason"]


def test_the_compare_command_writes_both_analyses_and_the_comparison(tmp_path: Path) -> None:
    path = tmp_path / "twelve.toml"
    path.write_text('preset = "meio"\nname = "twelve"\n[hand]\nsize = 12\nfirst_half = 6\n'
                    'pack = 6\n')
    out = tmp_path / "cmp"
    result = CliRunner().invoke(app, [
        "analyze", "compare", "meio", str(path), "length", "--players", "4",
        "--no-partnership", "--games", "30", "--bots", "random", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["base"]["name"], summary["variant"]["name"]) == ("meio", "twelve")
    assert summary["variant"]["hand"] == 12 and summary["compare"]["tables"]["4p"]["studies"]
    assert (out / "base" / "summary.json").exists() and (out / "variant" / "report.html").exists()
    page = (out / "report.html").read_text()
    assert "id=compare" in page and "unpaired" in page and ">30<" in page
    # a forest plot of the differences, and the verdicts' method and players named
    assert 'data-plot="compare-4p"' in page and "p (Holm)" in page
    assert "Holm&#x27;s step-down" in page or "Holm's step-down" in page
    assert "Player on both rulesets: random legal moves" in page
    assert "| length: mean round score |" in (out / "findings.md").read_text()


@pytest.mark.parametrize(("args", "says"), [
    (["compare", "meio", "MISSING"], "cannot read the variant file"),
    (["compare", "meio"], "compare needs two rulesets"),
    (["compare", "meio", "classic", "--variant", "BAD"], "not --variant or --edition"),
    (["seats", "--variant", "BAD"], "do not add up to the hand of 13"),
    (["seats", "--variant", "GOOD", "--bots", "ppo"],
     "ppo bot does not play the ruleset 'good'"),
    (["seats", "--variant", "GOOD", "--bots", "grand"], "unknown policy 'grand'"),
    (["seats", "--variant", "GOOD", "--edition", "classic"], "leave out --edition"),
    (["compare", "meio", "BAD"], "do not add up to the hand of 13"),
])
def test_bad_rulesets_get_one_line(tmp_path: Path, args: list[str], says: str) -> None:
    (tmp_path / "bad.toml").write_text('preset = "meio"\n[hand]\nfirst_half = 8\n')
    (tmp_path / "good.toml").write_text(
        'preset = "meio"\nname = "good"\n[hand]\nfirst_half = 6\npack = 7\n')
    real = [a.replace("MISSING", str(tmp_path / "none.toml"))
            .replace("BAD", str(tmp_path / "bad.toml"))
            .replace("GOOD", str(tmp_path / "good.toml")) for a in args]
    result = CliRunner().invoke(app, ["analyze", *real, "--games", "2",
                                      "--out", str(tmp_path / "lab")])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and says in lines[0], result.output
    assert "Traceback" not in result.output
