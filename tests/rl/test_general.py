"""Training the network for any ruleset (meio.rl.general): the generated rulesets leave
the benchmarks' rulesets out, the teacher's examples are well formed, a tiny training
writes a network the bot plays, and ``meio train --variant`` improves one."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from meio.bots.general import PICK_BASE, is_general_file, load_general
from meio.cli import app
from meio.engine.presets import is_standard
from meio.engine.ruleset_file import load_variant
from meio.rl.general import (
    Batch,
    is_held_out,
    play_round,
    random_ruleset,
    random_table,
)

ROOT = Path(__file__).resolve().parents[2]
HELD = [ROOT / "bench/rulesets/invented-special.toml", ROOT / "bench/rulesets/no-trump.toml",
        ROOT / "examples/variants/six-seven.toml"]


def test_the_benchmarks_rulesets_are_the_held_out_ones() -> None:
    for path in HELD:
        assert is_held_out(load_variant(path)), path
    assert not is_held_out(load_variant(ROOT / "examples/variants/mini.toml"))


def test_generated_rulesets_vary_and_are_never_held_out() -> None:
    rng = random.Random(0)
    drawn = [random_ruleset(rng) for _ in range(200)]
    assert not any(is_held_out(v) for v in drawn)
    assert not any(is_standard(v) for v in drawn)
    assert {v.trump for v in drawn} == {-1, 0, 1, 2, 3}
    assert len({v.first_half for v in drawn}) >= 5 and {v.edition for v in drawn} == {
        "meio", "classic"}


def _round() -> tuple[Batch, int, int]:
    rng = random.Random(3)
    variant = random_ruleset(rng)
    config = random_table(variant, rng)
    return play_round(config, 9, 1), config.players, config.pack_size


def test_the_teachers_examples_are_well_formed() -> None:
    batch, players, pack = _round()
    target = batch.target.astype(np.float32)
    assert ((target > 0) <= batch.mask).all()
    assert np.allclose(target.sum(axis=1), 1.0, atol=1e-2)
    picks = batch.mask[:, PICK_BASE:].any(axis=1)
    assert int(picks.sum()) == players * pack  # every seat's pack as sequential picks
    assert not batch.mask[picks, :PICK_BASE].any()
    assert (batch.game == 9).all() and batch.x.shape[1] > 716


def test_a_tiny_training_writes_a_network_the_bot_plays(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from meio.rl.general import train

    batch, _, _ = _round()
    out = tmp_path / "g.npz"
    report = train(batch, out, hidden=16, epochs=2)
    assert report.epochs == 2 and report.examples == len(batch)
    assert load_general(out).hidden == 16
    again = tmp_path / "g2.npz"
    train(batch, again, init=out, epochs=1)  # from a network: its width
    assert load_general(again).hidden == 16


runner = CliRunner()


def test_meio_train_variant_improves_a_network_for_the_ruleset(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from meio.rl.general import train

    batch, _, _ = _round()
    start = tmp_path / "start.npz"
    train(batch, start, hidden=8, epochs=1)
    out = tmp_path / "mine.npz"
    result = runner.invoke(app, ["train", "--variant", str(HELD[2]), "--minutes", "0.03",
                                 "--jobs", "1", "--init", str(start), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"learned:{out}" in result.output and is_general_file(out)
    assert not np.array_equal(load_general(out).weights[0], load_general(start).weights[0])
    v7 = ROOT / "src/meio/bots/policies/distil-4p.npz"
    refused = runner.invoke(app, ["train", "--variant", str(HELD[2]), "--init", str(v7),
                                  "--out", str(tmp_path / "x.npz")])
    assert refused.exit_code == 2 and "not a network for any ruleset" in refused.output
