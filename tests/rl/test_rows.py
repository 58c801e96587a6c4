"""The example classes share one join/save/load (meio.rl.rows): every field, in order."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from meio.rl.general import Batch, GeneralTrainingError
from meio.rl.tunefit import Examples, TuneError


def _examples(first: int, n: int) -> Examples:
    rows = np.arange(first, first + n)
    return Examples(rows[:, None].astype(np.float16), rows[:, None] % 2 == 0,
                    rows[:, None].astype(np.float32), rows.astype(np.int8),
                    rows.astype(np.float32), rows.astype(np.int64), rows.astype(np.int16),
                    rows.astype(np.int8))


def test_join_keeps_every_field_in_order_and_save_load_round_trips(tmp_path: Path) -> None:
    joined = Examples.join([_examples(0, 2), _examples(10, 3)])
    assert len(joined) == 5
    for field in ("x", "mask", "target", "kind", "value", "game", "chosen", "players"):
        column = getattr(joined, field).reshape(5)
        assert column.tolist() == getattr(_examples(0, 2), field).reshape(2).tolist() + \
            getattr(_examples(10, 3), field).reshape(3).tolist(), field
    joined.save(tmp_path / "e.npz")
    back = Examples.load(tmp_path / "e.npz")
    for field in ("x", "mask", "target", "kind", "value", "game", "chosen", "players"):
        got, want = getattr(back, field), getattr(joined, field)
        assert got.dtype == want.dtype and np.array_equal(got, want), field


@pytest.mark.parametrize(("cls", "error"), [(Examples, TuneError), (Batch, GeneralTrainingError)])
def test_nothing_to_join_is_each_trainers_own_error(cls: type, error: type) -> None:
    with pytest.raises(error, match="no examples"):
        cls.join([])
