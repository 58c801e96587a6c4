"""Training examples kept as equal-length arrays, one a dataclass field: their length,
joining parts, and saving to and loading from an ``.npz`` file, for every such class."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, ClassVar, Self

import numpy as np


class Rows:
    """A base for a frozen dataclass whose fields are arrays with one row an example
    (:class:`meio.rl.tunefit.Examples`, :class:`meio.rl.general.Batch`). ``Empty`` is
    the error :meth:`join` raises when there is nothing to join."""

    __slots__ = ()
    Empty: ClassVar[type[Exception]] = ValueError

    @classmethod
    def _names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]

    def __len__(self) -> int:
        return int(getattr(self, self._names()[0]).shape[0])

    @classmethod
    def join(cls, parts: list[Self]) -> Self:
        """The parts' rows, in order."""
        if not parts:
            raise cls.Empty("no examples to learn from")
        made: Any = cls  # the dataclass's own constructor, one array a field
        joined: Self = made(*(np.concatenate([getattr(p, n) for p in parts])
                              for n in cls._names()))
        return joined

    def save(self, path: Path) -> None:
        np.savez(path, **{n: getattr(self, n) for n in self._names()})

    @classmethod
    def load(cls, path: Path) -> Self:
        made: Any = cls
        with np.load(path) as d:
            loaded: Self = made(*(d[n] for n in cls._names()))
        return loaded
