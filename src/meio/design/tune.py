"""``meio design tune``: search the rulesets around a base for a designer's goals.

Each trial is a ruleset (the base with the ``--vary`` keys set, :mod:`meio.design.space`)
played under the same player on the same deals (the report card's games,
:mod:`meio.design.report`, with a fixed plan), scored on the goals' figures. The search
is Optuna's, multi-objective:

* **TPE** by default: with the few dozen trials a designer can afford it models the
  good and bad regions from the first trials on, where NSGA-II spends its first
  generation (50 trials by default) at random; ``--sampler nsga2`` is there for long
  runs. Both take the ``<`` and ``>`` goals as constraints (a trial breaking one is
  infeasible, never on the front).
* **Resumable**: the study lives in ``DIR/study.db`` (SQLite). Trials are asked in
  batches of ``jobs``, each batch's sampler seeded from the seed and the number of
  trials already finished, evaluated in parallel, and told in order; a trial a kill
  left running is marked failed on restart and asked again. So a seeded study resumes
  to the same trials and the same front as a run never stopped (tested).
* A ruleset that does not hold together (pack sizes that do not add up, a deck too
  small) is **pruned** with its problems recorded, not a crash.

Every trial's ruleset is written as ``DIR/trials/trial-NNNN.toml``. At the end the
Pareto front is reported and the picked rulesets are played again on fresh deals: a
winner picked among many noisy trials looks better than it is, and the report says by
how much each goal's figure shrank.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from meio.analysis.plan import derive
from meio.design.report import Plan, cards, clean, run
from meio.design.rulesets import DesignError
from meio.design.space import Vary, changed, changed_json, check_key, toml_text
from meio.engine.ruleset import Variant
from meio.engine.ruleset_file import VariantError

Json = dict[str, Any]

#: the figures a goal may name, and the report card's row each reads ("{top}": the
#: ladder's top step)
GOALS = {
    "seat_gap": "seat_gap",
    "leader_edge": "leader_edge",
    "match_win_gap": "match_win_gap",
    "mean_score": "mean_round_score",
    "depth": "depth",
    "skill": "skill:{top}",
    "luck": "luck:{top}",
    "rounds75": "rounds75:{top}",
    "last_round": "last_changed",
    "lead_changes": "lead_changes",
    "shared": "shared",
    "certain_after": "certain_after",
    "minutes": "minutes",
    "decisions": "decisions",
}
#: the seed offset of the fresh deals a pick is played again on
FRESH = 1_000_003


@dataclass(frozen=True)
class Goal:
    """``min X``, ``max X`` (an objective) or ``X<b``, ``X>b`` (a constraint)."""

    figure: str
    direction: str = ""  #: "minimize" / "maximize" for an objective
    op: str = ""  #: "<" / ">" for a constraint
    bound: float = 0.0

    @property
    def objective(self) -> bool:
        return bool(self.direction)

    def text(self) -> str:
        if self.objective:
            return f"{self.direction[:3]} {self.figure}"
        return f"{self.figure}{self.op}{self.bound:g}"

    def violation(self, value: float) -> float:
        """Optuna's constraint value: at most 0 when the goal is met."""
        if math.isnan(value):
            return 1.0
        return value - self.bound if self.op == "<" else self.bound - value


def parse_goal(text: str) -> Goal:
    """``"max depth"``, ``"min seat_gap"``, ``"seat_gap<0.02"``, ``"depth>0.3"``."""
    t = text.strip()
    words = t.split()
    if len(words) == 2 and words[0] in ("min", "max"):
        _known(words[1], text)
        return Goal(words[1], "minimize" if words[0] == "min" else "maximize")
    for op in ("<=", ">=", "<", ">"):
        if op in t:
            name, _, bound = t.partition(op)
            name = name.strip()
            _known(name, text)
            try:
                value = float(bound)
            except ValueError:
                raise DesignError(f"--goal {text!r}: {bound.strip()!r} is not a number") from None
            return Goal(name, op=op[0], bound=value)
    raise DesignError(f"--goal {text!r}: write 'min FIGURE', 'max FIGURE', 'FIGURE<BOUND' or "
                      f"'FIGURE>BOUND' (figures: {', '.join(GOALS)})")


def _known(name: str, text: str) -> None:
    if name not in GOALS:
        raise DesignError(f"--goal {text!r}: unknown figure {name!r} (choose "
                          f"{', '.join(GOALS)})")


def row_key(plan: Plan, name: str) -> str:
    """The report card's row a goal's figure reads under ``plan``."""
    pairs = plan.pairs
    top = f"{pairs[-1][0]}>{pairs[-1][1]}" if pairs else ""
    return GOALS[name].format(top=top)


@dataclass(frozen=True)
class Task:
    """One trial to play: its ruleset's keys and the fixed plan it is played by."""

    number: int
    params: dict[str, Any]
    plan: Plan


def evaluate(task: Task) -> Json:
    """Play one trial: its goal figures with their intervals, or why it was pruned."""
    try:
        variant = changed(task.plan.rulesets[0], task.params, f"trial-{task.number:04d}")
    except VariantError as exc:
        return {"pruned": exc.problems}
    try:
        plan = Plan((variant,), task.plan.players, task.plan.player, task.plan.ladder,
                    task.plan.deals, task.plan.pair_deals, task.plan.seed,
                    task.plan.partnership, task.plan.match_seconds)
        c = cards(run(plan))[0]
    except DesignError as exc:
        return {"pruned": [str(exc)]}
    out: Json = {"figures": {}}
    for name in GOALS:
        key = row_key(plan, name)
        if key in c.rows:
            out["figures"][name] = c.rows[key].measure.estimate().to_json()
    return out


@dataclass(frozen=True)
class Study:
    """A tuning run: the base, what varies, the goals and the fixed plan."""

    base: Variant
    varies: tuple[Vary, ...]
    goals: tuple[Goal, ...]
    plan: Plan
    seed: int = 0
    sampler: str = "tpe"

    def __post_init__(self) -> None:
        # every trial under one player: the bots' general path (heuristic -> heuristic-any,
        # search:K -> search:K-any, learned -> learned-any), also on a trial whose rules
        # happen to equal an edition's, which the plain names would play by the editions'
        from meio.bots.variant_play import general_name

        plan = self.plan
        object.__setattr__(self, "plan", dataclasses.replace(
            plan, player=general_name(plan.player),
            ladder=tuple(general_name(k) for k in plan.ladder)))

    def check(self) -> None:
        if not self.varies:
            raise DesignError("name at least one --vary KEY=RANGE")
        if not any(g.objective for g in self.goals):
            raise DesignError("name at least one goal to reach for: --goal 'min FIGURE' or "
                              "--goal 'max FIGURE'")
        seen = set()
        for v in self.varies:
            check_key(self.base, v.key)
            if v.key in seen:
                raise DesignError(f"--vary {v.key} is given twice")
            seen.add(v.key)

    @property
    def objectives(self) -> list[Goal]:
        return [g for g in self.goals if g.objective]

    @property
    def constraints(self) -> list[Goal]:
        return [g for g in self.goals if not g.objective]

    def name(self) -> str:
        """The study's name in its storage: what it searches, so another search in the
        same folder is refused instead of mixed in."""
        return json.dumps(clean({"base": self.base.name, "vary": [v.__dict__ for v in
                                                                   self.varies],
                                 "goals": [g.text() for g in self.goals],
                                 "player": self.plan.player, "ladder": self.plan.ladder,
                                 "deals": self.plan.deals, "seed": self.seed,
                                 "players": self.plan.players}), sort_keys=True)


def _sampler(study: Study, seed: int) -> Any:
    import optuna

    # the constraints reach the samplers through each trial (Trial.set_constraint)
    if study.sampler == "nsga2":
        return optuna.samplers.NSGAIISampler(seed=seed)
    return optuna.samplers.TPESampler(seed=seed, multivariate=True, n_startup_trials=8)


def _suggest(trial: Any, v: Vary) -> Any:
    if v.choices:
        return trial.suggest_categorical(v.key, list(v.choices))
    if v.integer:
        return trial.suggest_int(v.key, int(v.low), int(v.high))
    # a variant's numbers go by halves (a special card's value: 12.5)
    return trial.suggest_float(v.key, v.low, v.high, step=0.5)


def open_study(study: Study, folder: Path) -> Any:
    """The Optuna study in ``folder/study.db``, made or resumed; refused when the
    folder holds a different search."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    folder.mkdir(parents=True, exist_ok=True)
    storage = f"sqlite:///{folder / 'study.db'}"
    names = optuna.get_all_study_names(storage)
    if names and names != ["meio-design"]:
        raise DesignError(f"{folder} holds another study; use another folder")
    s = optuna.create_study(storage=storage, study_name="meio-design", load_if_exists=True,
                            directions=[optuna.study.StudyDirection.MINIMIZE
                                        if g.direction == "minimize"
                                        else optuna.study.StudyDirection.MAXIMIZE
                                        for g in study.objectives])
    spec = s.user_attrs.get("spec")
    if spec is None:
        s.set_user_attr("spec", study.name())
    elif spec != study.name():
        raise DesignError(f"{folder} holds a tuning run with other options; use another "
                          "folder, or the same options to resume it")
    return s


def _done(s: Any) -> list[Any]:
    import optuna

    return [t for t in s.get_trials(deepcopy=False)
            if t.state in (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)]


def tune(study: Study, folder: Path, trials: int, jobs: int = 1, ray: str | None = None,
         progress: Callable[[int, int], None] | None = None) -> Any:
    """Run ``study`` until ``trials`` trials are finished (resuming what ``folder``
    holds); returns the Optuna study."""
    import optuna

    study.check()
    s = open_study(study, folder)
    for t in s.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,
                                                  optuna.trial.TrialState.WAITING)):
        _fail(s, t)
    (folder / "trials").mkdir(exist_ok=True)
    while (done := len(_done(s))) < trials:
        if progress is not None:
            progress(done, trials)
        s.sampler = _sampler(study, derive(study.seed, done) % 2**32)
        batch = []
        for _ in range(min(jobs, trials - done)):
            trial = s.ask()
            params = {v.key: _suggest(trial, v) for v in study.varies}
            batch.append((trial, Task(trial.number, params, study.plan)))
        # a ruleset tried before is not played again: on the same deals under the same
        # player its figures would be the same
        seen = {json.dumps(clean(t.user_attrs.get("params")), sort_keys=True): t
                for t in _done(s)}
        fresh = [task for _, task in batch if _key(task.params) not in seen]
        results = dict(_evaluate(fresh, jobs, ray))
        for trial, task in batch:
            old = seen.get(_key(task.params))
            if old is not None:
                trial.set_user_attr("same_as", old.number)
                results[task.number] = ({"pruned": old.user_attrs["pruned"]}
                                        if "pruned" in old.user_attrs
                                        else {"figures": old.user_attrs["figures"]})
            _tell(s, study, folder, trial, task, results[task.number])
    if progress is not None:
        progress(len(_done(s)), trials)
    return s


def _key(params: dict[str, Any]) -> str:
    return json.dumps(clean(params), sort_keys=True)


def _fail(s: Any, t: Any) -> None:
    """Mark a trial a kill left running as failed (it is asked again)."""
    import optuna

    s.tell(t.number, state=optuna.trial.TrialState.FAIL, skip_if_finished=True)


def _evaluate(tasks: list[Task], jobs: int, ray: str | None) -> Iterator[tuple[int, Json]]:
    if ray is not None:
        from meio.ray_tasks import RayError, ray_map

        try:
            for task, out in ray_map(ray, evaluate, tasks):
                yield task.number, out
        except RayError as exc:
            raise DesignError(str(exc)) from None
        return
    if jobs <= 1 or len(tasks) == 1:
        for task in tasks:
            yield task.number, evaluate(task)
        return
    import multiprocessing
    import sys
    from concurrent.futures import ProcessPoolExecutor

    ctx = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        for task, out in zip(tasks, pool.map(evaluate, tasks), strict=True):
            yield task.number, out


def _tell(s: Any, study: Study, folder: Path, trial: Any, task: Task, out: Json) -> None:
    import optuna

    trial.set_user_attr("params", clean(task.params))
    if "pruned" in out:
        trial.set_user_attr("pruned", out["pruned"])
        s.tell(trial, state=optuna.trial.TrialState.PRUNED)
        return
    figures = out["figures"]
    trial.set_user_attr("figures", clean(figures))
    value = {name: (figures.get(name) or {}).get("value") for name in GOALS}
    violations = [g.violation(_num(value[g.figure])) for g in study.constraints]
    trial.set_user_attr("constraints", violations)
    for g, v in zip(study.constraints, violations, strict=True):
        trial.set_constraint(g.text(), v)
    data = changed_json(study.base, task.params, f"trial-{task.number:04d}")
    lines = [f"meio design tune: trial {task.number} of {study.base.name}"]
    lines += [f"{k} = {v}" for k, v in task.params.items()]
    lines += [f"{g.text()}: {_shown(figures.get(g.figure))}" for g in study.goals]
    (folder / "trials" / f"trial-{task.number:04d}.toml").write_text(
        toml_text(data, "\n".join(lines)), encoding="utf-8")
    values = [_num(value[g.figure]) for g in study.objectives]
    if any(math.isnan(v) or math.isinf(v) for v in values):
        trial.set_user_attr("pruned", ["a goal's figure is undefined for this ruleset"])
        s.tell(trial, state=optuna.trial.TrialState.PRUNED)
        return
    s.tell(trial, values)


def _num(x: Any) -> float:
    return math.nan if x is None else float(x)


def _shown(e: Json | None) -> str:
    if not e or e.get("value") is None:
        return "–"
    lo, hi = e["ci95"]
    return f"{e['value']:.3f} [{lo if lo is None else round(lo, 3)}, " \
           f"{hi if hi is None else round(hi, 3)}]"


def front(s: Any, study: Study) -> list[Any]:
    """The Pareto front: the finished trials that meet every constraint and that no
    other such trial beats on every objective."""
    import optuna

    ok = [t for t in s.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
          if all(c <= 0 for c in t.user_attrs.get("constraints", []))]
    signs = [1 if g.direction == "minimize" else -1 for g in study.objectives]

    def beats(a: Any, b: Any) -> bool:
        pa = [x * s_ for x, s_ in zip(a.values, signs, strict=True)]
        pb = [x * s_ for x, s_ in zip(b.values, signs, strict=True)]
        return all(x <= y for x, y in zip(pa, pb, strict=True)) and pa != pb

    best = sorted([t for t in ok if not any(beats(o, t) for o in ok)],
                  key=lambda t: [v * s_ for v, s_ in zip(t.values, signs, strict=True)])
    once: dict[str, Any] = {}
    for t in best:  # a ruleset tried twice is on the front once, as its first trial
        key = _key(t.user_attrs.get("params", t.params))
        if key not in once or t.number < once[key].number:
            once[key] = t
    return [t for t in best if once[_key(t.user_attrs.get("params", t.params))] is t]


def reevaluate(study: Study, picks: Sequence[Any], deals: int, jobs: int = 1,
               ray: str | None = None) -> list[Json]:
    """The picked trials played again on fresh deals (in parallel as the trials were):
    each goal's figure then and now, and how much it shrank (toward worse: a positive
    shrink)."""
    fresh = Plan(study.plan.rulesets, study.plan.players, study.plan.player,
                 study.plan.ladder, deals, tuple(deals for _ in study.plan.pair_deals),
                 derive(study.seed, FRESH), study.plan.partnership, study.plan.match_seconds)
    tasks = [Task(t.number, t.user_attrs["params"], fresh) for t in picks]
    results = dict(_evaluate(tasks, jobs, ray))
    out = []
    for t in picks:
        again = results[t.number]
        rows = []
        for g in study.goals:
            then = (t.user_attrs.get("figures", {}).get(g.figure) or {})
            now = (again.get("figures", {}).get(g.figure) or {})
            sign = -1 if (g.direction == "minimize" or g.op == "<") else 1
            shrink = None
            if then.get("value") is not None and now.get("value") is not None:
                shrink = round(sign * (then["value"] - now["value"]), 6)
            rows.append({"goal": g.text(), "trial": then, "fresh": now, "shrink": shrink})
        out.append({"trial": t.number, "params": t.user_attrs["params"], "goals": rows})
    return out


def summary(s: Any, study: Study, reeval: list[Json]) -> Json:
    """Every trial, the front and the re-evaluation, as ``tune.json`` holds them."""
    rows = []
    for t in s.get_trials(deepcopy=False):
        rows.append({"number": t.number, "state": t.state.name, "params": t.user_attrs.get(
            "params", t.params), "values": t.values, "figures": t.user_attrs.get("figures"),
            "constraints": t.user_attrs.get("constraints"),
            "pruned": t.user_attrs.get("pruned"),
            "seconds": (t.duration.total_seconds() if t.duration else None)})
    out: Json = clean({"goals": [g.text() for g in study.goals],
                  "vary": [v.__dict__ for v in study.varies],
                  "plan": study.plan.json(), "sampler": study.sampler, "seed": study.seed,
                  "trials": rows, "front": [t.number for t in front(s, study)],
                  "reevaluated": reeval})
    return out


def markdown(data: Json) -> str:
    """``tune.md``: the Pareto front and the re-evaluated picks."""
    trials = {t["number"]: t for t in data["trials"]}
    goals = data["goals"]
    lines = ["# Tuning run", "", f"Goals: {', '.join(goals)}; player `{data['plan']['player']}`"
             f", {data['plan']['deals']} deals a trial; {len(trials)} trials "
             f"({sum(t['state'] == 'PRUNED' for t in trials.values())} pruned).", "",
             "## Pareto front", "", "| trial | " + " | ".join(
                 v["key"] for v in data["vary"]) + " | " + " | ".join(goals) + " |",
             "|---|" + "---|" * (len(data["vary"]) + len(goals))]
    for n in data["front"]:
        t = trials[n]
        figs = t["figures"] or {}
        lines.append(f"| {n} | " + " | ".join(str(t["params"].get(v["key"])) for v in
                                              data["vary"]) + " | " + " | ".join(
            _shown(figs.get(_figure_name(g))) for g in goals) + " |")
    if data["reevaluated"]:
        lines += ["", "## Picks played again on fresh deals", "",
                  "| trial | goal | in the search | on fresh deals | shrink |",
                  "|---|---|---|---|---|"]
        for r in data["reevaluated"]:
            for g in r["goals"]:
                lines.append(f"| {r['trial']} | {g['goal']} | {_shown(g['trial'])} | "
                             f"{_shown(g['fresh'])} | {g['shrink']} |")
    return "\n".join(lines) + "\n"


def _figure_name(goal: str) -> str:
    for op in ("<", ">"):
        if op in goal:
            return goal.split(op)[0].strip()
    return goal.split()[-1]
