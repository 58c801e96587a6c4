"""No package reaches into another package's private names (the layer test's sibling).

A name that starts with ``_`` is its module's own; what another package uses gets a
public name. This test reads every module of ``meio`` and lists each place where a
file of one package

* imports a private name of another package (``from meio.sim.core import _below``),
* reads a private attribute of a module or object it imported from another package
  (``K._below`` after ``from meio.sim import core as K``, ``meio.sim.core._x``),
  or the Python function under another package's compiled kernel (numba's
  ``trick_rule.py_func``: the kernel's public name is the compiled function),
* or imports a private module of another package (``import meio.sim._x``; the layer
  test's :func:`~tests.engine.test_layers.test_no_package_imports_another_ones_private_module`
  checks the same of every import, this one names the place).

Only names bound by imports are followed: ``state._m`` on an object received as an
argument is beyond a reading of the text (review catches it, as issue 43 did).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.engine.test_layers import ROOT, is_module, module_of, package_of, target

#: the attributes of another package's kernel that reach beneath its public name
BENEATH = frozenset({"py_func"})


#: names that start with ``_`` and are public all the same: gettext's ``_``, and a named
#: tuple's methods (the underscore keeps them apart from its fields)
PUBLIC = frozenset({"_", "_replace", "_asdict", "_fields", "_make", "_field_defaults"})


def private(name: str) -> bool:
    """``_x`` is private; ``__x__`` is Python's, and :data:`PUBLIC` names are public."""
    return name.startswith("_") and name not in PUBLIC and not (
        name.startswith("__") and name.endswith("__"))


def absolute(node: ast.ImportFrom, path: Path) -> str | None:
    """The module ``node`` imports from, a relative import resolved."""
    if not node.level:
        return node.module
    base = module_of(path)
    if path.name != "__init__.py":
        base = base[:-1]
    base = base[: len(base) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def chain(node: ast.Attribute) -> tuple[str, list[str]] | None:
    """``a.b.c`` as ``("a", ["b", "c"])``; None when it does not start at a name."""
    attrs: list[str] = []
    at: ast.expr = node
    while isinstance(at, ast.Attribute):
        attrs.append(at.attr)
        at = at.value
    return (at.id, attrs[::-1]) if isinstance(at, ast.Name) else None


def reaches(path: Path, text: str | None = None) -> Iterator[str]:
    """Each place where the module at ``path`` (its text, or ``text``) uses a private
    name of another package, as ``"<file>: <what>"``."""
    package = package_of(path)
    where = path.relative_to(ROOT).as_posix()
    tree = ast.parse(path.read_text() if text is None else text, filename=str(path))
    bound: dict[str, str] = {}  # a local name -> the meio module or object it stands for
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != "meio":
                    continue
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    bound["meio"] = "meio"
                if target(alias.name) != package and any(
                    private(part) for part in alias.name.split(".")[1:]
                ):
                    yield f"{where}: import {alias.name}"
        elif isinstance(node, ast.ImportFrom):
            module = absolute(node, path)
            if module is None or module.split(".")[0] != "meio":
                continue
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{module}.{alias.name}"
                if target(module) != package and (
                    private(alias.name)
                    or any(private(part) for part in module.split(".")[1:])
                ):
                    yield f"{where}: from {module} import {alias.name}"
    attributes = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute)]
    inner = {id(n.value) for n in attributes}
    for node in attributes:
        if id(node) in inner:
            continue  # a part of a longer chain, read with it
        found = chain(node)
        if found is None or found[0] not in bound:
            continue
        name, attrs = found
        full = bound[name].split(".")
        for depth, attr in enumerate(attrs, 1):
            owner = ".".join(full)
            if target(owner) == package or owner == "meio":
                # meio.x: the package's own names, or the top's; follow into modules only
                if not (owner == "meio" and is_module(f"{owner}.{attr}")):
                    break
            elif private(attr) or attr in BENEATH:
                yield f"{where}: {name}.{'.'.join(attrs[:depth])}"
                break
            full.append(attr)


def test_no_package_uses_another_packages_private_names() -> None:
    found: set[str] = set()
    for path in sorted(ROOT.rglob("*.py")):
        if "migrations" not in path.parts:
            found.update(reaches(path))
    assert sorted(found) == [], "private names used across packages"


def test_the_reader_finds_each_kind_of_reach() -> None:
    """The reader catches each form in a module written for it (read as if it were in
    ``bots``), and passes a package's own private names and other packages' public ones."""
    probe = """
from meio.sim import core as K
from meio.sim.core import _hidden, trick_rule
import meio.engine.cards
import meio.sim._private_module
from meio.bots import policy
from . import _own
K._below(1)
trick_rule.py_func(1)
meio.engine.cards._SECRET
K.trick_rule(1)
policy._mine
"""
    got = sorted(reaches(ROOT / "bots" / "probe.py", probe))
    assert got == [
        "bots/probe.py: K._below",
        "bots/probe.py: from meio.sim.core import _hidden",
        "bots/probe.py: import meio.sim._private_module",
        "bots/probe.py: meio.engine.cards._SECRET",
        "bots/probe.py: trick_rule.py_func",
    ]
