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

from meio.engine import Phase, State, View
from meio.engine import actions as A
from meio.engine import cards as C


class ProtocolError(Exception):
    """A client message that cannot be read; ``code`` is sent back with the reason."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Message:
    """A checked client message."""

    type: str
    id: str | None = None
    seq: int | None = None
    action: str | None = None
    token: str | None = None
    spectate: str | None = None
    since_match: str | None = None
    since_seq: int | None = None
    pack: tuple[str, ...] | None = None
    #: a chat message or reaction (checked further by :mod:`meio.web.chat`)
    text: str | None = None


_TYPES = ("hello", "act", "advise", "rematch", "ping", "chat", "react")


def _opt_str(data: dict[str, Any], key: str, limit: int) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value or len(value) > limit:
        raise ProtocolError("bad_message", f"'{key}' must be a text of 1 to {limit} characters")
    return value


def parse_message(raw: str, max_bytes: int) -> Message:
    """Check one client frame; raises :class:`ProtocolError` with a clear reason."""
    if len(raw.encode()) > max_bytes:
        raise ProtocolError("too_large", f"a message is at most {max_bytes} bytes")
    try:
        data = json.loads(raw)
    except ValueError:
        raise ProtocolError("bad_message", "a message must be a JSON object") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message must be a JSON object")
    kind = data.get("type")
    if kind not in _TYPES:
        raise ProtocolError(
            "bad_message", f"unknown message type {kind!r}; use one of {', '.join(_TYPES)}"
        )
    msg_id = _opt_str(data, "id", 64)
    if kind in ("act", "advise", "rematch", "chat", "react") and msg_id is None:
        raise ProtocolError("bad_message", f"a '{kind}' message needs an 'id' (your message id)")
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
        return Message("hello", token=token, spectate=spectate, since_match=since_match,
                       since_seq=since_seq)
    if kind == "act":
        seq = data.get("seq")
        if type(seq) is not int or seq < 0:
            raise ProtocolError(
                "bad_message", "an 'act' message needs 'seq', the sequence number it was made at"
            )
        action = _opt_str(data, "action", 300)
        if action is None:
            raise ProtocolError("bad_message", "an 'act' message needs an 'action' text")
        return Message("act", id=msg_id, seq=seq, action=action)
    if kind == "advise":
        pack = data.get("pack")
        if pack is not None and (
            not isinstance(pack, list)
            or len(pack) > 13
            or not all(isinstance(c, str) and len(c) <= 4 for c in pack)
        ):
            raise ProtocolError("bad_message", "'pack' must be a list of card codes")
        return Message("advise", id=msg_id, pack=None if pack is None else tuple(pack))
    if kind in ("chat", "react"):
        return Message(kind, id=msg_id, text=_opt_str(data, "text", 1000))
    return Message(kind, id=msg_id)


# -- frames built from views ---------------------------------------------------------------
def view_payload(view: View) -> dict[str, Any]:
    """The JSON form of a view, with the public configuration (no seed)."""
    data = view.to_dict()
    cfg = view.config.to_dict()
    cfg.pop("seed", None)
    data["config"] = cfg
    return data


def public_action(recipient: int | None, actor: int, action: int) -> str:
    """The text of ``action`` as ``recipient`` may see it: a split only to its maker."""
    if A.is_pack(action):
        return A.action_text(action) if recipient == actor else "pack"
    return A.action_text(action)


def trick_outcome(old: State, new: State, actor: int, action: int) -> dict[str, Any] | None:
    """The trick an action completed (public facts), or None."""
    if A.is_pack(action):
        return None
    if A.is_pile(action):
        t = old.tricks[-1]
        return {
            "leader": t.leader,
            "cards": [[s, C.card_code(c)] for s, c in t.plays],
            "declared": C.SUITS[t.declared] if t.declared >= 0 else None,
            "winner": t.winner,
            "pile": 1 if action == A.PILE_1 else 2,
        }
    if len(old.current_trick) + 1 < old.config.players:
        return None
    plays = [*old.current_trick, (actor, A.card_of(action))]
    declared = old.led_suit if C.is_wild(plays[0][1]) else -1
    if len(new.rounds) > len(old.rounds):
        before, after = old.piles, new.rounds[-1].piles
        winner, pile = next(
            (s, h + 1)
            for s in range(old.config.players)
            for h in (0, 1)
            if after[s][h] != before[s][h]
        )
    else:
        last = new.tricks[-1]
        winner, pile = last.winner, last.pile if new.phase is not Phase.PILE else 0
    return {
        "leader": plays[0][0],
        "cards": [[s, C.card_code(c)] for s, c in plays],
        "declared": C.SUITS[declared] if declared >= 0 else None,
        "winner": winner,
        "pile": pile or None,
    }


def event_frame(
    match_id: str,
    seq: int,
    old: State,
    new: State,
    actor: int,
    action: int,
    source: str,
    recipient: int | None,
    deadline: float | None,
) -> dict[str, Any]:
    """The frame telling ``recipient`` (a seat, or None for a spectator) of one action."""
    view = new.view(recipient) if recipient is not None else new.spectator_view()
    return {
        "type": "event",
        "match": match_id,
        "seq": seq,
        "actor": actor,
        "action": public_action(recipient, actor, action),
        "source": source,
        "trick": trick_outcome(old, new, actor, action),
        "round_over": len(new.rounds) > len(old.rounds),
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
