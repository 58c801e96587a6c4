"""Quick play: players of a pool seated together by rating, the empty seats filled
with bots of a level near the table's rating once the wait is over (after a restart
too), and what it refuses."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text

from meio.web import create_app
from meio.web.db import open_engine
from tests.web.conftest import make_settings
from tests.web.helpers import Browser
from tests.web.test_accounts import PASSWORD, csrf, signup


def settings(url: str) -> Any:
    return make_settings(url, quick_min_wait_s=0.5, quick_turn_timer_s=30.0)


def quick(c: Any, pool: str = "meio-4p", wait_s: float = 1.0, name: str = "Ana",
          status: int = 200) -> Any:
    r = c.post("/api/quick", json={"pool": pool, "wait_s": wait_s, "name": name},
               headers=csrf(c))
    assert r.status_code == status, r.text
    return r.json()


def seats(c: TestClient, table_id: str) -> Any:
    return c.app.state.hub.store.table(table_id).seats  # type: ignore[attr-defined]


def wait_started(c: TestClient, table_id: str, timeout: float = 15) -> None:
    end = time.time() + timeout
    while c.app.state.hub.store.table(table_id).current_match is None:  # type: ignore[attr-defined]
        assert time.time() < end, "the quick-play table never started"
        time.sleep(0.05)


def set_rating(url: str, player: str, pool: str, mu: float) -> None:
    engine = open_engine(url)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO meio_ratings (pool, player, mu, sigma, games, ordinal) "
                          "VALUES (:p, :who, :mu, 2.0, 12, :o)"),
                     {"p": pool, "who": player, "mu": mu, "o": mu - 6})
    engine.dispose()


def account_id(c: TestClient, username: str) -> str:
    found = c.app.state.auth.accounts.by_username(username)  # type: ignore[attr-defined]
    assert found is not None
    return str(found[0].id)


def test_three_players_sit_together_and_a_bot_fills_the_fourth_seat(sqlite_url: str) -> None:
    with TestClient(create_app(settings(sqlite_url))) as c:
        people = [Browser(c) for _ in range(3)]
        for i, person in enumerate(people):
            signup(person, f"player{i}")
        # the first table fills within each one's wait (a shorter wait would not do)
        tables = [quick(person, wait_s=3.0 + 0.5 * i, name=f"P{i}")
                  for i, person in enumerate(people)]
        assert len({t["table_id"] for t in tables}) == 1
        assert [t["seat"] for t in tables] == [0, 1, 2]
        first = tables[0]
        assert first["table"]["rated"] and first["table"]["quick"] == "meio-4p"
        assert first["table"]["turn_timer_s"] == 30.0
        wait_started(c, first["table_id"])
        got = seats(c, first["table_id"])
        assert [s.kind for s in got] == ["human", "human", "human", "bot"]
        assert got[3].bot == "heuristic"   # no bot level is rated in the pool yet
        # the seat tokens play as any seat's
        with c.websocket_connect(f"/ws/tables/{first['table_id']}") as ws:
            ws.send_json({"type": "hello", "token": tables[1]["token"]})
            assert ws.receive_json()["seat"] == 1


def test_players_are_seated_by_rating_within_their_wait(sqlite_url: str) -> None:
    app = create_app(settings(sqlite_url))
    with TestClient(app) as c:
        ids = {}
        for name in ("high", "low", "highish", "lowish"):
            signup(Browser(c), name)
            ids[name] = account_id(c, name)
        for name, mu in (("high", 40.0), ("low", 10.0), ("highish", 37.0), ("lowish", 13.0)):
            set_rating(sqlite_url, ids[name], "meio-3p", mu)

        def play(name: str, wait_s: float) -> str:
            x = Browser(c)
            x.post("/api/account/login", json={"username": name, "password": PASSWORD})
            return str(quick(x, pool="meio-3p", wait_s=wait_s, name=name)["table_id"])

        high = play("high", 60)
        low = play("low", 30)       # the high table fills after this wait: a table of its own
        assert low != high
        assert play("lowish", 100) == low      # both fill within its wait: the nearer rating
        assert play("highish", 100) == high


def test_the_bots_are_of_the_level_nearest_the_tables_rating(sqlite_url: str) -> None:
    app = create_app(settings(sqlite_url))
    with TestClient(app) as c:
        signup(c, "strong")
        set_rating(sqlite_url, account_id(c, "strong"), "meio-2p", 38.0)
        for bot, mu in (("random", 12.0), ("heuristic", 25.0), ("search", 36.0)):
            set_rating(sqlite_url, f"bot:{bot}", "meio-2p", mu)
        table = quick(c, pool="meio-2p", wait_s=0.5, name="Strong")
        wait_started(c, table["table_id"])
        assert seats(c, table["table_id"])[1].bot == "search"


def test_a_waiting_quick_table_fills_after_a_restart(sqlite_url: str) -> None:
    with TestClient(create_app(settings(sqlite_url))) as c:
        signup(c, "rita")
        table = quick(c, pool="meio-2p", wait_s=2.0, name="Rita")
    # the server stopped before the fill; the next one does it when the time comes
    with TestClient(create_app(settings(sqlite_url))) as c:
        assert c.app.state.hub.store.table(table["table_id"]).current_match is None  # type: ignore[attr-defined]
        wait_started(c, table["table_id"])
        assert [s.kind for s in seats(c, table["table_id"])] == ["human", "bot"]


def test_what_quick_play_refuses(client: TestClient) -> None:
    # a guest may play now, unrated only
    r = client.post("/api/quick", json={"pool": "meio-4p", "wait_s": 30, "name": "Gui"})
    assert r.status_code == 401 and r.json()["code"] == "sign_in_to_rate"
    r = client.post("/api/quick", json={"pool": "meio-4p", "wait_s": 30, "name": "Gui",
                                        "rated": "no"})
    assert r.status_code == 422
    signup(client, "gui")
    assert quick(client, pool="meio-9p", wait_s=30, status=404)["code"] == "no_pool"
    quick(client, wait_s=1, status=422)   # 5 to 300 seconds as served
    quick(client, wait_s=10_000, status=422)
    quick(client, wait_s=30, name="", status=422)


def test_guests_and_accounts_play_unrated_quick_play_together_apart_from_rated_tables(
        sqlite_url: str) -> None:
    with TestClient(create_app(settings(sqlite_url))) as c:
        guest = Browser(c)
        r = guest.post("/api/quick", json={"pool": "meio-2p", "wait_s": 4.0, "name": "Gui",
                                           "rated": False})
        assert r.status_code == 200, r.text
        first = r.json()
        assert first["table"]["rated"] is False and first["table"]["quick"] == "meio-2p"
        # a signed-in player asking for a rated table is not seated with the guest...
        signup(c, "ana")
        rated = quick(c, pool="meio-2p", wait_s=1.0)
        assert rated["table_id"] != first["table_id"] and rated["table"]["rated"] is True
        # ...one asking for an unrated table is
        r = c.post("/api/quick", json={"pool": "meio-2p", "wait_s": 4.0, "name": "Ana",
                                       "rated": False}, headers=csrf(c))
        assert r.status_code == 200 and r.json()["table_id"] == first["table_id"]
        wait_started(c, first["table_id"])
        assert [s.kind for s in seats(c, first["table_id"])] == ["human", "human"]
        # the rated one filled with a bot when its wait was over
        wait_started(c, rated["table_id"])
        assert [s.kind for s in seats(c, rated["table_id"])] == ["human", "bot"]
