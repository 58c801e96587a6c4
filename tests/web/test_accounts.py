"""Optional accounts: sign up and in, the session cookie and its guards (CSRF, the
origin check, throttled guessing, sign-out), deletion, and guests who keep their
seats; the migrations from the schema before accounts and ratings, with data, on
both databases."""

from __future__ import annotations

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


def test_password_guessing_is_throttled_per_account_and_per_address(sqlite_url: str) -> None:
    # the bursts as served (10 an address, 5 an account) but next to no refill: each
    # sign-in hashes a password, and on a busy machine eleven of them took longer than
    # the served refill (one every 6 s), which let the eleventh through
    app = create_app(make_settings(sqlite_url, login_rate_per_min=0.01,
                                   login_account_rate_per_min=0.01))
    with TestClient(app, client=("10.0.0.1", 5000)) as owner:
        signup(owner, "iris")
    codes = []
    with TestClient(app, client=("10.0.0.2", 5000)) as guesser:
        for i in range(6):
            r = guesser.post("/api/account/login",
                             json={"username": "iris", "password": f"guess-{i:04d}"})
            codes.append(r.status_code)
        assert codes == [401] * 5 + [429]
        # the right password is refused too while the account is throttled
        r = guesser.post("/api/account/login", json={"username": "iris", "password": PASSWORD})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
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
