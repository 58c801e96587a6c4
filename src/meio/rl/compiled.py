"""One :class:`~meio.rl.MeioEnv` match stepped in the compiled core.

With compiled opponents (``"random"`` or ``"heuristic"``) a ``MeioEnv`` plays
through a one-environment :class:`~meio.rl.VectorEnv`: the core keeps the
position and writes the agent's observation and mask, which is what makes the
environment fast. No engine state is kept while it steps. The engine
:class:`~meio.engine.State` (``env.state``) and the agent's
:class:`~meio.engine.View` (``info["view"]``) are rebuilt from the core's record
of the round (deal, splits and plays) when they are read, through the engine's
checked ``apply``, so a position the core got wrong raises instead of giving a
wrong view. ``tests/rl/test_compiled_env.py`` checks on many seeds and every table
that it plays exactly as the engine-backed environment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from meio.engine import MatchConfig, State, View
from meio.engine import actions as A
from meio.engine import cards as C
from meio.rl.vector import VectorEnv
from meio.sim import core as K

#: how far a match has gone: (rounds finished, splits, plays) of the round in progress
Mark = tuple[int, int, int]
I32 = npt.NDArray[np.int32]


class StepInfo(dict[str, Any]):
    """A step's ``info``: a plain ``dict`` whose ``"view"`` entry is built when it is
    first read. Whatever looks at the whole dict (iterating, ``len``, comparing,
    copying, pickling, ``|``) builds it first, so the dict always shows the view."""

    __slots__ = ("_make_view",)

    def __init__(self, make_view: Callable[[], View], items: dict[str, Any]) -> None:
        super().__init__(items)
        self._make_view: Callable[[], View] | None = make_view

    def _fill(self) -> None:
        make = self._make_view
        if make is not None:
            self._make_view = None
            dict.__setitem__(self, "view", make())

    def __missing__(self, key: str) -> Any:
        if key == "view" and self._make_view is not None:
            self._fill()
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        return (key == "view" and self._make_view is not None) or dict.__contains__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        if key == "view":
            self._fill()
        return dict.get(self, key, default)

    def clear(self) -> None:
        self._make_view = None
        dict.clear(self)

    def __reduce__(self) -> tuple[type[dict[str, Any]], tuple[dict[str, Any]]]:
        self._fill()
        return dict, (dict(dict.items(self)),)

    __hash__ = None


def _filled(name: str) -> Callable[..., Any]:
    """``dict``'s method ``name``, run once the view is built."""
    method = getattr(dict, name)

    def call(self: StepInfo, *args: Any, **kwargs: Any) -> Any:
        self._fill()
        return method(self, *args, **kwargs)

    call.__name__ = name
    call.__doc__ = method.__doc__
    return call


for _name in ("__iter__", "__reversed__", "__len__", "__eq__", "__ne__", "__or__", "__repr__",
              "keys", "values", "items", "copy", "pop", "popitem", "setdefault", "update"):
    setattr(StepInfo, _name, _filled(_name))


def _round_actions(array: I32, splits: int, plays: int) -> list[tuple[int | None, int]]:
    """The first ``splits`` splits and ``plays`` plays of a core round, as
    ``(seat, engine action)`` (seat None for a play: the seat to act)."""
    out: list[tuple[int | None, int]] = []
    for i in range(splits):
        seat = int(array[K.SPLIT_ORDER + i])
        start = K.PACK + K.PACK_MAX * seat
        pack = C.mask_of(int(c) for c in array[start : start + int(array[K.PACK_N + seat])])
        out.append((seat, A.pack_action(pack)))
    out.extend((None, int(a)) for a in array[K.PLAYS : K.PLAYS + plays])
    return out


class MatchRecord:
    """What the core played of one match: the position of each finished round and
    the live position of the round in progress (the vector env's own row)."""

    def __init__(self, config: MatchConfig, deck: int, live: I32) -> None:
        self.config = config
        self.deck = deck
        self.rounds: list[I32] = []
        self.live: I32 | None = live
        self._cache: tuple[Mark, State] | None = None

    def mark(self) -> Mark:
        """How far the match has gone now."""
        live = self.live
        if live is None:
            return len(self.rounds), 0, 0
        return len(self.rounds), int(live[K.SPLIT_N]), int(live[K.NPLAYS])

    def finish_round(self, position: I32, over: bool) -> None:
        """Keep a finished round (a copy); ``over``: it was the match's last."""
        self.rounds.append(position.copy())
        if over:
            self.live = None

    def freeze(self) -> None:
        """The core moves on to another match: keep the round in progress."""
        if self.live is not None:
            self.live = self.live.copy()

    def _deal(self, array: I32) -> tuple[tuple[int, ...], int, int]:
        players, hand = self.config.players, self.config.hand_size
        hands = tuple(
            C.mask_of(int(c) for c in array[K.DEAL + K.HAND_MAX * p :
                                            K.DEAL + K.HAND_MAX * p + hand])
            for p in range(players)
        )
        dealt = 0
        for h in hands:
            dealt |= h
        return hands, self.deck & ~dealt, int(array[K.ROUND_LEADER])

    def state_at(self, mark: Mark) -> State:
        """The engine state when the match had gone ``mark`` far (rebuilt with every
        rule checked; the last one asked for is kept and played on)."""
        done, splits, plays = mark
        arrays = self.rounds[:done]
        if self.live is not None or done < len(self.rounds):
            live = self.rounds[done] if done < len(self.rounds) else self.live
            assert live is not None
            arrays = [*arrays, live]
        cached = self._cache
        if cached is not None:
            (c_done, c_splits, c_plays), state = cached
            if c_done == done and c_splits <= splits and c_plays <= plays and arrays:
                new = _round_actions(arrays[-1], splits, plays)
                old = len(_round_actions(arrays[-1], c_splits, c_plays))
                for seat, action in new[old:]:
                    state.apply(action, seat)
                self._cache = (mark, state)
                return state
        state = State.new(self.config, deals=[self._deal(a) for a in arrays])
        for k, array in enumerate(arrays):
            if k < done:
                acts = _round_actions(array, int(array[K.SPLIT_N]), int(array[K.NPLAYS]))
            else:
                acts = _round_actions(array, splits, plays)
            for seat, action in acts:
                state.apply(action, seat)
        self._cache = (mark, state)
        return state


class CompiledMatch:
    """The core side of a compiled ``MeioEnv``: a one-environment
    :class:`~meio.rl.VectorEnv` and the record of the match it plays."""

    def __init__(self, venv: VectorEnv, seat: int) -> None:
        self.venv = venv
        self.seat = seat
        self.record: MatchRecord | None = None
        self.episode = -1
        #: the core has started the next match by itself (the last one ended)
        self.fresh = False

    def _new_record(self) -> None:
        v = self.venv
        combo = v.specials_set(0)
        live = v.position(0)
        config = v.table.config(combo, int(live[K.ROUND_LEADER]))
        deck = C.mask_of(int(c) for c in v.table.deck(combo))
        self.record = MatchRecord(config, deck, live)

    def start(self, seed: int | None) -> None:
        """Start match 0 of ``seed``, or else the next match."""
        v = self.venv
        if self.record is not None:
            self.record.freeze()
        if seed is not None or self.episode < 0:
            v.reset(seed=seed if seed is not None else v.seed)
            self.episode = 0
        elif self.fresh:
            self.episode += 1
        else:
            self.episode += 1
            v.start_match(0, self.episode)
        self.fresh = False
        self._new_record()

    def step(self, action: int) -> tuple[float, bool]:
        """Play the agent's (legal) flat action; returns (reward, match over)."""
        v = self.venv
        rounds = v.rounds_finished(0)
        _, reward, terminated, _, _ = v.step(np.array([action], dtype=np.int64))
        record = self.record
        assert record is not None
        done = bool(terminated[0])
        if done:
            record.finish_round(v.last_rounds[0], over=True)
            self.fresh = True
        elif v.rounds_finished(0) != rounds:
            record.finish_round(v.last_rounds[0], over=False)
        return float(reward[0]), done

    def view_maker(self) -> Callable[[], View]:
        """A function giving the agent's view as the match stands now, when called later."""
        record = self.record
        assert record is not None
        mark = record.mark()
        seat = self.seat
        return lambda: record.state_at(mark).view(seat)

    def state(self) -> State:
        """The engine state as the match stands now."""
        record = self.record
        assert record is not None
        return record.state_at(record.mark())
