"""Optional accounts: sign up and in, the session cookie and its guards (CSRF, the
origin check, throttled guessing, sign-out), deletion, and guests who keep their
seats; the migrations from the schema before accounts and ratings, with data, on
both databases."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from meio.web import create_app
from meio.web.db import migrate, open_engine, schema_head
from tests.web.conftest import create, make_settings
from tests.web.helpers import Browser, Player

PASSWORD = "correct horse battery"


def signup(c: Any, username: str, password: str = PASSWORD,
           tokens: list[str] | None = None) -> dict[str, Any]:
    r = c.post("/api/account/signup",
               json={"username": username, "password": password, "tokens": tokens or []})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def csrf(c: Any) -> dict[str, str]:
    """The header a page of this origin sends with a state-changing request."""
    return {"X-CSRF-Token": c.cookies.get("meio_csrf") or ""}


def me(c: Any) -> Any:
    return c.get("/api/account").json()["account"]


def test_a_guest_who_signs_up_keeps_their_seat_and_its_token_still_works(
        client: TestClient) -> None:
    table = create(client, players=2, name="Ana", listed=False,
                   seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    assert me(client) is None
    out = signup(client, "ana", tokens=[table["token"]])
    assert out["account"]["username"] == "ana" and out["seats_claimed"] == 1
    # the account finds the table without the token...
    mine = client.post("/api/mine", json={"tokens": []}, headers=csrf(client)).json()
    assert [t["id"] for t in mine["tables"]] == [table["table_id"]]
    # ...and the token still holds the seat
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        assert Player(ws, token=table["token"]).welcome["seat"] == 0
    # another browser without the account sees nothing of the unlisted table
    other = Browser(client)
    assert other.post("/api/mine", json={"tokens": []}).json()["tables"] == []


def test_a_table_made_or_joined_while_signed_in_is_the_accounts_own(
        client: TestClient) -> None:
    signup(client, "bia")
    r = client.post("/api/tables", json={"players": 2, "name": "Bia", "listed": False},
                    headers=csrf(client))
    assert r.status_code == 201, r.text
    table = r.json()
    second = Browser(client)
    r = second.post("/api/account/login", json={"username": "BIA", "password": PASSWORD})
    assert r.status_code == 200, r.text
    mine = second.post("/api/mine", json={"tokens": []}, headers=csrf(second)).json()
    assert [(t["id"], t["seat"]) for t in mine["tables"]] == [(table["table_id"], 0)]


def test_the_session_cookie_is_httponly_lax_and_new_at_each_sign_in(
        client: TestClient) -> None:
    r = client.post("/api/account/signup", json={"username": "caio", "password": PASSWORD})
    cookies = r.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("meio_session="))
    low = session.lower()
    assert "httponly" in low and "samesite=lax" in low and "secure" not in low
    token_csrf = next(c for c in cookies if c.startswith("meio_csrf="))
    assert "httponly" not in token_csrf.lower()
    first = client.cookies.get("meio_session")
    client.post("/api/account/login", json={"username": "caio", "password": PASSWORD},
                headers=csrf(client))
    second = client.cookies.get("meio_session")
    assert first and second and first != second
    # the cookie from before the sign-in is worth nothing now
    assert me(Browser(client, {"meio_session": first or ""})) is None
    assert me(client)["username"] == "caio"


def test_the_session_cookie_is_secure_behind_tls(sqlite_url: str) -> None:
    with TestClient(create_app(make_settings(sqlite_url)), base_url="https://testserver") as c:
        r = c.post("/api/account/signup", json={"username": "dora", "password": PASSWORD})
        session = next(x for x in r.headers.get_list("set-cookie")
                       if x.startswith("meio_session="))
        assert "secure" in session.lower()


def test_a_session_cookie_cannot_be_replayed_after_sign_out(client: TestClient) -> None:
    signup(client, "edu")
    stolen = client.cookies.get("meio_session")
    stolen_csrf = client.cookies.get("meio_csrf")
    assert client.post("/api/account/logout", headers=csrf(client)).status_code == 200
    assert me(client) is None
    thief = Browser(client, {"meio_session": stolen or "", "meio_csrf": stolen_csrf or ""})
    assert me(thief) is None
    r = thief.post("/api/account/logout-all", headers={"X-CSRF-Token": stolen_csrf or ""})
    assert r.status_code == 401 and r.json()["code"] == "not_signed_in"


def test_a_session_expires_and_the_next_sign_in_forgets_it(sqlite_url: str) -> None:
    import time

    with TestClient(create_app(make_settings(sqlite_url, session_ttl_s=1.0))) as c:
        signup(c, "gabi")
        phone = Browser(c)
        phone.post("/api/account/login", json={"username": "gabi", "password": PASSWORD})
        time.sleep(1.1)
        assert me(c) is None and me(phone) is None   # both a second old: expired
        phone.post("/api/account/login", json={"username": "gabi", "password": PASSWORD})
        assert me(phone)["username"] == "gabi"
    engine = open_engine(sqlite_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM meio_sessions")).scalar_one() == 1
    engine.dispose()


def test_sign_out_everywhere_ends_every_browsers_session(client: TestClient) -> None:
    signup(client, "fabi")
    phone = Browser(client)
    phone.post("/api/account/login", json={"username": "fabi", "password": PASSWORD})
    assert me(phone)["username"] == "fabi"
    r = client.post("/api/account/logout-all", headers=csrf(client))
    assert r.status_code == 200 and r.json()["sessions_ended"] == 2
    assert me(phone) is None and me(client) is None


def test_a_cross_site_post_is_refused(client: TestClient) -> None:
    body = {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}]}
    r = client.post("/api/tables", json=body, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403 and r.json()["code"] == "cross_site"
    r = client.post("/api/tables", json=body, headers={"Sec-Fetch-Site": "cross-site"})
    assert r.status_code == 403 and r.json()["code"] == "cross_site"
    r = client.post("/api/account/signup", json={"username": "gil", "password": PASSWORD},
                    headers={"Origin": "https://evil.example"})
    assert r.status_code == 403 and me(client) is None
    # the security headers are on the refusal too
    assert r.headers["x-frame-options"] == "DENY"
    assert client.post("/api/tables", json=body,
                       headers={"Origin": "http://testserver"}).status_code == 201


def test_a_request_the_cookie_authorises_needs_the_csrf_token(client: TestClient) -> None:
    signup(client, "hugo")
    r = client.post("/api/account/logout-all")
    assert r.status_code == 403 and r.json()["code"] == "csrf"
    r = client.post("/api/account/logout-all", headers={"X-CSRF-Token": "0" * 32})
    assert r.status_code == 403
    assert me(client)["username"] == "hugo"
    assert client.post("/api/account/logout-all", headers=csrf(client)).status_code == 200


def test_wrong_passwords_slow_their_sender_and_no_stranger_locks_the_owner_out(
        sqlite_url: str) -> None:
    """Issue 44: five wrong guesses from each of six addresses, then the owner's right
    password: it gets in (before: 429, the account's bucket spent by strangers). The
    guesser's own address waits longer and longer; so does an address trying many
    accounts; a browser that signed in before is not held back by its address."""
    from tests.web.servers import http, thread_server

    app = create_app(make_settings(sqlite_url, login_rate_per_min=600, login_burst=100))
    with thread_server(app) as base:
        login = f"{base}/api/account/login"
        with http("127.0.0.1") as owner:
            r = owner.post(f"{base}/api/account/signup",
                           json={"username": "iris", "password": PASSWORD})
            assert r.status_code == 201, r.text
        for n in range(2, 8):
            with http(f"127.0.0.{n}") as guesser:
                codes = [guesser.post(login, json={"username": "iris",
                                                   "password": f"guess-{i:04d}"}).status_code
                         for i in range(5)]
                # three free failures, the fourth answered, then a wait of 1 s, 2 s...
                assert codes == [401] * 4 + [429], codes
                r = guesser.post(login, json={"username": "IRIS", "password": PASSWORD})
                assert r.status_code == 429 and "try again in" in r.json()["detail"]
        with http("127.0.0.1") as owner:
            r = owner.post(login, json={"username": "iris", "password": PASSWORD})
            assert r.status_code == 200, r.text
        # the owner's browser and a script trying many accounts behind one address
        with http("127.0.0.9") as browser, http("127.0.0.9") as sprayer:
            r = browser.post(login, json={"username": "iris", "password": PASSWORD})
            assert r.status_code == 200 and browser.cookies.get("meio_device"), r.text
            codes = [sprayer.post(login, json={"username": f"user{i}",
                                               "password": PASSWORD}).status_code
                     for i in range(22)]
            # an address trying many accounts waits too, after twenty failures
            assert codes == [401] * 21 + [429], codes
            r = sprayer.post(login, json={"username": "iris", "password": PASSWORD})
            assert r.status_code == 429
            r = browser.post(login, json={"username": "iris", "password": PASSWORD})
            assert r.status_code == 200, r.text


def test_sign_in_requests_are_rate_limited_per_address(sqlite_url: str) -> None:
    # the burst as served (10) with next to no refill: each sign-in hashes a password
    app = create_app(make_settings(sqlite_url, login_rate_per_min=0.01,
                                   login_free_failures=100))
    with TestClient(app, client=("10.0.0.3", 5000)) as sprayer:
        codes = [sprayer.post("/api/account/login",
                              json={"username": f"user{i}", "password": PASSWORD}).status_code
                 for i in range(11)]
        assert codes == [401] * 10 + [429]


def test_bad_sign_ups_get_a_clear_refusal(client: TestClient) -> None:
    signup(client, "Joana")
    r = client.post("/api/account/signup", json={"username": "JOANA", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["code"] == "username_taken"
    for username, password in [("a b c", PASSWORD), ("jo", PASSWORD), ("<b>x</b>", PASSWORD),
                               ("kleber", "short")]:
        r = client.post("/api/account/signup", json={"username": username, "password": password})
        assert r.status_code == 422, (username, r.text)
    r = client.post("/api/account/login", json={"username": "nobody", "password": PASSWORD})
    assert r.status_code == 401 and r.json()["code"] == "bad_login"


def test_the_database_keeps_only_an_argon2id_hash_and_session_hashes(sqlite_url: str) -> None:
    with TestClient(create_app(make_settings(sqlite_url))) as c:
        signup(c, "lia")
        cookie = c.cookies.get("meio_session") or ""
    engine = open_engine(sqlite_url)
    with engine.connect() as conn:
        stored = conn.execute(text("SELECT password_hash FROM meio_accounts")).scalar_one()
        sessions = list(conn.execute(text("SELECT token_hash FROM meio_sessions")).scalars())
    engine.dispose()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert len(sessions) == 1 and cookie not in sessions[0]


def test_deleting_an_account_removes_it_and_leaves_its_seats_anonymous(
        client: TestClient) -> None:
    signup(client, "marta")
    r = client.post("/api/tables", json={"players": 2, "name": "Marta Silva", "listed": False,
                                         "seats": [{"kind": "human"}, {"kind": "bot"}]},
                    headers=csrf(client))
    table = r.json()
    r = client.post("/api/account/delete", json={"password": "not the password"},
                    headers=csrf(client))
    assert r.status_code == 401 and me(client)["username"] == "marta"
    r = client.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf(client))
    assert r.status_code == 200 and r.json()["tables"] == 1
    assert me(client) is None
    shown = client.get(f"/api/tables/{table['table_id']}?key={table['invite']}").json()
    assert shown["seats"][0]["name"] == "Player 1"
    assert "Marta" not in str(shown)
    r = client.post("/api/account/login", json={"username": "marta", "password": PASSWORD})
    assert r.status_code == 401
    # the name is free again, and the new account is not the old one
    signup(client, "marta")
    assert client.post("/api/mine", json={"tokens": []},
                       headers=csrf(client)).json()["tables"] == []
    # the seat token still plays: the match goes on, anonymously
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        assert Player(ws, token=table["token"]).welcome["seat"] == 0


def test_the_accounts_migration_upgrades_a_database_with_data_in_place(db_url: str) -> None:
    engine = open_engine(db_url)
    migrate(engine, "0004_limits")
    token_hash = "ab" * 32
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO meio_tables (id, created_at, options, invite_code, spectate_code, "
            "listed, current_match, closed_at, creator) VALUES ('T1', 1.0, :opts, 'inv', "
            "'spec', false, 'M1', NULL, 'c0ffee')"),
            {"opts": '{"edition": "meio", "players": 2, "partnership": false, '
                     '"specials": null, "turn_timer_s": null, "seed": 5}'})
        conn.execute(text(
            "INSERT INTO meio_seats (table_id, seat, kind, bot, name, token_hash, joined_at) "
            "VALUES ('T1', 0, 'human', NULL, 'Nina', :h, 2.0), "
            "('T1', 1, 'bot', 'random', NULL, NULL, NULL)"), {"h": token_hash})
        conn.execute(text(
            "INSERT INTO meio_matches (id, table_id, number, config, created_at, finished_at, "
            "result) VALUES ('M1', 'T1', 1, '{}', 3.0, NULL, NULL)"))
        conn.execute(text(
            "INSERT INTO meio_events (match_id, seq, seat, action, source, client_id, "
            "created_at) VALUES ('M1', 1, 0, 'pack:x', 'human', 'c1', 4.0)"))
        conn.execute(text(
            "INSERT INTO meio_chat (match_id, seat, kind, text, created_at) "
            "VALUES ('M1', 0, 'text', 'olá', 5.0)"))
    migrate(engine)
    with engine.begin() as conn:
        seats = conn.execute(text("SELECT seat, name, token_hash, account_id FROM meio_seats "
                                  "ORDER BY seat")).all()
        assert [tuple(s) for s in seats] == [(0, "Nina", token_hash, None),
                                             (1, None, None, None)]
        assert conn.execute(text("SELECT action FROM meio_events")).scalar_one() == "pack:x"
        assert conn.execute(text("SELECT text FROM meio_chat")).scalar_one() == "olá"
        assert conn.execute(text("SELECT version_num FROM alembic_version")
                            ).scalar_one() == schema_head()
        assert conn.execute(text("SELECT count(*) FROM meio_accounts")).scalar_one() == 0
        # the old table is unrated, and nothing was rated
        assert conn.execute(text("SELECT rated FROM meio_tables")).scalar_one() in (False, 0)
        assert conn.execute(text("SELECT count(*) FROM meio_ratings")).scalar_one() == 0
    # the new schema works on the old rows: an account claims the old guest seat
    from meio.web.accounts import AccountStore
    from meio.web.store import Store

    account = AccountStore(engine).create("nina", "$argon2id$x")
    assert Store(engine).claim_seats(account.id, [token_hash]) == 1
    assert [(i.id, s) for i, s in Store(engine).tables_of_account(account.id)] == [("T1", 0)]
    engine.dispose()


@pytest.mark.parametrize("username", ["ana maria", "x" * 25, "ana\u0000"])
def test_a_username_that_is_not_one_word_is_refused(client: TestClient, username: str) -> None:
    r = client.post("/api/account/signup", json={"username": username, "password": PASSWORD})
    assert r.status_code == 422


def test_the_origin_check_trusts_the_public_origin_not_the_host_header(
        sqlite_url: str) -> None:
    """A DNS-rebinding page's origin equals the host it forged: with the public origin
    configured it is refused, on HTTP and on the WebSocket (before: same-origin)."""
    from starlette.websockets import WebSocketDisconnect

    app = create_app(make_settings(sqlite_url, public_origin="https://play.example.org"))
    rebound = {"Origin": "http://rebind.example:8000", "Host": "rebind.example:8000"}
    with TestClient(app) as client:
        r = client.post("/api/tables", json={"players": 2}, headers=rebound)
        assert r.status_code == 403 and r.json()["code"] == "cross_site"
        r = client.post("/api/tables", json={"players": 2},
                        headers={"Origin": "https://play.example.org"})
        assert r.status_code == 201, r.text
        table = r.json()
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(
                f"/ws/tables/{table['table_id']}", headers=rebound) as ws:
            ws.send_json({"type": "hello", "token": table["token"]})
            ws.receive_json()


def test_a_flood_of_sign_ins_from_some_addresses_waits_behind_anothers(
        sqlite_url: str) -> None:
    """Password hashing is two at a time, shared between addresses: 40 guesses in
    line from two addresses, and another address's sign-in waits for the hashes
    running, not for the 40 (before: one first-come line, 150 guesses made a genuine
    sign-in take 26.9 s)."""
    import asyncio

    from meio.web.accounts import AccountStore
    from meio.web.auth import Auth
    from meio.web.db import migrate, open_engine
    from meio.web.store import Store

    class SlowHasher:
        def hash(self, password: str) -> str:
            time.sleep(0.05)
            return "h:" + password

        def verify(self, stored: str, password: str) -> bool:
            time.sleep(0.05)
            return stored == "h:" + password

    engine = open_engine(sqlite_url)
    migrate(engine)
    auth = Auth(make_settings(sqlite_url), AccountStore(engine), Store(engine))
    auth.hasher = SlowHasher()  # type: ignore[assignment]

    async def scenario() -> float:
        flood = [asyncio.ensure_future(auth.verify("h:x", f"guess{i}", f"10.0.0.{2 + i % 2}"))
                 for i in range(40)]
        await asyncio.sleep(0.1)
        began = time.perf_counter()
        assert await auth.verify("h:right", "right", "10.0.0.9")
        waited = time.perf_counter() - began
        assert not any(await asyncio.gather(*flood))
        return waited

    try:
        waited = asyncio.run(scenario())
    finally:
        auth.hashing.close()
        engine.dispose()
    # the hashes running (0.05 s) and its own; in one line it waited for ~40 of them
    assert waited < 0.5, f"the sign-in waited {waited:.2f} s"


def test_weak_passwords_are_refused_and_a_change_ends_the_other_sessions(
        client: TestClient) -> None:
    """Issue 44: ``12345678`` and a password made of the username were accepted, and no
    password could be changed."""
    for username, password in [("lia", "12345678"), ("marcosmarcos", "marcosmarcos"),
                               ("nina", "password1")]:
        r = client.post("/api/account/signup", json={"username": username,
                                                     "password": password})
        assert r.status_code == 422 and r.json()["code"] == "weak_password", r.text
        assert "too easy to guess" in r.json()["detail"]
    signup(client, "olga")
    other = Browser(client)
    r = other.post("/api/account/login", json={"username": "olga", "password": PASSWORD})
    assert r.status_code == 200
    change = "/api/account/password"
    r = client.post(change, json={"password": "wrong one", "new_password": "a new hope for olga"},
                    headers=csrf(client))
    assert r.status_code == 401 and r.json()["code"] == "bad_login"
    r = client.post(change, json={"password": PASSWORD, "new_password": "12345678"},
                    headers=csrf(client))
    assert r.status_code == 422 and r.json()["code"] == "weak_password"
    r = client.post(change, json={"password": PASSWORD, "new_password": "a new hope for olga"},
                    headers=csrf(client))
    assert r.status_code == 200 and r.json()["sessions_ended"] == 1, r.text
    assert me(client)["username"] == "olga"  # this browser stays signed in
    assert other.get("/api/account").json()["account"] is None  # the other is out
    r = other.post("/api/account/login", json={"username": "olga", "password": PASSWORD})
    assert r.status_code == 401
    r = other.post("/api/account/login",
                   json={"username": "olga", "password": "a new hope for olga"})
    assert r.status_code == 200


def test_look_alike_usernames_are_one_account(sqlite_url: str) -> None:
    """Issue 44: ``ana``, Cyrillic ``аna`` and Greek ``ΑNA`` were three accounts."""
    with TestClient(create_app(make_settings(sqlite_url, login_burst=20))) as client:
        look_alikes_are_refused(client)


def look_alikes_are_refused(client: TestClient) -> None:
    signup(client, "ana")
    for look_alike in ["\u0430na", "\u0391NA", "\u0430n\u0251"]:
        r = Browser(client).post("/api/account/signup",
                                 json={"username": look_alike, "password": PASSWORD})
        assert r.status_code == 422, (look_alike, r.text)
        assert r.json()["code"] == "username_confusable"
        assert "looks like one that is taken" in r.json()["detail"]
    r = Browser(client).post("/api/account/signup", json={"username": "ANA", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["code"] == "username_taken"
    # letters drawn alike within one alphabet too: I, l and 1; m and rn
    signup(Browser(client), "lia")
    signup(Browser(client), "mia")
    for look_alike in ["Iia", "1ia", "rnia"]:
        r = Browser(client).post("/api/account/signup",
                                 json={"username": look_alike, "password": PASSWORD})
        assert r.status_code == 422 and r.json()["code"] == "username_confusable", look_alike
    signup(Browser(client), "nia")  # a name that only shares letters is free


def test_the_skeletons_migration_keeps_the_older_of_two_look_alikes(db_url: str) -> None:
    """Accounts made before the check may already look alike: the older keeps the
    skeleton, the later keeps its name and its sign-in, and no third joins them."""
    from meio.web.accounts import AccountStore
    from meio.web.store import StoreError

    engine = open_engine(db_url)
    migrate(engine, "0011_rating_versions")
    with engine.begin() as conn:
        for i, (name, at) in enumerate([("\u0430na", 2.0), ("ana", 1.0), ("bia", 3.0)]):
            conn.execute(text(
                "INSERT INTO meio_accounts (id, username, username_key, password_hash, "
                "created_at) VALUES (:id, :name, :name, 'h', :at)"),
                {"id": f"A{i}", "name": name, "at": at})
    migrate(engine)
    with engine.begin() as conn:
        rows = conn.execute(text("SELECT username, username_skeleton FROM meio_accounts "
                                 "ORDER BY created_at")).all()
        assert [tuple(r) for r in rows] == [("ana", "ana"), ("\u0430na", None),
                                            ("bia", "bia")]
        assert conn.execute(text("SELECT version_num FROM alembic_version")
                            ).scalar_one() == schema_head()
    accounts = AccountStore(engine)
    found = accounts.by_username("\u0430na")
    assert found is not None and found[0].id == "A0"  # the later one still signs in
    for third in ["\u0391NA", "\u0430n\u0430"]:
        with pytest.raises(StoreError) as err:
            accounts.create(third, "h")
        assert err.value.code == "username_confusable"
    assert accounts.create("cia", "h").username == "cia"
    engine.dispose()
