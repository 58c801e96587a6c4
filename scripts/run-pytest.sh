#!/usr/bin/env bash
# Runs pytest and fails loudly when no test ran (pytest exits 5 then).
set -uo pipefail
cd "$(dirname "$0")/.."
# two workers, one per core of the reference machine; a file's tests stay together
# so that each worker starts its own servers and browser once (PYTEST_WORKERS=0:
# everything in this process)
workers="${PYTEST_WORKERS:-2}"
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
