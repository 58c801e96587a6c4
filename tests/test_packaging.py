"""A lean release: lower bounds in pyproject.toml, exact pins in the lock file the
Makefile installs, the application stacks as extras, and a core library that imports
none of them."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
#: what the core must not need: the web server, the terminal, the lab, training
STACKS = {"fastapi", "starlette", "pydantic", "uvicorn", "sqlalchemy", "alembic", "psycopg",
          "textual", "matplotlib", "pyarrow", "torch", "pettingzoo", "open-spiel",
          "webauthn", "argon2-cffi", "openskill", "prometheus-client", "orjson", "platformdirs",
          "ray", "stable-baselines3"}
MODULES = {"fastapi", "starlette", "pydantic", "uvicorn", "sqlalchemy", "alembic", "psycopg",
           "textual", "matplotlib", "pyarrow", "torch", "pettingzoo", "pyspiel", "open_spiel",
           "webauthn", "argon2", "openskill", "prometheus_client", "orjson", "platformdirs",
           "ray", "stable_baselines3"}


def test_the_core_states_lower_bounds_and_no_application_stack() -> None:
    core = [Requirement(r) for r in PROJECT["dependencies"]]
    for req in core:
        assert all(spec.operator == ">=" for spec in req.specifier), str(req)
    assert not {canonicalize_name(r.name) for r in core} & STACKS
    extras = PROJECT["optional-dependencies"]
    names = {e: {canonicalize_name(Requirement(r).name) for r in reqs}
             for e, reqs in extras.items()}
    assert {"fastapi", "uvicorn", "sqlalchemy"} <= names["web"]
    assert "textual" in names["tui"]
    assert {"matplotlib", "pyarrow"} <= names["lab"]
    assert {"open-spiel", "pettingzoo", "torch"} <= names["rl"]
    for reqs in extras.values():
        for r in reqs:
            assert all(spec.operator == ">=" for spec in Requirement(r).specifier), r


def test_the_lock_file_pins_everything_and_the_makefile_installs_it() -> None:
    lock = [line for line in (ROOT / "requirements.lock").read_text().splitlines()
            if line and not line.startswith("#")]
    pinned = {}
    for line in lock:
        req = Requirement(line)
        (spec,) = req.specifier
        assert spec.operator == "==", line
        pinned[canonicalize_name(req.name)] = spec.version
    wanted = [Requirement(r) for r in PROJECT["dependencies"]] + [
        Requirement(r) for reqs in PROJECT["optional-dependencies"].values() for r in reqs]
    for req in wanted:
        name = canonicalize_name(req.name)
        if req.marker is None or req.marker.evaluate():
            assert name in pinned, name
            assert req.specifier.contains(pinned[name], prereleases=True), (req, pinned[name])
    makefile = (ROOT / "Makefile").read_text()
    assert "-c requirements.lock" in makefile
    assert "requirements.lock" in (ROOT / "Dockerfile").read_text()


def test_importing_the_library_and_its_command_line_loads_no_application_stack() -> None:
    code = (
        "import sys, atexit\n"
        f"heavy = {sorted(MODULES)!r}\n"
        "atexit.register(lambda: print('LOADED', sorted({m.split('.')[0] for m in sys.modules}"
        " & set(heavy))))\n"
        "import meio, meio.engine, meio.bots, meio.sim, meio.tournament, meio.rl\n"
        "import meio.rl.env, meio.rl.vector\n"
        "from meio.bots import make_bot\n"
        "make_bot('learned'); make_bot('heuristic')\n"
        "from meio.cli import main\n"
        "sys.argv = ['meio', '--help']\n"
        "main()\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last == "LOADED []", last
