"""Structured logs: one JSON object per line, with the table and match ids.

``configure("json")`` sends every ``meio`` (and uvicorn) log record to standard
error as JSON; ``configure("text")`` keeps the plain format for people. Code that
logs about a table passes ``extra={"table": ..., "match": ...}``, or runs inside
:func:`context`, and the ids land in their own fields.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import sys
import time
from collections.abc import Iterator
from typing import Any

_table: contextvars.ContextVar[str | None] = contextvars.ContextVar("meio_table", default=None)
_match: contextvars.ContextVar[str | None] = contextvars.ContextVar("meio_match", default=None)

#: the record attributes that become JSON fields when present
FIELDS = ("table", "match", "seat", "seq", "holder", "code", "elapsed_ms")


@contextlib.contextmanager
def context(table: str | None, match: str | None = None) -> Iterator[None]:
    """Tag every log record made inside with ``table`` and ``match``."""
    t, m = _table.set(table), _match.set(match)
    try:
        yield
    finally:
        _table.reset(t)
        _match.reset(m)


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON (time in UTC ISO 8601)."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        table, match = _table.get(), _match.get()
        if table is not None:
            out["table"] = table
        if match is not None:
            out["match"] = match
        for key in FIELDS:
            value = record.__dict__.get(key)
            if value is not None:
                out[key] = value
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, separators=(",", ":"), default=str)


def configure(fmt: str = "text", level: str = "INFO") -> None:
    """Route the server's logs to standard error as ``json`` or ``text``."""
    if fmt not in ("json", "text"):
        raise ValueError(f"log format {fmt!r}: use 'json' or 'text'")
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in ("meio", "uvicorn", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False


class QuietInvalidFrames(logging.Filter):
    """Drops uvicorn's traceback for a WebSocket text frame that is not UTF-8.

    uvicorn closes such a connection with 1007 itself, and logs the decoding error
    with its traceback: a client sending 500 of them wrote 500 tracebacks in 0.6 s.
    They are counted instead (``meio_invalid_frames_total``).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, UnicodeDecodeError) and "UTF-8" in record.getMessage():
            from meio.web import metrics

            metrics.INVALID_FRAMES.inc()
            return False
        return True


def quiet_invalid_frames() -> None:
    """Install :class:`QuietInvalidFrames` on uvicorn's error log (once)."""
    logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietInvalidFrames) for f in logger.filters):
        logger.addFilter(QuietInvalidFrames())
