"""The package as published: a wheel and an sdist that twine accepts, and the wheel
installed in a clean venv plays every environment.

No network is needed: the build runs without isolation (the venv's setuptools),
the wheel is installed with ``--no-deps --no-index``, and the clean venv reaches
this venv's site-packages for the dependencies only, through a ``.pth`` line
(which adds the directory but runs none of its ``.pth`` files, so the editable
install of the checkout stays out). meio itself comes from the wheel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from meio import __version__

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]  # the kernels compile anew there

ROOT = Path(__file__).resolve().parents[1]
IGNORED = shutil.ignore_patterns(
    ".git", ".venv", "__pycache__", "build", "dist", "*.egg-info", ".mypy_cache",
    ".ruff_cache", ".pytest_cache", ".hypothesis", "node_modules", "*.db",
)

SMOKE = """
import sys
import numpy as np
import meio
assert meio.__file__.startswith(sys.prefix), meio.__file__
import gymnasium as gym
import meio.rl
from meio.rl import VectorEnv
from meio.rl import pettingzoo as mpz
from meio.rl.env import MeioEnv
from meio.bots import make_bot

env = MeioEnv(players=4, opponents="random", seed=1)
_, info = env.reset()
_, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
assert not done and info["view"].phase.name == "PLAY"
venv = gym.make_vec("meio/Meio-v0", num_envs=2, players=3, seed=1)
venv.reset()
venv.step(venv.sample_actions())
aec = mpz.env(players=3)
aec.reset(seed=1)
obs, *_ = aec.last()
aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
try:
    import pyspiel
except ModuleNotFoundError:
    pass
else:
    import meio.openspiel
    state = pyspiel.load_game("meio", {"players": 3}).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.legal_actions()[0])
learned = make_bot("learned")
print("played", learned.__class__.__name__)
"""


def _run(args: list[str | Path], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_wheel_installs_and_plays_in_a_clean_venv(tmp_path: Path) -> None:
    tree = tmp_path / "tree"  # a copy, so that the checkout gets no build/ or egg-info
    shutil.copytree(ROOT, tree, ignore=IGNORED)
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, tree], tmp_path)
    wheel = dist / f"meio-{__version__}-py3-none-any.whl"
    sdist = dist / f"meio-{__version__}.tar.gz"
    assert wheel.exists() and sdist.exists()
    assert "PASSED" in _run([sys.executable, "-m", "twine", "check", "--strict", wheel, sdist],
                            tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("meio/sim/kernels.py", "meio/rl/kernels.py", "meio/bots/policies/ppo-4p.npz",
                   "meio/web/static/index.html", "meio/py.typed", "meio/tui/play.tcss",
                   "meio/tui/replay.tcss"):
        assert needed in names, needed

    clean = tmp_path / "clean"
    _run([sys.executable, "-m", "venv", "--without-pip", clean], tmp_path)
    python = clean / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps",
          "--no-index", "--quiet", wheel], tmp_path)
    site = _run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                tmp_path).strip()
    shared = Path(np.__file__).resolve().parents[1]  # this venv's site-packages
    (Path(site) / "shared-dependencies.pth").write_text(f"{shared}\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    assert _run([clean / "bin" / "meio", "--version"], tmp_path, env).strip() == \
        f"meio {__version__}"
    assert "played" in _run([python, "-c", SMOKE], tmp_path, env)
