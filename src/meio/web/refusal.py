"""An HTTP refusal a page explains in its own language (every route raises these)."""

from __future__ import annotations

from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse


class Refusal(HTTPException):
    """An HTTP error a page explains in its own language: the answer carries ``code``
    and ``params`` (seats counted from 1) beside the English ``detail``."""

    def __init__(self, status: int, code: str, detail: str, **params: int) -> None:
        super().__init__(status, detail)
        self.code = code
        self.params = params


async def refusal_response(request: Request, exc: Exception) -> JSONResponse:
    """The body of a :class:`Refusal`: ``{"detail", "code", "params"}``."""
    assert isinstance(exc, Refusal)
    return JSONResponse({"detail": exc.detail, "code": exc.code, "params": exc.params},
                        status_code=exc.status_code)
