"""The wheel's compiled engine, for benchmarks that time it beside the pure one.

A process imports one ``meio``: the pure engine of the checkout or the mypyc-compiled
one of the wheel, never both (they share module names). So a benchmark steps the pure
engine in its own process and the compiled one in a worker process (:class:`Worker`)
whose ``PYTHONPATH`` starts at the unpacked wheel (:func:`compiled_site`), asking it
for one timing window at a time, in turn with its own windows: both meet the same
load, as in one process.

:func:`compiled_site` builds the wheel once for each state of the sources
(``python -m build --wheel --no-isolation`` on a copy of the checkout, about a
minute) and unpacks it under ``build/bench-wheel/<digest>/`` (in place of the
earlier sources' one); later runs reuse it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "build" / "bench-wheel"
_IGNORED = shutil.ignore_patterns(
    ".git", ".venv", "__pycache__", "build", "dist", "*.egg-info", ".mypy_cache",
    ".ruff_cache", ".pytest_cache", ".hypothesis", "node_modules", "*.db", "*.so",
)
_REPLY = "@@ "  # a worker's answers begin with this; anything else it prints is passed on


def _digest() -> str:
    h = hashlib.sha256()
    for path in sorted([ROOT / "setup.py", ROOT / "pyproject.toml",
                        *(ROOT / "src" / "meio").rglob("*.py")]):
        h.update(str(path.relative_to(ROOT)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def compiled_site() -> Path:
    """A directory holding the wheel's ``meio`` (its engine compiled), for
    ``PYTHONPATH``; built from the checkout's sources if they changed since."""
    site = CACHE / _digest() / "site"
    if (site / "meio").is_dir():
        return site
    with tempfile.TemporaryDirectory() as tmp:
        tree, dist = Path(tmp) / "tree", Path(tmp) / "dist"
        shutil.copytree(ROOT, tree, ignore=_IGNORED)
        env = {k: v for k, v in os.environ.items() if k != "MEIO_PURE"}
        print("building the compiled wheel (about a minute) ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation",
                        "--outdir", str(dist), str(tree)], env=env, check=True,
                       capture_output=True)
        (wheel,) = dist.glob("meio-*.whl")
        if CACHE.is_dir():  # the wheels of earlier sources, kept for nothing
            for old in CACHE.iterdir():
                shutil.rmtree(old)
        partial = site.with_name("partial")
        shutil.rmtree(partial, ignore_errors=True)
        zipfile.ZipFile(wheel).extractall(partial)
        partial.rename(site)
    return site


class Worker:
    """A Python process running ``script --worker`` on the compiled engine; each
    :meth:`call` runs one of the functions it :func:`serve`\\ s and returns the result."""

    def __init__(self, script: Path, site: Path, flag: str = "--worker") -> None:
        env = {**os.environ, "PYTHONPATH": str(site)}
        self._proc = subprocess.Popen([sys.executable, str(script), flag], env=env,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def call(self, name: str, *args: Any) -> Any:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps([name, list(args)]) + "\n")
        self._proc.stdin.flush()
        for line in self._proc.stdout:
            if line.startswith(_REPLY):
                return json.loads(line[len(_REPLY):])
            sys.stderr.write(line)
        raise RuntimeError(f"the worker ended during {name}{args}")

    def close(self) -> None:
        assert self._proc.stdin is not None
        self._proc.stdin.close()
        self._proc.wait()


def serve(functions: dict[str, Callable[..., Any]], compiled: bool | None = True) -> None:
    """The worker's side: answer each call read from stdin until it closes. The engine
    must be the compiled one (``compiled`` None: either, as the caller labels it), or
    the figures would be mislabelled."""
    import meio.engine.state

    if compiled is not None and meio.engine.state.__file__.endswith(".so") != compiled:
        raise SystemExit(f"the worker's engine is not as asked: {meio.engine.state.__file__}")
    for line in sys.stdin:
        name, args = json.loads(line)
        print(_REPLY + json.dumps(functions[name](*args)), flush=True)
