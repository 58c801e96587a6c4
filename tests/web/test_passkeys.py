"""Passkeys over HTTP with a software authenticator (P-256 keys from ``cryptography``,
``none`` attestation): adding one needs a session and the CSRF token, signing in
with one is usernameless and ends in a new session; replays, spent or expired
challenges, stale signature counts, other accounts' keys and foreign origins are
refused; the migration from the schema before passkeys, with data, on both
databases."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import time
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient
from sqlalchemy import text

from meio.web import create_app
from meio.web.db import migrate, open_engine, schema_head
from tests.web.conftest import create, make_settings
from tests.web.helpers import Browser
from tests.web.test_accounts import csrf, me, signup

ORIGIN = "http://testserver"
RP_ID = "testserver"
P = "/api/account/passkeys"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(data: str) -> bytes:
    return base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))


class SoftKey:
    """A passkey authenticator in software: one discoverable P-256 credential that
    verifies its user and counts its signatures."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.id = os.urandom(16)
        self.count = 0
        self.user_handle = ""

    def _client_data(self, kind: str, options: dict[str, Any], origin: str) -> bytes:
        return json.dumps({"type": kind, "challenge": options["challenge"],
                           "origin": origin, "crossOrigin": False}).encode()

    def create(self, options: dict[str, Any], origin: str = ORIGIN,
               rp_id: str | None = None) -> dict[str, Any]:
        """What ``navigator.credentials.create`` answers to ``options``."""
        self.user_handle = options["user"]["id"]
        numbers = self.key.public_key().public_numbers()
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})
        rp = (rp_id or options["rp"]["id"]).encode()
        auth_data = (hashlib.sha256(rp).digest() + bytes([0x45]) + self.count.to_bytes(4, "big")
                     + bytes(16) + len(self.id).to_bytes(2, "big") + self.id + cose)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": b64(self.id), "rawId": b64(self.id), "type": "public-key",
                "response": {"clientDataJSON": b64(self._client_data("webauthn.create", options,
                                                                     origin)),
                             "attestationObject": b64(attestation), "transports": ["internal"]},
                "clientExtensionResults": {}}

    def get(self, options: dict[str, Any], origin: str = ORIGIN, rp_id: str | None = None,
            user_handle: str | None = None) -> dict[str, Any]:
        """What ``navigator.credentials.get`` answers to ``options`` (one more
        signature on the counter)."""
        self.count += 1
        rp = (rp_id or options["rpId"]).encode()
        auth_data = hashlib.sha256(rp).digest() + bytes([0x05]) + self.count.to_bytes(4, "big")
        client_data = self._client_data("webauthn.get", options, origin)
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(),
                                  ec.ECDSA(hashes.SHA256()))
        return {"id": b64(self.id), "rawId": b64(self.id), "type": "public-key",
                "response": {"clientDataJSON": b64(client_data),
                             "authenticatorData": b64(auth_data), "signature": b64(signature),
                             "userHandle": user_handle or self.user_handle},
                "clientExtensionResults": {}}


def add_passkey(c: Any, key: SoftKey) -> Any:
    options = c.post(f"{P}/register/options", headers=csrf(c))
    assert options.status_code == 200, options.text
    return c.post(f"{P}/register", json={"credential": key.create(options.json())},
                  headers=csrf(c))


def sign_in(c: Any, key: SoftKey, tokens: list[str] | None = None, **kw: Any) -> Any:
    options = c.post(f"{P}/sign-in/options")
    assert options.status_code == 200, options.text
    return c.post(f"{P}/sign-in", json={"credential": key.get(options.json(), **kw),
                                        "tokens": tokens or []})


def test_a_passkey_added_to_an_account_signs_in_another_browser_without_a_username(
        client: TestClient) -> None:
    signup(client, "ana")
    key = SoftKey()
    r = add_passkey(client, key)
    assert r.status_code == 201, r.text
    assert unb64(key.user_handle) != b"ana"   # the handle is the account's id, not its name
    listed = client.get(P).json()["passkeys"]
    assert [(k["id"], k["transports"], k["last_used_at"]) for k in listed] == [
        (b64(key.id), ["internal"], None)]
    # a guest in another browser, with a seat of their own, signs in with it
    phone = Browser(client)
    table = create(phone, players=2, name="Ana", listed=False,
                   seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    r = sign_in(phone, key, tokens=[table["token"]])
    assert r.status_code == 200, r.text
    assert r.json()["account"]["username"] == "ana" and r.json()["seats_claimed"] == 1
    cookie = next(x for x in r.headers.get_list("set-cookie") if x.startswith("meio_session="))
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    assert me(phone)["username"] == "ana" and me(client)["username"] == "ana"
    assert client.get(P).json()["passkeys"][0]["last_used_at"] is not None


def test_adding_a_passkey_needs_a_signed_in_session_and_the_csrf_token(
        client: TestClient) -> None:
    guest = client.post(f"{P}/register/options")
    assert guest.status_code == 401 and guest.json()["code"] == "not_signed_in"
    signup(client, "bia")
    r = client.post(f"{P}/register/options")
    assert r.status_code == 403 and r.json()["code"] == "csrf"
    # a challenge belongs to the session that asked: after a new sign-in it is spent
    options = client.post(f"{P}/register/options", headers=csrf(client)).json()
    client.post("/api/account/login", json={"username": "bia",
                                            "password": "correct horse battery"})
    r = client.post(f"{P}/register", json={"credential": SoftKey().create(options)},
                    headers=csrf(client))
    assert r.status_code == 400 and r.json()["code"] == "passkey_expired"
    assert client.get(P).json()["passkeys"] == []


def test_a_replayed_assertion_and_a_second_answer_to_one_challenge_are_refused(
        client: TestClient) -> None:
    signup(client, "caio")
    key = SoftKey()
    add_passkey(client, key)
    thief = Browser(client)
    options = thief.post(f"{P}/sign-in/options").json()
    attempt = thief.cookies.get("meio_webauthn")
    first = {"credential": key.get(options), "tokens": []}
    second = {"credential": key.get(options), "tokens": []}   # a new count, same challenge
    assert thief.post(f"{P}/sign-in", json=first).status_code == 200
    for body in (first, second):
        replay = Browser(client, {"meio_webauthn": attempt or ""})
        r = replay.post(f"{P}/sign-in", json=body)
        assert r.status_code == 400 and r.json()["code"] == "passkey_expired"
        assert me(replay) is None


def test_a_cloned_authenticators_stale_signature_count_is_refused(client: TestClient) -> None:
    signup(client, "dani")
    key = SoftKey()
    add_passkey(client, key)
    key.count = 9
    assert sign_in(Browser(client), key).status_code == 200   # the count is now 10
    key.count = 4                                             # a clone, behind
    r = sign_in(Browser(client), key)
    assert r.status_code == 401 and r.json()["code"] == "bad_passkey"


def test_another_accounts_key_or_user_handle_cannot_sign_in(client: TestClient) -> None:
    signup(client, "edu")
    edu = SoftKey()
    add_passkey(client, edu)
    fabi_browser = Browser(client)
    signup(fabi_browser, "fabi")
    fabi = SoftKey()
    add_passkey(fabi_browser, fabi)
    # Fabi's key, claiming Edu's credential id: the signature does not verify
    forged = SoftKey()
    forged.key, forged.id, forged.user_handle = fabi.key, edu.id, edu.user_handle
    # Edu's own key, naming Fabi's account as its user
    for key, kw in ((forged, {}), (edu, {"user_handle": fabi.user_handle}),
                    (SoftKey(), {"user_handle": edu.user_handle})):
        guest = Browser(client)
        r = sign_in(guest, key, **kw)
        assert r.status_code == 401 and r.json()["code"] == "bad_passkey"
        assert me(guest) is None


def test_an_answer_for_another_origin_or_relying_party_is_refused(client: TestClient) -> None:
    signup(client, "gil")
    key = SoftKey()
    options = client.post(f"{P}/register/options", headers=csrf(client)).json()
    assert options["rp"]["id"] == RP_ID
    r = client.post(f"{P}/register", headers=csrf(client),
                    json={"credential": key.create(options, origin="http://evil.example")})
    assert r.status_code == 400 and r.json()["code"] == "bad_passkey"
    assert add_passkey(client, key).status_code == 201
    for kw in ({"origin": "https://testserver.evil.example"}, {"rp_id": "evil.example"}):
        guest = Browser(client)
        r = sign_in(guest, key, **kw)
        assert r.status_code == 401 and r.json()["code"] == "bad_passkey"
        assert me(guest) is None


def test_the_public_origin_names_the_relying_party_and_makes_cookies_secure(
        sqlite_url: str) -> None:
    settings = make_settings(sqlite_url, public_origin="https://meio.example.org")
    with TestClient(create_app(settings), base_url="https://10.0.0.5:8000") as c:
        signup(c, "hugo")
        options = c.post(f"{P}/register/options", headers=csrf(c)).json()
        assert options["rp"]["id"] == "meio.example.org"
        key = SoftKey()
        # the request's own address is not the site's: its answers are refused
        r = c.post(f"{P}/register", headers=csrf(c),
                   json={"credential": key.create(options, origin="https://10.0.0.5:8000")})
        assert r.status_code == 400
        options = c.post(f"{P}/register/options", headers=csrf(c)).json()
        r = c.post(f"{P}/register", headers=csrf(c), json={
            "credential": key.create(options, origin="https://meio.example.org")})
        assert r.status_code == 201, r.text
        options = c.post(f"{P}/sign-in/options")
        assert "secure" in options.headers["set-cookie"].lower()
    # the cookies are Secure even where the proxy's request came over plain HTTP
    with TestClient(create_app(settings)) as c:
        r = c.post("/api/account/signup", json={"username": "iara",
                                                "password": "correct horse battery"})
        assert all("secure" in x.lower() for x in r.headers.get_list("set-cookie"))


def test_a_challenge_expires(sqlite_url: str) -> None:
    with TestClient(create_app(make_settings(sqlite_url, passkey_challenge_ttl_s=2.0))) as c:
        signup(c, "ines")
        key = SoftKey()
        assert add_passkey(c, key).status_code == 201
        guest = Browser(c)
        options = guest.post(f"{P}/sign-in/options").json()
        time.sleep(2.1)
        r = guest.post(f"{P}/sign-in", json={"credential": key.get(options)})
        assert r.status_code == 400 and r.json()["code"] == "passkey_expired"


def test_passkey_sign_in_is_throttled_per_address_as_passwords_are(sqlite_url: str) -> None:
    with TestClient(create_app(make_settings(sqlite_url, login_burst=2,
                                             login_rate_per_min=0.01))) as c:
        assert c.post(f"{P}/sign-in/options").status_code == 200
        assert c.post(f"{P}/sign-in/options").status_code == 200
        r = c.post(f"{P}/sign-in/options")
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        r = c.post("/api/account/login", json={"username": "joao", "password": "x" * 8})
        assert r.status_code == 429


def test_password_guesses_never_hold_back_the_owners_passkey(client: TestClient) -> None:
    """Issue 44, 5: passkey sign-in shared the password's limit, so a stranger's guesses
    kept the owner's passkey out too. Guesses from this very address until it is told
    to wait; the passkey still signs in here."""
    signup(client, "ana")
    key = SoftKey()
    assert add_passkey(client, key).status_code == 201
    guesser = Browser(client)
    codes = [guesser.post("/api/account/login",
                          json={"username": "ana", "password": f"guess-{i:04d}"}).status_code
             for i in range(8)]
    assert codes[-1] == 429, codes
    r = guesser.post("/api/account/login", json={"username": "ana",
                                                 "password": "correct horse battery"})
    assert r.status_code == 429   # the password waits...
    owner = Browser(client)
    r = sign_in(owner, key)       # ...the passkey does not
    assert r.status_code == 200, r.text
    assert me(owner)["username"] == "ana"


def test_a_removed_passkey_and_a_deleted_accounts_passkeys_sign_in_no_more(
        sqlite_url: str) -> None:
    with TestClient(create_app(make_settings(sqlite_url))) as c:
        signup(c, "lia")
        old, new = SoftKey(), SoftKey()
        add_passkey(c, old)
        add_passkey(c, new)
        other = Browser(c)
        signup(other, "mel")
        r = other.post(f"{P}/remove", json={"id": b64(old.id)}, headers=csrf(other))
        assert r.status_code == 404 and r.json()["code"] == "no_passkey"
        assert c.post(f"{P}/remove", json={"id": b64(old.id)}, headers=csrf(c)).status_code == 200
        assert [k["id"] for k in c.get(P).json()["passkeys"]] == [b64(new.id)]
        assert sign_in(Browser(c), old).json()["code"] == "bad_passkey"
        assert sign_in(Browser(c), new).status_code == 200
        r = c.post("/api/account/delete", json={"password": "correct horse battery"},
                   headers=csrf(c))
        assert r.status_code == 200
        assert sign_in(Browser(c), new).json()["code"] == "bad_passkey"
    engine = open_engine(sqlite_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM meio_passkeys")).scalar_one() == 0
    engine.dispose()


def test_the_passkeys_migration_upgrades_a_database_with_accounts_in_place(db_url: str) -> None:
    engine = open_engine(db_url)
    migrate(engine, "0007_reports")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO meio_accounts (id, username, username_key, "
                          "password_hash, created_at) VALUES ('A1', 'Nina', 'nina', "
                          "'$argon2id$x', 1.0)"))
        conn.execute(text("INSERT INTO meio_sessions (token_hash, account_id, created_at) "
                          "VALUES (:h, 'A1', 2.0)"), {"h": "cd" * 32})
    migrate(engine)
    with engine.begin() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")
                            ).scalar_one() == schema_head()
        assert conn.execute(text("SELECT username FROM meio_accounts")).scalar_one() == "Nina"
        assert conn.execute(text("SELECT account_id FROM meio_sessions")).scalar_one() == "A1"
        assert conn.execute(text("SELECT count(*) FROM meio_passkeys")).scalar_one() == 0
    from meio.web.accounts import AccountStore
    from meio.web.passkeys import PasskeyStore

    keys = PasskeyStore(engine)
    assert keys.add("A1", "cred1", b"\x01" * 77, 0, ("internal",))
    assert not keys.add("A1", "cred1", b"\x02", 0, ())
    found = keys.find("cred1")
    assert found is not None and found[0].username == "Nina" and found[1] == b"\x01" * 77
    AccountStore(engine).delete("A1")
    assert keys.find("cred1") is None
    engine.dispose()


def test_a_malformed_passkey_answer_gets_a_clear_refusal(client: TestClient) -> None:
    signup(client, "nara")
    key = SoftKey()
    add_passkey(client, key)
    known = b64(key.id)
    for credential in ({}, {"rawId": 5}, {"rawId": "!!"}, {"rawId": "AAAA"},
                       {"rawId": known, "response": "x"}, {"rawId": known, "response": {}},
                       {"rawId": known, "id": known, "response": {"userHandle": 7}}):
        guest = Browser(client)
        guest.post(f"{P}/sign-in/options")
        r = guest.post(f"{P}/sign-in", json={"credential": credential})
        assert r.status_code == 401 and r.json()["code"] == "bad_passkey", (credential, r.text)
    too_long = SoftKey()
    too_long.id = os.urandom(1024)   # WebAuthn allows 1023 bytes
    for answer in (lambda o: {}, lambda o: {"id": "x", "rawId": "x", "response": "x"},
                   too_long.create):
        options = client.post(f"{P}/register/options", headers=csrf(client))
        assert options.status_code == 200
        credential = answer(options.json())
        r = client.post(f"{P}/register", json={"credential": credential}, headers=csrf(client))
        assert r.status_code == 400 and r.json()["code"] == "bad_passkey", (credential, r.text)
