"""Running an analysis: plan the cells, play them in waves of chunks, save each chunk,
and summarise.

* **Reproducible**: every chunk's games depend on the spec alone (:mod:`.plan`),
  chunks are merged in a fixed order, so the summary of a seed is the same whether
  the chunks ran in this process, in local workers or as Ray tasks.
* **Resumable**: each finished chunk is saved under ``DIR/chunks`` the moment it
  arrives; a rerun of the same command loads those and plays only the rest.
* **Sequential** (``--ci``): after each wave the headline intervals of every table
  are measured; the tables whose intervals are still wider than asked get twice
  their games in the next wave, up to ``max_games``. The waves depend on the
  results, which depend on the seed only, so they too are reproducible.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from meio.analysis import studies
from meio.analysis.frame import Columns, Frame
from meio.analysis.plan import (
    RULES_SKILL_PAIR,
    AnalysisError,
    AnalysisSpec,
    Cell,
    Chunk,
    Table,
    variant_tag,
)
from meio.analysis.play import core_plays, on_core, play_chunk
from meio.analysis.players import is_search
from meio.engine.ruleset_file import variant_json
from meio.ray_tasks import RayError, connect, ray_map

FORMAT = "meio-analysis/1"
#: most games of one engine-played chunk (a chunk should take seconds, not minutes)
ENGINE_CHUNK = 8
#: relative cost of one game, for the progress bar's ETA
CORE_COST, ENGINE_COST, SEARCH_COST = 1, 800, 150_000

Progress = Callable[[Chunk, float], None]


class Backend(Protocol):
    """Where chunks are played: :class:`LocalBackend` or :class:`RayBackend`."""

    def run(self, chunks: list[Chunk]) -> Iterator[tuple[Chunk, Columns]]:
        """Play ``chunks``; yield each with its rows as soon as it is done."""
        ...


class LocalBackend:
    """``jobs`` worker processes on this machine (1: in this process).

    The worker processes start with the first chunks and stay (with the compiled
    core loaded) for every later wave, until :meth:`close`."""

    def __init__(self, jobs: int = 1) -> None:
        if jobs < 1:
            raise AnalysisError(f"--jobs must be at least 1, not {jobs}")
        self.jobs = jobs
        self._pool: Any = None

    def run(self, chunks: list[Chunk]) -> Iterator[tuple[Chunk, Columns]]:
        if self.jobs == 1 or len(chunks) <= 1:
            for c in chunks:
                yield c, play_chunk(c)
            return
        from concurrent.futures import FIRST_COMPLETED, wait

        pool = self._start()
        pending = {pool.submit(play_chunk, c): c for c in chunks}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    yield pending.pop(fut), fut.result()
        except BaseException:
            self.close()  # Ctrl-C or a failed chunk: stop the workers now
            raise

    def _start(self) -> Any:
        if self._pool is None:
            import multiprocessing
            import sys
            from concurrent.futures import ProcessPoolExecutor

            ctx = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
            self._pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=ctx)
        return self._pool

    def close(self) -> None:
        """Stop the worker processes (pending chunks are dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class RayBackend:
    """Chunks as Ray tasks on the cluster at ``address`` (needs ``meio[cluster]``):
    each runs the same :func:`~meio.analysis.play.play_chunk` as a local worker,
    so a seed gives the same rows, and the same ``summary.json``, wherever it ran."""

    def __init__(self, address: str) -> None:
        self.address = address
        try:
            connect(address)
        except RayError as exc:
            raise AnalysisError(str(exc)) from None

    def run(self, chunks: list[Chunk]) -> Iterator[tuple[Chunk, Columns]]:
        yield from ray_map(self.address, play_chunk, chunks)


def cost(cell: Cell) -> int:
    """Relative time of one game of ``cell``."""
    if cell.pair is not None:
        per = SEARCH_COST if any(is_search(b) for b in cell.pair) else ENGINE_COST
        return per * cell.table.players
    if on_core(cell):
        return CORE_COST
    return SEARCH_COST if is_search(cell.policy) else ENGINE_COST


def games_of(spec: AnalysisSpec, cell: Cell, table_games: int) -> int:
    """A cell's games when its table is given ``table_games``: core cells share the
    table's games between the sets of specials; engine cells play fewer
    (``spec.engine_share``, ``spec.search_share``); at least 2 so an interval exists.
    A variant's table is all engine-played: its cells play the table's games as they are
    (a duplicate deal is one game), shared between the sets of specials."""
    if cell.table.variant is not None:
        if cell.pair is not None:
            # every game of a variant is an engine game: a search pair takes the share
            # of a search game among engine games
            slow = any(is_search(b) for b in cell.pair)
            share = max(1, spec.search_share // spec.engine_share) if slow else 1
            return max(spec.pair_floor(cell.pair, table_games),
                       math.ceil(table_games / share))
        return max(2, math.ceil(table_games / len(cell.table.special_sets())))
    if cell.pair is not None:
        share = spec.search_share if any(is_search(b) for b in cell.pair) \
            else spec.engine_share
        return max(spec.pair_floor(cell.pair, table_games), math.ceil(table_games / share))
    sets = len(cell.table.special_sets())
    share = 1 if on_core(cell) else (
        spec.search_share if is_search(cell.policy) else spec.engine_share)
    return max(2, math.ceil(table_games / share / sets))


@dataclass
class Plan:
    """The cells an analysis plays: each with its group (the table whose ``--ci``
    decides its games), and the cell keys each study reads."""

    cells: dict[Cell, str] = field(default_factory=dict)
    uses: dict[str, set[str]] = field(default_factory=dict)

    def add(self, study: str, cell: Cell, group: str) -> None:
        self.cells.setdefault(cell, group)
        self.uses.setdefault(study, set()).add(cell.key)


def plan_cells(spec: AnalysisSpec) -> Plan:
    """Every cell the questions need.

    The rules study compares readings like with like: a reading the core cannot
    play is compared with the default reading played through the engine too, so a
    difference never comes from two implementations of a policy."""
    plan = Plan()

    def selfplay(study: str, table: Table, policy: str, group: str,
                 engine: bool = False) -> None:
        for specials in table.special_sets():
            plan.add(study, Cell(table, specials, policy, engine=engine), group)

    for q in spec.questions:
        for t in spec.tables():
            if q in ("seats", "specials", "splits", "length"):
                selfplay(q, t, spec.policy, t.key)
            if q == "specials" and len(t.special_sets()) > 1:
                # which set rewards skill: random play against the named player's (the
                # heuristic's when the named player is random)
                for policy in contrast_policies(spec.policy):
                    selfplay("specials-contrast", t, policy, t.key)
            if q == "skill":
                for pair in spec.skill_pairs_played():
                    plan.add(q, Cell(t, (), "", pair), f"{t.key}#{'-vs-'.join(pair)}")
        if q == "rules":
            variants = spec.rule_tables()
            for v in variants:
                base = v.default_options
                if core_plays(v, spec.policy):
                    selfplay(q, v, spec.policy, v.key)
                    selfplay(q, base, spec.policy, base.key)
                else:
                    selfplay(q, v, spec.policy, v.key, engine=True)
                    selfplay(q, base, spec.policy, base.key, engine=True)
                # does the reading change how much skill pays? the same duplicate
                # comparison as the skill study, under each reading
                for t in (v, base):
                    plan.add("rules-skill", Cell(t, (), "", RULES_SKILL_PAIR),
                             f"{t.key}#{'-vs-'.join(RULES_SKILL_PAIR)}")
    return plan


def contrast_policies(policy: str) -> tuple[str, str]:
    """The weaker and the stronger player whose self-play gives each set of specials
    its skill gap: random against the named player (the heuristic under random)."""
    return ("random", "heuristic" if policy == "random" else policy)


def chunks_for(spec: AnalysisSpec, cell: Cell, start: int, stop: int) -> list[Chunk]:
    """Games ``start .. stop - 1`` of ``cell`` cut into chunks."""
    size = spec.chunk if cost(cell) == CORE_COST else ENGINE_CHUNK
    if cell.pair is not None:
        size = 2
    return [Chunk(cell, a, min(size, stop - a), spec.seed) for a in range(start, stop, size)]


@dataclass
class Store:
    """The chunks saved under ``DIR/chunks``; the spec in ``DIR/spec.json``."""

    root: Path
    loaded: dict[str, Columns] = field(default_factory=dict)

    def open(self, spec: AnalysisSpec) -> None:
        (self.root / "chunks").mkdir(parents=True, exist_ok=True)
        path = self.root / "spec.json"
        wanted = json.dumps(spec.to_json(), sort_keys=True)
        if path.exists():
            if json.loads(path.read_text()) != json.loads(wanted):
                raise AnalysisError(
                    f"{self.root} holds an analysis with other options; resume it with the "
                    "same command, or give another --out")
        else:
            path.write_text(wanted)

    def path(self, chunk: Chunk) -> Path:
        return self.root / "chunks" / f"{chunk.key}.npz"

    def get(self, chunk: Chunk) -> Columns | None:
        path = self.path(chunk)
        if not path.exists():
            return None
        with np.load(path, allow_pickle=False) as data:
            return unpack_rows({k: data[k] for k in data.files})

    def put(self, chunk: Chunk, rows: Columns) -> None:
        path = self.path(chunk)
        tmp = path.with_suffix(".tmp.npz")
        np.savez_compressed(tmp, **pack_rows(rows))  # type: ignore[arg-type]
        os.replace(tmp, path)


#: prefix of a saved text column that holds one value for the whole chunk
_CONST = "const:"


def pack_rows(rows: Columns) -> Columns:
    """A chunk's rows as saved: a text column with one value for every row (a chunk is
    one cell, so its cell, table, specials and policy are) is kept once, not per row.

    >>> packed = pack_rows({"game": np.arange(3), "table": np.array(["meio-4p"] * 3)})
    >>> sorted(packed), packed["const:table"].tolist()
    (['const:table', 'game'], ['meio-4p'])
    >>> unpack_rows(packed)["table"].tolist()
    ['meio-4p', 'meio-4p', 'meio-4p']
    """
    out: Columns = {}
    for key, col in rows.items():
        if col.dtype.kind in "UO" and col.size and (col == col[0]).all():
            out[_CONST + key] = np.asarray(col[:1], dtype=str)
        else:
            out[key] = col
    return out


def unpack_rows(saved: Columns) -> Columns:
    """The rows of a saved chunk (:func:`pack_rows` undone; older saves, with every text
    column in full, load as they are)."""
    n = next((v.size for k, v in saved.items() if not k.startswith(_CONST)), 0)
    return {(k[len(_CONST):] if k.startswith(_CONST) else k):
            (np.repeat(v, n) if k.startswith(_CONST) else v) for k, v in saved.items()}


@dataclass
class Run:
    """The outcome of :func:`run_analysis`: the summary and the raw tables."""

    summary: dict[str, Any]
    selfplay: Frame
    duplicates: Frame
    waves: int
    games: dict[str, int]


def run_analysis(
    spec: AnalysisSpec,
    out: Path,
    backend: Backend,
    *,
    progress: Callable[[float, float, int], None] | None = None,
) -> Run:
    """Play everything ``spec`` needs (resuming from ``out``) and summarise it.

    ``progress(done, total, games)`` is called as chunks finish, in cost units."""
    store = Store(out)
    store.open(spec)
    plan = plan_cells(spec)
    cells = plan.cells
    groups = sorted(set(cells.values()))
    target = dict.fromkeys(groups, spec.games)
    played: dict[Cell, int] = dict.fromkeys(cells, 0)
    rows: dict[str, Columns] = {}
    waves = 0
    done_cost = 0.0
    games_done = 0
    while True:
        waves += 1
        todo: list[Chunk] = []
        for cell, group in cells.items():
            want = games_of(spec, cell, target[group])
            todo.extend(chunks_for(spec, cell, played[cell], want))
            played[cell] = max(played[cell], want)
        total_cost = done_cost + sum(cost(c.cell) * c.count for c in todo)
        missing = []
        for c in todo:
            saved = store.get(c)
            if saved is None:
                missing.append(c)
                continue
            rows[c.key] = saved
            done_cost += cost(c.cell) * c.count
            games_done += c.count
        if progress:
            progress(done_cost, total_cost, games_done)
        for c, got in backend.run(missing):
            store.put(c, got)
            rows[c.key] = got
            done_cost += cost(c.cell) * c.count
            games_done += c.count
            if progress:
                progress(done_cost, total_cost, games_done)
        summary = summarize(spec, rows, played, plan)
        if spec.ci is None:
            break
        widths = studies.headline(summary)
        grow = [g for g in groups
                if max(widths.get(g, [0.0]), default=0.0) > spec.ci
                and target[g] * 2 <= spec.max_games]
        if not grow:
            break
        for g in grow:
            target[g] *= 2
    summary["waves"] = waves
    summary["targets"] = dict(sorted(target.items()))
    sp, dup = frames(rows)
    return Run(summary, sp, dup, waves, {c.key: n for c, n in played.items()})


def frames(rows: dict[str, Columns]) -> tuple[Frame, Frame]:
    """The self-play and duplicate tables, chunks in a fixed order."""
    keys = sorted(rows, key=_chunk_order)
    sp = Frame.concat(rows[k] for k in keys if "pair" not in rows[k])
    dup = Frame.concat(rows[k] for k in keys if "pair" in rows[k])
    return sp, dup


def _chunk_order(key: str) -> tuple[str, int]:
    cell, _, span = key.rpartition(".")
    return cell, int(span.split("-")[0])


def studies_tag(spec: AnalysisSpec) -> str:
    """The tag of the spec's variant (what its tables' keys start with), "" without one."""
    return variant_tag(spec.variant) if spec.variant is not None else ""


def summarize(spec: AnalysisSpec, rows: dict[str, Columns], played: dict[Cell, int],
              plan: Plan) -> dict[str, Any]:
    """``summary.json``: the spec, the games of every cell and every study's figures."""
    sp, dup = frames(rows)
    tables = spec.tables()

    def of(study: str) -> Frame:
        keys = sorted(plan.uses.get(study, ()))
        return sp.where(sp.isin("cell", keys)) if len(sp) else sp
    out: dict[str, Any] = {
        "format": FORMAT,
        "spec": spec.to_json(),
        "games": {c.key: n for c, n in sorted(played.items(), key=lambda x: x[0].key)},
        "studies": {},
    }
    if spec.variant is not None:
        v = spec.variant
        out["variant"] = {"name": v.name, "tag": studies_tag(spec), "edition": v.edition,
                          "hand": v.hand, "first_half": v.first_half, "pack": v.pack,
                          "specials": [s.code for s in v.specials],
                          "players": list(v.players), "ruleset": variant_json(v)}
    skipped = spec.skipped()
    if skipped:
        out["skipped"] = skipped
    found: dict[str, Any] = out["studies"]
    for q in spec.questions:
        if q == "seats":
            found[q] = studies.seats(of(q), tables)
        elif q == "specials":
            found[q] = studies.specials(of(q), of("specials-contrast"), tables,
                                        strong=contrast_policies(spec.policy)[1])
        elif q == "skill":
            found[q] = studies.skill(dup, tables)
        elif q in ("splits", "length"):
            found[q] = getattr(studies, q)(of(q), tables)
        elif q == "rules" and "rules" not in skipped:
            skill_keys = sorted(plan.uses.get("rules-skill", ()))
            found[q] = studies.rules(of(q), spec,
                                     dup.where(dup.isin("cell", skill_keys)) if len(dup) else dup)
    return out
