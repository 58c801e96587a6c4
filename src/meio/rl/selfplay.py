"""Self-play data for distillation: rounds of search in every seat, stored as actions.

``meio selfplay`` plays rounds with a bot (the *teacher*, usually a searching one) in every seat
and writes one JSON line per round to a data file. A line holds what is needed to
replay the round exactly — the table (:func:`meio.engine.wire.config_json`, whose seed deals
the cards), the ``(seat, action)`` pairs in order — and, for every card, declare or
pile decision that had a choice, the teacher's searched value of *each* legal action
(:meth:`~meio.bots.search.SearchBot.card_values`, lower is better), rounded to
0.001 (``null`` for an action it did not search: ``search:5`` searches the network's
likeliest few). No observation is stored: :func:`examples` rebuilds every input from the
replayed state, through the deciding seat's :class:`~meio.engine.View` alone
(:func:`decision_features`), so hidden cards cannot reach a training input.

A data set is reproducible from its seed: round ``i`` draws its table and deal from
``derive(seed, i)`` and the teacher of seat ``p`` is seeded by ``derive(seed, i, p)``,
so the same rounds come out whatever ``jobs`` is and in whatever order they finish.
Running the same command again resumes (the rounds already in the file are kept);
a larger ``games`` extends the set.

The tables are drawn by :data:`TABLE_MIX`, weighted toward 4-player MEIO.

>>> table_of(7, 0).players in (2, 3, 4, 5)
True
"""

from __future__ import annotations

import json
import multiprocessing
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from meio.bots import spaces as S
from meio.bots.learned import LOCAL_ACTIONS, VALUE_SCALE
from meio.bots.observation import OBS_SIZE, observe
from meio.bots.registry import make_bot
from meio.bots.search import SearchBot
from meio.engine import MatchConfig, Phase, State, TableOptions
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.errors import MeioError
from meio.engine.wire import config_from_json, config_json

FORMAT = "meio-selfplay/1"
F32 = npt.NDArray[np.float32]

#: (weight, edition, players, partnership, wild_lead, reveal_specials) of the tables drawn
TABLE_MIX: tuple[tuple[int, str, int, bool, str, bool], ...] = (
    (40, "meio", 4, False, "declare", True),
    (4, "meio", 4, False, "next", True),
    (4, "meio", 4, False, "declare", False),
    (10, "meio", 3, False, "declare", True),
    (10, "meio", 5, False, "declare", True),
    (8, "meio", 2, False, "declare", True),
    (10, "meio", 4, True, "declare", True),
    (6, "classic", 4, False, "declare", True),
    (4, "classic", 3, False, "declare", True),
    (4, "classic", 2, False, "declare", True),
)
#: the temperature (round points) that turns searched values into target probabilities
TARGET_TEMPERATURE = 0.3
_LOCAL_INDEX = {a: i for i, a in enumerate(LOCAL_ACTIONS)}


class SelfPlayError(MeioError, ValueError):
    """A self-play data file that cannot be used (another format, seed or teacher)."""


def derive(*parts: int) -> int:
    """A 63-bit seed mixed from whole numbers (stable across runs and machines)."""
    x = 0x2545F4914F6CDD1D
    for p in parts:
        x = (x ^ (p & 0xFFFFFFFFFFFFFFFF)) * 0x9E3779B97F4A7C15 & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 31
    return x & 0x7FFFFFFFFFFFFFFF


def table_of(seed: int, game: int) -> MatchConfig:
    """The table and deal of round ``game`` of the data set of ``seed``."""
    rng = random.Random(derive(seed, game))
    weights = [t[0] for t in TABLE_MIX]
    _, edition, players, partnership, wild_lead, reveal = rng.choices(TABLE_MIX, weights)[0]
    return MatchConfig(edition=edition, players=players,  # type: ignore[arg-type]
                       partnership=partnership, seed=rng.getrandbits(62),
                       options=TableOptions(wild_lead, reveal))  # type: ignore[arg-type]


def play_round(seed: int, game: int, teacher: str) -> dict[str, Any]:
    """Round ``game`` of the data set, played by ``teacher`` in every seat: its line.

    A searching teacher gives the value of each action it searched; any other bot
    (``heuristic``, for a cheap first data set to start a network from) only its
    choice, which is then the target."""
    config = table_of(seed, game)
    bots = [make_bot(teacher, derive(seed, game, p)) for p in range(config.players)]
    state = State.new(config)
    seats: list[int] = []
    actions: list[int] = []
    values: list[list[Any]] = []
    while not state.rounds:
        seat = state.current_seat()
        view = state.view(seat)
        legal = view.legal_actions()
        bot = bots[seat]
        if view.phase is not Phase.SPLIT and len(legal) > 1 and isinstance(bot, SearchBot):
            options, scores = bot.card_values(view, legal)
            action = options[int(np.argmin(scores))]
            searched = dict(zip(options, (round(float(v), 3) for v in scores), strict=True))
            values.append([len(actions), [searched.get(a) for a in legal]])
        else:
            action = bot.choose(view, legal)
        state.apply(action, seat)
        seats.append(seat)
        actions.append(action)
    return {"game": game, "config": config_json(config), "seats": seats, "actions": actions,
            "values": values, "scores": list(state.rounds[0].scores)}


@dataclass(frozen=True, slots=True)
class Header:
    """The first line of a data file: what every round in it was played with."""

    seed: int
    teacher: str

    def line(self) -> str:
        return json.dumps({"format": FORMAT, "seed": self.seed, "teacher": self.teacher})


def read(path: Path) -> tuple[Header, dict[int, dict[str, Any]]]:
    """A data file's header and its rounds by number (a torn last line is dropped)."""
    try:
        lines = path.read_text().splitlines()
    except OSError as exc:
        raise SelfPlayError(f"{path}: cannot read the self-play data ({exc.strerror})") from None
    try:
        head = json.loads(lines[0])
        if head.get("format") != FORMAT:
            raise ValueError(f"format {head.get('format')!r}")
        header = Header(int(head["seed"]), str(head["teacher"]))
    except (IndexError, KeyError, TypeError, ValueError) as exc:
        raise SelfPlayError(f"{path}: not a {FORMAT} data file ({exc})") from None
    rounds: dict[int, dict[str, Any]] = {}
    for number, text in enumerate(lines[1:], start=2):
        try:
            doc = json.loads(text)
        except json.JSONDecodeError:
            if number == len(lines):
                break  # a run stopped while writing its last line
            raise SelfPlayError(f"{path}: line {number} is not JSON") from None
        rounds[int(doc["game"])] = doc
    return header, rounds


def generate(path: Path, games: int, *, seed: int = 0, teacher: str = "search",
             jobs: int = 1, log: Callable[[str], None] = lambda _: None) -> int:
    """Play rounds ``0 .. games - 1`` into ``path``, keeping those already there.
    Returns how many rounds were played now."""
    if games < 1:
        raise SelfPlayError(f"the number of rounds must be at least 1, not {games}")
    if jobs < 1:
        raise SelfPlayError(f"jobs must be a positive number of processes, not {jobs}")
    make_bot(teacher, 0)  # an unknown kind fails here, not in a worker
    header = Header(seed, teacher)
    done: set[int] = set()
    if path.exists() and path.stat().st_size:
        old, rounds = read(path)
        if old != header:
            raise SelfPlayError(f"{path} holds rounds of seed {old.seed} by {old.teacher}; "
                                f"add to it with the same --seed and --teacher")
        done = set(rounds)
        # rewrite without a torn last line, so appending starts on a fresh line
        path.write_text("\n".join([header.line(), *(json.dumps(rounds[g]) for g in sorted(done))])
                        + "\n")
    else:
        path.write_text(header.line() + "\n")
    todo = [g for g in range(games) if g not in done]
    with path.open("a") as out:
        for i, doc in enumerate(_played(seed, todo, teacher, jobs), start=1):
            out.write(json.dumps(doc) + "\n")
            out.flush()
            if i % 50 == 0 or i == len(todo):
                log(f"{len(done) + i} of {games} rounds")
    return len(todo)


def _played(seed: int, todo: list[int], teacher: str, jobs: int) -> Iterator[dict[str, Any]]:
    if jobs == 1:
        for game in todo:
            yield play_round(seed, game, teacher)
        return
    ctx = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        queue = iter(todo)
        running: set[Future[dict[str, Any]]] = set()
        for game in queue:
            running.add(pool.submit(play_round, seed, game, teacher))
            if len(running) >= 2 * jobs:
                break
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
                game_next = next(queue, None)
                if game_next is not None:
                    running.add(pool.submit(play_round, seed, game_next, teacher))


# -- training examples ---------------------------------------------------------------------
def decision_features(state: State, seat: int, picked: int = 0) -> F32:
    """The network's input for ``seat`` deciding in ``state``: its view's observation."""
    return observe(state.view(seat), picked=picked)


def objective(scores: tuple[int, ...] | list[int], seat: int, config: MatchConfig) -> float:
    """The round result as search judges it for ``seat`` (lower is better)."""
    own = scores[seat]
    if config.players == 2 or config.partnership:
        return float(own - scores[(seat + 1) % config.players])
    return float(own)


@dataclass(frozen=True, slots=True, eq=False)
class Examples:
    """Training examples: inputs, legal outputs, target probabilities, value targets."""

    obs: F32  #: [N, OBS_SIZE]
    mask: npt.NDArray[np.bool_]  #: [N, 96] the legal local actions
    target: F32  #: [N, 96] the teacher's probabilities (0 where illegal)
    value: F32  #: [N] the round's result for the deciding seat / VALUE_SCALE
    game: npt.NDArray[np.int32]  #: [N] the round each example comes from

    def __len__(self) -> int:
        return int(self.obs.shape[0])


def examples(path: Path | Sequence[Path], *, seed: int = 0,
             games: int | None = None) -> Examples:
    """The examples of a data file's rounds (the first ``games`` of them, by number),
    or of several files' (each file's first ``games``), one after the other.

    A split becomes six sequential picks in an order drawn from ``seed``: before
    each, the target is spread evenly over the pack's cards not yet picked. Two files
    that hold the same round (a file given twice, or one and its extension) are refused
    together."""
    paths = [path] if isinstance(path, Path) else list(path)
    if not paths:
        raise SelfPlayError("no self-play data file given")
    rows: list[tuple[F32, npt.NDArray[np.bool_], F32, float, int]] = []
    seen: dict[Header, list[tuple[Path, dict[int, dict[str, Any]]]]] = {}
    for one in paths:
        header, rounds = read(one)
        for other, earlier in seen.get(header, []):
            if any(earlier.get(g) == doc for g, doc in rounds.items()):
                raise SelfPlayError(
                    f"{other} and {one} hold the same rounds (seed {header.seed}, "
                    f"teacher {header.teacher}): give each data set once")
        seen.setdefault(header, []).append((one, rounds))
        numbers = sorted(rounds)[:games] if games is not None else sorted(rounds)
        for g in numbers:
            rows.extend(_round_examples(rounds[g], random.Random(derive(seed, g)), one))
    if not rows:
        raise SelfPlayError(f"{', '.join(map(str, paths))}: no decisions to learn from")
    return Examples(np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows]),
                    np.stack([r[2] for r in rows]),
                    np.array([r[3] for r in rows], dtype=np.float32),
                    np.array([r[4] for r in rows], dtype=np.int32))


def _round_examples(doc: dict[str, Any], rng: random.Random,
                    path: Path) -> list[tuple[F32, npt.NDArray[np.bool_], F32, float, int]]:
    config = config_from_json(doc["config"])
    values = {int(k): v for k, v in doc["values"]}
    state = State.new(config)
    pending: list[tuple[int, F32, npt.NDArray[np.bool_], F32]] = []
    for k, (seat, action) in enumerate(zip(doc["seats"], doc["actions"], strict=True)):
        view = state.view(seat)
        if view.phase is Phase.SPLIT:
            pack = C.cards_of(A.pack_of(action))
            order = list(pack)
            rng.shuffle(order)
            picked = 0
            for card in order:
                mask = S.legal_mask(view, split_mode="sequential", picked=picked)
                target = np.zeros(len(LOCAL_ACTIONS), dtype=np.float32)
                hand = C.cards_of(view.hand)
                left = [c for c in pack if not picked >> c & 1]
                for c in left:
                    target[_LOCAL_INDEX[S.PICK_BASE + hand.index(c)]] = 1.0 / len(left)
                pending.append((seat, decision_features(state, seat, picked),
                                mask[list(LOCAL_ACTIONS)], target))
                picked |= 1 << card
        elif k in values or not doc["values"]:
            legal = list(view.legal_actions())
            if len(legal) == 1:
                state.apply(action, seat)
                continue
            if k not in values:  # a teacher that gives no values: its choice is the target
                values[k] = [0.0 if a == action else None for a in legal]
            if len(values[k]) != len(legal):
                raise SelfPlayError(f"{path}: round {doc['game']} does not replay "
                                    f"(decision {k} has {len(legal)} legal actions)")
            searched = [(a, v) for a, v in zip(legal, values[k], strict=True) if v is not None]
            scores = np.array([v for _, v in searched], dtype=np.float64)
            p = np.exp(-(scores - scores.min()) / TARGET_TEMPERATURE)
            target = np.zeros(len(LOCAL_ACTIONS), dtype=np.float32)
            for (a, _), q in zip(searched, p / p.sum(), strict=True):
                target[_LOCAL_INDEX[a]] = q
            mask = S.legal_mask(view)[list(LOCAL_ACTIONS)]
            pending.append((seat, decision_features(state, seat), mask, target))
        state.apply(action, seat)
    if not state.rounds or list(state.rounds[0].scores) != list(doc["scores"]):
        raise SelfPlayError(f"{path}: round {doc['game']} does not replay to its scores")
    result = state.rounds[0].scores
    return [(obs, mask, target, objective(result, seat, config) / VALUE_SCALE, int(doc["game"]))
            for seat, obs, mask, target in pending]


__all__ = ["FORMAT", "OBS_SIZE", "TABLE_MIX", "Examples", "Header", "SelfPlayError",
           "decision_features", "derive", "examples", "generate", "objective", "play_round",
           "read", "table_of"]
