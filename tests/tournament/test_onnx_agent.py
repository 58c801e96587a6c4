"""An ONNX policy scored by ``meio bench --agent policy.onnx``: the shipped network
exported to ONNX plays the very games the shipped bot plays."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

import onnx
from onnx import TensorProto, helper, numpy_helper

from meio.bots import make_bot, play_match
from meio.bots.learned import DEFAULT_POLICY, load_policy
from meio.cli import app
from meio.engine import MatchConfig
from meio.tournament.agents import AgentError, load_agent

runner = CliRunner()


def _export(weights: list[np.ndarray], path: Path) -> Path:
    """An MLP (ReLU between the layers) as an ONNX model of a batch of observations."""
    inits, nodes, x = [], [], "obs"
    for k in range(0, len(weights), 2):
        w, b = (f"w{k}", f"b{k}")
        inits += [numpy_helper.from_array(weights[k].astype(np.float32), w),
                  numpy_helper.from_array(weights[k + 1].astype(np.float32), b)]
        out = "logits" if k == len(weights) - 2 else f"h{k}"
        nodes.append(helper.make_node("Gemm", [x, w, b], [out if out == "logits" else
                                                          f"{out}_pre"]))
        if out != "logits":
            nodes.append(helper.make_node("Relu", [f"{out}_pre"], [out]))
        x = out
    graph = helper.make_graph(
        nodes, "policy",
        [helper.make_tensor_value_info("obs", TensorProto.FLOAT, ["batch", 716])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT,
                                       ["batch", weights[-1].shape[0]])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(model, path)
    return path


def test_the_shipped_network_in_onnx_plays_as_the_shipped_bot(tmp_path: Path) -> None:
    policy = load_policy(DEFAULT_POLICY)
    path = _export(list(policy.weights), tmp_path / "learned.onnx")
    for seed in range(2):
        config = MatchConfig(players=3, seed=seed)
        ours = play_match(config, [make_bot("learned-v7"), make_bot("heuristic", 1),
                                   load_agent(str(path), 0)])
        theirs = play_match(config, [make_bot("learned-v7"), make_bot("heuristic", 1),
                                     make_bot("learned-v7")])
        assert ours.history == theirs.history


def test_meio_bench_scores_an_onnx_policy_of_the_flat_actions(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    path = _export([rng.normal(size=(716, 1812)), rng.normal(size=1812)],
                   tmp_path / "flat.onnx")
    result = runner.invoke(app, ["bench", "--bots", "heuristic", "--agent", str(path),
                                 "--players", "2", "--deals", "2", "--bootstrap", "20",
                                 "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["bot_versions"][str(path)] == {
        "agent": str(path), "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    assert {e["bot"] for e in doc["leaderboard"]} == {"heuristic", str(path)}


def test_a_model_of_another_shape_is_refused(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    path = _export([rng.normal(size=(716, 10)), rng.normal(size=10)], tmp_path / "odd.onnx")
    with pytest.raises(AgentError, match="10 outputs"):
        load_agent(str(path), 0)
    (tmp_path / "junk.onnx").write_bytes(b"not a model")
    with pytest.raises(AgentError, match="not a model"):
        load_agent(str(tmp_path / "junk.onnx"), 0)
    with pytest.raises(AgentError, match="no such file"):
        load_agent(str(tmp_path / "missing.onnx"), 0)
