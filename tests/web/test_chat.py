"""Table chat over the WebSocket: seated players write, spectators only read, text is
kept as plain text, messages are stored with the match, long ones and floods refused."""

from __future__ import annotations

from fastapi.testclient import TestClient

from meio.web import chat
from tests.web.conftest import create, join
from tests.web.helpers import Player, next_id


def say(p: Player, text: str, kind: str = "chat") -> dict[str, object]:
    mid = next_id()
    p.ws.send_json({"type": kind, "id": mid, "text": text})
    return p.until(lambda f: f["type"] in ("ack", "reject") and f.get("id") == mid)


def test_chat_reaches_everyone_as_text_is_stored_and_resent_on_reconnect(
        client: TestClient) -> None:
    table = create(client, players=2, name="Ana", seed=3)
    bo = join(client, table, "Bo")
    tid = table["table_id"]
    html = '<img src=x onerror="alert(1)"> <b>hi</b>'
    with client.websocket_connect(f"/ws/tables/{tid}") as wa, \
            client.websocket_connect(f"/ws/tables/{tid}") as wb, \
            client.websocket_connect(f"/ws/tables/{tid}") as ws:
        a, b = Player(wa, token=table["token"]), Player(wb, token=bo["token"])
        spec = Player(ws, spectate=table["spectate"])
        for p in (a, b, spec):
            p.until(lambda f: f["type"] == "chat_log")
        assert say(a, f"  {html}\n ")["type"] == "ack"
        for p in (a, b, spec):
            got = next((f for f in p.frames if f["type"] == "chat"), None) or p.until(
                lambda f: f["type"] == "chat")
            assert got["text"] == html and got["seat"] == 0 and got["name"] == "Ana"
            assert got["kind"] == "text"
        assert say(b, "gg", "react")["type"] == "ack"
        assert spec.until(lambda f: f["type"] == "chat")["kind"] == "react"
        # spectators read only; reactions come from a fixed set; length is limited
        refused = say(spec, "hello")
        assert refused["type"] == "reject" and refused["code"] == "forbidden"
        assert say(b, "<3", "react")["code"] == "bad_message"
        assert say(a, "x" * (chat.MAX_CHARS + 1))["code"] == "too_long"
        assert say(a, "   ")["code"] == "bad_message"
        assert say(a, "a\x07b")["code"] == "bad_message"
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    match_id = store.table(tid).current_match
    rows = store.chat(match_id)
    assert [(s, k, t) for s, k, t, _ in rows] == [(0, "text", html), (1, "react", "gg")]
    # a page that comes back gets the match's chat in one frame
    with client.websocket_connect(f"/ws/tables/{tid}") as wa:
        a = Player(wa, token=table["token"])
        log = a.until(lambda f: f["type"] == "chat_log")
        assert log["match"] == match_id
        assert [m["text"] for m in log["messages"]] == [html, "gg"]


def test_chat_is_rate_limited_per_seat(client: TestClient) -> None:
    table = create(client, players=2, name="Ana", seed=4)
    bo = join(client, table, "Bo")
    tid = table["table_id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as wa, \
            client.websocket_connect(f"/ws/tables/{tid}") as wb:
        a, b = Player(wa, token=table["token"]), Player(wb, token=bo["token"])
        answers = [say(a, f"message {i}")["type"] for i in range(chat.BURST + 2)]
        assert answers == ["ack"] * chat.BURST + ["reject"] * 2
        # another seat has its own allowance
        assert say(b, "hello")["type"] == "ack"


def test_chat_before_the_match_and_bad_frames_are_refused(client: TestClient) -> None:
    table = create(client, players=2, name="Ana", seed=5)
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as wa:
        a = Player(wa, token=table["token"])
        assert say(a, "anyone?")["code"] == "not_started"
        a.ws.send_json({"type": "chat", "text": "no id"})
        assert a.until(lambda f: f["type"] == "error")["code"] == "bad_message"
        a.ws.send_json({"type": "chat", "id": "c1", "text": 5})
        assert a.until(lambda f: f["type"] == "error")["code"] == "bad_message"
