"""Throughput of ``meio analyze``'s backends: games/s with 1 and 2 local worker
processes and with a local Ray cluster of 2 workers, and the overhead of one task.

    nice .venv/bin/python bench/analysis.py --games 200000

The workload is the ``seats`` study of 4-player MEIO with heuristic play in the
compiled core: 5 cells (one per set of 4 specials), chunks of ``--chunk`` games.
The overhead per task is measured with tasks of a single game: wall time per task
with 2 workers, less the time the game itself takes. Every run starts in a fresh
folder (nothing resumed) after a warm-up run that loads the compiled core in each
worker (local workers, like Ray's, stay up between runs of one backend).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from meio.analysis import AnalysisSpec, LocalBackend, RayBackend, run_analysis
from meio.analysis.runner import Backend
from meio.ray_tasks import local_head


def timed(spec: AnalysisSpec, backend: Backend) -> tuple[float, int]:
    folder = Path(tempfile.mkdtemp(prefix="meio-bench-"))
    try:
        start = time.perf_counter()
        run = run_analysis(spec, folder, backend)
        return time.perf_counter() - start, sum(run.games.values())
    finally:
        shutil.rmtree(folder)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200_000, help="games of the workload")
    ap.add_argument("--chunk", type=int, default=5000, help="games per task")
    ap.add_argument("--tiny", type=int, default=200, help="one-game tasks for the overhead")
    args = ap.parse_args()
    work = AnalysisSpec(questions=("seats",), players=(4,), editions=("meio",),
                        partnership=False, games=args.games, chunk=args.chunk, seed=1)
    tiny = AnalysisSpec(questions=("seats",), players=(5,), editions=("meio",),
                        games=args.tiny, chunk=1, seed=2)
    warm = AnalysisSpec(questions=("seats",), players=(4, 5), editions=("meio",),
                        partnership=False, games=200, chunk=10, seed=3)
    rows = []
    with local_head(2) as address:
        backends: list[tuple[str, Backend]] = [
            ("local, 1 worker", LocalBackend(1)),
            ("local, 2 workers", LocalBackend(2)),
            ("Ray, 2 workers", RayBackend(address)),
        ]
        for name, backend in backends:
            timed(warm, backend)
            wall, games = timed(work, backend)
            t_wall, t_tasks = timed(tiny, backend)
            rows.append((name, games, wall, t_wall, t_tasks))
            if isinstance(backend, LocalBackend):
                backend.close()
    one_game = rows[0][2] / rows[0][1]  # seconds of one game in one process
    print(f"workload: {args.games:,} games of meio 4p (heuristic, compiled core), "
          f"{args.chunk:,}-game tasks; overhead: {args.tiny} one-game tasks of meio 5p")
    print(f"{'backend':<18}{'games':>10}{'seconds':>10}{'games/s':>12}{'task overhead':>16}")
    for name, games, wall, t_wall, t_tasks in rows:
        workers = 1 if "1 worker" in name else 2
        overhead = t_wall * workers / t_tasks - one_game
        print(f"{name:<18}{games:>10,}{wall:>10.2f}{games / wall:>12,.0f}"
              f"{overhead * 1000:>13.2f} ms")


if __name__ == "__main__":
    main()
