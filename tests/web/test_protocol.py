"""The WebSocket protocol: tokens, spectators, stale/duplicate/illegal actions,
malformed messages, reconnection, timers, bots off the event loop, and no leaks."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from meio.engine import MatchConfig
from meio.engine.wire import config_from_json
from meio.web import create_app
from tests.web.conftest import create, join, make_settings, wait_until
from tests.web.helpers import Player, assert_no_leak, choose, play_out


def two_humans(c: TestClient, **opts: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    table = create(c, players=2, name="Ana", seed=11, **opts)
    bo = join(c, table, "Bo")
    return table, table, bo


def stored(c: TestClient, match_id: str | None) -> tuple[MatchConfig, list[tuple[int, str]]]:
    assert match_id is not None, "no match was seen"
    store = c.app.state.hub.store  # type: ignore[attr-defined]
    m = store.match(match_id)
    return config_from_json(m.config), [(e.seat, e.action) for e in store.events(match_id)]


def test_full_match_two_humans_and_a_spectator_never_leaks(client: TestClient) -> None:
    table, ana, bo = two_humans(client)
    tid = table["table_id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as wa, \
            client.websocket_connect(f"/ws/tables/{tid}") as wb, \
            client.websocket_connect(f"/ws/tables/{tid}") as ws:
        a, b = Player(wa, token=ana["token"]), Player(wb, token=bo["token"])
        spec = Player(ws, spectate=table["spectate"])
        assert a.welcome["seat"] == 0 and b.welcome["seat"] == 1 and spec.welcome["seat"] is None
        a.until(lambda f: f["type"] == "snapshot")
        b.until(lambda f: f["type"] == "snapshot")
        assert len(a.seen["hand"]) == 13 and spec.welcome["type"] == "welcome"
        play_out([a, b])
        n = a.seq
        spec.until(lambda f: f.get("seq") == n)
        assert a.seen["is_over"] and b.seen["is_over"] and spec.seen["is_over"]
        assert spec.seen["hand"] == [] and spec.seen["pack"] == []
        config, actions = stored(client, a.match)
        assert len(actions) == n
        assert assert_no_leak(config, actions, 0, a.frames) > n
        assert assert_no_leak(config, actions, 1, b.frames) > n
        assert assert_no_leak(config, actions, None, spec.frames) > n
        # the other seat's split is never shown, the own one is
        packs_seen_by_a = [f["action"] for f in a.frames if f["type"] == "event"
                           and f["actor"] == 1 and f["action"].startswith("pack")]
        assert packs_seen_by_a and set(packs_seen_by_a) == {"pack"}
        own = [f["action"] for f in a.frames if f["type"] == "event" and f["actor"] == 0
               and f["action"].startswith("pack")]
        assert all(p.startswith("pack:") for p in own)
        # no frame carries the secret seed
        assert all("seed" not in str(f.get("view", {}).get("config", {})) for f in a.frames
                   if isinstance(f.get("view"), dict))
        # the record is published now, and replays to the same result
        rec = client.get(f"/api/matches/{a.match}/record")
        assert rec.status_code == 200
        from meio.engine.record import Record

        st = Record.from_json(rec.json()).to_state()
        assert st.is_over and st.winners == a.seen["winners"]
        # rematch: a new match at the same table with the same seats, once both ask
        finished = a.match
        a.ws.send_json({"type": "rematch", "id": "r1"})
        ans = a.until(lambda f: f.get("id") == "r1")
        assert ans["type"] == "ack" and ans["match"] == finished and ans["waiting"] == [1]
        asked = b.until(lambda f: f["type"] == "rematch")
        assert asked["asked"] == [0] and asked["waiting"] == [1]
        a.ws.send_json({"type": "rematch", "id": "r2"})  # asking again changes nothing
        assert a.until(lambda f: f.get("id") == "r2")["waiting"] == [1]
        b.ws.send_json({"type": "rematch", "id": "r3"})
        ans = b.until(lambda f: f.get("id") == "r3")
        assert ans["type"] == "ack" and ans["match"] and ans["match"] != finished
        assert "waiting" not in ans
        snap = a.until(lambda f: f["type"] == "snapshot" and f["match"] == ans["match"])
        assert snap["seq"] == 0 and len(snap["view"]["hand"]) == 13


def test_bad_token_and_bad_spectator_code_are_refused(client: TestClient) -> None:
    table = create(client, players=2, name="Ana")
    tid = table["table_id"]
    for hello in ({"type": "hello", "token": "nope"}, {"type": "hello", "spectate": "nope"},
                  {"type": "hello", "token": table["invite"]}):
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json(hello)
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] in ("bad_token", "bad_code")
            with pytest.raises(WebSocketDisconnect) as exc:
                ws.receive_json()
            assert exc.value.code == 4403
    with client.websocket_connect("/ws/tables/nosuchtable") as ws:
        assert ws.receive_json()["code"] == "not_found"


def test_spectators_cannot_act_or_see_hands(client: TestClient) -> None:
    table, _ana, _bo = two_humans(client)
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        spec = Player(ws, spectate=table["spectate"])
        spec.until(lambda f: f["type"] == "snapshot")
        assert spec.seen["hand"] == [] and spec.seen["legal"] == []
        ans = spec.act("pack:9S,TS,JS,QS,KS,AS")
        assert ans["type"] == "reject" and ans["code"] == "forbidden"
        ws.send_json({"type": "rematch", "id": "x"})
        assert spec.until(lambda f: f.get("id") == "x")["code"] == "forbidden"


def test_stale_duplicate_and_illegal_actions(client: TestClient) -> None:
    table, ana, bo = two_humans(client)
    tid = table["table_id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as wa, \
            client.websocket_connect(f"/ws/tables/{tid}") as wb:
        a, b = Player(wa, token=ana["token"]), Player(wb, token=bo["token"])
        a.until(lambda f: f["type"] == "snapshot")
        b.until(lambda f: f["type"] == "snapshot")
        pack_a, pack_b = choose(a.seen), choose(b.seen)
        assert pack_a and pack_b
        # illegal: a card seat 0 does not hold, with the engine's reason
        other = b.seen["hand"][0]
        ans = a.act(f"pack:{','.join([*a.seen['hand'][:5], other])}")
        assert ans["type"] == "reject" and ans["code"] == "illegal"
        assert "not in seat 0's hand" in ans["reason"] and ans["snapshot"]["seq"] == 0
        # and the same reason as a code and parameters, for the page to translate
        assert ans["reason_code"] == "pack_not_in_hand"
        assert ans["reason_params"] == {"cards": [other], "seat": 0}
        ans = a.act("pile=3")
        assert ans["code"] == "illegal" and "pile" in ans["reason"]
        assert "reason_code" not in ans  # not a rule of play: a text that is no action
        # accepted, then the same message again: the original answer, stored once
        ok = a.act(pack_a, msg_id="dup-1")
        assert ok == {"type": "ack", "id": "dup-1", "seq": 1}
        again = a.act(pack_a, msg_id="dup-1", seq=0)
        assert again["type"] == "ack" and again["seq"] == 1 and again["duplicate"] is True
        # stale: seat 1 acts against sequence number 0 while the table is at 1
        stale = b.act(pack_b, seq=0)
        assert stale["code"] == "stale" and stale["snapshot"]["seq"] == 1
        assert stale["snapshot"]["view"]["hand"] == b.seen["hand"]
        ok_b = b.act(pack_b)
        assert ok_b["type"] == "ack" and ok_b["seq"] == 2
        # out of turn, with the engine's words
        b.until(lambda f: f["type"] == "event" and f["seq"] == 2) if b.seq < 2 else None
        a.until(lambda f: f["type"] == "event" and f["seq"] == 2) if a.seq < 2 else None
        mover = a if a.seen["to_move"] == 0 else b
        idle = b if mover is a else a
        ans = idle.act(idle.seen["hand"][0])
        assert ans["code"] == "illegal" and "turn" in ans["reason"]
        assert ans["reason_code"] == "not_your_turn"
        seat = 1 if idle is b else 0
        assert ans["reason_params"] == {"mover": 1 - seat, "seat": seat}
        events = client.app.state.hub.store.events(a.match)  # type: ignore[attr-defined]
        assert [e.seq for e in events] == [1, 2]


def test_malformed_and_oversized_messages(client: TestClient) -> None:
    table = create(client, players=2, name="Ana")
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        p = Player(ws, token=table["token"])
        p.until(lambda f: f["type"] == "snapshot")
        cases = [
            ("not json", "JSON object"),
            ("[1, 2]", "JSON object"),
            ('{"type": "dance"}', "unknown message type"),
            ('{"type": "act", "seq": 0, "action": "QS"}', "'id'"),
            ('{"type": "act", "id": "a", "action": "QS"}', "'seq'"),
            ('{"type": "act", "id": "a", "seq": "0", "action": "QS"}', "'seq'"),
            ('{"type": "act", "id": "a", "seq": 0}', "'action'"),
            ('{"type": "hello", "token": "x"}', "already said hello"),
        ]
        for raw, words in cases:
            ws.send_text(raw)
            err = p.until(lambda f: f["type"] == "error")
            assert err["code"] == "bad_message" and words in err["reason"], (raw, err)
        ws.send_bytes(b"\x00\x01")
        assert "text frames" in p.until(lambda f: f["type"] == "error")["reason"]
        ws.send_text("{" + " " * 10_000 + "}")
        err = p.until(lambda f: f["type"] == "error")
        assert err["code"] == "too_large"
        with pytest.raises(WebSocketDisconnect) as exc:
            p.recv()
        assert exc.value.code == 1009
    # a first message that is not hello
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        ws.send_json({"type": "ping"})
        assert "hello" in ws.receive_json()["reason"]


def test_reconnection_resumes_from_the_last_sequence_number(client: TestClient) -> None:
    table, ana, bo = two_humans(client)
    tid = table["table_id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as wb:
        b = Player(wb, token=bo["token"])
        b.until(lambda f: f["type"] == "snapshot")
        with client.websocket_connect(f"/ws/tables/{tid}") as wa:
            a = Player(wa, token=ana["token"])
            a.until(lambda f: f["type"] == "snapshot")
            a.act(choose(a.view))  # type: ignore[arg-type]
            assert a.seq == 1  # the event comes before the answer
            seen_match, seen_seq, seen_view = a.match, a.seq, a.view
        # seat 0's tab is closed; the game goes on
        b.until(lambda f: f["type"] == "event" and f["seq"] == 1)
        b.act(choose(b.view))  # type: ignore[arg-type]
        moved = 0
        while moved < 3:
            if b.my_turn():
                b.act(choose(b.view))  # type: ignore[arg-type]
                moved += 1
            else:
                break
        # seat 0 comes back, resuming from the number it saw
        with client.websocket_connect(f"/ws/tables/{tid}") as wa:
            a2 = Player(wa, token=ana["token"], since={"match": seen_match, "seq": seen_seq})
            assert b.seq > seen_seq
            missed = [a2.recv() for _ in range(b.seq - seen_seq)]
            assert [f["type"] for f in missed] == ["event"] * (b.seq - seen_seq)
            assert [f["seq"] for f in missed] == list(range(seen_seq + 1, b.seq + 1))
            assert a2.seen["hand"] != [] and a2.seen["seat"] == 0
            assert seen_view is not None
            # nothing doubled: the next frame is the table update, not a snapshot
            nxt = a2.until(lambda f: f["type"] in ("table", "snapshot", "event"))
            assert nxt["type"] == "table"
        # a reconnection naming an unknown match gets a snapshot
        with client.websocket_connect(f"/ws/tables/{tid}") as wa:
            a3 = Player(wa, token=ana["token"], since={"match": "old", "seq": 3})
            assert a3.until(lambda f: f["type"] in ("snapshot", "event"))["type"] == "snapshot"


def test_turn_timer_moves_for_a_late_seat_and_survives_a_restart(sqlite_url: str) -> None:
    settings = make_settings(sqlite_url)
    with TestClient(create_app(settings)) as c:
        table = create(c, players=2, name="Ana", seed=5, turn_timer_s=0.6,
                       seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        with c.websocket_connect(f"/ws/tables/{table['table_id']}") as wa:
            a = Player(wa, token=table["token"])
            ev = a.until(lambda f: f["type"] == "event" and f["actor"] == 0)
            assert ev["source"] == "timeout" and ev["action"].startswith("pack:")
            match = a.match
    # Ana is away; the server stops and starts again: the clock carries on
    store_events = None
    with TestClient(create_app(settings)) as c:
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        before = len(store.events(match))
        wait_until(lambda: any(e.source == "timeout" for e in store.events(match)[before:]),
                   timeout=10)
        store_events = store.events(match)
    assert sum(e.source == "timeout" for e in store_events) >= 2


def test_bots_think_off_the_event_loop(sqlite_url: str) -> None:
    from meio.bots import register, unregister
    from meio.bots.random_bot import RandomBot

    thinking, answered = threading.Event(), threading.Event()

    class SlowBot(RandomBot):
        name = "slow-test"

        def choose(self, view: Any, legal: Any) -> int:
            # blocking thought until the server has answered a ping meanwhile: a bot
            # thinking on the event loop would never let that pong out
            thinking.set()
            answered.wait(10)
            return super().choose(view, legal)

    register("slow-test", SlowBot)
    try:
        with TestClient(create_app(make_settings(sqlite_url))) as c:
            table = create(c, players=2, name="Ana",
                           seats=[{"kind": "bot", "bot": "slow-test"}, {"kind": "human"}])
            with c.websocket_connect(f"/ws/tables/{table['table_id']}") as wa:
                a = Player(wa, token=table["token"])
                a.until(lambda f: f["type"] == "snapshot")
                assert thinking.wait(10), "the bot never started thinking"
                wa.send_json({"type": "ping"})
                a.until(lambda f: f["type"] in ("pong", "event"))
                assert a.frames[-1]["type"] == "pong"  # before the bot's move
                answered.set()
                ev = a.until(lambda f: f["type"] == "event" and f["actor"] == 0)
                assert ev["source"] == "bot"
    finally:
        answered.set()
        unregister("slow-test")


def test_split_advice_is_built_from_the_view(client: TestClient) -> None:
    table, ana, _bo = two_humans(client)
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as wa:
        a = Player(wa, token=ana["token"])
        a.until(lambda f: f["type"] == "snapshot")
        wa.send_json({"type": "advise", "id": "h1"})
        adv = a.until(lambda f: f.get("id") == "h1")
        assert adv["type"] == "advice" and "error" not in adv, adv
        assert len(adv["best"]["pack"]) == 6 and set(adv["best"]["pack"]) <= set(a.seen["hand"])
        assert adv["best"] == adv["candidates"][0]  # the advisor's one form (Advice.to_dict)
        assert adv["candidates"] and all(set(c["pack"]) <= set(a.seen["hand"])
                                         for c in adv["candidates"])
        assert adv["explanation"].startswith("Best pack found")
