"""Health, readiness and metrics endpoints, for the proxy, the orchestrator and
Prometheus.

* ``GET /healthz``: the process is alive and its event loop answers (liveness).
* ``GET /readyz``: it can serve players now: started, not draining, and its
  database answers within a second (readiness; 503 otherwise, with the reason);
  the process name and its table count only with ``MEIO_READYZ_DETAILS=1``.
* ``GET /metrics``: Prometheus's text format (see :mod:`meio.web.metrics`).
"""

from __future__ import annotations

import asyncio

from fastapi import Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy import text

from meio.web import metrics as M
from meio.web.schemas import Ready, Router, Status

router = Router(include_in_schema=False)


@router.api_route("/healthz", methods=["GET", "HEAD"])
async def healthz() -> Status:
    """Liveness: answers as long as the event loop runs."""
    return Status(status="ok")


def _ping(request: Request) -> None:
    hub = request.app.state.hub
    with hub.store.engine.connect() as conn:
        conn.execute(text("SELECT 1"))


@router.api_route("/readyz", methods=["GET", "HEAD"], response_model=Ready)
async def readyz(request: Request) -> JSONResponse:
    """Readiness: 200 when this process should get new players, else 503."""
    hub = getattr(request.app.state, "hub", None)
    if hub is None:
        return JSONResponse({"status": "starting"}, status_code=503)
    if hub.group.draining or getattr(request.app.state, "draining", False):
        return JSONResponse({"status": "draining"}, status_code=503)
    try:
        await asyncio.wait_for(asyncio.to_thread(_ping, request), 1.0)
    except Exception as exc:
        return JSONResponse({"status": "database unavailable", "error": type(exc).__name__},
                            status_code=503)
    if not hub.settings.readyz_details:
        return JSONResponse({"status": "ok"})
    # the process name holds the host name and pid: shown only where asked for
    return JSONResponse({"status": "ok", "process": hub.group.origin,
                         "tables": len(hub.tables)})


@router.get("/metrics")
async def metrics() -> Response:
    """The process's Prometheus metrics."""
    body, content_type = M.render()
    return Response(body, media_type=content_type)
