"""The examples in the RL modules' docstrings and in docs/rl.md run as written, and
each block of docs/rl.md runs on its own (a reader copies one block, not the page)."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
MODULES = ["meio.bots.spaces", "meio.bots.observation", "meio.rl.env", "meio.rl.vector",
           "meio.rl.pettingzoo", "meio.bots.learned", "meio.openspiel", "meio.openspiel.params",
           "meio.rl.layout", "meio.rl.table"]
TEXT = DOCS.read_text()
#: (first line, text) of each ``pycon`` block
BLOCKS = [(TEXT[: m.start(1)].count("\n"), m.group(1))
          for m in re.finditer(r"```pycon\n(.*?)```", TEXT, flags=re.DOTALL)]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=FLAGS)
    assert result.attempted > 0 and result.failed == 0


def test_docs_rl_md_has_examples() -> None:
    assert len(BLOCKS) >= 7


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_each_docs_rl_md_block_runs_on_its_own(number: int) -> None:
    line, text = BLOCKS[number]
    test = doctest.DocTestParser().get_doctest(
        text, {}, f"docs/rl.md block {number + 1}", str(DOCS), line)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 and result.failed == 0, f"the block at line {line + 1} fails alone"
