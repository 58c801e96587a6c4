"""The WebSocket protocol: reading client messages, building per-seat frames.

Every frame a client receives that says anything about the match is built here
from that seat's :class:`~meio.engine.View` (``state.view(seat)`` or
``spectator_view()``) and from public facts only. The one hidden action, a split,
is shown in full only to the seat that made it.

Client → server (JSON text frames, at most ``max_message_bytes``)::

    {"type": "hello", "token": "...", "since": {"match": "...", "seq": 12}}
    {"type": "hello", "spectate": "...", "since": null}
    {"type": "act", "id": "c-17", "seq": 12, "action": "QS"}      # also "Q+=D", "pile=1",
                                                                   # "pack:QS,JS,..."
    {"type": "advise", "id": "c-18", "pack": ["QS", ...]}           # split hint (optional pack)
    {"type": "rematch", "id": "c-19"}
    {"type": "ping"}

Server → client: ``welcome``, ``table``, ``snapshot``, ``event``, ``ack``, ``reject``,
``advice``, ``error``, ``pong`` (see docs/web.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson

from meio.engine import Outcome, State, Trick, View
from meio.engine import actions as A
from meio.engine.wire import trick_json, view_json


class ProtocolError(Exception):
    """A client message that cannot be read; ``code`` is sent back with the reason."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


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


#: a checked client message
Message = Hello | Act | Advise | Rematch | Ping | Chat

_TYPES = ("hello", "act", "advise", "rematch", "ping", "chat", "react")


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
    return Rematch(msg_id)


def encode(frame: dict[str, Any]) -> str:
    """A frame as the compact JSON text that goes on the wire.

    A text a client sent may come back in a frame (a message id in a ``reject``) and
    may hold a lone surrogate, which orjson refuses: the stdlib escapes it instead.

    >>> encode({"type": "pong"})
    '{"type":"pong"}'
    >>> encode({"type": "reject", "id": "a\\ud800"})
    '{"type":"reject","id":"a\\\\ud800"}'
    """
    try:
        # orjson: a tenth of the stdlib's time, and this runs for every frame sent
        return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(frame, separators=(",", ":"))


# -- frames built from views ---------------------------------------------------------------
def view_payload(view: View) -> dict[str, Any]:
    """The JSON form of a view, with the public configuration (no seed)."""
    return view_json(view)


def public_action(recipient: int | None, actor: int, action: int) -> str:
    """The text of ``action`` as ``recipient`` may see it: a split only to its maker."""
    if A.is_pack(action):
        return A.action_text(action) if recipient == actor else "pack"
    return A.action_text(action)


def trick_payload(trick: Trick) -> dict[str, Any]:
    """The public facts of a completed trick (``pile`` is None while a ``+.5`` winner
    has still to choose it)."""
    return trick_json(trick)


def event_frame(
    match_id: str,
    seq: int,
    state: State,
    outcome: Outcome,
    source: str,
    recipient: int | None,
    deadline: float | None,
) -> dict[str, Any]:
    """The frame telling ``recipient`` (a seat, or None for a spectator) of one action:
    ``outcome`` is what :meth:`State.apply` reported, ``state`` the state after it."""
    view = state.view(recipient) if recipient is not None else state.spectator_view()
    return {
        "type": "event",
        "match": match_id,
        "seq": seq,
        "actor": outcome.seat,
        "action": public_action(recipient, outcome.seat, outcome.action),
        "source": source,
        "trick": None if outcome.trick is None else trick_payload(outcome.trick),
        "round_over": outcome.round_over is not None,
        "view": view_payload(view),
        "deadline": deadline,
    }


def snapshot_frame(
    match_id: str | None, seq: int, state: State | None, recipient: int | None,
    deadline: float | None,
) -> dict[str, Any]:
    """The whole of what ``recipient`` may know now (no match yet: ``view`` is null)."""
    view = None
    if state is not None:
        view = view_payload(
            state.view(recipient) if recipient is not None else state.spectator_view()
        )
    return {"type": "snapshot", "match": match_id, "seq": seq, "view": view,
            "deadline": deadline}
