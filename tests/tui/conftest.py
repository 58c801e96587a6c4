"""Pilot tests press keys faster than any player: the summary's key guard is off here."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from meio.i18n import set_language
from meio.tui.screens import SummaryScreen


@pytest.fixture(autouse=True)
def _no_summary_guard(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(SummaryScreen, "GUARD_S", 0.0)
    set_language("en")
    yield
    set_language("en")
