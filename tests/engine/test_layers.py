"""The packages form layers: each imports only the packages below it, never one above.

:data:`MAY_IMPORT` is the whole map, one row per package (a top-level module such
as ``meio.openspiel`` counts as a package of its own, ``meio`` is the package's
``__init__``). Every import counts, those inside functions and under
``TYPE_CHECKING`` too, since an import moved into a function to dodge a circle is
still a circle. A new package fails until it has a row; a new arrow fails until
the table allows it, and the table itself must stay free of circles.
"""

from __future__ import annotations

import ast
import sys
from functools import cache
from pathlib import Path

import pytest

import meio

ROOT = Path(meio.__file__).parent

#: which packages each package may import (directly), from the bottom up
MAY_IMPORT: dict[str, frozenset[str]] = {
    "engine": frozenset(),
    "meio": frozenset({"engine"}),
    "i18n": frozenset({"engine"}),
    "tutorial": frozenset({"engine", "i18n"}),
    "sim": frozenset({"engine"}),
    "jaxenv": frozenset({"engine"}),
    "bots": frozenset({"engine", "sim"}),
    # rl.best_response measures a learner on the tournament's versioned deal set
    "rl": frozenset({"meio", "engine", "sim", "bots", "tournament"}),
    "openspiel": frozenset({"engine", "bots"}),
    "ray_tasks": frozenset({"engine"}),
    "ratings": frozenset({"engine"}),
    "tournament": frozenset({"engine", "bots", "ray_tasks", "openspiel"}),
    "analysis": frozenset({"engine", "sim", "bots", "tournament", "ray_tasks"}),
    # the designer's report card and tuner stand on the lab's statistics and plan seeds
    "design": frozenset({"engine", "bots", "tournament", "ray_tasks", "analysis"}),
    "warm": frozenset({"engine", "sim", "bots", "rl"}),
    "review": frozenset({"meio", "engine", "sim", "bots"}),
    "puzzles": frozenset({"meio", "engine", "sim", "bots", "review", "ratings"}),
    "tui": frozenset({"engine", "i18n", "tutorial", "sim", "bots", "warm", "review"}),
    "web": frozenset({"engine", "i18n", "sim", "bots", "warm", "ratings", "review", "puzzles"}),
    "cli": frozenset({"meio", "engine", "i18n", "sim", "bots", "rl", "ray_tasks", "tournament",
                      "analysis", "design", "tui", "web", "review", "puzzles", "ratings"}),
    "__main__": frozenset({"cli"}),
}


#: circles between the files of one package still to be removed (issue 22 removed the
#: engine's and the web's): strict, so an entry must go when its circle does
CIRCLES_BEING_REMOVED: set[str] = set()


def package_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return "meio" if parts == ("__init__",) else parts[0]


def module_of(path: Path) -> list[str]:
    parts = ["meio", *path.relative_to(ROOT).with_suffix("").parts]
    return parts[:-1] if parts[-1] == "__init__" else parts


def imported(path: Path) -> set[str]:
    """The meio modules that ``path`` imports, relative imports resolved."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module_of(path)
                if path.name != "__init__.py":
                    base = base[:-1]
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            elif node.module:
                module = node.module
            else:
                continue
            names.add(module)
            # ``from meio.sim import core`` imports the module meio.sim.core
            names |= {f"{module}.{a.name}" for a in node.names if is_module(f"{module}.{a.name}")}
    return {n for n in names if n == "meio" or n.startswith("meio.")}


def is_module(name: str) -> bool:
    relative = Path(*name.split(".")[1:])
    return (ROOT / relative).with_suffix(".py").is_file() or (ROOT / relative).is_dir()


def target(module: str) -> str:
    parts = module.split(".")
    return "meio" if len(parts) == 1 else parts[1]


@cache
def arrows() -> dict[tuple[str, str], list[str]]:
    """Every import from one package into another, with the files that make it."""
    found: dict[tuple[str, str], list[str]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        source = package_of(path)
        for module in imported(path):
            if target(module) != source:
                where = f"{path.relative_to(ROOT)} imports {module}"
                found.setdefault((source, target(module)), []).append(where)
    return found


def test_every_package_has_a_row_in_the_table() -> None:
    packages = {package_of(p) for p in ROOT.rglob("*.py") if "migrations" not in p.parts}
    assert packages - MAY_IMPORT.keys() == set()
    assert MAY_IMPORT.keys() - packages == set()


def test_the_table_has_no_circle() -> None:
    done: set[str] = set()

    def visit(package: str, path: tuple[str, ...]) -> None:
        assert package not in path, "circle: " + " -> ".join((*path, package))
        if package not in done:
            for below in MAY_IMPORT[package]:
                visit(below, (*path, package))
            done.add(package)

    for package in MAY_IMPORT:
        visit(package, ())


def test_each_package_imports_only_the_packages_the_table_allows() -> None:
    offenders = [
        where
        for (source, into), wheres in sorted(arrows().items())
        if into not in MAY_IMPORT.get(source, frozenset())
        for where in wheres
    ]
    assert offenders == []


def test_the_engine_imports_only_the_standard_library() -> None:
    allowed = set(sys.stdlib_module_names) | {"meio"}
    for path in (ROOT / "engine").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                roots = {node.module.split(".")[0]}
            else:
                continue
            assert roots <= allowed, f"{path.name} imports {roots - allowed}"


def test_no_package_imports_another_ones_private_module() -> None:
    offenders = [
        where
        for wheres in arrows().values()
        for where in wheres
        if any(part.startswith("_") and part != "__init__"
               for part in where.split(" imports ")[1].split(".")[1:])
    ]
    assert offenders == []


@cache
def file_graph() -> dict[str, set[str]]:
    """Module to the modules it imports. ``from meio.sim import core`` depends on
    the module ``meio.sim.core`` alone; ``from meio.sim import simulate`` on the
    package's ``__init__``, which imports the module that defines it."""
    modules = {".".join(module_of(p)): p for p in ROOT.rglob("*.py")
               if "migrations" not in p.parts}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        into: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                into |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = {f"{node.module}.{a.name}" for a in node.names} & modules.keys()
                into |= subs if len(subs) == len(node.names) else {node.module, *subs}
        graph[name] = {m for m in into if m in modules and m != name}
    return graph


def circles() -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    graph = file_graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = [stack.pop()]
            while group[-1] != v:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


@pytest.mark.parametrize("package", sorted(MAY_IMPORT))
def test_the_files_of_a_package_import_one_another_without_a_circle(
    package: str, request: pytest.FixtureRequest
) -> None:
    if package in CIRCLES_BEING_REMOVED:
        request.applymarker(pytest.mark.xfail(strict=True, reason="issue 22: a known circle"))
    mine = [c for c in circles() if any(target(m) == package for m in c)]
    assert mine == []


#: a module may run longer than this only if its docstring says why ("... on purpose")
MAX_LINES = 500


def test_a_module_over_500_lines_says_why_in_its_docstring() -> None:
    long = {
        path.relative_to(ROOT).as_posix(): ast.get_docstring(ast.parse(path.read_text())) or ""
        for path in sorted(ROOT.rglob("*.py"))
        if len(path.read_text().splitlines()) > MAX_LINES
    }
    unexplained = [name for name, doc in long.items() if "on purpose" not in doc]
    assert not unexplained, f"over {MAX_LINES} lines with no reason in the docstring: {unexplained}"
