"""HTTP API: table options, invite and seat tokens, lobby, history and records."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from meio.cli import app as cli_app
from meio.engine import TableOptions
from meio.engine.wire import config_from_json
from meio.web import Settings, create_app
from tests.web.conftest import create, join
from tests.web.helpers import Player, play_out


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"players": 6}, "less than or equal to 5"),
        ({"players": 3, "partnership": True}, "partnership is played by exactly 4"),
        ({"edition": "classic", "players": 5}, "classic edition is for 2 to 4"),
        ({"players": 2, "specials": ["-1", "-1"]}, "distinct"),
        ({"players": 2, "specials": ["ZZ"]}, ""),
        ({"players": 2, "seats": [{"kind": "human"}]}, "2 players need 2 seats"),
        ({"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "genius"}]},
         "unknown bot"),
        ({"players": 2, "turn_timer_s": 0.01}, "turn timer"),
        ({"players": 2, "name": "   "}, "display name"),
        ({"players": 2, "name": "x", "seats": [{"kind": "bot"}, {"kind": "bot"}]}, "no seat"),
    ],
)
def test_bad_table_options_are_refused_clearly(client: TestClient, body: dict[str, Any],
                                               words: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    assert words in r.text


def test_fixed_seeds_need_the_servers_consent(sqlite_url: str) -> None:
    with TestClient(create_app(Settings(database_url=sqlite_url))) as c:
        r = c.post("/api/tables", json={"players": 2, "seed": 4})
        assert r.status_code == 422 and "seed" in r.text


def test_seats_invites_and_tokens(client: TestClient) -> None:
    table = create(client, players=3, name="Ana", listed=False)
    tid = table["table_id"]
    assert table["seat"] == 0 and table["token"] and table["invite_url"].endswith(table["invite"])
    r = client.post(f"/api/tables/{tid}/join", json={"invite": "wrong", "name": "Bo"})
    assert r.status_code == 403 and r.json()["code"] == "bad_invite"
    # a refusal a page translates: a code, its parameters, seats counted from 1
    r = client.post(f"/api/tables/{tid}/join", json={"invite": table["invite"], "name": "Bo",
                                                     "seat": 0})
    assert r.status_code == 409 and r.json() == {
        "detail": "seat 1 is not free", "code": "seat_taken", "params": {"seat": 1},
        "message": "Seat 1 is not free any more: pick another."}
    r = client.post(f"/api/tables/{tid}/join", json={"invite": table["invite"], "name": "Bo",
                                                     "seat": 7})
    assert r.status_code == 422 and r.json()["code"] == "no_seat"
    assert r.json()["params"] == {"seat": 8}
    # the invite also opens the spectator link; the spectator code opens only itself
    seen = client.get(f"/api/tables/{tid}", params={"key": table["invite"]}).json()
    assert seen["key"] == "invite" and seen["spectate"] == table["spectate"]
    seen = client.get(f"/api/tables/{tid}", params={"key": table["spectate"]}).json()
    assert seen["key"] == "spectate" and "spectate" not in seen
    r = client.get(f"/api/tables/{tid}", params={"key": "guess"})
    assert r.status_code == 403 and r.json()["code"] == "bad_invite"
    assert client.get(f"/api/tables/{tid}").json()["code"] == "private"
    assert client.get("/api/tables/nosuch").json()["code"] == "no_table"
    bo = join(client, table, "Bo")
    cy = join(client, table, "Cy")
    assert {bo["seat"], cy["seat"]} == {1, 2} and bo["token"] != cy["token"]
    r = client.post(f"/api/tables/{tid}/join", json={"invite": table["invite"], "name": "Di"})
    assert r.status_code == 409 and "taken" in r.text and r.json()["code"] == "full"
    # a private table shows itself only to holders of a code, and never shows tokens
    assert client.get(f"/api/tables/{tid}").status_code == 403
    pub = client.get(f"/api/tables/{tid}", params={"key": table["spectate"]}).json()
    text = str(pub)
    assert table["token"] not in text and bo["token"] not in text and "hash" not in text
    assert [s["name"] for s in pub["seats"]] == ["Ana", "Bo", "Cy"] and pub["match"]
    # the server keeps only hashes of seat tokens
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    stored = store.table(tid)
    assert all(s.token_hash not in (table["token"], bo["token"]) for s in stored.seats)
    assert store.seat_of_token(tid, bo["token"]) == bo["seat"]
    # the lobby lists only listed tables with a free seat; "mine" finds own tables
    open_table = create(client, players=2, name="Eve")
    lobby = client.get("/api/lobby").json()["tables"]
    assert [t["id"] for t in lobby] == [open_table["table_id"]]
    mine = client.post("/api/mine", json={"tokens": [bo["token"], "junk"]}).json()["tables"]
    assert [(t["id"], t["seat"], t["status"]) for t in mine] == [(tid, bo["seat"], "playing")]


def test_history_record_and_replay_of_a_finished_match(client: TestClient,
                                                       tmp_path: Path) -> None:
    table = create(client, players=2, name="Ana", seed=21,
                   seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    tid = table["table_id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as wa:
        a = Player(wa, token=table["token"])
        a.until(lambda f: f["type"] == "snapshot")
        early = client.get(f"/api/matches/{a.match}/record")
        # a code for the page to explain in its own language, beside the English detail
        assert early.status_code == 409 and early.json()["code"] == "not_finished"
        play_out([a])
    unknown = client.get("/api/matches/nothing-here/record")
    assert unknown.status_code == 404 and unknown.json()["code"] == "no_match"
    # a stranger's history is their own matches (none); everyone's lists this listed one
    assert client.post("/api/history", json={"tokens": []}).json()["matches"] == []
    hist = client.post("/api/history", json={"tokens": [], "everyone": True}).json()["matches"]
    assert [m["id"] for m in hist] == [a.match] and hist[0]["mine"] is False
    own = client.post("/api/history", json={"tokens": [table["token"]]}).json()["matches"]
    assert [m["id"] for m in own] == [a.match] and own[0]["mine"] is True
    assert hist[0]["names"] == ["Ana", "Bot 2 (beginner)"] and hist[0]["result"]["winners"]
    rec = client.get(f"/api/matches/{a.match}/record")
    assert rec.status_code == 200 and "attachment" in rec.headers["content-disposition"]
    assert rec.json()["format"] == "meio-record/1"
    # who played and when ride along in "meta", which replay ignores
    meta = rec.json()["meta"]
    assert meta["names"] == ["Ana", "Bot 2 (beginner)"] and meta["table"] == tid
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", meta["date"]) and meta["match"] == 1
    path = tmp_path / "download.json"
    path.write_text(rec.text)
    out = CliRunner().invoke(cli_app, ["replay", "--json", str(path)])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["winners"] == a.seen["winners"]
    rep = client.get(f"/api/matches/{a.match}/replay").json()
    assert rep["result"]["finished"] and rep["result"]["winners"] == a.seen["winners"]
    assert client.get("/api/matches/nope/record").status_code == 404


def test_pages_and_static_client_are_served(client: TestClient) -> None:
    for path in ("/", "/t/abc", "/history", "/static/js/table.js", "/static/css/style.css"):
        r = client.get(path)
        assert r.status_code == 200, path
    assert 'type="module"' in client.get("/").text


def test_table_options_are_kept_shown_and_played(client: TestClient) -> None:
    table = create(client, players=4, name="Ana", seed=9, wild_lead="next",
                   reveal_specials=False, specials=["-1", "A+", "+.5", "Q+"],
                   seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3)
    public = table["table"]
    assert public["wild_lead"] == "next" and public["reveal_specials"] is False
    # the chosen specials of a table that hides them are not told to anyone
    assert public["specials"] is None
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    match = store.match(store.table(table["table_id"]).current_match)
    config = config_from_json(match.config)
    assert config.options == TableOptions("next", reveal_specials=False)
    bad = client.post("/api/tables", json={"players": 4, "wild_lead": "sometimes"})
    assert bad.status_code == 422 and "wild_lead" in bad.text


def test_the_bot_levels_are_four_with_their_strength(client: TestClient) -> None:
    body = client.get("/api/bots").json()
    assert [(lv["kind"], lv["name"]) for lv in body["levels"]] == [
        ("random", "beginner"), ("heuristic", "easy"), ("search", "strong"),
        ("expert", "expert")]
    assert all(lv["strength"] for lv in body["levels"])
    assert {lv["kind"] for lv in body["levels"]} <= set(body["bots"])
    # a seat is named by its level, also for a kind that plays exactly as one
    table = create(client, players=3, name="Ana",
                   seats=[{"kind": "human"}, {"kind": "bot", "bot": "search:4"},
                          {"kind": "bot", "bot": "search:1"}])
    names = [s["name"] for s in table["table"]["seats"]]
    assert names == ["Ana", "Bot 2 (expert)", "Bot 3 (search:1)"]


def test_hidden_specials_stay_hidden_in_history_while_a_later_match_is_in_play(
        client: TestClient) -> None:
    """Issue 44: while match 2 of a table that hides its chosen specials was in play,
    the history listed match 1's, which are the same cards; its record showed them."""
    from tests.web.helpers import Player, play_out

    table = create(client, players=4, name="Ana", seed=9, reveal_specials=False,
                   specials=["-1", "A+", "+.5", "Q+"],
                   seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3)
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        ana = Player(ws, token=table["token"])
        play_out([ana])
        first = ana.match
        ws.send_json({"type": "rematch", "id": "again"})
        ana.until(lambda f: f["type"] == "snapshot" and f["match"] != first)
    listed = client.post("/api/history", json={"tokens": [], "everyone": True}).json()
    mine = [m for m in listed["matches"] if m["id"] == first]
    assert mine and mine[0]["specials"] is None
    for path in ("record", "replay"):
        r = client.get(f"/api/matches/{first}/{path}")
        assert r.status_code == 409 and r.json()["code"] == "not_finished", r.text
