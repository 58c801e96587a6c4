"""Persistence on SQLite and on a real PostgreSQL: migrations, commit before
broadcast, rebuild after a restart, and races decided by the database."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from meio.web import create_app
from meio.web.db import migrate, open_engine
from meio.web.store import Store, StoreError
from tests.web.conftest import create, join, make_settings
from tests.web.helpers import Player, choose


def test_migrations_apply_and_are_idempotent(db_url: str) -> None:
    engine = open_engine(db_url)
    migrate(engine)
    migrate(engine)
    from sqlalchemy import inspect

    names = set(inspect(engine).get_table_names())
    assert {"meio_tables", "meio_seats", "meio_matches", "meio_events", "alembic_version"} <= names
    engine.dispose()


def test_events_are_committed_before_broadcast_and_survive_a_restart(db_url: str) -> None:
    settings = make_settings(db_url)
    with TestClient(create_app(settings)) as c:
        table = create(c, players=3, name="Ana", seed=3,
                       seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}])
        bo = join(c, table, "Bo")
        tid = table["table_id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as wa, \
                c.websocket_connect(f"/ws/tables/{tid}") as wb:
            a, b = Player(wa, token=table["token"]), Player(wb, token=bo["token"])
            a.until(lambda f: f["type"] == "snapshot")
            b.until(lambda f: f["type"] == "snapshot")
            # a separate connection to the same database sees each event as it is told
            other = Store(open_engine(db_url))
            for _ in range(12):
                p = a if a.my_turn() else b if b.my_turn() else None
                if p is None:
                    p = min((a, b), key=lambda q: q.seq)
                    frame = p.until(lambda f: f["type"] == "event")
                else:
                    p.act(choose(p.view))  # type: ignore[arg-type]
                    frame = next(f for f in reversed(p.frames) if f["type"] == "event")
                assert len(other.events(frame["match"])) >= frame["seq"]
            other.engine.dispose()
            a.until(lambda f: f["type"] == "event" and f["seq"] >= b.seq) if a.seq < b.seq \
                else None
            match, seq, view = a.match, a.seq, a.view
    # a new server on the same database rebuilds the table from its events
    with TestClient(create_app(settings)) as c, c.websocket_connect(f"/ws/tables/{tid}") as wa:
        a2 = Player(wa, token=table["token"])
        snap = a2.until(lambda f: f["type"] == "snapshot")
        assert snap["match"] == match and snap["seq"] >= seq
        if snap["seq"] == seq:
            assert snap["view"] == view


def test_two_servers_racing_for_one_table_are_serialised_by_the_database(db_url: str) -> None:
    settings = make_settings(db_url)
    with TestClient(create_app(settings)) as c1, TestClient(create_app(settings)) as c2:
        table = create(c1, players=2, name="Ana", seed=9)
        bo = join(c1, table, "Bo")
        tid = table["table_id"]
        with c1.websocket_connect(f"/ws/tables/{tid}") as w1, \
                c2.websocket_connect(f"/ws/tables/{tid}") as w2:
            a = Player(w1, token=table["token"])
            b = Player(w2, token=bo["token"])
            a.until(lambda f: f["type"] == "snapshot")
            b.until(lambda f: f["type"] == "snapshot")
            # both servers believe the table is at 0; each takes number 1 for its seat
            first = a.act(choose(a.view))  # type: ignore[arg-type]
            second = b.act(choose(b.view), seq=0)  # type: ignore[arg-type]
            assert first["type"] == "ack" and first["seq"] == 1
            assert second["type"] == "reject" and second["code"] == "stale"
            # the losing server reloaded from the database and now accepts the move
            again = b.act(choose(b.view))  # type: ignore[arg-type]
            assert again["type"] == "ack" and again["seq"] == 2
        events = c1.app.state.hub.store.events(a.match)  # type: ignore[attr-defined]
        assert [(e.seq, e.seat) for e in events] == [(1, 0), (2, 1)]


def test_the_insert_of_a_sequence_number_succeeds_once(db_url: str) -> None:
    engine = open_engine(db_url)
    migrate(engine)
    store = Store(engine)
    from meio.web.store import SeatInfo
    from meio.web.tablesetup import TableSetup

    info = store.create_table(
        TableSetup(players=2),
        [SeatInfo(0, "human", None, None, None), SeatInfo(1, "human", None, None, None)], True)
    m = store.start_match(info.id, 1, {"edition": "meio", "players": 2, "seed": 1})
    store.append_event(m.id, 1, 0, "pack:9S,TS,JS,QS,KS,AS", "human", "x", 1.0)
    with pytest.raises(StoreError) as exc:
        store.append_event(m.id, 1, 1, "pack:9H,TH,JH,QH,KH,AH", "human", "y", 1.0)
    assert exc.value.code == "conflict"
    with pytest.raises(StoreError):
        store.start_match(info.id, 1, {"edition": "meio", "players": 2, "seed": 2})
    store.take_seat(info.id, 0, "Ana", "h" * 64)
    with pytest.raises(StoreError) as taken:
        store.take_seat(info.id, 0, "Bo", "g" * 64)
    assert taken.value.code == "taken"
    assert [e.seat for e in store.events(m.id)] == [0]
    engine.dispose()


def test_a_join_on_a_server_whose_copy_is_behind_takes_the_next_free_seat(
        db_url: str) -> None:
    """A seat taken a moment ago through another process is still free in this one's
    copy of the table: a join that named no seat gets the next free one (it was
    refused with 409 'seat 2 was just taken'); one that named that seat is refused."""
    with TestClient(create_app(make_settings(db_url))) as c:
        table = create(c, players=4, name="Ana", seed=9)
        tid = table["table_id"]
        assert c.get(f"/api/tables/{tid}", params={"key": table["invite"]}).status_code == 200
        # another process seats Bo: only the database knows yet
        other = Store(open_engine(db_url))
        other.take_seat(tid, 1, "Bo", "0" * 64)
        assert join(c, table, "Cy")["seat"] == 2
        other.take_seat(tid, 3, "Di", "1" * 64)
        named = c.post(f"/api/tables/{tid}/join",
                       json={"invite": table["invite"], "name": "Ed", "seat": 3})
        assert named.status_code == 409, named.text
        assert named.json()["code"] == "seat_taken"
        full = c.post(f"/api/tables/{tid}/join", json={"invite": table["invite"], "name": "Fa"})
        assert full.status_code == 409 and full.json()["code"] == "full"
