"""A server factory for the chaos test: it imports the server once, then forks a fresh
server process for each line ``DB_PATH PORT`` read on stdin and prints its pid.

Starting a server this way costs a fork and the app's start-up, not the imports, so a
test can kill -9 a server and start the next one twenty times in a few seconds. The
servers' log goes to this process's stderr.
"""

from __future__ import annotations

import os
import signal
import sys

import uvicorn

from meio.web import Settings, create_app


def preload() -> None:
    """Import now what each server would otherwise import as it starts or first moves."""
    import alembic.command
    import alembic.config
    import alembic.runtime.migration
    import alembic.script

    from meio.bots import builtin_bots

    builtin_bots()
    assert alembic.command and alembic.config and alembic.runtime.migration and alembic.script
    # uvicorn imports its HTTP and WebSocket protocol modules when it loads an app
    uvicorn.Config(create_app(Settings(database_url="sqlite://")), log_level="warning").load()


def main() -> None:
    preload()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # killed servers are reaped at once
    for line in sys.stdin:
        db, port = line.split()
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            settings = Settings(database_url=f"sqlite:///{db}", allow_seeds=True,
                                bot_delay_s=float(os.environ.get("MEIO_BOT_DELAY", "0.02")),
                                warm_core=False)
            uvicorn.run(create_app(settings), host="127.0.0.1", port=int(port),
                        log_level="warning")
            os._exit(0)
        print(pid, flush=True)


if __name__ == "__main__":
    main()
