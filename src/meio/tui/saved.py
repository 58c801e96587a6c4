"""Saved terminal games on disk: where an autosave goes, and the side file beside a
record (``FILE.play.json``, format ``meio-play/1``).

A ``meio-record/1`` record holds the match; the side file beside it says who sat
where: the human's seat, the seed, the bots' levels and their speed, so that
``meio play --resume`` and ``meio view`` seat everyone as they were.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from meio.engine import MeioError, State
from meio.i18n import _
from meio.tui.errors import SessionError

#: the sidecar that sits next to a saved record: who played which seat
SIDECAR_FORMAT = "meio-play/1"
#: where ``q`` saves an unfinished match when no file was given
AUTOSAVE_NAME = "meio-autosave.json"


def free_path(path: Path) -> Path:
    """``path``, or ``NAME-2.json``, ``NAME-3.json``… if it exists: a file to write anew.

    >>> free_path(Path("/nonexistent/meio-autosave.json")).name
    'meio-autosave.json'
    """
    if not path.exists():
        return path
    number = 2
    while True:
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
        if not candidate.exists():
            return candidate
        number += 1


def sidecar_path(path: Path) -> Path:
    """Where :meth:`~meio.tui.session.Session.save` writes the seats and bots of a saved
    record.

    >>> sidecar_path(Path("games/g.json")).name
    'g.json.play.json'
    """
    return path.with_name(path.name + ".play.json")


def write_sidecar(path: Path, *, seat: int, seed: int, bots: Sequence[str], speed: str) -> None:
    """Write the side file of the record saved at ``path`` (raises :class:`OSError`)."""
    side = {
        "format": SIDECAR_FORMAT,
        "record": path.name,
        "seat": seat,
        "seed": seed,
        "bots": list(bots),
        "speed": speed,
    }
    sidecar_path(path).write_text(json.dumps(side, indent=2) + "\n", encoding="utf-8")


def read_sidecar(path: Path) -> dict[str, Any]:
    """The ``meio-play/1`` sidecar at ``path`` (empty when there is none)."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SessionError(f"{path} is not a readable {SIDECAR_FORMAT} file: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != SIDECAR_FORMAT:
        raise SessionError(f"{path} is not a {SIDECAR_FORMAT} file")
    return data


def whole_number(side: dict[str, Any], key: str, default: int, path: Path) -> int:
    """The sidecar's ``key`` (a whole number), or ``default`` when it has none."""
    value = side.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SessionError(f"{path}: {key!r} must be a whole number, not {json.dumps(value)}")
    return value


class Savable(Protocol):
    """A match that can be written to a file (:class:`~meio.tui.session.Session`)."""

    state: State
    #: the file the match was resumed from
    source: Path | None

    def save(self, path: Path) -> None: ...


class MatchKeeper:
    """Where a match at the table is saved, and whether that file holds it as it stands.

    ``path`` is the match's own file (given with ``--save``, or resumed from);
    saving elsewhere makes that file its own.
    """

    def __init__(self, match: Savable, path: Path | None) -> None:
        self.match = match
        self.path = path
        #: the number of moves the match had when it was last saved (-1: never saved)
        self.saved_moves = -1
        if path is not None and match.source == path:
            self.saved_moves = len(match.state.history)  # resumed from that very file
        #: the key and position at which saving failed (pressed again: leave unsaved)
        self.unsaved_leave: tuple[str, int] | None = None

    def save(self, path: Path) -> str:
        """Save the match at ``path``, now its own file; the line that says so.

        Raises :class:`~meio.engine.MeioError` when the file cannot be written.
        """
        self.match.save(path)
        self.path = path
        self.saved_moves = len(self.match.state.history)
        return _("Saved {file}. Resume: meio play --resume {path}").format(
            file=path.name, path=path
        )

    def keep(self, key: str) -> str | None:
        """Save the match before the player leaves it with ``key``, unless it is saved as
        it stands; the line that says where it went (None when nothing was written).

        It goes to its own file, else to the first free ``meio-autosave*.json``: an
        earlier save is never overwritten. When saving fails this raises
        :class:`~meio.engine.MeioError`; the same key pressed again, with the match
        as it stands, leaves without saving (and returns None).
        """
        moves = len(self.match.state.history)
        if self.saved_moves == moves or self.unsaved_leave == (key, moves):
            return None
        path = self.path or free_path(Path(AUTOSAVE_NAME))
        try:
            self.match.save(path)
        except MeioError:
            self.unsaved_leave = (key, moves)
            raise
        self.path = path
        self.saved_moves = moves
        said = _("Match saved to {path}. Resume it with: meio play --resume {path}")
        if self.match.state.is_over:
            said = _("Match saved to {path}. Replay it with: meio view {path}")
        return said.format(path=path)
