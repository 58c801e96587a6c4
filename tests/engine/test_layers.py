"""The engine is the bottom layer: it imports none of the layers above it."""

from __future__ import annotations

import ast
from pathlib import Path

import meio.engine

ENGINE = Path(meio.engine.__file__).parent
UPPER = ("meio.bots", "meio.sim", "meio.tui", "meio.web", "meio.cli", "meio.rl", "meio.tournament")


def test_engine_imports_no_upper_layer() -> None:
    offenders = []
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.startswith(UPPER)]
    assert offenders == []


def test_engine_imports_only_the_standard_library() -> None:
    import sys

    allowed = set(sys.stdlib_module_names) | {"meio"}
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                roots = {node.module.split(".")[0]}
            else:
                continue
            assert roots <= allowed, f"{path.name} imports {roots - allowed}"
