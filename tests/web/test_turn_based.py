"""Turn-based tables: a long turn timer, whose turn it is in the player's list of
tables, and the timer carried across a server restart (its expiry played by the
timeout rule)."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from meio.web import create_app
from tests.web.conftest import create, join, make_settings
from tests.web.helpers import Player

DAY = 86400.0


def test_a_turn_based_table_takes_a_timer_of_hours_or_days(client: TestClient) -> None:
    two = {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
    r = client.post("/api/tables", json={**two, "turn_based": True})
    assert r.status_code == 422 and "turn timer" in r.text
    r = client.post("/api/tables", json={**two, "turn_based": True, "turn_timer_s": 60})
    assert r.status_code == 422   # an hour at least, as served
    r = client.post("/api/tables", json={**two, "turn_timer_s": 2 * DAY})
    assert r.status_code == 422   # a day-long timer is a turn-based table's
    table = create(client, **two, turn_based=True, turn_timer_s=2 * DAY)
    assert table["table"]["turn_based"] is True and table["table"]["turn_timer_s"] == 2 * DAY


def test_the_list_of_tables_says_whose_turn_it_is(client: TestClient) -> None:
    table = create(client, players=2, name="Ana", seed=4, turn_based=True,
                   turn_timer_s=DAY, seats=[{"kind": "human"}, {"kind": "human"}])
    bia = join(client, table, "Bia")

    def mine(token: str) -> dict[str, object]:
        tables = client.post("/api/mine", json={"tokens": [token]}).json()["tables"]
        assert len(tables) == 1
        return dict(tables[0])

    # the split: both have to act, each with a day to do it
    for token in (table["token"], bia["token"]):
        row = mine(token)
        assert row["your_turn"] is True and row["status"] == "playing"
        assert isinstance(row["deadline"], float) and row["deadline"] > time.time() + DAY - 60
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        ana = Player(ws, token=table["token"])
        ana.until(lambda f: f["type"] == "snapshot")
        assert ana.view is not None
        ana.split("pack:" + ",".join(ana.view["hand"][:6]))
    assert mine(table["token"])["your_turn"] is False
    assert mine(table["token"])["deadline"] is None
    assert mine(bia["token"])["your_turn"] is True


def test_a_turn_based_timer_survives_a_restart_and_its_expiry_plays(sqlite_url: str) -> None:
    # the stopped server's lease on the table lasts 1.5 s (the default 6 s would delay
    # the takeover past the deadline)
    settings = make_settings(sqlite_url, min_turn_based_s=1.0, lease_ttl_s=1.5)
    with TestClient(create_app(settings)) as c:
        table = create(c, players=2, name="Ana", seed=5, turn_based=True, turn_timer_s=4.0,
                       seats=[{"kind": "human"}, {"kind": "human"}])
        join(c, table, "Bia")
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        match = store.match(store.table(table["table_id"]).current_match)
    # the server stops a second into the split and is away for a second
    time.sleep(max(0.0, match.created_at + 1.0 - time.time()))
    time.sleep(1.0)
    with TestClient(create_app(settings)) as c:
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        end = time.time() + 15
        while len(store.events(match.id)) < 2:
            assert time.time() < end, "the expired turns were never played"
            time.sleep(0.05)
        first = store.events(match.id)[:2]
    # both splits were played by the timeout rule when the first server's deadline came,
    # not a whole timer after the restart
    assert [e.source for e in first] == ["timeout", "timeout"]
    for e in first:
        # (a timer started again at the restart would expire 2 s + start-up + 4 s in)
        assert 4.0 <= e.created_at - match.created_at < 5.5, e.created_at - match.created_at
