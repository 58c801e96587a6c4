"""A small column table (a dict of equal-length numpy arrays) with row selection.

Text columns (cell, table, specials, policy, pair, bot) are kept as small integer
codes into a list of categories: every chunk holds one cell, so a text column is
nearly constant, and selecting rows then copies two bytes a row, not forty.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

Columns = dict[str, npt.NDArray[Any]]
#: :meth:`Frame.keyed` gives each key this many values (a variant's match may run to
#: 50 rounds: 5 times its 10 victories at most)
KEY_BASE = 64


class Frame:
    """Columns of the raw table; ``frame.where(mask)`` keeps the rows of ``mask``.

    ``frame[col]`` gives a column's values (text decoded); ``frame.cols`` the stored
    arrays and ``frame.cats`` the categories of the text columns. ``cluster``
    numbers the games (game ``g`` of a cell is one cluster), which is what confidence
    intervals treat as one draw (see :mod:`meio.analysis.stats`).
    """

    def __init__(self, columns: Mapping[str, npt.NDArray[Any]],
                 cats: Mapping[str, list[str]] | None = None) -> None:
        self.cols: Columns = dict(columns)
        self.cats: dict[str, list[str]] = dict(cats or {})
        for key, col in list(self.cols.items()):
            if key not in self.cats and col.dtype.kind in "UO":
                values, codes = np.unique(col.astype(str), return_inverse=True)
                self.cats[key] = [str(v) for v in values]
                self.cols[key] = codes.astype(np.int32)
        if "cluster" not in self.cols and "cell" in self.cols:
            self.cols["cluster"] = self.cols["cell"].astype(np.int64) * (1 << 32) + \
                self.cols["game"].astype(np.int64)

    @classmethod
    def concat(cls, parts: Iterable[Mapping[str, npt.NDArray[Any]]]) -> Frame:
        """One frame of many chunks' columns, in the order given."""
        parts = [p for p in parts if len(p) and next(iter(p.values())).size]
        if not parts:
            return cls({})
        cats: dict[str, list[str]] = {}
        index: dict[str, dict[str, int]] = {}
        out: dict[str, list[npt.NDArray[Any]]] = {k: [] for k in parts[0]}
        for part in parts:
            for key, col in part.items():
                if col.dtype.kind not in "UO":
                    out[key].append(col)
                    continue
                known = index.setdefault(key, {})
                names = cats.setdefault(key, [])
                first = str(col[0])
                if (col == col[0]).all():
                    if first not in known:
                        known[first] = len(names)
                        names.append(first)
                    out[key].append(np.full(col.size, known[first], dtype=np.int32))
                    continue
                values, codes = np.unique(col.astype(str), return_inverse=True)
                for v in values.tolist():
                    if v not in known:
                        known[v] = len(names)
                        names.append(v)
                lookup = np.array([known[v] for v in values.tolist()], dtype=np.int32)
                out[key].append(lookup[codes])
        return cls({k: np.concatenate(v) for k, v in out.items()}, cats)

    def __len__(self) -> int:
        return 0 if not self.cols else int(next(iter(self.cols.values())).size)

    def __getitem__(self, key: str) -> npt.NDArray[Any]:
        col = self.cols[key]
        if key in self.cats:
            return np.asarray(self.cats[key], dtype=str)[col] if col.size else \
                np.zeros(0, dtype=str)
        return col

    def __contains__(self, key: object) -> bool:
        return key in self.cols

    def mask(self, key: str, value: Any) -> npt.NDArray[np.bool_]:
        """Rows whose column ``key`` equals ``value``."""
        if key in self.cats:
            names = self.cats[key]
            code = names.index(value) if value in names else -1
            return np.asarray(self.cols[key] == code)
        return np.asarray(self.cols[key] == value)

    def isin(self, key: str, values: Iterable[Any]) -> npt.NDArray[np.bool_]:
        """Rows whose column ``key`` is one of ``values``."""
        wanted = set(values)
        if key in self.cats:
            codes = [i for i, name in enumerate(self.cats[key]) if name in wanted]
            return np.isin(self.cols[key], codes)
        return np.isin(self.cols[key], list(wanted))

    def distinct(self, key: str) -> list[Any]:
        """The values of column ``key`` present, sorted."""
        if not len(self):
            return []
        found = np.unique(self.cols[key]).tolist()
        if key in self.cats:
            return sorted(self.cats[key][c] for c in found)
        return sorted(found)

    def select(self, *keys: str) -> Frame:
        """Only the columns ``keys`` (and ``cluster``): cheaper to filter."""
        if not self.cols:
            return self
        wanted = {*keys, "cluster"}
        return Frame({k: v for k, v in self.cols.items() if k in wanted}, self.cats)

    def where(self, mask: npt.NDArray[np.bool_]) -> Frame:
        return Frame({k: v[mask] for k, v in self.cols.items()}, self.cats)

    def eq(self, **values: Any) -> Frame:
        """Rows whose columns equal the given values."""
        if not self.cols:
            return self
        mask = np.ones(len(self), dtype=bool)
        for key, value in values.items():
            mask &= self.mask(key, value)
        return self.where(mask)

    def keyed(self, *keys: str) -> npt.NDArray[np.int64]:
        """One int per distinct combination of ``cluster`` and ``keys`` (e.g. a round)."""
        out = self.cols["cluster"].astype(np.int64)
        for k in keys:
            out = out * KEY_BASE + self.cols[k].astype(np.int64)
        return out
