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
    with pytest.raises(ValueError, match="not a document of meio-bench/1"):
        T.load("docs/bench/bad.json", root)


def _baselines_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("baselines", ROOT / "bench" / "baselines.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_baselines_run_writes_its_document_curves_and_table(tmp_path: Path) -> None:
    B = _baselines_script()
    out = tmp_path / "docs" / "bench" / "dmc.json"
    assert B.main(["--algo", "dmc", "--seeds", "2", "--minutes", "5", "--steps", "256",
                   "--players", "4", "--envs", "16", "--eval-every", "128",
                   "--eval-matches", "4", "--deals", "2", "--out", str(out),
                   "--weights", str(tmp_path / "w")]) == 0
    doc = json.loads(out.read_text())
    assert doc["format"] == "meio-baselines/1" and doc["algo"] == "dmc"
    assert [r["seed"] for r in doc["runs"]] == [0, 1]
    for run in doc["runs"]:
        # the curve: the start, every 128 steps, the end; seconds and steps grow
        assert [p["steps"] for p in run["curve"]] == [0, 128, 256]
        assert [set(p) for p in run["curve"]] == [{"steps", "seconds", "score"}] * 3
        assert run["curve"][0]["seconds"] == 0 <= run["curve"][-1]["seconds"]
        assert len(run["sha256"]) == 64 and run["games"] == 2 * 2
    each = [r["vs_reference"] for r in doc["runs"]]
    assert doc["vs_reference"] == pytest.approx(sum(each) / 2)
    lo, hi = doc["vs_reference_ci95"]
    assert lo <= min(each) and max(each) <= hi
    assert (out.with_suffix(".png")).read_bytes()[:4] == b"\x89PNG"
    table = T.baselines([doc])
    cpu = sorted(f"{r['train_s']:.0f}" for r in doc["runs"])
    spent = cpu[0] if cpu[0] == cpu[-1] else f"{cpu[0]}–{cpu[-1]}"
    assert f"| Deep Monte-Carlo (DouZero) | 256 steps, {spent} CPU s | 2 | 2 |" in table
    assert f"{doc['vs_reference']:+.3f}" in table


def test_the_seeds_interval_is_a_student_t_one() -> None:
    B = _baselines_script()
    mean, _, hi = B.mean_ci95([0.1, 0.3, 0.2])
    assert mean == pytest.approx(0.2)
    # t(2) = 4.303, sd 0.1, n 3
    assert hi - mean == pytest.approx(4.303 * 0.1 / 3 ** 0.5)
    assert B.mean_ci95([0.5]) == (0.5, 0.5, 0.5)
    with pytest.raises(ValueError, match="no values"):
        B.mean_ci95([])


def test_the_speed_and_compact_tables_follow_their_documents(tmp_path: Path) -> None:
    speed = {"format": "meio-speed/1", "command": "python bench/rl.py --seconds 1",
             "date": "2026-12-05 08:00 UTC", "load_average": [3.0, 2.0, 1.0],
             "seconds": 1, "rows": [
                 {"environment": "VectorEnv N=64", "cpu": 2000, "wall": 1000, "note": "n"},
                 {"environment": "OpenSpiel: Hearts (C++)", "cpu": 1000, "wall": 900,
                  "note": "h"}]}
    text = T.speed([speed])
    assert "| VectorEnv N=64 | 2,000 | 2.00x | 1,000 | n |" in text
    compact = {"format": "meio-compact-actions/1", "command": "c", "date": "d", "envs": 32,
               "load_average": [1.0], "steps": 10, "rows": [
                   {"learner": "L", "actions": "flat", "cpu": 100, "wall": 50},
                   {"learner": "L", "actions": "compact", "cpu": 410, "wall": 60}]}
    assert "| L | 100 | 410 | 4.1× |" in T.compact([compact])
    root = _copy(tmp_path)
    (root / "docs" / "bench" / "speed.json").write_text(json.dumps(speed))
    doc = root / "docs" / "rl.md"
    doc.write_text(doc.read_text() + "\n<!-- bench-table: speed docs/bench/speed.json -->\n"
                   "| a table written by hand |\n<!-- end bench-table -->\n")
    assert any("speed.json differs" in p for p in T.check(root))
    doc.write_text(T.render(doc.read_text(), root))
    assert T.check(root) == []


def test_every_committed_baseline_has_a_curve_per_seed_and_its_picture() -> None:
    found = sorted((ROOT / "docs" / "bench" / "baselines").glob("*.json"))
    assert {p.stem for p in found} >= {"ppo", "sb3", "dmc", "nfsp"}
    for path in found:
        doc = json.loads(path.read_text())
        assert doc["format"] == "meio-baselines/1"
        assert len(doc["runs"]) >= 3, path
        for run in doc["runs"]:
            steps = [p["steps"] for p in run["curve"]]
            assert len(steps) >= 2 and steps == sorted(set(steps)), path
            assert all(isinstance(p["score"], float) for p in run["curve"]), path
        assert (ROOT / doc["png"]).is_file(), doc["png"]
        # docs/rl.md shows it (a link relative to docs/)
        link = str(Path(doc["png"]).relative_to("docs"))
        assert f"]({link})" in (ROOT / "docs" / "rl.md").read_text(), link


def test_the_baselines_table_takes_the_reference_alone_and_added_compact_rows() -> None:
    def run(bots: list[str], rows: list[tuple[str, float, float]]) -> dict[str, object]:
        return {"format": "meio-bench/1", "command": f"meio bench --bots {','.join(bots)}",
                "bots": bots, "reference": "heuristic", "deals": 30,
                "bot_versions": {"heuristic": {"version": "heuristic-v1"}, "ismcts": {}},
                "leaderboard": [{"bot": b, "vs_reference": vs, "vs_reference_ci95": [vs, vs],
                                 "mean_round_score": s, "mean_round_score_ci95": [s, s]}
                                for b, vs, s in rows]}
    table = T.baselines([run(["heuristic"], [("heuristic", 0.0, 1.117)]),
                         run(["ismcts", "heuristic"], [("ismcts", 0.25, 1.3),
                                                       ("heuristic", 0.0, 1.05)])])
    lines = table.splitlines()
    assert lines[2] == ("| heuristic (`heuristic-v1`) | shipped, at a table of itself | — | 30 "
                        "| 0 (the reference) | — | 1.117 [1.117, 1.117] |")
    # a bot without a version is named alone; the reference of a pair is no row
    assert lines[3].startswith("| ismcts | shipped | — | 30 | +0.250 [+0.250, +0.250] |")
    assert lines[4] == ""
    compact = {"format": "meio-compact-actions/1", "command": "c", "date": "d", "envs": 32,
               "load_average": [1.0], "steps": 10, "rows": [
                   {"learner": "L", "actions": "flat", "cpu": 100, "wall": 50},
                   {"learner": "L", "actions": "compact", "cpu": 410, "wall": 60}]}
    later = {"command": "c2", "date": "d2", "load_average": [2.0], "steps": 64, "envs": 8}
    compact["rows"] += [{"learner": "R", "actions": "flat", "cpu": 10, "wall": 5, **later},
                        {"learner": "R", "actions": "compact", "cpu": 30, "wall": 6, **later}]
    text = T.compact([compact])
    assert "| R | 10 | 30 | 3.0× |" in text
    assert text.count("`c2`") == 1 and "R: `c2` — d2, 8 environments, 64 steps" in text
