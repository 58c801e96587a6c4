"""A signed-in player's seats on every device, friends followed by name, invitations
by name, the notifications that gather them, and the Watch page's live matches."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import create
from tests.web.helpers import Browser, Player
from tests.web.test_accounts import PASSWORD


def browser(client: TestClient) -> Browser:
    return Browser(client)


def sign_up(b: Browser, username: str) -> Browser:
    r = b.post("/api/account/signup", json={"username": username, "password": PASSWORD,
                                           "tokens": []})
    assert r.status_code == 201, r.text
    return b


def sign_in(b: Browser, username: str) -> Browser:
    r = b.post("/api/account/login", json={"username": username, "password": PASSWORD,
                                          "tokens": []})
    assert r.status_code == 200, r.text
    return b


def send(b: Browser, method: str, path: str, **kw: Any) -> Any:
    """A state-changing request as a page sends it (with the CSRF token)."""
    return b.request(method, path, headers={"X-CSRF-Token": b.cookies.get("meio_csrf") or ""},
                     **kw)


def two_seat_table(b: Browser, name: str = "Ana", **options: Any) -> dict[str, Any]:
    r = send(b, "POST", "/api/tables", json={
        "players": 2, "name": name, "listed": False, "seed": 3,
        "seats": [{"kind": "human"}, {"kind": "human"}], **options})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def test_a_second_browser_of_the_account_gets_its_own_key_and_both_hold_the_seat(
        client: TestClient) -> None:
    phone = sign_up(browser(client), "ana")
    table = two_seat_table(phone)
    desk = sign_in(browser(client), "ana")
    # the desktop never saw the token, and the table is private
    assert desk.get(f"/api/tables/{table['table_id']}").json()["code"] == "private"
    r = send(desk, "POST", f"/api/tables/{table['table_id']}/device")
    assert r.status_code == 200, r.text
    key = r.json()
    assert key["seat"] == 0 and key["name"] == "Ana" and key["token"] != table["token"]
    assert key["invite"] == table["invite"] and key["spectate"] == table["spectate"]
    for token in (table["token"], key["token"]):
        with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
            assert Player(ws, token=token).welcome["seat"] == 0
    # the key alone finds the table (the desktop signed out keeps it, as a guest would)
    mine = browser(client).post("/api/mine", json={"tokens": [key["token"]]}).json()["tables"]
    assert [(t["id"], t["seat"]) for t in mine] == [(table["table_id"], 0)]


def test_no_one_else_gets_a_key_to_an_accounts_seat(client: TestClient) -> None:
    ana = sign_up(browser(client), "ana")
    table = two_seat_table(ana)
    path = f"/api/tables/{table['table_id']}/device"
    guest = browser(client)
    assert send(guest, "POST", path).json()["code"] == "not_signed_in"
    bia = sign_up(browser(client), "bia")
    r = send(bia, "POST", path)
    assert r.status_code == 404 and r.json()["code"] == "no_seat_here"
    assert send(bia, "POST", "/api/tables/nosuchtable/device").json()["code"] == "no_table"
    # without the page's CSRF token the cookie authorises nothing
    assert ana.post(path).json()["code"] == "csrf"


def test_a_key_stops_working_when_the_seat_is_no_longer_the_accounts(
        client: TestClient) -> None:
    ana = sign_up(browser(client), "ana")
    table = two_seat_table(ana)
    key = send(ana, "POST", f"/api/tables/{table['table_id']}/device").json()["token"]
    r = send(ana, "POST", "/api/account/delete", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        ws.send_json({"type": "hello", "token": key})
        assert ws.receive_json()["code"] == "bad_token"
    # the seat's own token still plays, anonymously (as before accounts)
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        assert Player(ws, token=table["token"]).welcome["seat"] == 0


def test_following_by_name_says_what_is_wrong_with_a_name_and_shows_who_is_online(
        client: TestClient) -> None:
    ana = sign_up(browser(client), "ana")
    bia = sign_up(browser(client), "Bia")
    r = send(ana, "POST", "/api/friends", json={"username": "jo ana!"})
    assert r.status_code == 422 and r.json()["code"] == "bad_username"
    assert "'jo ana!'" in r.json()["detail"] and "letters, digits" in r.json()["detail"]
    r = send(ana, "POST", "/api/friends", json={"username": "nobody"})
    assert r.status_code == 404 and r.json()["code"] == "no_player"
    assert send(ana, "POST", "/api/friends", json={"username": "ANA"}).json()["code"] \
        == "follow_self"
    r = send(ana, "POST", "/api/friends", json={"username": "bia"})
    assert r.status_code == 201 and r.json() == {"username": "Bia", "new": True}
    assert send(ana, "POST", "/api/friends", json={"username": "bia"}).json()["new"] is False
    # Bia has opened no page yet: not online
    assert ana.get("/api/friends").json()["friends"] == [
        {"username": "Bia", "online": False, "mutual": False}]
    assert bia.get("/api/notifications").json()["signed_in"] is True
    send(bia, "POST", "/api/friends", json={"username": "ana"})
    assert ana.get("/api/friends").json()["friends"] == [
        {"username": "Bia", "online": True, "mutual": True}]
    assert send(ana, "DELETE", "/api/friends/bia").json() == {"unfollowed": True}
    assert ana.get("/api/friends").json()["friends"] == []
    assert send(ana, "DELETE", "/api/friends/bia").json()["code"] == "not_following"
    assert browser(client).get("/api/friends").json()["code"] == "not_signed_in"


def test_an_invitation_by_name_waits_on_every_device_until_the_seat_is_taken(
        client: TestClient) -> None:
    ana = sign_up(browser(client), "ana")
    sign_up(browser(client), "bia")
    table = two_seat_table(ana)
    path = f"/api/tables/{table['table_id']}/invitations"
    r = send(ana, "POST", path, json={"username": "bia"})
    assert r.status_code == 201 and r.json()["new"] is True
    assert send(ana, "POST", path, json={"username": "ana"}).json()["code"] == "already_there"
    assert send(ana, "POST", path, json={"username": "x y"}).json()["code"] == "bad_username"
    # someone without a seat there cannot invite to it
    cai = sign_up(browser(client), "cai")
    assert send(cai, "POST", path, json={"username": "bia"}).json()["code"] == "not_seated"
    # Bia signs in on another device: the invitation is there, with the link to sit down
    bia2 = sign_in(browser(client), "bia")
    note = bia2.get("/api/notifications").json()
    assert note["count"] == 1 and note["your_turn"] == []
    inv = note["invitations"][0]
    assert inv["from"] == "ana" and inv["table"]["id"] == table["table_id"]
    assert inv["invite_url"] == f"/t/{table['table_id']}?invite={table['invite']}"
    r = send(bia2, "POST", f"/api/tables/{table['table_id']}/join",
             json={"invite": table["invite"], "name": "Bia"})
    assert r.status_code == 200, r.text
    assert bia2.get("/api/notifications").json()["invitations"] == []
    # a full table takes no more invitations
    assert send(ana, "POST", path, json={"username": "cai"}).json()["code"] == "full"


def test_an_invitation_can_be_declined_only_by_its_player(client: TestClient) -> None:
    ana = sign_up(browser(client), "ana")
    bia = sign_up(browser(client), "bia")
    table = two_seat_table(ana)
    send(ana, "POST", f"/api/tables/{table['table_id']}/invitations", json={"username": "bia"})
    inv = bia.get("/api/notifications").json()["invitations"][0]["id"]
    assert send(ana, "DELETE", f"/api/invitations/{inv}").json()["code"] == "no_invitation"
    assert send(bia, "DELETE", f"/api/invitations/{inv}").json() == {"dismissed": True}
    assert bia.get("/api/notifications").json()["count"] == 0


def test_notifications_list_the_accounts_turns_on_any_device(client: TestClient) -> None:
    ana = sign_up(browser(client), "ana")
    r = send(ana, "POST", "/api/tables", json={
        "players": 2, "name": "Ana", "listed": False, "seed": 3, "turn_based": True,
        "turn_timer_s": 3600, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    assert r.status_code == 201, r.text
    table = r.json()
    other = sign_in(browser(client), "ana")
    turns = other.get("/api/notifications").json()["your_turn"]
    # the split: every seat acts at once, so it is Ana's turn at once
    assert [(t["id"], t["seat"]) for t in turns] == [(table["table_id"], 0)]
    assert turns[0]["deadline"] is not None and turns[0]["turn_based"] is True
    assert browser(client).get("/api/notifications").json() == {
        "signed_in": False, "invitations": [], "your_turn": [], "count": 0}


def test_the_live_list_offers_listed_matches_in_play_with_their_spectator_link_only(
        client: TestClient) -> None:
    public = create(client, players=2, seed=1, listed=True,
                    seats=[{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])
    create(client, players=2, seed=2, listed=False,
           seats=[{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])
    waiting = create(client, players=2, listed=True, seats=[{"kind": "human"}, {"kind": "human"}])
    live = client.get("/api/live").json()["tables"]
    assert [t["id"] for t in live] == [public["table_id"]]
    assert live[0]["spectate_url"] == f"/t/{public['table_id']}?watch={public['spectate']}"
    text = str(live)
    assert public["invite"] not in text and waiting["table_id"] not in text


def test_an_unknown_page_is_the_sites_own_page_and_the_api_still_answers_json(
        client: TestClient) -> None:
    r = client.get("/nosuchpage")
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "There is no such page" in r.text and "/static/js/notfound.js" in r.text
    assert "detail" not in r.text
    r = client.get("/api/nosuch")
    assert r.status_code == 404 and r.json() == {"detail": "Not Found"}
    for page in ("/friends", "/watch"):
        assert client.get(page).status_code == 200
