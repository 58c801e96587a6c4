"""The ``meio`` command line. Each sub-command lives in its own module and imports
its heavy dependencies (numba, textual, the web server) only when it runs."""

from __future__ import annotations

import importlib

from meio.cli.app import app

#: modules that register commands on :data:`app`
COMMAND_MODULES = (
    "meio.cli.play",
    "meio.cli.learn",
    "meio.cli.serve",
    "meio.cli.admin",
    "meio.cli.records",
    "meio.cli.demo",
    "meio.cli.bots",
    "meio.cli.bench",
    "meio.cli.sim",
    "meio.cli.analyze",
    "meio.cli.design",
    "meio.cli.train",
    "meio.cli.selfplay",
    "meio.cli.review",
)

for _module in COMMAND_MODULES:
    importlib.import_module(_module)


def main() -> None:
    """Entry point of the ``meio`` console script."""
    app()


__all__ = ["app", "main"]
