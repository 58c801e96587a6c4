"""How a run on several workers (pytest-xdist) hands out the work.

Each file goes to one worker whole (its servers, browser and fixtures are built once),
and the files that take longest go first, so that the run does not end waiting on one
long file that started late (longest-first is the classic rule for spreading jobs over
machines). A few files that share a costly session fixture are kept together so that
it is built once.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

#: files that share a session fixture too costly to build twice: the small analysis
#: run of tests/analysis/conftest.py
GROUPS = {
    "tests/analysis/test_studies.py": "tests/analysis[small run]",
    "tests/analysis/test_report.py": "tests/analysis[small run]",
    "tests/analysis/test_recompute.py": "tests/analysis[small run]",
}

#: the longest files (or groups) first, by their time in a run with ``--durations=0``;
#: the rest follow in the usual order
LONGEST_FIRST = (
    "tests/web/test_deploy.py",  # builds the image and runs the Docker stack
    "tests/web/test_chaos.py",
    "tests/web/test_browser_table.py",
    "tests/tui/test_fixes.py",
    "tests/analysis/test_studies.py",
    "tests/analysis/test_report.py",
    "tests/analysis/test_recompute.py",
    "tests/bots/test_bots_play.py",
    "tests/sim/test_differential.py",
    "tests/web/test_cluster.py",
    "tests/analysis/test_ray.py",
    "tests/tui/test_app.py",
    "tests/rl/test_train_example.py",
    "tests/bots/test_advisor.py",
    "tests/web/test_restart.py",
    "tests/i18n/test_command.py",
    "tests/tui/test_learn.py",
    "tests/web/test_browser.py",
    "tests/bots/test_table_options.py",
)


def _file(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


class LongestFileFirst(LoadScopeScheduling):
    """pytest-xdist's file-by-file scheduling, in collection order (the order
    :func:`pytest_collection_modifyitems` sets) rather than by number of tests, and
    with the files of :data:`GROUPS` as one unit."""

    def __init__(self, config: pytest.Config, log: Any = None) -> None:
        config.option.loadscopereorder = False
        super().__init__(config, log)

    def _split_scope(self, nodeid: str) -> str:
        path = _file(nodeid)
        return GROUPS.get(path, path)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> LoadScopeScheduling:
    return LongestFileFirst(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(_file(item.nodeid), len(rank)))  # stable


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Ray head of 2 CPUs on loopback whose workers import this checkout's meio (the
    Ray tests of the lab and of the designer's tools)."""
    try:
        import ray  # noqa: F401
    except ModuleNotFoundError:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("Ray is not installed: pip install -e '.[cluster]'")
        pytest.skip("Ray is not installed (the cluster extra)")
    from meio.ray_tasks import local_head

    log = tmp_path_factory.mktemp("ray") / "head.log"
    root = Path(__file__).resolve().parents[1]
    with local_head(2, log=log, pythonpath=str(root / "src")) as address:
        yield address
