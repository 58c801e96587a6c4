"""The examples in the RL modules' docstrings and in docs/rl.md run as written."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
MODULES = ["meio.rl.spaces", "meio.rl.observation", "meio.rl.env", "meio.rl.vector",
           "meio.rl.pettingzoo", "meio.rl.learned", "meio.openspiel"]


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_docs_rl_md_snippets() -> None:
    result = doctest.testfile(str(DOCS), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 10 and result.failed == 0
