"""An HTTP refusal a page explains in its own language (every route raises these)."""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse


class Refusal(HTTPException):
    """An HTTP error a page explains in its own language: the answer carries ``code``
    and ``params`` (seats counted from 1) beside the English ``detail``."""

    def __init__(self, status: int, code: str, detail: str, **params: int) -> None:
        super().__init__(status, detail)
        self.code = code
        self.params = params


class ProblemsRefusal(Refusal):
    """A refusal of a request with several problems (a variant's), one line each in
    ``problems``; ``detail`` is the first."""

    def __init__(self, status: int, code: str, problems: list[str]) -> None:
        super().__init__(status, code, problems[0])
        self.problems = problems


async def refusal_response(request: Request, exc: Exception) -> JSONResponse:
    """The body of a :class:`Refusal`: ``{"detail", "code", "params"}`` (and
    ``"problems"`` when it has them)."""
    assert isinstance(exc, Refusal)
    body: dict[str, Any] = {"detail": exc.detail, "code": exc.code, "params": exc.params}
    if isinstance(exc, ProblemsRefusal):
        body["problems"] = exc.problems
    return JSONResponse(body, status_code=exc.status_code)
