"""Every message one server process sends the others, in one catalogue.

Several ``meio serve`` processes (replicas) on one PostgreSQL tell one another of
what they commit and who is connected to them over the :mod:`~meio.web.bus`;
:class:`~meio.web.cluster.Cluster` decides when to send which and acts on what it
hears. Each message is built here by a named function, named by its ``type`` and
keyed by whole words that mean one thing in every message (the bus adds the
sender's name, ``origin``, to each); docs/web.md, "Messages between server
processes", says when each is sent and to whom.

No message carries a hidden card or the deal's seed: an ``event`` carries the
action as stored (a split in full: the processes hold the whole match, as the
database does) and goes to the other processes only, never to a page; each
process sends its pages the frames of :mod:`meio.web.frames`, built from each
seat's own view.

>>> from meio.web.store import EventInfo
>>> ev = EventInfo(4, 1, "QS", "human", "c-9", 1.5)
>>> msg = event("T", "M", ev)
>>> msg
{'type': 'event', 'table': 'T', 'match': 'M', 'seq': 4, 'seat': 1, 'action': 'QS', \
'source': 'human', 'client_id': 'c-9', 'at': 1.5}
>>> event_of(msg) == ("M", ev)
True
"""

from __future__ import annotations

from typing import Any

from meio.web.store import EventInfo

Message = dict[str, Any]


# -- what happened at a table -----------------------------------------------------------
def event(table_id: str, match_id: str, ev: EventInfo) -> Message:
    """Action ``ev`` of match ``match_id`` was committed here: the others apply it."""
    return {"type": "event", "table": table_id, "match": match_id, "seq": ev.seq,
            "seat": ev.seat, "action": ev.action, "source": ev.source,
            "client_id": ev.client_id, "at": ev.created_at}


def event_of(msg: Message) -> tuple[str, EventInfo]:
    """The match and the action of an ``event`` message (the inverse of :func:`event`);
    raises ``KeyError``, ``TypeError`` or ``ValueError`` on a malformed one."""
    return str(msg["match"]), EventInfo(int(msg["seq"]), int(msg["seat"]), str(msg["action"]),
                                        str(msg["source"]), msg.get("client_id"),
                                        float(msg["at"]))


def reload(table_id: str) -> Message:
    """Seats were taken or a match began: the others read the table again."""
    return {"type": "reload", "table": table_id}


def rematch(table_id: str, match_id: str, seat: int) -> Message:
    """``seat`` asked here for a rematch after ``match_id``: the others count it."""
    return {"type": "rematch", "table": table_id, "match": match_id, "seat": seat}


def chat(table_id: str, match_id: str, seat: int, kind: str, text: str,
         at: float) -> Message:
    """A chat line (``kind`` "text") or reaction ("react") stored here: the others
    show it to their pages of the match."""
    return {"type": "chat", "table": table_id, "match": match_id, "seat": seat,
            "kind": kind, "text": text, "at": at}


def online(table_id: str, seats: list[int]) -> Message:
    """The seats of the table connected to the sender are now ``seats``."""
    return {"type": "online", "table": table_id, "seats": seats}


# -- who holds which table --------------------------------------------------------------
def who_holds(table_id: str) -> Message:
    """The sender loaded the table: the others that hold it answer ``online`` and
    ``held``, the others ``gone``."""
    return {"type": "who", "table": table_id}


def held(table_id: str, to: str | None = None) -> Message:
    """The sender holds the table too; the process it is ``to`` reads the table again
    (news sent before the sender knew of it did not go on the bus)."""
    msg: Message = {"type": "held", "table": table_id}
    if to is not None:
        msg["to"] = to
    return msg


def gone(table_id: str, to: str | None = None) -> Message:
    """The sender dropped the table, or (``to`` the asker) does not hold it."""
    msg: Message = {"type": "gone", "table": table_id}
    if to is not None:
        msg["to"] = to
    return msg


def released(table_ids: list[str], handed: bool = False) -> Message:
    """The sender handed back these tables' leases: a process that stops (the others
    load those tables and act), or, ``handed``, one whose tables' people are all on
    another process (that one takes them)."""
    msg: Message = {"type": "released", "tables": table_ids}
    if handed:
        msg["handed"] = True
    return msg


# -- the processes themselves -----------------------------------------------------------
def beat(period: float) -> Message:
    """The heartbeat, every ``period`` seconds; ``holds``: the sender answers ``who``
    with ``held`` and ``gone`` (a version that does not is sent everything)."""
    return {"type": "beat", "period": period, "holds": True}


def who_is(to: str, token: str | None = None) -> Message:
    """Process ``to`` (``"*"``: every process, after a lost bus connection) is asked
    for all its seats and tables; one taken for dead echoes ``token`` first."""
    msg: Message = {"type": "who", "to": to}
    if token is not None:
        msg["token"] = token
    return msg


def here(to: str, token: object) -> Message:
    """The echo of ``to``'s ``token``: the sender is alive (what follows is news)."""
    return {"type": "here", "to": to, "token": token}


def bye() -> Message:
    """A clean stop: the others forget the sender now."""
    return {"type": "bye"}
