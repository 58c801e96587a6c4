#!/usr/bin/env bash
# Runs pytest and fails loudly when no test ran (pytest exits 5 then).
set -uo pipefail
cd "$(dirname "$0")/.."
# three workers on the 2-core reference machine: many tests wait on a browser, a
# server process or a database, so a third worker fills the cores (2 min 49 s against
# 4 min 11 s with two, same machine and load). A file's tests stay together, longest
# files first (tests/conftest.py), so each worker starts its own servers and browser
# once. PYTEST_WORKERS=0: everything in this process.
workers="${PYTEST_WORKERS:-3}"
if [ "$workers" = 0 ]; then
    .venv/bin/pytest "$@"
else
    .venv/bin/pytest -n "$workers" --dist loadfile "$@"
fi
rc=$?
if [ "$rc" = 5 ]; then
    echo "run-pytest: no tests were collected — failing" >&2
    exit 1
fi
exit "$rc"
