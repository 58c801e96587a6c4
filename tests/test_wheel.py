"""The package as published: a wheel and an sdist that twine accepts, and the wheel
installed in a clean venv plays every environment, with the engine compiled by mypyc
(setup.py) and playing exactly as the pure-Python engine of this checkout does.

No network is needed: the build runs without isolation (the venv's setuptools and
mypy), the wheel is installed with ``--no-deps --no-index``, and the clean venv
reaches this venv's site-packages for the dependencies only, through a ``.pth`` line
(which adds the directory but runs none of its ``.pth`` files, so the editable
install of the checkout stays out). meio itself comes from the wheel. One build and
one venv serve every test of this module.

The numba kernels are not compiled again there: the checkout's kernels are compiled
first (``meio.warm``, as ``make`` does; from its disk cache, seconds, when they
already are) and their cache files go beside the wheel's identical sources, whose
timestamps are set to the checkout's, so that numba's cache index accepts them. A
cold compile of every kernel took minutes, and at a load of 10 ran past the test's
time limit; the smoke test checks that nothing was compiled anew.
"""

from __future__ import annotations

import ast
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest

from meio import __version__

# mypyc compiles the engine (minutes under load): a generous limit, for hangs only
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

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




def _compiled_modules() -> list[str]:
    """The modules setup.py compiles (its ``COMPILED``), as module names."""
    for node in ast.parse((ROOT / "setup.py").read_text()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED":
            paths: list[str] = ast.literal_eval(node.value)
            return [p.removeprefix("src/").removesuffix(".py").replace("/", ".") for p in paths]
    raise AssertionError("setup.py names no COMPILED modules")


COMPILED = _compiled_modules()
ENGINE_MODULES = [*COMPILED, "meio.engine.tricks", "meio.engine.scoring", "meio.engine.view",
                  "meio.engine.config", "meio.engine.record"]
WHERE = f"""
import importlib
for name in {ENGINE_MODULES!r}:
    print(importlib.import_module(name).__file__)
"""

#: (edition, players, partnership, wild_lead, reveal_specials, variant preset or "")
REPLAY_SETUPS = [
    *((edition, players, partnership, wild_lead, reveal, "")
      for edition, players, partnership in (
          ("meio", 2, False), ("meio", 3, False), ("meio", 4, False), ("meio", 5, False),
          ("meio", 4, True), ("classic", 2, False), ("classic", 3, False),
          ("classic", 4, False), ("classic", 4, True))
      for wild_lead, reveal in (("declare", True), ("next", False))),
    ("meio", 4, False, "declare", True, "meio"),
    ("meio", 2, False, "declare", True, "mini"),
]
REPLAY_MATCHES = 16  # a match a line: 20 setups x 16 = 320 matches, about 10 s each side
#: plays REPLAY_MATCHES seeded matches per setup, each seat a random player or the
#: heuristic bot, through the checked API (with illegal tries, clones, undos, views
#: and sampled worlds on the way); prints the engine's file, then one digest a match
REPLAY = f"""
import hashlib, pickle, random
import meio.engine.state
from meio.bots import make_bot
from meio.engine import IllegalActionError, MatchConfig, State, TableOptions, sample_world
from meio.engine.record import Record
from meio.engine.presets import preset

print(meio.engine.state.__file__)
for edition, players, partnership, wild_lead, reveal, variant in {REPLAY_SETUPS!r}:
    for seed in range({REPLAY_MATCHES}):
        cfg = MatchConfig(edition=edition, players=players, partnership=partnership,
                          seed=seed, options=TableOptions(wild_lead, reveal),
                          variant=preset(variant) if variant else None)
        rng = random.Random(seed)
        heuristic = make_bot("heuristic", seed)
        smart = rng.randrange(players)
        st = State.new(cfg)
        log = []
        steps = 0
        while not st.is_over:
            steps += 1
            seat = st.current_seat()
            legal = list(st.legal_actions(seat))
            if seat == smart:
                action = heuristic.choose(st.view(seat), legal)
            else:
                action = rng.choice(legal)
            if steps % 7 == 0:
                try:
                    st.apply(rng.randrange(-2, 2000), seat)
                except IllegalActionError as e:
                    log.append((e.code, e.reason))
                else:
                    log.append(("took", st.history[-1]))
                    st.undo()
            if steps % 11 == 0:
                copy = st.clone()
                copy.apply_unchecked(action, seat)
                log.append((copy.phase.name, copy.to_move, len(copy.tricks)))
            if steps % 29 == 0:
                world = sample_world(st.view(seat), random.Random(steps))
                log.append((world.hands, world.packs, world.deal))
            if steps % 31 == 0 and st.history:
                st.undo()
                continue
            out = st.apply(action, seat)
            log.append((out.seat, out.action, out.trick, out.match_over))
        again = pickle.loads(pickle.dumps(st))
        log.append((again.history == st.history, again.rounds == st.rounds))
        log.append((st.totals, st.victories, st.winners, [r.scores for r in st.rounds]))
        log.append(Record.from_state(st).to_text())
        text = repr(log).encode()
        print(edition, players, partnership, wild_lead, reveal, variant, seed, len(st.history),
              hashlib.sha256(text).hexdigest()[:20])
"""

SPIEL = """
import pyspiel
import meio.engine.state
import meio.openspiel
assert meio.engine.state.__file__.endswith(".so")
for params in ({"players": 4}, {"players": 4, "split_mode": "sequential"},
               {"players": 3, "edition": "classic"}, {"players": 2},
               {"players": 4, "partnership": True}, {"players": 5}):
    pyspiel.random_sim_test(pyspiel.load_game("meio", params), num_sims=3, serialize=True,
                            verbose=False)
print("simulated")
"""


def _run(args: list[str | Path], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done.stdout


class Built(NamedTuple):
    wheel: Path
    sdist: Path
    python: Path  # the clean venv's, with the wheel installed
    env: dict[str, str]  # its environment: no PYTHONPATH to this checkout
    cwd: Path  # a directory outside the checkout
    wheel_site: Path  # the clean venv's site-packages


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The wheel and sdist built from a copy of the checkout (so that it gets no build/
    or egg-info), the wheel installed in a clean venv."""
    tmp = tmp_path_factory.mktemp("wheel")
    tree = tmp / "tree"
    shutil.copytree(ROOT, tree, ignore=IGNORED)
    dist = tmp / "dist"
    env = {k: v for k, v in os.environ.items() if k != "MEIO_PURE"}
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, tree], tmp, env)
    (wheel,) = dist.glob(f"meio-{__version__}-*.whl")
    sdist = dist / f"meio-{__version__}.tar.gz"
    clean = tmp / "clean"
    _run([sys.executable, "-m", "venv", "--without-pip", clean], tmp)
    python = clean / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps",
          "--no-index", "--quiet", wheel], tmp)
    site = _run([python, "-c", "import sysconfig; print(sysconfig.get_path('platlib'))"],
                tmp).strip()
    shared = Path(np.__file__).resolve().parents[1]  # this venv's site-packages
    (Path(site) / "shared-dependencies.pth").write_text(f"{shared}\n")
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "NUMBA_CACHE_DIR")}
    _share_kernel_cache(Path(site) / "meio")
    return Built(wheel, sdist, python, env, tmp, Path(site))


def _kernel_cache(package: Path) -> set[Path]:
    return {p.relative_to(package) for p in package.rglob("__pycache__/*.nb[ic]")}


def _share_kernel_cache(installed: Path) -> None:
    """Give the wheel's kernels the checkout's compiled code (see the module docstring)."""
    source = ROOT / "src" / "meio"
    _run([sys.executable, "-m", "meio.warm"], ROOT,
         {**{k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"},
          "PYTHONPATH": str(ROOT / "src")})
    for cached in _kernel_cache(source):
        module = cached.parent.parent / (cached.name.split(".")[0] + ".py")
        ours, theirs = source / module, installed / module
        if not theirs.is_file() or ours.read_bytes() != theirs.read_bytes():
            continue  # a kernel of a file the wheel does not hold as is: it compiles
        (installed / cached).parent.mkdir(exist_ok=True)
        shutil.copy2(source / cached, installed / cached)
        stat = ours.stat()
        os.utime(theirs, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def test_the_wheel_installs_and_plays_in_a_clean_venv(built: Built) -> None:
    assert "PASSED" in _run([sys.executable, "-m", "twine", "check", "--strict", built.wheel,
                             built.sdist], built.cwd)
    names = set(zipfile.ZipFile(built.wheel).namelist())
    for needed in ("meio/sim/core.py", "meio/rl/envcore.py", "meio/bots/policies/ppo-4p.npz",
                   "meio/web/static/index.html", "meio/py.typed", "meio/tui/play.tcss",
                   "meio/tui/replay.tcss"):
        assert needed in names, needed
    with tarfile.open(built.sdist) as sdist:
        assert "setup.py" in {Path(n).name for n in sdist.getnames()}
    meio_script = built.python.parent / "meio"
    assert _run([meio_script, "--version"], built.cwd, built.env).strip() == \
        f"meio {__version__}"
    installed = built.wheel_site / "meio"
    before = _kernel_cache(installed)
    assert before  # the checkout's compiled kernels were shared
    assert "played" in _run([built.python, "-c", SMOKE], built.cwd, built.env)
    # every kernel the smoke test ran came from the shared cache: none compiled anew
    assert _kernel_cache(installed) == before


def test_auditwheel_finds_the_wheel_manylinux_and_repairs_its_tag(built: Built) -> None:
    auditwheel = Path(sys.executable).parent / "auditwheel"
    if not auditwheel.exists() or not sys.platform.startswith("linux"):
        pytest.skip("auditwheel checks Linux wheels (pip install 'meio[dev]')")
    # the extensions need nothing of the system but glibc: nothing to graft in
    shown = _run([auditwheel, "show", built.wheel], built.cwd)
    tag = f"manylinux_2_17_{platform.machine()}"
    assert f'platform tag: "{tag}"' in " ".join(shown.split()), shown
    out = built.cwd / "wheelhouse"
    _run([auditwheel, "repair", "--plat", tag, "-w", out, built.wheel],
         built.cwd, {**os.environ, "PATH": f"{auditwheel.parent}:{os.environ['PATH']}"})
    (repaired,) = out.glob("*.whl")
    assert tag in repaired.name
    assert not [n for n in zipfile.ZipFile(repaired).namelist() if ".libs/" in n]


def test_the_wheels_engine_is_compiled_but_for_the_rules_numba_reads(built: Built) -> None:
    # a platform wheel (mypyc's extensions), not py3-none-any
    assert not built.wheel.name.endswith("-py3-none-any.whl"), built.wheel.name
    files = _run([built.python, "-c", WHERE], built.cwd, built.env).split()
    where = dict(zip(ENGINE_MODULES, files, strict=True))
    for module in COMPILED:
        assert where[module].endswith(".so"), (module, where[module])
    for module in set(ENGINE_MODULES) - set(COMPILED):
        assert where[module].endswith(".py"), (module, where[module])
    # numba compiles the trick rules from their bytecode and hashes their source
    assert where["meio.engine.tricks"].endswith("tricks.py")


def test_meio_pure_and_editable_installs_build_pure_python(tmp_path: Path) -> None:
    # an editable install must never leave a .so beside the sources: it would
    # shadow every later edit of its .py file
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree, ignore=IGNORED)
    pure_env = {**os.environ, "MEIO_PURE": "1"}
    _run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir",
          tmp_path / "pure", tree], tmp_path, pure_env)
    _run([sys.executable, "-c", "import sys; from setuptools import build_meta; "
          "build_meta.build_editable(sys.argv[1])", tmp_path / "editable"], tree,
         {k: v for k, v in os.environ.items() if k != "MEIO_PURE"})
    (pure,) = (tmp_path / "pure").glob("*.whl")
    (editable,) = (tmp_path / "editable").glob("*.whl")
    assert pure.name == f"meio-{__version__}-py3-none-any.whl"
    assert editable.name.endswith("-py3-none-any.whl")
    names = zipfile.ZipFile(pure).namelist()
    assert "meio/engine/state.py" in names
    assert not [n for n in names if n.endswith(".so")]
    assert not [n for n in zipfile.ZipFile(editable).namelist() if n.endswith(".so")]
    assert not list((tree / "src").rglob("*.so"))
    # setuptools' build/ and egg-info go to a temporary folder (setup.py), not the checkout
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
          "--quiet", "-w", tmp_path / "pip", tree], tmp_path, pure_env)
    assert not (tree / "build").exists() and not list(tree.rglob("*.egg-info"))


def test_the_compiled_engine_plays_exactly_as_the_pure_one(built: Built) -> None:
    # the same seeded matches at every table setup, played by this checkout's pure
    # engine and by the wheel's compiled one: the same records, scores, refusals,
    # clones, undos and sampled worlds, line by line
    pure_env = {**built.env, "PYTHONPATH": str(ROOT / "src")}
    pure = _run([sys.executable, "-c", REPLAY], built.cwd, pure_env)
    assert "meio/engine/state.py" in pure.splitlines()[0]
    compiled = _run([built.python, "-c", REPLAY], built.cwd, built.env)
    assert compiled.splitlines()[0].endswith(".so")
    pure_lines, compiled_lines = pure.splitlines()[1:], compiled.splitlines()[1:]
    assert len(pure_lines) == len(REPLAY_SETUPS) * REPLAY_MATCHES
    for a, b in zip(pure_lines, compiled_lines, strict=True):
        assert a == b


def test_the_compiled_engines_openspiel_game_passes_random_sim_test(built: Built) -> None:
    pytest.importorskip("pyspiel")
    assert "simulated" in _run([built.python, "-c", SPIEL], built.cwd, built.env)
