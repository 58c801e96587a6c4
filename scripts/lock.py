"""Write requirements.lock: the exact version of every package meio and all its extras
need, as installed in the running environment (the one the tests pass in).

    .venv/bin/python scripts/lock.py            # rewrite requirements.lock
    .venv/bin/python scripts/lock.py --check    # exit 1 if it is not what this venv holds

The Makefile installs with ``pip install -c requirements.lock``: pyproject.toml keeps
lower bounds (a library must not pin), the lock file keeps the tested versions. The
closure is walked from pyproject.toml's requirements through each installed
distribution's own requirements (their extras and markers evaluated here: CPython
3.11 on Linux). A local version label (``torch 2.13.0+cpu``) is dropped, so that the
pin resolves from PyPI.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
HEADER = """\
# The exact versions meio is tested with: every dependency of meio and of all its
# extras, and theirs. Made by scripts/lock.py from a working environment; the
# Makefile installs with `pip install -c requirements.lock`. pyproject.toml has the
# lower bounds a library states.
"""


def _roots() -> list[tuple[Requirement, str]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    out = [(Requirement(r), "") for r in project["dependencies"]]
    for extra, reqs in project["optional-dependencies"].items():
        out += [(Requirement(r), extra) for r in reqs]
    return out


def closure() -> dict[str, str]:
    """name -> installed version of everything meio and its extras need."""
    found: dict[str, str] = {}
    seen: set[tuple[str, frozenset[str]]] = set()
    todo = _roots()
    while todo:
        req, extra = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": extra}):
            continue
        name = canonicalize_name(req.name)
        key = (name, frozenset(req.extras))
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = metadata.distribution(req.name)
        except metadata.PackageNotFoundError:
            raise SystemExit(f"{req.name} is needed but not installed here") from None
        found[name] = dist.version.split("+")[0]
        for sub in dist.requires or []:
            parsed = Requirement(sub)
            for wanted in req.extras or {""}:
                todo.append((parsed, wanted))
    return found


def render() -> str:
    pins = closure()
    return HEADER + "".join(f"{name}=={pins[name]}\n" for name in sorted(pins))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    text = render()
    if args.check:
        if LOCK.read_text() != text:
            print("requirements.lock differs from this environment (scripts/lock.py)")
            return 1
        return 0
    LOCK.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
