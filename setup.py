"""The wheel's engine, compiled with mypyc (all other metadata is in pyproject.toml).

``python -m build`` compiles the modules in :data:`COMPILED` to C extensions with
mypyc (the mypy pinned in ``[build-system] requires``); every other module ships as
Python. Two cases build a pure-Python package instead:

* ``MEIO_PURE=1`` in the environment (a pure wheel, for a platform without a C
  compiler or to compare the two);
* an editable install (``pip install -e``, ``make venv``): setuptools would build the
  extensions in place, into ``src/``, where a stale ``.so`` would shadow every later
  edit of its ``.py`` file.

A setup.py rather than a build-backend hook: mypyc's own entry point,
``mypyc.build.mypycify``, returns setuptools ``Extension`` objects, and setuptools
runs this file for every build command (so it sees the editable one), with nothing
more to maintain than this list.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile

from setuptools import setup

#: what runs at every decision of a game (measured: bench/engine.py, bench/rl.py),
#: in dependency order. Not ``tricks.py``: numba compiles its trick rules from their
#: Python bytecode and ``meio.sim.core.rule_digest`` reads their source (nor, for
#: the same reason, ``scoring``); nor the modules that load or check configs, rulesets
#: and records once a match (``config``, ``options``, ``ruleset``, ``ruleset_file``,
#: ``presets``, ``record``, ``wire``, ``errors``), which gain nothing and
#: keep plain Python's dataclass, pickling and error behaviour. Nor the modules of
#: frozen dataclasses that travel between processes (``scoring``'s ``RoundResult``,
#: ``view``'s ``View``, ``reasons``' ``Reason``): compiled, pickle cannot load them
#: (mypyc's ``__setstate__`` sets the fields through the frozen ``__setattr__``).
COMPILED = [
    "src/meio/engine/cards.py",
    "src/meio/engine/actions.py",
    "src/meio/engine/legal.py",
    "src/meio/engine/deal.py",
    "src/meio/engine/state.py",
    "src/meio/engine/sampling.py",
]


def _scratch_dir() -> str:
    """``MEIO_BUILD_DIR``, else a temporary folder removed when the build process ends."""
    chosen = os.environ.get("MEIO_BUILD_DIR")
    if chosen:
        return chosen
    made = tempfile.mkdtemp(prefix="meio-build-")
    atexit.register(shutil.rmtree, made, ignore_errors=True)
    return made


_SCRATCH = _scratch_dir()


def _pure() -> bool:
    editable = any(arg in ("editable_wheel", "develop") for arg in sys.argv)
    return editable or os.environ.get("MEIO_PURE", "") not in ("", "0")


def _extensions() -> list[object]:
    if _pure():
        return []
    from mypyc.build import mypycify

    # opt_level 3 is mypyc's default; the config's strict mypy settings apply. The
    # group's shared runtime is one more extension, meio_engine__mypyc, installed at
    # the top of site-packages beside meio/
    return list(mypycify(COMPILED, opt_level="3", group_name="meio_engine",
                         # relative: setuptools refuses an extension's absolute paths
                         target_dir=os.path.relpath(os.path.join(_SCRATCH, "mypyc"))))


def _scratch() -> dict[str, dict[str, str]]:
    """Build and metadata folders outside the checkout: ``pip wheel .`` and ``python -m
    build`` leave no ``build/`` or ``src/meio.egg-info`` behind (setuptools writes both
    into the source tree by default). ``MEIO_BUILD_DIR`` chooses the folder."""
    return {"build": {"build_base": os.path.join(_SCRATCH, "build")},
            "egg_info": {"egg_base": _SCRATCH}}


setup(ext_modules=_extensions(), options=_scratch())
