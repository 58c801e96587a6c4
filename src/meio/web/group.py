"""What a table and the hub need of the group of server processes sharing a database.

:class:`Group` is the one interface between a table in memory and the other
``meio serve`` processes: the table tells the group what it committed and who is
connected, and asks whether this process may move its bots. The group is named by
table ids and plain values, never by the table objects, so this module and
:mod:`meio.web.table` know nothing of how it is done. :class:`meio.web.cluster.Cluster`
implements it (the bus, the leases); the app hands it to the hub, which hands it to
every table.
"""

from __future__ import annotations

from typing import Protocol

from meio.web.store import EventInfo


class Group(Protocol):
    """This process's part in a group of servers (alone on SQLite, with a silent bus)."""

    #: this process's name (host and pid), as the others know it
    origin: str
    #: stopping: it hands its tables to the others and acts for none
    draining: bool

    @property
    def live(self) -> bool:
        """Whether other processes may be listening (False: nothing is published)."""
        ...

    async def start(self) -> None:
        """Listen to the others and begin keeping the leases."""
        ...

    async def stop(self) -> None:
        """Hand back every lease, tell the others, stop listening."""
        ...

    def event_accepted(self, table_id: str, match_id: str, ev: EventInfo) -> None:
        """A committed action: the other processes hear of it."""
        ...

    def table_changed(self, table_id: str) -> None:
        """Seats were taken or a match began: the others reload the table."""
        ...

    def table_loaded(self, table_id: str) -> None:
        """A table came into memory here: the others say who sits there elsewhere."""
        ...

    def table_unloaded(self, table_id: str) -> None:
        """The table left memory here: its news need not come here any more."""
        ...

    async def held_elsewhere(self) -> set[str]:
        """The tables another process acts for now (start-up leaves them there)."""
        ...

    def presence(self, table_id: str, seats: list[int]) -> None:
        """The seats of a table connected to this process are now ``seats``."""
        ...

    def rematch_asked(self, table_id: str, match_id: str, seat: int) -> None:
        """A seat here asked for a rematch after ``match_id``: the others count it."""
        ...

    def chat_posted(self, table_id: str, match_id: str, seat: int, kind: str, text: str,
                    at: float) -> None:
        """A stored chat message: the pages connected to the others see it."""
        ...

    def holds(self, table_id: str) -> bool:
        """Whether this process may move the table's bots and run its timer now."""
        ...

    def may_act(self, table_id: str) -> bool:
        """Like :meth:`holds`; when the right looks free, ask for it (the table is
        woken once it is granted)."""
        ...

    def done_with(self, table_id: str) -> None:
        """The table's match is over: nothing runs for it here any more."""
        ...
