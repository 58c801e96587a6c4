"""Small report cards shared by the design tests (played once per session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from meio.design.report import Plan, Played, run, summarise, write
from meio.design.rulesets import ruleset
from meio.design.space import changed

#: the mini ruleset (2 players, hands of 3) and the same without a trump: leading a
#: trick without trumps is a handicap built into the rules
MINI = ruleset("mini")
NO_TRUMP = changed(MINI, {"trump": "none"}, "mini-no-trump")


@pytest.fixture(scope="session")
def mini_pair() -> Played:
    """mini and mini without trumps on the same 120 deals, heuristic play, ladder
    random < heuristic."""
    plan = Plan((MINI, NO_TRUMP), 2, "heuristic", ("random", "heuristic"), 120, (120,), 5)
    return run(plan, jobs=1)


@pytest.fixture(scope="session")
def mini_report(mini_pair: Played, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("design")
    write(summarise(mini_pair), out)
    return out
