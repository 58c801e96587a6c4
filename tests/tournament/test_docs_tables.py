"""The result tables of docs/rl.md are generated from committed benchmark documents."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_tables", ROOT / "bench" / "docs_tables.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


T = _script()


def test_every_table_of_the_docs_is_its_documents_and_every_bot_is_the_shipped_one() -> None:
    assert T.check() == []
    text = (ROOT / "docs" / "rl.md").read_text()
    # the result tables are all marked: no leaderboard is written by hand
    assert text.count("<!-- bench-table:") >= 3
    assert "| learned | `learned-v7` sha256 `53a601995c01`" in text


def _copy(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "rl.md", tmp_path / "docs" / "rl.md")
    shutil.copytree(ROOT / "docs" / "bench", tmp_path / "docs" / "bench")
    return tmp_path


def test_a_table_edited_by_hand_is_caught(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    doc = root / "docs" / "rl.md"
    doc.write_text(doc.read_text().replace("| learned | `learned-v7`", "| learned | `learned-v6`",
                                           1))
    problems = T.check(root)
    assert any("differs from its documents" in p for p in problems), problems
    T_render = T.render(doc.read_text(), root)
    doc.write_text(T_render)
    assert T.check(root) == []


def test_a_document_whose_bot_hash_is_not_the_shipped_one_is_caught(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    path = root / "docs" / "bench" / "meio-4-learned.json"
    doc = json.loads(path.read_text())
    doc["bot_versions"]["learned"]["sha256"] = "0" * 64
    path.write_text(json.dumps(doc))
    (root / "docs" / "rl.md").write_text(T.render((root / "docs" / "rl.md").read_text(), root))
    problems = T.check(root)
    assert any("learned (learned-v7) has sha256 000" in p for p in problems), problems


def test_a_document_made_before_versions_is_caught(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    path = root / "docs" / "bench" / "meio-4-search.json"
    doc = json.loads(path.read_text())
    del doc["bot_versions"]
    path.write_text(json.dumps(doc))
    assert any("no bot_versions" in p for p in T.check(root))


def test_an_unknown_table_kind_or_document_is_refused(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "docs" / "bench" / "bad.json").write_text('{"format": "other"}')
    with pytest.raises(ValueError, match="not a meio-bench/1 document"):
        T.load("docs/bench/bad.json", root)
