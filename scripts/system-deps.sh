#!/usr/bin/env bash
# Installs the Debian packages the tests need (Chromium for the browser tests,
# PostgreSQL for the database tests, tmux for the terminal smoke test, Node's npm to
# install axe-core for the accessibility checks of the browser tests, Caddy for the
# test behind a real reverse proxy; ICU's headers, pkg-config and a C++ compiler for
# PyICU, which the server's username look-alike check uses and pip builds from source).
# Does nothing when they are already there. `--build`: only what building the virtual
# environment needs (PyICU's), which `make run` asks for too.
set -euo pipefail
need=()
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
pkg-config --exists icu-i18n 2>/dev/null || need+=(libicu-dev)
if [ "${1:-}" != "--build" ]; then
    command -v chromium >/dev/null 2>&1 || need+=(chromium)
    command -v tmux >/dev/null 2>&1 || need+=(tmux)
    command -v npm >/dev/null 2>&1 || need+=(npm)
    command -v caddy >/dev/null 2>&1 || need+=(caddy)
    ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
fi
if ((${#need[@]})); then
    if [ "$(id -u)" != 0 ]; then
        echo "system-deps: need root to install: ${need[*]}" >&2
        exit 1
    fi
    echo "system-deps: installing ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
