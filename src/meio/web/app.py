"""The FastAPI application: ``create_app(settings)``."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from meio.bots import bot_kinds
from meio.web import api, auth, health, i18n, learnapi, passkeys, players, social, ws
from meio.web.accounts import AccountStore
from meio.web.cluster import Cluster
from meio.web.db import Checkpointer, migrate, open_engine
from meio.web.friends import FriendStore
from meio.web.hub import Hub
from meio.web.logs import quiet_invalid_frames
from meio.web.quick import QuickPlay
from meio.web.refusal import ServerError, refusal_json
from meio.web.settings import Settings
from meio.web.store import Store

STATIC = Path(__file__).with_name("static")
log = logging.getLogger("meio.web")

#: no inline or foreign script, no framing; styles may be inline (the pages set a few)
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
#: the OpenAPI page (``/api/docs``) is FastAPI's Swagger UI: its script and styles come
#: from a CDN and it starts with an inline script; it shows no game and holds no secret
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "img-src 'self' data: https://fastapi.tiangolo.com; object-src 'none'; "
            "base-uri 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    # invite and spectator codes travel in page addresses: never pass them on
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = DOCS_CSP if scope["path"] == "/api/docs" else CSP

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() != b"content-security-policy"]
                headers += [*SECURITY_HEADERS, (b"content-security-policy", csp.encode())]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The web server: HTTP API, WebSocket play, static browser client.

    The database is migrated to the newest schema at start-up; every table with a
    match in progress is loaded and its bots and timers carry on.
    """
    settings = settings or Settings.from_env()
    engine = open_engine(settings.database_url)
    quiet_invalid_frames()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        began = time.perf_counter()
        migrate(engine)
        migrated = time.perf_counter() - began
        checkpointer = Checkpointer(engine)
        checkpointer.start()
        # the bot table imports every bot's module (the learned one brings numpy and
        # the compiled core's modules): once here, not on the first table's request
        await asyncio.to_thread(bot_kinds)
        if settings.warm_core and settings.think_processes == 0:
            # (worker processes warm the core themselves, off this process)
            threading.Thread(target=_warm_core, name="meio-warm", daemon=True).start()
        store = Store(engine)
        hub = Hub(settings, store, Cluster)
        app.state.hub = hub
        app.state.auth = auth.Auth(settings, AccountStore(engine), store)
        app.state.social = social.Social(FriendStore(engine))
        began = time.perf_counter()
        await hub.start()
        app.state.quick = QuickPlay(hub)
        await app.state.quick.start()
        # what grows with the database: the migration check and loading the tables
        took = migrated + time.perf_counter() - began
        log.info("started in %.0f ms (the schema checked in %.0f ms): %d tables that need "
                 "an actor loaded", took * 1000, migrated * 1000, len(hub.tables),
                 extra={"elapsed_ms": round(took * 1000)})
        try:
            yield
        finally:
            await hub.stop()
            await checkpointer.stop()
            engine.dispose()

    # the Swagger UI loads its script from a CDN onto the origin whose storage holds
    # every seat token: off unless asked for (MEIO_API_DOCS=1)
    app = FastAPI(title="meio", lifespan=lifespan,
                  docs_url="/api/docs" if settings.api_docs else None, redoc_url=None)
    app.state.settings = settings
    # added last, so it runs first: a foreign page's POST is refused before anything
    app.add_middleware(auth.SameOrigin, allowed=settings.allowed_origins,
                       public=settings.public_origin)
    app.add_middleware(SecurityHeaders)
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(ServerError, _refused)
    app.add_exception_handler(StarletteHTTPException, _not_found_page)
    app.include_router(api.router)
    app.include_router(auth.router)
    app.include_router(passkeys.router)
    app.include_router(players.router)
    app.include_router(social.router)
    app.include_router(ws.router)
    app.include_router(i18n.router)
    app.include_router(health.router)
    app.include_router(learnapi.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # the pages answer HEAD too: uptime monitors ask with it
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.api_route("/t/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.api_route("/learn", methods=["GET", "HEAD"], include_in_schema=False)
    async def learn_page() -> FileResponse:
        return FileResponse(STATIC / "learn.html")

    @app.api_route("/account", methods=["GET", "HEAD"], include_in_schema=False)
    async def account_page() -> FileResponse:
        return FileResponse(STATIC / "account.html")

    @app.api_route("/ratings", methods=["GET", "HEAD"], include_in_schema=False)
    async def ratings_page() -> FileResponse:
        return FileResponse(STATIC / "ratings.html")

    @app.api_route("/players/{username}", methods=["GET", "HEAD"], include_in_schema=False)
    async def profile_page(username: str) -> FileResponse:
        return FileResponse(STATIC / "profile.html")

    @app.api_route("/history", methods=["GET", "HEAD"], include_in_schema=False)
    async def history_page() -> FileResponse:
        return FileResponse(STATIC / "history.html")

    @app.api_route("/friends", methods=["GET", "HEAD"], include_in_schema=False)
    async def friends_page() -> FileResponse:
        return FileResponse(STATIC / "friends.html")

    @app.api_route("/watch", methods=["GET", "HEAD"], include_in_schema=False)
    async def watch_page() -> FileResponse:
        return FileResponse(STATIC / "watch.html")

    return app


class _AsciiJSON(JSONResponse):
    """JSON in ASCII: any text a client sent (a lone surrogate too) can be sent back."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":"),
                          default=str).encode()


async def _refused(request: Request, exc: Exception) -> Response:
    """The one handler of every :class:`~meio.web.refusal.ServerError`: its status, and
    its code, detail, parameters and message in the visitor's language."""
    assert isinstance(exc, ServerError)
    lang = i18n.visitor_language(request.headers)
    return _AsciiJSON(refusal_json(exc, i18n.catalogue(lang)), status_code=exc.status_code)


async def _invalid_request(request: Request, exc: Exception) -> Response:
    """422 with what is wrong where, without echoing the input back."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    detail = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
              for e in errors]
    return _AsciiJSON({"detail": detail}, status_code=422)


async def _not_found_page(request: Request, exc: Exception) -> Response:
    """An unknown page is the site's own page (in the visitor's language: it translates
    itself as every page does); the API and every other error answer JSON as before."""
    assert isinstance(exc, StarletteHTTPException)
    path = request.url.path
    if (exc.status_code == 404 and request.method in ("GET", "HEAD")
            and not path.startswith(("/api/", "/ws/", "/static/"))):
        return FileResponse(STATIC / "notfound.html", status_code=404)
    return await http_exception_handler(request, exc)


def _warm_core() -> None:
    """Compile or load the search bots' playout kernels before anyone waits on them."""
    from meio.warm import warm_up

    warm_up()
