"""A set of puzzles as one file (``meio-puzzles/1``), and the set shipped with meio.

The file is gzipped JSON: the set's name (``meio-puzzles-v2``), the seed and command
that mined it, the bot version, the budget (with ``base``, the set it extends: its
name, seed, command and budget), and the puzzles. A puzzle's position is a
``meio-record/1`` record of the match up to it; :meth:`Entry.state` replays it, and a
client shows the solver only ``state.view(seat)``. A split puzzle also lists the packs
it offers (``choices``). ``meio-puzzles-v1`` (520 puzzles, none a split) stays in the
package: v2 is its puzzles, as they were, then the split puzzles mined since.
"""

from __future__ import annotations

import datetime
import gzip
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from meio.engine import State, View
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.errors import MeioError
from meio.engine.record import Record
from meio.puzzles.packs import same_split

FORMAT = "meio-puzzles/1"
#: the shipped set's name and file (inside the package)
SHIPPED = "meio-puzzles-v2"


class PuzzleError(MeioError):
    """A puzzle file that cannot be read, or a puzzle that does not exist."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One puzzle of a set: where it stands and what solves it."""

    id: str
    seat: int
    kind: str
    theme: str
    answer: str
    heuristic: str
    options: tuple[tuple[str, float], ...]
    gap: float
    record: dict[str, Any]
    #: a split puzzle's packs to choose from (``pack:...`` texts, in the order shown)
    choices: tuple[str, ...] = ()

    def state(self) -> State:
        """The position (replayed from its record, every rule checked)."""
        return Record.from_json(self.record).to_state()

    def view(self) -> View:
        """What the solver sees: the seat's view, nothing more."""
        return self.state().view(self.seat)

    def solves(self, action: int) -> bool:
        """Whether ``action`` is the answer; a split's is any pack that differs from the
        answer's by cards that touch (:func:`~meio.puzzles.packs.same_split`)."""
        answer = A.parse_action(self.answer)
        if self.kind == "split":
            return A.is_pack(action) and same_split(self.view(), A.pack_of(action),
                                                    A.pack_of(answer))
        return action == answer

    def move(self, text: str) -> int:
        """The action a solver's text names: for a split, the number of a pack offered
        (``1``...), or a pack's cards in any order (``QS JS TS 9S 8S 7S``, or the
        record's ``pack:...``); else a card, a declared wild or a pile (``QS``,
        ``Q+=D``, ``pile=2``). Raises :class:`MeioError` for text that names no move."""
        text = text.strip()
        if self.kind == "split" and text.isdigit():
            if not 1 <= int(text) <= len(self.choices):
                raise PuzzleError(f"choose a pack from 1 to {len(self.choices)}, not {text}")
            return A.parse_action(self.choices[int(text) - 1])
        if self.kind == "split" and not text.startswith("pack:"):
            return A.pack_action(C.parse_cards(text))
        return A.parse_action(text)


@dataclass(frozen=True, slots=True)
class PuzzleSet:
    """A named set of puzzles with what made it."""

    name: str
    seed: int
    version: str
    command: str
    budget: dict[str, Any]
    puzzles: tuple[Entry, ...]

    def get(self, puzzle_id: str) -> Entry:
        for entry in self.puzzles:
            if entry.id == puzzle_id:
                return entry
        raise PuzzleError(f"no puzzle {puzzle_id!r} in {self.name}")

    def daily(self, day: datetime.date) -> Entry:
        """The day's puzzle: the same for everyone on that (UTC) day."""
        if not self.puzzles:
            raise PuzzleError(f"{self.name} holds no puzzle")
        return self.puzzles[(day.toordinal() * 7919) % len(self.puzzles)]


def write_set(path: Path, name: str, seed: int, command: str, budget: dict[str, Any],
              puzzles: Sequence[dict[str, Any]]) -> None:
    from meio import __version__

    data = {"format": FORMAT, "set": name, "seed": seed, "version": __version__,
            "command": command, "budget": budget, "puzzles": list(puzzles)}
    text = json.dumps(data, separators=(",", ":"))
    # mtime 0: the same puzzles give the same bytes
    path.write_bytes(gzip.compress(text.encode(), mtime=0))


def set_json(data: bytes, where: str = "puzzle file") -> dict[str, Any]:
    """A set file's document as it is (gzipped or plain JSON), its format checked."""
    try:
        raw = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
        obj = json.loads(raw)
    except (OSError, ValueError) as exc:
        raise PuzzleError(f"{where}: not a gzipped JSON puzzle file ({exc})") from None
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise PuzzleError(f"{where}: not a {FORMAT} document")
    return obj


def read_set(data: bytes, where: str = "puzzle file") -> PuzzleSet:
    """A set from a file's bytes (gzipped or plain JSON)."""
    obj = set_json(data, where)
    try:
        entries = tuple(
            Entry(str(p["id"]), int(p["seat"]), str(p["kind"]), str(p["theme"]),
                  str(p["answer"]), str(p["heuristic"]),
                  tuple((str(a), float(v)) for a, v in p["options"]), float(p["gap"]),
                  dict(p["record"]), tuple(str(c) for c in p.get("choices", ())))
            for p in obj["puzzles"]
        )
        return PuzzleSet(str(obj["set"]), int(obj["seed"]), str(obj["version"]),
                         str(obj["command"]), dict(obj["budget"]), entries)
    except (KeyError, TypeError, ValueError) as exc:
        raise PuzzleError(f"{where}: a puzzle is missing a field or has a bad one ({exc})"
                          ) from None


@cache
def shipped() -> PuzzleSet:
    """The set that ships inside the package (:data:`SHIPPED`)."""
    resource = resources.files("meio.puzzles").joinpath(f"{SHIPPED}.json.gz")
    return read_set(resource.read_bytes(), f"{SHIPPED}.json.gz")
