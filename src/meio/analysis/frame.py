"""A small column table (a dict of equal-length numpy arrays) with row selection."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

Columns = dict[str, npt.NDArray[Any]]


class Frame:
    """Columns of the raw table; ``frame.where(mask)`` keeps the rows of ``mask``.

    ``cluster`` numbers the games (a cell's game ``g`` is one cluster), which is what
    confidence intervals resample (see :mod:`meio.analysis.stats`).
    """

    def __init__(self, columns: Mapping[str, npt.NDArray[Any]]) -> None:
        self.cols: Columns = dict(columns)
        if "cluster" not in self.cols and "cell" in self.cols:
            _, cell = np.unique(self.cols["cell"], return_inverse=True)
            self.cols["cluster"] = cell.astype(np.int64) * (1 << 32) + self.cols["game"]

    @classmethod
    def concat(cls, parts: Iterable[Mapping[str, npt.NDArray[Any]]]) -> Frame:
        parts = [p for p in parts if len(p) and next(iter(p.values())).size]
        if not parts:
            return cls({})
        keys = list(parts[0])
        return cls({k: np.concatenate([p[k] for p in parts]) for k in keys})

    def __len__(self) -> int:
        return 0 if not self.cols else int(next(iter(self.cols.values())).size)

    def __getitem__(self, key: str) -> npt.NDArray[Any]:
        return self.cols[key]

    def __contains__(self, key: object) -> bool:
        return key in self.cols

    def where(self, mask: npt.NDArray[np.bool_]) -> Frame:
        return Frame({k: v[mask] for k, v in self.cols.items()})

    def eq(self, **values: Any) -> Frame:
        """Rows whose columns equal the given values."""
        if not self.cols:
            return self
        mask = np.ones(len(self), dtype=bool)
        for key, value in values.items():
            mask &= self.cols[key] == value
        return self.where(mask)

    def keyed(self, *keys: str) -> npt.NDArray[np.int64]:
        """One int per distinct combination of ``cluster`` and ``keys`` (e.g. a round)."""
        out = self.cols["cluster"].astype(np.int64) * 8
        for k in keys:
            out = out * 8 + self.cols[k].astype(np.int64)
        return out
