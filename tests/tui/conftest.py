"""Pilot tests press keys faster than any player: the summary's key guard is off here;
each test runs in a folder of its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from meio.i18n import set_language
from meio.tui.screens import SummaryScreen


@pytest.fixture(autouse=True)
def _no_summary_guard(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.setattr(SummaryScreen, "GUARD_S", 0.0)
    # q always saves: a test that quits writes its meio-autosave.json in its own folder
    monkeypatch.chdir(tmp_path)
    set_language("en")
    yield
    set_language("en")
