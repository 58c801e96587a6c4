"""The FastAPI application: ``create_app(settings)``."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from meio.web import api, i18n, ws
from meio.web.db import migrate, open_engine
from meio.web.runtime import Hub
from meio.web.settings import Settings
from meio.web.store import Store

STATIC = Path(__file__).with_name("static")


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web server: HTTP API, WebSocket play, static browser client.

    The database is migrated to the newest schema at start-up; every table with a
    match in progress is loaded and its bots and timers carry on.
    """
    settings = settings or Settings.from_env()
    engine = open_engine(settings.database_url)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        migrate(engine)
        if settings.warm_core:
            threading.Thread(target=_warm_core, name="meio-warm", daemon=True).start()
        hub = Hub(settings, Store(engine))
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            engine.dispose()

    app = FastAPI(title="meio", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.settings = settings
    app.include_router(api.router)
    app.include_router(ws.router)
    app.include_router(i18n.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/learn", include_in_schema=False)
    async def learn_page() -> FileResponse:
        return FileResponse(STATIC / "learn.html")

    @app.get("/history", include_in_schema=False)
    async def history_page() -> FileResponse:
        return FileResponse(STATIC / "history.html")

    return app


def _warm_core() -> None:
    """Compile or load the search bots' playout kernels before anyone waits on them."""
    try:
        from meio.sim import warm_up
    except ImportError:  # pragma: no cover - numba is a dependency, but stay up without it
        return
    warm_up()
