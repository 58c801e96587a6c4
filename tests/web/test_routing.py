"""A table's news goes on the bus only while another process holds the table: the
hub's side, with the bus's messages handed to it by hand and what it would send
collected (no PostgreSQL needed)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meio.web import create_app
from tests.web.conftest import create, join, make_settings
from tests.web.helpers import Player, choose

pytestmark = pytest.mark.timeout(60)

TWO = {"players": 2, "name": "Ana", "seed": 5}


def test_a_tables_moves_go_on_the_bus_only_while_another_process_holds_it(
    sqlite_url: str,
) -> None:
    with TestClient(create_app(make_settings(sqlite_url))) as c:
        hub: Any = c.app.state.hub  # type: ignore[attr-defined]
        assert c.portal is not None
        sent: list[dict[str, Any]] = []
        hub.group.bus.live = True  # as on PostgreSQL: others may be listening
        hub.group.bus.post = sent.append
        def heard(msg: dict[str, Any]) -> list[dict[str, Any]]:
            sent.clear()
            c.portal.call(hub.group.receive, msg)  # type: ignore[union-attr]
            return list(sent)

        # another process, of this version (it says which tables it holds)
        heard({"origin": "proc-b", "type": "beat", "period": 0.1, "holds": True})
        table = create(c, **TWO)
        bo = join(c, table, "Bo")
        tid = table["table_id"]
        me = hub.group.origin

        with c.websocket_connect(f"/ws/tables/{tid}") as wa, \
                c.websocket_connect(f"/ws/tables/{tid}") as wb:
            people = [Player(wa, token=table["token"]), Player(wb, token=bo["token"])]
            assert {"type": "who", "table": tid} in sent  # loaded: it asked who else holds it
            for p in people:
                if p.view is None:
                    p.until(lambda f: f["type"] == "snapshot" and f["view"] is not None)

            def moves_sent() -> int:
                sent.clear()
                mover = next(p for p in people if p.my_turn())
                answer = mover.act(choose(mover.view))  # type: ignore[arg-type]
                assert answer["type"] == "ack", answer
                for p in people:  # both see the move before the next one is chosen
                    while p.seq < answer["seq"]:
                        p.recv()
                return sum(m["type"] == "event" for m in sent)

            # the other process has not said whether it holds the table: it hears moves
            assert moves_sent() == 1
            # it does not: the moves stay in this process
            assert heard({"origin": "proc-b", "type": "gone", "table": tid, "to": me}) == []
            assert moves_sent() == 0
            # it loads the table: it is told the table is held here, and from now on
            # hears every move
            assert {"type": "held", "table": tid, "to": "proc-b"} in heard(
                {"origin": "proc-b", "type": "who", "table": tid})
            assert moves_sent() == 1
            # it dropped the table: the moves stay here again
            assert heard({"origin": "proc-b", "type": "gone", "table": tid}) == []
            assert moves_sent() == 0
            # it says it holds the table (as after a lost bus connection): heard again
            heard({"origin": "proc-b", "type": "held", "table": tid})
            assert moves_sent() == 1
            # a process that leaves holds nothing any more
            heard({"origin": "proc-b", "type": "bye"})
            assert moves_sent() == 0
            # one that said it holds a table this process does not hold changes nothing
            heard({"origin": "proc-c", "type": "held", "table": "elsewhere", "to": "x"})
            assert moves_sent() == 1
            # ... but proc-c is of a version that never says what it holds: while it
            # runs, everything is sent
            heard({"origin": "proc-c", "type": "beat", "period": 0.1})
            assert moves_sent() == 1
            heard({"origin": "proc-c", "type": "beat", "period": 0.1, "holds": True})
            assert moves_sent() == 0


def test_a_replica_keeps_in_memory_only_the_tables_being_played(sqlite_url: str) -> None:
    """Memory follows the active tables: of tables with a match under way, those
    nobody is connected to leave memory once idle, the one being played stays; the
    others come back from the database, as they were, when asked for."""
    settings = make_settings(sqlite_url, evict_after_s=0.3, lease_ttl_s=0.6)
    with TestClient(create_app(settings)) as c:
        hub: Any = c.app.state.hub  # type: ignore[attr-defined]
        tables = []
        for _ in range(5):
            table = create(c, **TWO)
            tables.append((table, join(c, table, "Bo")))
        played = tables[0][0]
        with c.websocket_connect(f"/ws/tables/{played['table_id']}") as ws:
            ana = Player(ws, token=played["token"])
            if ana.view is None:
                ana.until(lambda f: f["type"] == "snapshot" and f["view"] is not None)
            deadline = time.monotonic() + 20
            while len(hub.tables) > 1 and time.monotonic() < deadline:
                time.sleep(0.1)
            assert set(hub.tables) == {played["table_id"]}
            # an idle one is read back as it was: its match under way
            idle = tables[1][0]
            r = c.get(f"/api/tables/{idle['table_id']}", params={"key": idle["invite"]})
            assert r.status_code == 200 and r.json()["match"] is not None
            assert idle["table_id"] in hub.tables
