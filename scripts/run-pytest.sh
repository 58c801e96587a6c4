#!/usr/bin/env bash
# Runs pytest and fails loudly when no test ran (pytest exits 5 then).
set -uo pipefail
cd "$(dirname "$0")/.."
.venv/bin/pytest "$@"
rc=$?
if [ "$rc" = 5 ]; then
    echo "run-pytest: no tests were collected — failing" >&2
    exit 1
fi
exit "$rc"
