"""Generic learners on the flat (1,812) and the compact (96) action spaces: agent steps
per second of SB3's MaskablePPO (through ``meio.rl.sb3.Sb3VecEnv``) and of the CleanRL
example (``examples/cleanrl_ppo.py``), each on the same compiled VectorEnv, and of
RLlib's PPO with its action-masking module (``examples/rllib_ppo.py``) on ``--envs``
single envs ``gym.make("meio/Meio-v0")``, which is how RLlib steps Gymnasium.

    nice python bench/compact_actions.py --steps 20000

One PyTorch thread; each figure is agent steps per CPU second of this process (the
fair figure on a shared machine) and per wall second, learning included.

``--learners`` picks some (``sb3,cleanrl`` by default). RLlib 2.60 requires
``gymnasium==1.2.2`` where meio's lock has 1.4.0, so it runs from a venv of its own,
and ``--add`` puts its rows into the existing document instead of measuring the
others again (each added row records its own command, date and load):

    /tmp/rllib/bin/python bench/compact_actions.py --learners rllib --steps 16384 \
        --json docs/bench/compact-actions.json --add
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shlex
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent


def sb3(actions: str, steps: int, envs: int) -> tuple[float, float]:
    from sb3_contrib import MaskablePPO

    from meio.rl import VectorEnv
    from meio.rl.sb3 import Sb3VecEnv

    env = Sb3VecEnv(VectorEnv(num_envs=envs, players=4, seed=1, actions=actions))
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=256, n_epochs=2, seed=0,
                        device="cpu", policy_kwargs={"net_arch": [64, 64]})
    wall, cpu = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=steps)
    return steps / (time.process_time() - cpu), steps / (time.perf_counter() - wall)


def cleanrl(actions: str, steps: int, envs: int) -> tuple[float, float]:
    spec = importlib.util.spec_from_file_location("cleanrl_ppo", ROOT / "examples" /
                                                  "cleanrl_ppo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["cleanrl_ppo"] = module
    spec.loader.exec_module(module)
    stats = module.train(module.Args(total_steps=steps, envs=envs, actions=actions))
    return stats["steps_per_cpu_second"], stats["steps_per_second"]


def rllib(actions: str, steps: int, envs: int) -> tuple[float, float]:
    spec = importlib.util.spec_from_file_location("rllib_ppo", ROOT / "examples" /
                                                  "rllib_ppo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rllib_ppo"] = module
    spec.loader.exec_module(module)
    stats = module.train(module.Args(total_steps=steps, envs=envs, actions=actions))
    return stats["steps_per_cpu_second"], stats["steps_per_second"]


LEARNERS = {"sb3": ("SB3 MaskablePPO", sb3), "cleanrl": ("CleanRL example", cleanrl),
            "rllib": ("RLlib PPO, masking module", rllib)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=20_000)
    ap.add_argument("--envs", type=int, default=32)
    ap.add_argument("--json", type=Path, metavar="FILE",
                    help="also write the rates as a meio-compact-actions/1 document (the "
                         "table of docs/rl.md is made from it)")
    ap.add_argument("--learners", default="sb3,cleanrl",
                    help=f"comma-separated, of {', '.join(LEARNERS)}")
    ap.add_argument("--add", action="store_true",
                    help="put these learners' rows into the existing --json document "
                         "(replacing their old rows), each with its own command")
    args = ap.parse_args()
    names = [n.strip() for n in args.learners.split(",") if n.strip()]
    unknown = [n for n in names if n not in LEARNERS]
    if unknown or not names:
        ap.error(f"--learners: {', '.join(unknown) or 'none given'}; choose from "
                 f"{', '.join(LEARNERS)}")
    if args.add and (args.json is None or not args.json.exists()):
        ap.error("--add needs --json naming an existing document")
    old = json.loads(args.json.read_text()) if args.add else None
    if old is not None and old.get("format") != "meio-compact-actions/1":
        ap.error(f"{args.json} is not a meio-compact-actions/1 document")
    torch.set_num_threads(1)
    print("| learner | actions | agent steps/s (CPU) | steps/s (wall) |")
    print("|---|---|---:|---:|")
    rows = []
    for key in names:
        name, run = LEARNERS[key]
        for actions in ("flat", "compact"):
            cpu, wall = run(actions, args.steps, args.envs)
            rows.append({"learner": name, "actions": actions, "cpu": round(cpu),
                         "wall": round(wall)})
            print(f"| {name} | {actions} | {cpu:,.0f} | {wall:,.0f} |", flush=True)
    if not args.json:
        return
    about = {"command": shlex.join(["python", "bench/compact_actions.py", *sys.argv[1:]]),
             "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
             "load_average": [round(x, 1) for x in os.getloadavg()]}
    if old is None:
        doc = {"format": "meio-compact-actions/1", **about, "steps": args.steps,
               "envs": args.envs, "rows": rows}
    else:
        ran = {r["learner"] for r in rows}
        added = [{**r, **about, "steps": args.steps, "envs": args.envs} for r in rows]
        doc = {**old, "rows": [r for r in old["rows"] if r["learner"] not in ran] + added}
    args.json.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
