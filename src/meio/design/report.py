"""A report card: plan the games within a time budget, play them, measure them.

:func:`make_plan` picks the named player (the strongest that fits the budget unless
one is given) and the ladder, timing one match of each on a deal the report does not
use, and gives each kind of work its deals (for precision: :mod:`meio.design.budget`);
:func:`run` plays them on local processes or a Ray cluster; :func:`summarise` turns
them into the report's figures (:mod:`meio.design.measures`) and, for several
rulesets, each row's difference on the same deals.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from meio.design.budget import SEAT_TARGET, SELF_SHARE, STEP_TARGET, Share, share
from meio.design.games import Tables, Work, play
from meio.design.measures import Card, card, compare
from meio.design.rulesets import DesignError, config
from meio.engine.ruleset import Variant

Json = dict[str, Any]
Progress = Callable[[float, float], None]

#: the ladder on the editions, weakest first: the network (learned-v7) scores 0.35 a round
#: better than the heuristic (docs/bots.md), and in this report's quiet runs of the box
#: edition search:1 scored 0.05-0.09 a round worse than it and search:2 0.13 better
#: than search:1 (docs/design.md)
LADDER = ("random", "heuristic", "search:1", "learned", "search:2")
#: the ladder off the editions (and where an edition meets another ruleset): the network
#: for any ruleset trails the ruleset's heuristic there (docs/bots.md, "The network for
#: any ruleset"), so it stands below it
LADDER_ANY = ("random", "learned", "heuristic", "search:1", "search:2")
#: the named player's candidates, strongest first, on the editions and off them
PLAYERS = ("search:2", "learned", "search:1", "heuristic")
PLAYERS_ANY = ("search:2", "search:1", "heuristic")
#: the fewest deals a named player must reach in half the time for it to be chosen
MIN_DEALS = 150
#: the share of the time the workers are planned to be busy (the rest: starting them,
#: the chunks' ends not meeting)
BUSY = 0.85
#: rough seconds a 4-player match, for cutting work into chunks when nothing was timed
GUESS = {"random": 0.03, "heuristic": 0.01, "learned": 0.06, "search:1": 1.0,
         "search:2": 5.0, "search:3": 40.0, "search:4": 60.0, "expert": 60.0}
#: seconds of a timed report kept for its summary and page after the games
SUMMARY_SECONDS = 45.0
#: deals the timing matches are played on (far from the report's own)
CALIBRATION_DEAL = 10**9


@dataclass(frozen=True)
class Plan:
    """What a report plays: ``deals`` of self-play under ``player`` (each from every
    first leader) and ``pair_deals[i]`` deals of the ladder's step ``i``."""

    rulesets: tuple[Variant, ...]
    players: int
    player: str
    ladder: tuple[str, ...]
    deals: int
    pair_deals: tuple[int, ...]
    seed: int = 0
    partnership: bool = False
    #: seconds one match took when planning, by bot kind
    match_seconds: tuple[tuple[str, float], ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def pairs(self) -> list[tuple[str, str]]:
        return list(zip(self.ladder, self.ladder[1:], strict=False))

    @property
    def sides(self) -> int:
        return 2 if self.partnership else self.players

    def works(self, chunk_seconds: float = 10.0) -> list[Work]:
        """The plan cut into chunks of about ``chunk_seconds`` each (the unit of a worker)."""
        cost = dict(self.match_seconds)
        out: list[Work] = []
        for i, v in enumerate(self.rulesets):
            jobs = [((self.player,), self.deals)] + [
                (pair, n) for pair, n in zip(self.pairs, self.pair_deals, strict=True)]
            for bots, n in jobs:
                per = sum(cost.get(b, GUESS.get(b, 1.0)) for b in bots) / len(bots) * self.players
                size = max(1, min(n, int(chunk_seconds / max(per, 1e-3))))
                for first in range(0, n, size):
                    out.append(Work(v, self.players, bots, first, min(size, n - first),
                                    self.seed, self.partnership, i))
        return out

    def json(self) -> Json:
        """The plan as ``summary.json`` holds it: what was played, not how fast (the
        timings are the run's, in ``run.json``), so that a seed and ``--deals`` give the
        same file wherever the games are played."""
        out = asdict(self)
        out["rulesets"] = [v.name for v in self.rulesets]
        del out["match_seconds"]
        return out


def time_match(variant: Variant, players: int, kind: str, partnership: bool = False) -> float:
    """Seconds one match of ``kind`` in every seat takes here, on deals the report does
    not play: the faster of two, so that loading a network or compiling the core for
    the first match does not count (one, for a player slower than 2 s a match)."""
    from meio.bots import make_bot, play_match

    best = math.inf
    for k in range(2):
        cfg = config(variant, players, CALIBRATION_DEAL + k, None, partnership)
        start = time.perf_counter()
        play_match(cfg, [make_bot(kind, s) for s in range(players)])
        best = min(best, time.perf_counter() - start)
        if best > 2.0:  # a slow player: a second of loading is a small share of it
            break
    return best


def plays_all(kind: str, rulesets: Sequence[Variant], players: int,
              partnership: bool) -> bool:
    """Whether ``kind`` sits at a table of every ruleset (the network reads the
    editions' cards only)."""
    from meio.bots.variant_play import plays_ruleset

    return all(plays_ruleset(kind, config(v, players, 0, None, partnership))
               for v in rulesets)


def mixes_editions(rulesets: Sequence[Variant], players: int, partnership: bool) -> bool:
    """Whether some of ``rulesets`` are played by the bots' editions' players and others
    not (an edition beside a ruleset of its own): then a report seats the general
    players (:func:`meio.bots.variant_play.general_name`) on all of them."""
    from meio.bots.variant_play import editions_player

    return len({editions_player(config(v, players, 0, None, partnership))
                for v in rulesets}) > 1


def make_plan(rulesets: Sequence[Variant], players: int, *, player: str | None = None,
              ladder: Sequence[str] | None = None, deals: int | None = None,
              seconds: float = 600.0, jobs: int = 1, seed: int = 0,
              partnership: bool = False,
              timer: Callable[[Variant, int, str, bool], float] = time_match,
              began: float | None = None, reserve: float = 0.0) -> Plan:
    """The games of a report on ``rulesets``: ``deals`` each when given, else as many
    as ``seconds`` of ``jobs`` workers allow (timed here, one match a kind), less the
    time since ``began`` (a ``time.perf_counter()`` reading: the timing itself counts)
    and ``reserve`` seconds (for the summary and the page)."""
    from meio.bots import bot_kinds
    from meio.bots.variant_play import editions_player, general_name

    if not rulesets:
        raise DesignError("name at least one ruleset")
    for v in rulesets:
        config(v, players, 0, None, partnership)  # refuses a size a ruleset lacks
    known = set(bot_kinds())
    for kind in [*(ladder or ()), *([player] if player else [])]:
        if kind not in known and not kind.startswith(("learned:", "search:5:", "search:6:")):
            raise DesignError(f"unknown player {kind!r}; choose one of: {', '.join(sorted(known))}")
    notes: list[str] = []
    general = mixes_editions(rulesets, players, partnership)
    editions = not general and all(editions_player(config(v, players, 0, None, partnership))
                                   for v in rulesets)
    chosen = list(ladder or (LADDER if editions else LADDER_ANY))
    if general:  # one player on every ruleset: the bots' general path on the edition too
        chosen = [general_name(k) for k in chosen]
        player = general_name(player) if player is not None else None
        notes.append("an edition is compared with another ruleset: every player plays its "
                     "general path on both (the -any bots), so a difference is the rules', "
                     "not a change of player")
    for kind in list(chosen):
        if not plays_all(kind, rulesets, players, partnership):
            chosen.remove(kind)
            notes.append(f"{kind} is left out of the ladder: its network reads the editions' "
                         "cards and does not play every ruleset here")
    if len(chosen) < 2 and ladder is None:
        raise DesignError("the ladder needs two players who play every ruleset")
    if player is not None and not plays_all(player, rulesets, players, partnership):
        raise DesignError(f"{player} does not play every ruleset named (its network reads the "
                          "editions' cards)")
    cost: dict[str, float] = {}

    def seconds_of(kind: str) -> float:
        if kind not in cost:
            cost[kind] = timer(rulesets[0], players, kind, partnership)
        return cost[kind]

    fits = [general_name(k) if general else k for k in (PLAYERS if editions else PLAYERS_ANY)
            if plays_all(k, rulesets, players, partnership)]
    if player is None:
        for kind in reversed(fits):  # the cheap ones first: they load what all share
            seconds_of(kind)
    if deals is None:
        for kind in chosen:
            seconds_of(kind)
    games = seconds - reserve - (time.perf_counter() - began if began is not None else 0.0)
    budget = max(games, 1.0) * jobs * BUSY / len(rulesets)  # worker-seconds a ruleset
    if player is None:
        for kind in fits:
            if deals is not None or (SELF_SHARE * budget / (players * seconds_of(kind))
                                     >= MIN_DEALS) or kind == fits[-1]:
                player = kind
                break
        assert player is not None
        notes.append(f"named player: {player}, the strongest of {', '.join(fits)} that "
                     + ("was asked for" if deals is not None else
                        f"reaches {MIN_DEALS} deals in its share of the time"))
    pairs = list(itertools.pairwise(chosen))
    if deals is not None:
        self_deals = deals
        pair_deals = [deals] * len(pairs)
    else:
        from meio.tournament import lineups

        costs = [len(lineups([a, b], players, partnership)) * (seconds_of(a) + seconds_of(b))
                 / 2 for a, b in pairs]
        got = share(budget, players * seconds_of(player), costs)
        self_deals, pair_deals = got.deals, got.pair_deals
        notes += _precision_notes(got, pairs, got.seconds_for_targets * len(rulesets)
                                  / (jobs * BUSY) + seconds - games)
    return Plan(tuple(rulesets), players, player, tuple(chosen), self_deals,
                tuple(pair_deals), seed, partnership,
                tuple(sorted(cost.items())), tuple(notes))


def _precision_notes(got: Share, pairs: Sequence[tuple[str, str]],
                     seconds: float) -> list[str]:
    """What the plan expects to reach where the time does not allow the targets."""
    out = []
    if got.seat_half_width > SEAT_TARGET * 1.01:
        out.append(f"in this time the seats' edges reach about ±{got.seat_half_width:.3f} a "
                   f"round, not the ±{SEAT_TARGET} aimed at")
    short = [(f"{a} → {b}", h) for (a, b), h in zip(pairs, got.step_half_widths, strict=True)
             if h > STEP_TARGET * 1.01]
    if short:
        out.append("in this time " + ", ".join(f"{step} reaches about ±{h:.3f}" for step, h in
                                               short)
                   + f" a round, not the ±{STEP_TARGET} aimed at (the smallest gain that "
                   "matters: finer, a flat step is told from a rising one)")
    if out:
        out[-1] += f"; about --time {math.ceil(seconds / 60)}m would reach every target"
    return out


# -- running -----------------------------------------------------------------------------
@dataclass
class Played:
    """The rows of a finished plan, by ruleset: self-play and each ladder step."""

    plan: Plan
    self_play: list[Tables]
    pairs: list[list[Tables]]
    seconds: float


def _concat(parts: list[Tables]) -> Tables:
    if not parts:
        return {}
    out: Tables = {}
    for table in parts[0]:
        keys = set().union(*(p[table].keys() for p in parts))
        out[table] = {k: np.concatenate([p[table][k] for p in parts if k in p[table]])
                      for k in keys}
    return out


def run(plan: Plan, jobs: int = 1, ray: str | None = None,
        progress: Progress | None = None, deadline: float | None = None) -> Played:
    """Play every game of ``plan``; ``progress(done, total)`` in planned seconds.

    With a ``deadline`` (seconds) the chunks still running then are dropped (local
    workers are stopped, Ray tasks cancelled) and no other starts: every part keeps the
    deals it finished from deal 0 on without a gap (the parts advance together, so they stop
    near the same share of their deals), a ladder step with none is left out with the
    steps above it, and the plan returned says how many deals each part reached."""
    works = sorted(plan.works(), key=lambda w: (w.first / _part_deals(plan, w), w.ruleset))
    cost = dict(plan.match_seconds)

    def weight(w: Work) -> float:
        per = sum(cost.get(b, GUESS.get(b, 1.0)) for b in w.bots) / len(w.bots)
        return w.count * plan.players * per

    total = sum(weight(w) for w in works)
    done = 0.0
    start = time.perf_counter()
    parts: dict[tuple[int, tuple[str, ...]], list[tuple[int, int, Tables]]] = {}
    stopped = False
    # closed on leaving the loop, not when collected: the pool is terminated, the Ray
    # tasks still pending or running are cancelled (meio.ray_tasks.ray_map)
    with contextlib.closing(_backend(works, jobs, ray)) as backend:
        for work, tables in backend:
            parts.setdefault((work.ruleset, work.bots), []).append(
                (work.first, work.count, tables))
            done += weight(work)
            if progress is not None:
                progress(done, total)
            if deadline is not None and time.perf_counter() - start > deadline:
                stopped = True
                break

    def reached(i: int, bots: tuple[str, ...]) -> tuple[int, Tables]:
        end, kept = 0, []
        for first, count, tables in sorted(parts.get((i, bots), []), key=lambda x: x[0]):
            if first != end:
                break
            end = first + count
            kept.append(tables)
        return end, _concat(kept)

    n = len(plan.rulesets)
    own = [reached(i, (plan.player,)) for i in range(n)]
    steps = [[reached(i, pair) for pair in plan.pairs] for i in range(n)]
    deals = min(e for e, _ in own)
    if deals < 2:
        raise DesignError("the time ran out before two deals were played under the named "
                          "player; give more --time or fewer --deals")
    pair_deals = [min(steps[i][k][0] for i in range(n)) for k in range(len(plan.pairs))]
    keep = next((k for k, d in enumerate(pair_deals) if d < 2), len(pair_deals))
    notes = list(plan.notes)
    if stopped:
        notes.append(f"the time ran out: {deals} of {plan.deals} deals under the named "
                     "player, " + ", ".join(f"{d} of {p}" for d, p in
                                            zip(pair_deals, plan.pair_deals, strict=True))
                     + " on the ladder's steps")
    if keep < len(plan.pairs):
        notes.append(f"the ladder stops at {plan.ladder[keep]}: no deals of the step above "
                     "were finished in time")
    reached_plan = replace(plan, deals=deals, pair_deals=tuple(pair_deals[:keep]),
                           ladder=plan.ladder[:keep + 1], notes=tuple(notes))
    return Played(reached_plan, [_cut(t, deals) for _, t in own],
                  [[_cut(steps[i][k][1], pair_deals[k]) for k in range(keep)]
                   for i in range(n)],
                  time.perf_counter() - start)


def _part_deals(plan: Plan, w: Work) -> int:
    return plan.deals if not w.pair else plan.pair_deals[plan.pairs.index(
        (w.bots[0], w.bots[1]))]


def _cut(t: Tables, deals: int) -> Tables:
    """The rows of deals ``0 .. deals − 1`` (every ruleset's part on the same deals)."""
    return {name: {k: v[cols["deal"] < deals] for k, v in cols.items()}
            for name, cols in t.items()}


def cluster_cpus(address: str) -> int:
    """The CPUs of the Ray cluster at ``address``: the workers a report's time is
    planned for under ``--ray``."""
    from meio.ray_tasks import RayError, connect

    try:
        return max(1, int(connect(address).cluster_resources().get("CPU", 1)))
    except RayError as exc:
        raise DesignError(str(exc)) from None


def _backend(works: list[Work], jobs: int, ray: str | None
             ) -> Generator[tuple[Work, Tables], None, None]:
    if ray is not None:
        from meio.ray_tasks import RayError, ray_map

        try:
            yield from ray_map(ray, play, works)
        except RayError as exc:
            raise DesignError(str(exc)) from None
        return
    if jobs <= 1:
        for w in works:
            yield w, play(w)
        return
    import multiprocessing
    import sys

    ctx = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    pool = ctx.Pool(jobs)
    try:
        for i, tables in pool.imap_unordered(_indexed, list(enumerate(works)), chunksize=1):
            yield works[i], tables
    finally:
        # stopped early (the time limit, Ctrl-C): the chunks still running are dropped
        pool.terminate()
        pool.join()


def _indexed(item: tuple[int, Work]) -> tuple[int, Tables]:
    return item[0], play(item[1])


# -- the summary -------------------------------------------------------------------------
def cards(played: Played) -> list[Card]:
    """Each ruleset's report card."""
    plan = played.plan
    return [card(played.self_play[i], list(zip(plan.pairs, played.pairs[i], strict=True)),
                 plan.players, max(plan.deals, *plan.pair_deals, 1), plan.sides)
            for i in range(len(plan.rulesets))]


def summarise(played: Played) -> Json:
    """Every figure of the report, as ``summary.json`` holds it, and under ``run`` how
    the run went (:func:`write` keeps that apart, in ``run.json``)."""
    plan = played.plan
    made = cards(played)
    out: Json = {
        "plan": plan.json(),
        "run": {"seconds": round(played.seconds, 1),
                "match_seconds": dict(plan.match_seconds)},
        "matches": _matches(plan),
        "rulesets": [{"name": v.name, **c.json()} for v, c in zip(plan.rulesets, made,
                                                                   strict=True)],
    }
    if len(made) > 1:
        out["compare"] = compare(made)
    return out


def _matches(plan: Plan) -> Json:
    from meio.tournament import lineups

    pair = {f"{a}>{b}": n * len(lineups([a, b], plan.players, plan.partnership))
            for (a, b), n in zip(plan.pairs, plan.pair_deals, strict=True)}
    return {"self_play": plan.deals * plan.players, "ladder": pair,
            "per_ruleset": plan.deals * plan.players + sum(pair.values())}


def finite(x: float) -> bool:
    return not (math.isnan(x) or math.isinf(x))


def clean(x: Any) -> Any:
    """``x`` with every NaN and infinity as None (JSON has neither)."""
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [clean(v) for v in x]
    if isinstance(x, float) and not finite(x):
        return None
    if isinstance(x, np.generic):
        return clean(x.item())
    return x


def write(summary: Json, folder: Path) -> list[Path]:
    """Write ``summary.json``, ``summary.md``, ``report.html`` and ``run.json`` into
    ``folder``. ``summary.json`` holds every figure and the plan, the same byte for
    byte for the same seed and deals whether local workers or a Ray cluster played them;
    ``run.json`` how this run went (its wall time, the timings it planned by)."""
    import json

    from meio.design.html import markdown, render

    folder.mkdir(parents=True, exist_ok=True)
    data = clean(summary)
    paths = [folder / "summary.json", folder / "summary.md", folder / "report.html",
             folder / "run.json"]
    figures = {k: v for k, v in data.items() if k != "run"}
    paths[0].write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    paths[1].write_text(markdown(data), encoding="utf-8")
    paths[2].write_text(render(data), encoding="utf-8")
    paths[3].write_text(json.dumps(data["run"], indent=1) + "\n", encoding="utf-8")
    return paths
