"""Fair shares and bounded growth, with Starlette's TestClient: advice per seat, the
table limits, tables that close, the paged lobby, what start-up loads, connection
caps, presence as a change, resumption far behind, and what is shown to anyone.
(The attacks themselves, against a real server process: test_attacks.py.)"""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meio.web import create_app
from meio.web.table import PRESENCE_DELAY_S
from tests.web.conftest import create, join, make_settings
from tests.web.helpers import Player, choose, play_out

BOTS = [{"kind": "bot", "bot": "random"}] * 2

pytestmark = pytest.mark.timeout(120)


def test_advice_is_one_request_in_flight_per_seat_whatever_its_pages(sqlite_url: str) -> None:
    settings = make_settings(sqlite_url, advice_budget_s=1.5, advice_burst=2,
                             advice_rate_per_min=0.01)
    with TestClient(create_app(settings)) as c:
        table = create(c, players=2, name="Ana", seed=3)
        join(c, table, "Bo")
        url = f"/ws/tables/{table['table_id']}"
        with c.websocket_connect(url) as w1, c.websocket_connect(url) as w2:
            p1, p2 = Player(w1, token=table["token"]), Player(w2, token=table["token"])
            p1.until(lambda f: f["type"] == "snapshot")
            p2.until(lambda f: f["type"] == "snapshot")
            w1.send_json({"type": "advise", "id": "a1"})
            time.sleep(0.3)  # a1 is being worked out
            w2.send_json({"type": "advise", "id": "a2"})
            second = p2.until(lambda f: f.get("id") == "a2")
            assert second["type"] == "reject" and second["code"] == "busy", second
            first = p1.until(lambda f: f.get("id") == "a1")
            assert first["type"] == "advice" and len(first["best"]["pack"]) == 6
            # the seat's budget (2) is spent by a1 and a3, whichever page asks
            w2.send_json({"type": "advise", "id": "a3"})
            assert p2.until(lambda f: f.get("id") == "a3")["type"] == "advice"
            w1.send_json({"type": "advise", "id": "a4"})
            fourth = p1.until(lambda f: f.get("id") == "a4")
            assert fourth["type"] == "reject" and fourth["code"] == "rate_limited", fourth


def test_tables_of_bots_alone_and_open_tables_are_capped(db_url: str) -> None:
    # bots that wait 30 s a move: the tables stay in play (a finished one is not open)
    settings = make_settings(db_url, max_bot_tables=2, max_bot_tables_per_address=1,
                             max_open_tables=4, max_open_tables_per_address=10,
                             bot_delay_s=30.0)
    with TestClient(create_app(settings)) as c:
        create(c, players=2, seats=BOTS)
        r = c.post("/api/tables", json={"players": 2, "seats": BOTS})
        assert r.status_code == 429 and r.json()["code"] == "too_many_tables", r.text
        # a table with a seat for a person is not a table of bots alone
        create(c, players=2, name="Ana", seats=[{"kind": "human"}, BOTS[0]])
        create(c, players=2)
        create(c, players=2)
        r = c.post("/api/tables", json={"players": 2})
        assert r.status_code == 503 and r.json()["code"] == "server_full", r.text


def test_a_table_whose_time_is_up_closes_and_its_record_stays(db_url: str) -> None:
    url = db_url
    with TestClient(create_app(make_settings(url))) as c:
        played = create(c, players=2, name="Ana", seed=5, seats=[{"kind": "human"}, BOTS[0]])
        waiting = create(c, players=2, name="Bo")
        with c.websocket_connect(f"/ws/tables/{played['table_id']}") as ws:
            ana = Player(ws, token=played["token"])
            play_out([ana])
            match = ana.match
        assert c.get("/api/lobby").json()["tables"][0]["id"] == waiting["table_id"]
    # a server whose tables close at once after their match, and after 0.2 s waiting
    time.sleep(0.3)
    settings = make_settings(url, finished_ttl_s=0.0, waiting_ttl_s=0.2)
    with TestClient(create_app(settings)) as c:
        time.sleep(0.3)  # the first sweep runs as the server starts
        assert c.get("/api/lobby").json()["tables"] == []
        r = c.post(f"/api/tables/{waiting['table_id']}/join",
                   json={"invite": waiting["invite"], "name": "Cy"})
        assert r.status_code == 410 and "closed" in r.json()["detail"], r.text
        with c.websocket_connect(f"/ws/tables/{played['table_id']}") as ws:
            ws.send_json({"type": "hello", "token": played["token"]})
            err = ws.receive_json()
            assert err["code"] == "not_found" and "closed" in err["reason"], err
        assert c.get(f"/api/matches/{match}/record").status_code == 200
        mine = c.post("/api/mine", json={"tokens": [played["token"]]}).json()["tables"]
        assert [(t["status"], t["closed"]) for t in mine] == [("finished", True)]


def test_the_lobby_is_paged_newest_first(db_url: str) -> None:
    with TestClient(create_app(make_settings(db_url, lobby_page=2))) as c:
        made = [create(c, players=2, name=f"P{i}")["table_id"] for i in range(5)]
        create(c, players=2, name="Hidden", listed=False)
        full = create(c, players=2, name="Full")
        join(c, full, "Mate")
        seen: list[str] = []
        page = c.get("/api/lobby").json()
        while True:
            assert len(page["tables"]) <= 2
            seen += [t["id"] for t in page["tables"]]
            if page["next"] is None:
                break
            page = c.get("/api/lobby", params={"before": page["next"]}).json()
        assert seen == made[::-1]


def test_start_up_loads_only_the_tables_that_need_an_actor(db_url: str) -> None:
    url = db_url
    settings = make_settings(url, bot_delay_s=30.0)
    with TestClient(create_app(settings)) as c:
        for i in range(4):
            create(c, players=2, name=f"W{i}")  # waiting for a person
        humans = create(c, players=2, name="Ana")
        join(c, humans, "Bo")  # in play, people only, no timer
        bots = create(c, players=2, name="Cy", seats=[{"kind": "human"}, BOTS[0]])
        timed = create(c, players=2, name="Di", turn_timer_s=60)
        join(c, timed, "Ed")
    with TestClient(create_app(settings)) as c:
        loaded = set(c.app.state.hub.tables)  # type: ignore[attr-defined]
        assert loaded == {bots["table_id"], timed["table_id"]}
        # the others are loaded when asked for
        assert c.get(f"/api/tables/{humans['table_id']}").status_code == 200


def test_spectators_cost_no_table_frames_and_are_capped_per_table(sqlite_url: str) -> None:
    settings = make_settings(sqlite_url, max_sockets_per_table=3)
    with TestClient(create_app(settings)) as c:
        table = create(c, players=2, name="Ana")
        url = f"/ws/tables/{table['table_id']}"
        with c.websocket_connect(url) as wa:
            ana = Player(wa, token=table["token"])
            ana.until(lambda f: f["type"] == "table")  # her own coming online
            watchers = [c.websocket_connect(url) for _ in range(4)]
            answers = []
            for w in watchers:
                w.__enter__()
                w.send_json({"type": "hello", "spectate": table["spectate"]})
                answers.append(w.receive_json())
            assert [a["type"] for a in answers] == ["welcome"] * 3 + ["error"]
            assert answers[3]["code"] == "too_many_connections"
            for w in watchers:
                w.__exit__(None, None, None)
            time.sleep(4 * PRESENCE_DELAY_S)
            # the seat's page heard nothing of them: the next frame answers its ping
            wa.send_json({"type": "ping"})
            assert ana.recv()["type"] == "pong"
            bo = join(c, table, "Bo")
            with c.websocket_connect(url) as wb:  # a seat coming online is news
                Player(wb, token=bo["token"])
                online = ana.until(lambda f: f["type"] == "table"
                                   and f["table"]["seats"][1]["online"])
                assert online["table"]["seats"][0]["online"]


def test_websockets_are_capped_per_address(sqlite_url: str) -> None:
    with TestClient(create_app(make_settings(sqlite_url, max_sockets_per_address=2))) as c:
        table = create(c, players=2, name="Ana")
        url = f"/ws/tables/{table['table_id']}"
        with c.websocket_connect(url) as w1, c.websocket_connect(url) as w2:
            assert Player(w1, token=table["token"]).welcome["type"] == "welcome"
            assert Player(w2, spectate=table["spectate"]).welcome["type"] == "welcome"
            with c.websocket_connect(url) as w3:
                err = w3.receive_json()
                assert err["code"] == "too_many_connections", err
        with c.websocket_connect(url) as w4:  # one closed: room again
            assert Player(w4, token=table["token"]).welcome["type"] == "welcome"


def _split_both(a: Player, b: Player) -> None:
    for p in (a, b):
        action = choose(p.seen)
        assert action is not None
        assert p.split(action)["type"] == "ack"


def test_a_reconnection_far_behind_gets_one_snapshot(sqlite_url: str) -> None:
    settings = make_settings(sqlite_url, max_resume_events=1)
    with TestClient(create_app(settings)) as c:
        table = create(c, players=2, name="Ana", seed=2)
        bo = join(c, table, "Bo")
        url = f"/ws/tables/{table['table_id']}"
        with c.websocket_connect(url) as wa, c.websocket_connect(url) as wb:
            a, b = Player(wa, token=table["token"]), Player(wb, token=bo["token"])
            a.until(lambda f: f["type"] == "snapshot")
            b.until(lambda f: f["type"] == "snapshot")
            _split_both(a, b)
            a.until(lambda f: f["type"] == "event" and f["seq"] == 2)
            match = a.match
        for since, first in ((1, "event"), (0, "snapshot")):
            with c.websocket_connect(url) as wa:
                again = Player(wa, token=table["token"], since={"match": match, "seq": since})
                frame = again.until(lambda f: f["type"] in ("event", "snapshot"))
                assert frame["type"] == first, (since, frame)
                assert again.seq == 2


def test_what_anyone_may_ask_shows_no_host_and_no_foreign_script(
    sqlite_url: str, client: TestClient
) -> None:
    ready = client.get("/readyz")
    assert ready.json() == {"status": "ok"}
    assert client.get("/api/docs").status_code == 404
    with TestClient(create_app(make_settings(sqlite_url, api_docs=True,
                                             readyz_details=True))) as c:
        assert c.get("/api/docs").status_code == 200
        assert set(c.get("/readyz").json()) == {"status", "process", "tables"}


def test_lookups_of_many_tokens_are_rate_limited(sqlite_url: str) -> None:
    settings = make_settings(sqlite_url, lookup_burst=3, lookup_rate_per_min=0.01)
    with TestClient(create_app(settings)) as c:
        tokens: dict[str, Any] = {"tokens": ["x" * 32] * 200}
        codes = [c.post(p, json=tokens).status_code
                 for p in ("/api/mine", "/api/history", "/api/mine", "/api/history")]
        assert codes == [200, 200, 200, 429]


@pytest.mark.parametrize("hello", [{"token": "guess"}, {"spectate": "guess"}])
def test_wrong_hellos_on_one_table_from_anywhere_lock_only_wrong_ones(
    sqlite_url: str, hello: dict[str, str]
) -> None:
    settings = make_settings(sqlite_url, bad_hello_table_burst=2,
                             bad_hello_table_rate_per_min=0.01, bad_hello_burst=100)
    with TestClient(create_app(settings)) as c:
        table = create(c, players=2, name="Ana")
        other = create(c, players=2, name="Bo")
        url = f"/ws/tables/{table['table_id']}"
        codes = []
        for _ in range(3):
            with c.websocket_connect(url) as ws:
                ws.send_json({"type": "hello", **hello})
                codes.append(ws.receive_json()["code"])
        assert codes[2] == "rate_limited" and codes[0] != "rate_limited"
        with c.websocket_connect(url) as ws:
            assert Player(ws, token=table["token"]).welcome["type"] == "welcome"
        with c.websocket_connect(f"/ws/tables/{other['table_id']}") as ws:
            ws.send_json({"type": "hello", **hello})
            assert ws.receive_json()["code"] != "rate_limited"  # another table: counted anew


def test_a_lockout_lifts_however_often_the_guesser_knocks_meanwhile(sqlite_url: str) -> None:
    # one wrong hello a second refills the address's count; knocking while it is spent
    # does not count, so the lock lifts on time
    settings = make_settings(sqlite_url, bad_hello_burst=1, bad_hello_rate_per_min=60)
    with TestClient(create_app(settings)) as c:
        table = create(c, players=2, name="Ana")
        url = f"/ws/tables/{table['table_id']}"

        def guess() -> str:
            with c.websocket_connect(url) as ws:
                ws.send_json({"type": "hello", "token": "guess"})
                return str(ws.receive_json()["code"])

        began = time.monotonic()
        assert guess() == "bad_token"
        knocks = []
        while time.monotonic() - began < 0.5:
            knocks.append(guess())
            time.sleep(0.1)
        assert knocks and set(knocks) == {"rate_limited"}
        time.sleep(max(0.0, 1.2 - (time.monotonic() - began)))
        assert guess() == "bad_token"  # counted again: the lock lifted
