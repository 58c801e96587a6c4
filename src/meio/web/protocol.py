"""The WebSocket protocol's incoming side: reading and checking client messages.

What the server sends back is built in :mod:`meio.web.frames`.

Client → server (JSON text frames, at most ``max_message_bytes``)::

    {"type": "hello", "token": "...", "since": {"match": "...", "seq": 12}}
    {"type": "hello", "spectate": "...", "since": null}
    {"type": "act", "id": "c-17", "seq": 12, "action": "QS"}      # also "Q+=D", "pile=1",
                                                                   # "pack:QS,JS,..."
    {"type": "advise", "id": "c-18", "pack": ["QS", ...]}           # split hint (optional pack)
    {"type": "rematch", "id": "c-19"}
    {"type": "ping"}
    {"type": "chat", "id": "c-20", "text": "nice trick"}           # also "react"
    {"type": "report", "id": "r-1", "seat": 2, "at": 1.7e9}       # a chat message
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from meio.web.refusal import ServerError


class ProtocolError(ServerError):
    """A client message that cannot be read; its ``code`` and ``reason`` go back in an
    ``error`` frame."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason, code=code)


@dataclass(frozen=True, slots=True)
class Hello:
    """The first message: a seat token, or a spectator code; ``since`` resumes a match."""

    token: str | None = None
    spectate: str | None = None
    since_match: str | None = None
    since_seq: int | None = None


@dataclass(frozen=True, slots=True)
class Act:
    """An action (record text) made at sequence number ``seq``."""

    id: str
    seq: int
    action: str


@dataclass(frozen=True, slots=True)
class Advise:
    """A request for split advice, optionally judging the seat's own ``pack``."""

    id: str
    pack: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Rematch:
    """Start the next match at the table."""

    id: str


@dataclass(frozen=True, slots=True)
class Ping:
    """Keep-alive; answered by ``pong``."""


@dataclass(frozen=True, slots=True)
class Chat:
    """A table chat message (``kind`` "chat") or a quick reaction ("react"); its text is
    checked further by :mod:`meio.web.chat`."""

    id: str
    kind: str
    text: str


@dataclass(frozen=True, slots=True)
class Report:
    """Report a chat message of this match to the operator: the one ``seat`` sent at
    ``at`` (as its ``chat`` frame says)."""

    id: str
    seat: int
    at: float


#: a checked client message
Message = Hello | Act | Advise | Rematch | Ping | Chat | Report

_TYPES = ("hello", "act", "advise", "rematch", "ping", "chat", "react", "report")


def _opt_str(data: dict[str, Any], key: str, limit: int) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value or len(value) > limit:
        raise ProtocolError("bad_message", f"'{key}' must be a text of 1 to {limit} characters")
    return value


def _msg_id(data: dict[str, Any], kind: str) -> str:
    msg_id = _opt_str(data, "id", 64)
    if msg_id is None:
        raise ProtocolError("bad_message", f"a '{kind}' message needs an 'id' (your message id)")
    return msg_id


def parse_message(raw: str, max_bytes: int) -> Message:
    """Check one client frame; raises :class:`ProtocolError` with a clear reason.

    >>> parse_message('{"type": "act", "id": "c-1", "seq": 0, "action": "QS"}', 4096)
    Act(id='c-1', seq=0, action='QS')
    >>> try:
    ...     parse_message('{"type": "act", "id": "c-1", "seq": "0", "action": "QS"}', 4096)
    ... except ProtocolError as exc:
    ...     print(exc.code, "-", exc.reason)
    bad_message - an 'act' message needs 'seq', the sequence number it was made at
    """
    if len(raw.encode()) > max_bytes:
        raise ProtocolError("too_large", f"a message is at most {max_bytes} bytes")
    try:
        data = json.loads(raw)
    except RecursionError:
        # deeply nested arrays or objects fit in a few kilobytes and exhaust the parser
        raise ProtocolError("bad_message", "a message must not nest this deeply") from None
    except ValueError:
        raise ProtocolError("bad_message", "a message must be a JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    if "variant" in data:
        # a table's rules are fixed when it is created, never by a message
        raise ProtocolError("bad_message", "a table's variant is given when it is created "
                                           "(POST /api/tables); no message changes it")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _TYPES:
        shown = repr(kind)[:40] if isinstance(kind, str | int | float | bool) else type(kind)
        raise ProtocolError(
            "bad_message", f"unknown message type {shown}; use one of {', '.join(_TYPES)}"
        )
    if kind == "hello":
        token = _opt_str(data, "token", 128)
        spectate = _opt_str(data, "spectate", 128)
        if (token is None) == (spectate is None):
            raise ProtocolError("bad_message", "'hello' needs exactly one of 'token' or 'spectate'")
        since = data.get("since")
        since_match = since_seq = None
        if since is not None:
            if (
                not isinstance(since, dict)
                or not isinstance(since.get("match"), str)
                or type(since.get("seq")) is not int
                or since["seq"] < 0
            ):
                raise ProtocolError(
                    "bad_message", "'since' must be {\"match\": id, \"seq\": number >= 0}"
                )
            since_match, since_seq = since["match"], since["seq"]
        return Hello(token=token, spectate=spectate, since_match=since_match,
                     since_seq=since_seq)
    if kind == "ping":
        return Ping()
    msg_id = _msg_id(data, kind)
    if kind == "act":
        seq = data.get("seq")
        if type(seq) is not int or seq < 0:
            raise ProtocolError(
                "bad_message", "an 'act' message needs 'seq', the sequence number it was made at"
            )
        action = _opt_str(data, "action", 300)
        if action is None:
            raise ProtocolError("bad_message", "an 'act' message needs an 'action' text")
        return Act(msg_id, seq, action)
    if kind == "advise":
        pack = data.get("pack")
        if pack is not None and (
            not isinstance(pack, list)
            or len(pack) > 13
            or not all(isinstance(c, str) and len(c) <= 4 for c in pack)
        ):
            raise ProtocolError("bad_message", "'pack' must be a list of card codes")
        return Advise(msg_id, None if pack is None else tuple(pack))
    if kind in ("chat", "react"):
        text = _opt_str(data, "text", 1000)
        if text is None:
            raise ProtocolError("bad_message", f"a '{kind}' message needs a 'text'")
        return Chat(msg_id, kind, text)
    if kind == "report":
        seat, at = data.get("seat"), data.get("at")
        if type(seat) is not int or not 0 <= seat < 5 or not isinstance(at, (int, float)) \
                or isinstance(at, bool):
            raise ProtocolError("bad_message", "a 'report' message needs the 'seat' and the "
                                               "'at' of the chat message it reports")
        return Report(msg_id, seat, float(at))
    return Rematch(msg_id)
