"""Table chat: short text messages and quick reactions from the seated players.

Spectators read the chat but cannot write in it. A seated player may report another
seat's message (the operator lists and removes reports with ``meio admin``);
muting another seat is the page's own affair (it hides that seat's lines). A message is
plain text (the browser shows it with ``textContent``, never as HTML), at most
:data:`MAX_CHARS` characters on one line, and a seat may send at most
:data:`BURST` messages in any :data:`WINDOW_S` seconds (the hub keeps each
seat's allowance). Every message is stored with its match (table ``meio_chat``,
through :class:`~meio.web.store.Store`) before it is broadcast (to the pages of
the other server processes too, over the :mod:`~meio.web.bus`), and a page that
(re)connects gets the match's chat so far in one ``chat_log`` frame.

Client → server::

    {"type": "chat", "id": "c-20", "text": "nice trick"}
    {"type": "react", "id": "c-21", "text": "gg"}          # one of REACTIONS
    {"type": "report", "id": "r-1", "seat": 1, "at": 1.7e9}  # another seat's message

Server → client::

    {"type": "chat", "seat": 1, "name": "Bo", "kind": "text", "text": "...", "at": 1.7e9}
    {"type": "chat_log", "match": "...", "messages": [<chat frames>]}
"""

from __future__ import annotations

import asyncio
import time

from meio.web import frames as F
from meio.web.db import CHAT_MAX_CHARS as MAX_CHARS
from meio.web.protocol import Chat, Report
from meio.web.refusal import ServerError
from meio.web.services import Connection, Frame
from meio.web.table import LiveTable

#: a seat may send BURST messages at once, then BURST more in each WINDOW_S seconds
BURST = 5
WINDOW_S = 10.0
#: the quick reactions (each page shows them in its own language)
REACTIONS = ("thumbs", "gg")


class ChatError(ServerError):
    """A chat message the server refuses; ``code`` goes back in the reject frame."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason, code=code)


def clean_text(text: str) -> str:
    """The message as it is stored: one line, runs of blanks made one space.

    >>> clean_text("  good\\n  game ")
    'good game'
    """
    line = " ".join(text.split())
    if not line:
        raise ChatError("bad_message", "a chat message cannot be empty")
    if len(line) > MAX_CHARS:
        raise ChatError("too_long", f"a chat message is at most {MAX_CHARS} characters")
    if not line.isprintable():
        raise ChatError("bad_message", "a chat message is printable text only")
    return line


async def post(table: LiveTable, seat: int | None, msg: Chat) -> Frame:
    """Check, store and broadcast one chat message or reaction; the answer to its sender."""
    kind = "react" if msg.kind == "react" else "text"
    try:
        if seat is None:
            raise ChatError("forbidden", "spectators can read the chat but not write in it")
        if kind == "react" and msg.text not in REACTIONS:
            raise ChatError("bad_message", f"a reaction is one of {', '.join(REACTIONS)}")
        text = clean_text(msg.text)
        if table.match is None:
            raise ChatError("not_started", "the chat opens when the match starts")
        if not table.services.chat_limiter.take(f"{table.info.id}:{seat}"):
            raise ChatError("rate_limited", f"at most {BURST} messages in {WINDOW_S:g} seconds: "
                                            "wait a moment")
    except ChatError as exc:
        return table.refuse(msg.id, exc.code, exc.reason, seat)
    at = time.time()
    match_id = table.match.id
    await asyncio.to_thread(table.store.add_chat, match_id, seat, kind, text, at)
    relay(table, seat, kind, text, at)
    # the pages connected to the other server processes hear it over the bus
    table.group.chat_posted(table.info.id, match_id, seat, kind, text, at)
    return F.chat_ack(msg.id)


def relay(table: LiveTable, seat: int, kind: str, text: str, at: float) -> None:
    """Send a stored message to every page connected to this process."""
    if kind not in ("text", "react") or not 0 <= seat < len(table.info.seats):
        return
    table.broadcast(F.chat(table.info, seat, kind, text, at))


async def send_log(table: LiveTable, conn: Connection) -> None:
    """Send a (re)connected page the current match's chat so far."""
    if table.match is None:
        return
    rows = await asyncio.to_thread(table.store.chat, table.match.id)
    conn.send(F.chat_log(table.info, table.match.id, rows))


async def report(table: LiveTable, seat: int | None, msg: Report) -> Frame:
    """Keep another seat's message of this match for the operator; the answer says
    which report it is (the same one if this seat reports it again)."""
    try:
        if seat is None:
            raise ChatError("forbidden", "spectators cannot report messages")
        if msg.seat == seat:
            raise ChatError("bad_message", "you cannot report your own message")
        if table.match is None or not 0 <= msg.seat < len(table.info.seats):
            raise ChatError("no_message", "there is no such message in this match's chat")
        if not table.services.chat_limiter.take(f"{table.info.id}:{seat}"):
            raise ChatError("rate_limited", f"at most {BURST} messages in {WINDOW_S:g} seconds: "
                                            "wait a moment")
    except ChatError as exc:
        return table.refuse(msg.id, exc.code, exc.reason, seat)
    author = table.info.seats[msg.seat].name
    number = await asyncio.to_thread(table.store.report_chat, table.info.id, table.match.id,
                                     msg.seat, msg.at, seat, author)
    if number is None:
        return table.refuse(msg.id, "no_message", "there is no such message in this match's "
                                                  "chat", seat)
    return F.report_ack(msg.id, number)
