"""``meio bench --agent``: an outside agent, loaded from a module or a file, scored on the
benchmark deals and recorded with its file's hash."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meio.cli import app
from meio.tournament import make_player
from meio.tournament.agents import AgentError, describe_agent, is_agent_spec, load_agent

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bench_agent.py"
runner = CliRunner()


def _bench(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["bench", "--bots", "heuristic", "--players", "2", "--deals",
                                 "3", "--bootstrap", "50", "--json", *args])
    assert result.exit_code == 0, result.output
    doc: dict[str, object] = json.loads(result.stdout)
    return doc


def test_the_example_agent_is_scored_on_the_deal_set_and_recorded_by_hash() -> None:
    spec = f"{EXAMPLE}:make_agent"
    doc = _bench("--agent", spec)
    assert doc["bots"] == ["heuristic", spec]
    board = {e["bot"]: e for e in doc["leaderboard"]}  # type: ignore[attr-defined]
    assert set(board) == {"heuristic", spec} and board[spec]["seats"] == 3 * 2
    versions = doc["bot_versions"]
    assert versions[spec] == {  # type: ignore[index]
        "agent": spec, "sha256": hashlib.sha256(EXAMPLE.read_bytes()).hexdigest()}
    assert f"--agent {spec}" in str(doc["command"])
    assert _bench("--agent", spec)["leaderboard"] == doc["leaderboard"]  # seeded: the same


def test_an_agent_from_an_importable_module(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "outside_agents"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mine.py").write_text(
        "from meio.bots import make_bot\n"
        "def make(seed):\n"
        "    bot = make_bot('heuristic', seed)\n"
        "    bot.name = 'mine'\n"
        "    return bot\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert is_agent_spec("outside_agents.mine:make")
    assert make_player("outside_agents.mine:make", 3).name == "mine"
    assert "sha256" in describe_agent("outside_agents.mine:make")


def test_a_bad_agent_is_refused_in_one_line_before_any_play(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def not_a_bot(seed):\n    return 42\n")
    for spec, says in ((f"{tmp_path}/missing.py:make", "no such file"),
                       (f"{bad}:absent", "has no function absent"),
                       (f"{bad}:not_a_bot", "returned int, not a bot"),
                       ("no.such.module:make", "cannot import")):
        with pytest.raises(AgentError, match=says):
            load_agent(spec, 0)
        result = runner.invoke(app, ["bench", "--bots", "heuristic", "--agent", spec,
                                     "--deals", "1"])
        assert result.exit_code == 2 and says in result.output, result.output
    result = runner.invoke(app, ["bench", "--bots", "heuristic", "--agent", "heuristic"])
    assert result.exit_code == 2 and "MODULE:FACTORY" in result.output
