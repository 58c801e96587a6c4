"""Every frame the server sends a client, in one catalogue (client messages are read
in :mod:`meio.web.protocol`).

A frame that says anything about the match is built from the recipient's own
:class:`~meio.engine.View` (``state.view(seat)``, or ``spectator_view()`` for a
spectator) and from public facts only. The one hidden action, a split, is shown in
full only to the seat that made it. :func:`event_texts` builds the frames of one
action for every seat connected, each encoded once.

Server → client (``type``; docs/web.md has the whole protocol)::

    welcome   {"seat", "table"}                       after a good hello
    table     {"table"}                               the seats or who is online changed
    snapshot  {"match", "seq", "view", "deadline", "now"}
    event     {"match", "seq", "actor", "action", "source", "trick", "round_over",
               "view", "deadline", "now"}
    ack       {"id", "seq", ...}                      (a rematch: "match", "waiting";
                                                       a chat message: "chat", no "seq")
    reject    {"id", "code", "reason", "reason_code", "reason_params", "snapshot"}
    advice    {"id", <the advisor's Advice.to_dict()>} or {"id", "error"}
    rematch   {"match", "asked", "waiting"}           a seat asked for a rematch
    match     {"match", "number"}                     the next match began
    chat      {"seat", "name", "kind", "text", "at"}
    chat_log  {"match", "messages": [<chat frames>]}
    error     {"code", "reason"}                      a message that could not be read
    pong      {}
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any

import orjson

from meio.bots.levels import level_name
from meio.engine import IllegalActionError, Outcome, State, Trick, View
from meio.engine import actions as A
from meio.engine.wire import options_in, options_json, trick_json, view_json
from meio.web.store import EventInfo, TableInfo
from meio.web.variants import variant_facts

Frame = dict[str, Any]


def encode(frame: Frame) -> str:
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


# -- the parts of frames -------------------------------------------------------------------
def view_payload(view: View) -> Frame:
    """The JSON form of a view, with the public configuration (no seed)."""
    return view_json(view)


def public_action(recipient: int | None, actor: int, action: int) -> str:
    """The text of ``action`` as ``recipient`` may see it: a split only to its maker.

    >>> from meio.engine.cards import parse_cards
    >>> pack = A.pack_action(parse_cards("QS JS TS 9S 8S 7S"))
    >>> public_action(1, 1, pack).startswith("pack:"), public_action(0, 1, pack)
    (True, 'pack')
    """
    if A.is_pack(action):
        return A.action_text(action) if recipient == actor else "pack"
    return A.action_text(action)


def trick_payload(trick: Trick) -> Frame:
    """The public facts of a completed trick (``pile`` is 0 while a ``+.5`` winner has
    still to choose it)."""
    return trick_json(trick)


def public_table(info: TableInfo, online: set[int]) -> Frame:
    """What anyone at the table may know of it (no codes, no token hashes)."""
    opts = info.options
    return {
        "id": info.id,
        "edition": opts["edition"],
        "players": opts["players"],
        "partnership": opts["partnership"],
        # chosen specials stay secret at a table that hides them
        "specials": opts["specials"] if opts.get("reveal_specials", True) else None,
        **options_json(options_in(opts), full=True),
        "turn_timer_s": opts.get("turn_timer_s"),
        "turn_based": bool(opts.get("turn_based", False)),
        "listed": info.listed,
        "rated": info.rated,
        # a variant table: its name and sizes (the whole ruleset is in each view's config)
        "variant": variant_facts(opts),
        # quick play: its pool, and when bots take the seats still free
        "quick": opts.get("quick"),
        "fill_at": opts.get("fill_at"),
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name if s.kind == "human"
                else f"Bot {s.seat + 1} ({level_name(s.bot or 'random')})",
                "filled": s.filled,
                "online": s.kind == "bot" or s.seat in online,
            }
            for s in info.seats
        ],
        "free_seats": [s.seat for s in info.seats if not s.filled],
        "match": info.current_match,
    }


def _view_of(state: State, recipient: int | None) -> View:
    return state.view(recipient) if recipient is not None else state.spectator_view()


# -- the frames ----------------------------------------------------------------------------
def welcome(seat: int | None, info: TableInfo, online: set[int]) -> Frame:
    """The answer to a good hello: who the connection is, and the table."""
    return {"type": "welcome", "seat": seat, "table": public_table(info, online)}


def table(info: TableInfo, online: set[int]) -> Frame:
    """The table's seats changed, or who of them is online."""
    return {"type": "table", "table": public_table(info, online)}


def snapshot(
    match_id: str | None, seq: int, state: State | None, recipient: int | None,
    deadline: float | None, now: float | None = None,
) -> Frame:
    """The whole of what ``recipient`` may know now (no match yet: ``view`` is null)."""
    view = None if state is None else view_payload(_view_of(state, recipient))
    return {"type": "snapshot", "match": match_id, "seq": seq, "view": view,
            "deadline": deadline, "now": time.time() if now is None else now}


def event(
    match_id: str,
    seq: int,
    state: State,
    outcome: Outcome,
    source: str,
    recipient: int | None,
    deadline: float | None,
    now: float | None = None,
) -> Frame:
    """The frame telling ``recipient`` (a seat, or None for a spectator) of one action:
    ``outcome`` is what :meth:`State.apply` reported, ``state`` the state after it.
    ``now`` (the server's clock, for the page's timer) is left out when None: a page
    catching up gets it on the last event only."""
    frame: Frame = {
        "type": "event",
        "match": match_id,
        "seq": seq,
        "actor": outcome.seat,
        "action": public_action(recipient, outcome.seat, outcome.action),
        "source": source,
        "trick": None if outcome.trick is None else trick_payload(outcome.trick),
        "round_over": outcome.round_over is not None,
        "view": view_payload(_view_of(state, recipient)),
        "deadline": deadline,
    }
    if now is not None:
        frame["now"] = now
    return frame


def event_texts(
    match_id: str, ev: EventInfo, state: State, outcome: Outcome,
    recipients: Iterable[int | None], deadline: float | None,
) -> dict[int | None, str]:
    """The encoded ``event`` frame of action ``ev`` for each recipient (a seat, or
    None for the spectators): built from each one's own view, once however many pages
    of it are open. ``state`` is the state after the action, ``outcome`` what it did.

    A pure function of the match: what a seat is sent depends on nothing else.
    """
    texts: dict[int | None, str] = {}
    for recipient in recipients:
        if recipient not in texts:
            texts[recipient] = encode(event(match_id, ev.seq, state, outcome, ev.source,
                                            recipient, deadline, ev.created_at))
    return texts


def ack(msg_id: str, seq: int, **extra: Any) -> Frame:
    """A message accepted at sequence number ``seq`` (``extra``: what it started)."""
    return {"type": "ack", "id": msg_id, "seq": seq, **extra}


def reject(
    msg_id: str, code: str, reason: str, snapshot: Frame,
    why: IllegalActionError | None = None,
) -> Frame:
    """A message that changed nothing: why (``code``, a reason in English, and the
    engine's reason as a code and parameters for the page to translate), and a
    ``snapshot`` of what the sender may know now."""
    frame: Frame = {"type": "reject", "id": msg_id, "code": code, "reason": reason}
    if why is not None and why.code is not None:
        frame["reason_code"], frame["reason_params"] = why.code, why.params
    frame["snapshot"] = snapshot
    return frame


def advice(msg_id: str, payload: Frame) -> Frame:
    """The split advisor's answer, in the one JSON form of
    :meth:`meio.bots.advisor.Advice.to_dict`."""
    return {"type": "advice", "id": msg_id, **payload}


def advice_failed(msg_id: str) -> Frame:
    """The advisor failed on the server (a bug of ours, not the seat's request)."""
    return {"type": "advice", "id": msg_id, "error": "the advisor failed; try again"}


def rematch(match_id: str, asked: list[int], waiting: list[int]) -> Frame:
    """Seats asked for a rematch after ``match_id``; it waits for ``waiting``."""
    return {"type": "rematch", "match": match_id, "asked": asked, "waiting": waiting}


def new_match(match_id: str, number: int) -> Frame:
    """The table's next match began."""
    return {"type": "match", "match": match_id, "number": number}


def chat(info: TableInfo, seat: int, kind: str, text: str, at: float) -> Frame:
    """One chat message (``kind`` "text") or reaction ("react") of ``seat``."""
    seats = info.seats
    name = seats[seat].name if 0 <= seat < len(seats) and seats[seat].name else f"seat {seat + 1}"
    return {"type": "chat", "seat": seat, "name": name, "kind": kind, "text": text, "at": at}


def chat_ack(msg_id: str) -> Frame:
    """A chat message stored and sent (it has no sequence number: it is no action)."""
    return {"type": "ack", "id": msg_id, "chat": True}


def report_ack(msg_id: str, report: int) -> Frame:
    """A chat message reported: kept for the operator as report ``report``."""
    return {"type": "ack", "id": msg_id, "report": report}


def chat_log(info: TableInfo, match_id: str,
             messages: Iterable[tuple[int, str, str, float]]) -> Frame:
    """A match's chat so far, ``(seat, kind, text, at)`` oldest first, for a page that
    (re)connects."""
    return {"type": "chat_log", "match": match_id,
            "messages": [chat(info, *m) for m in messages]}


def error(code: str, reason: str) -> Frame:
    """A message that could not be read or handled (the socket stays open unless the
    code says otherwise)."""
    return {"type": "error", "code": code, "reason": reason}


def pong() -> Frame:
    """The answer to ``ping``."""
    return {"type": "pong"}
