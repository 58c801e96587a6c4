"""Presence across server processes: a process that stops being heard from on the bus
is forgotten after three heartbeat periods, and its seats are shown offline."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meio.web import create_app
from meio.web.peers import MISSED_BEATS, Peers, Word
from tests.web.conftest import create, join, make_settings
from tests.web.helpers import Player
from tests.web.test_restart import TABLE

pytestmark = pytest.mark.timeout(60)


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_process_heard_from_stays_and_a_silent_one_goes_after_three_periods() -> None:
    clock = FakeClock()
    peers = Peers(0.5, clock)
    assert MISSED_BEATS == 3
    assert peers.heard("talker") is Word.NEW and peers.heard("mute") is Word.NEW
    lost_at: dict[str, int] = {}
    for tick in range(1, 21):
        clock.now += 0.5
        peers.heard("talker", period=0.5)  # its heartbeat, once a period
        for origin in peers.tick():
            assert origin not in lost_at, "forgotten twice"
            lost_at[origin] = tick
    # the silent one is kept for three periods, then forgotten; the other never is
    assert lost_at == {"mute": 3}
    assert "talker" in peers and "mute" not in peers and len(peers) == 1
    # a word from a forgotten process brings it back as such, in doubt until it echoes
    # the token it is asked with; a stranger is new, and trusted
    assert peers.doubt("talker") is None
    assert peers.heard("mute") is Word.BACK
    token = peers.doubt("mute")
    assert token is not None
    assert peers.heard("mute") is Word.KNOWN and peers.doubt("mute") == token
    assert not peers.confirm("mute", "an older token") and not peers.confirm("mute", None)
    assert peers.confirm("mute", token) and peers.doubt("mute") is None
    assert peers.heard("stranger") is Word.NEW and peers.doubt("stranger") is None
    # one that said goodbye is forgotten at once; back, it is asked with a new token
    assert peers.forget("talker") and "talker" not in peers
    assert peers.heard("talker") is Word.BACK
    assert peers.doubt("talker") not in (None, token)


def test_a_listener_that_was_stalled_does_not_take_the_others_for_dead() -> None:
    clock = FakeClock()
    peers = Peers(0.5, clock)
    peers.heard("other")
    clock.now += 60.0  # this process's loop was blocked for a minute: one late tick
    assert peers.tick() == []
    peers.heard("other")  # what the other sent meanwhile is read before the next tick
    for _ in range(2):
        clock.now += 0.5
        assert peers.tick() == []
    # and it stops being heard: forgotten after three periods and three ticks
    assert [peers.tick() for _ in range(MISSED_BEATS - 2)] == [[]] * (MISSED_BEATS - 2)
    clock.now += 0.5
    assert peers.tick() == ["other"]


def test_a_process_with_a_longer_heartbeat_is_given_its_own_three_periods() -> None:
    clock = FakeClock()
    peers = Peers(0.5, clock)
    peers.heard("slow", period=4.0)
    assert peers.silence_allowed("slow") == 12.0
    lost = []
    for _ in range(30):  # 15 s of 0.5 s ticks
        clock.now += 0.5
        lost.append(peers.tick())
    assert lost.index(["slow"]) == 23  # 12 s after its last word, not before


def _online(frame: dict[str, Any]) -> list[bool]:
    return [s["online"] for s in frame["table"]["seats"]]


def test_a_silent_process_s_seats_are_shown_offline_and_late_words_do_not_revive_them(
    sqlite_url: str,
) -> None:
    """The hub's side, with messages handed to it as the bus would and a fake clock."""
    with TestClient(create_app(make_settings(sqlite_url, lease_ttl_s=1.5))) as c:
        hub: Any = c.app.state.hub  # type: ignore[attr-defined]
        assert c.portal is not None
        clock = FakeClock()
        hub.group.peers.clock = clock
        table = create(c, **TABLE)
        join(c, table, "Bo")
        tid = table["table_id"]

        def heard(msg: dict[str, Any]) -> None:
            assert c.portal is not None
            c.portal.call(hub.group.receive, msg)

        def tick() -> None:
            clock.now += hub.group.peers.period
            assert c.portal is not None
            c.portal.call(hub.group.expire_peers)

        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            ana = Player(ws, token=table["token"])
            assert _online(ana.welcome)[:2] == [True, False]
            # Bo sits at another process, which says so
            heard({"origin": "proc-b", "type": "online", "table": tid, "seats": [1]})
            ana.until(lambda f: f["type"] == "table" and _online(f)[:2] == [True, True])
            rt = hub.tables[tid].table
            # it keeps beating: its seat stays online however long it lasts
            for _ in range(10):
                tick()
                heard({"origin": "proc-b", "type": "beat", "period": hub.group.peers.period})
            assert 1 in rt.online()
            assert _metric(c, "meio_bus_peers") == 1.0
            # then nothing: two periods later still online, after the third offline
            tick()
            tick()
            assert 1 in rt.online()
            tick()
            assert 1 not in rt.online()
            ana.until(lambda f: f["type"] == "table" and _online(f)[:2] == [True, False])
            assert _metric(c, "meio_bus_peers") == 0.0
            # late words of the dead process do not show its seat again
            heard({"origin": "proc-b", "type": "online", "table": tid, "seats": [1]})
            heard({"origin": "proc-b", "type": "online", "table": tid, "seats": [1]})
            assert 1 not in rt.online()
            # nor an echo of a token it was not asked with; once it echoes the right
            # one it is alive after all, and what it says from then on counts
            heard({"origin": "proc-b", "type": "here", "to": hub.group.origin, "token": "0"})
            heard({"origin": "proc-b", "type": "online", "table": tid, "seats": [1]})
            assert 1 not in rt.online()
            token = hub.group.peers.doubt("proc-b")
            assert token is not None
            heard({"origin": "proc-b", "type": "here", "to": hub.group.origin, "token": token})
            heard({"origin": "proc-b", "type": "online", "table": tid, "seats": [1]})
            assert 1 in rt.online()
            ana.until(lambda f: f["type"] == "table" and _online(f)[:2] == [True, True])
            heard({"origin": "proc-b", "type": "bye"})
            ana.until(lambda f: f["type"] == "table" and _online(f)[:2] == [True, False])
            # a process that leaves cleanly has its seats shown offline at once
            heard({"origin": "proc-c", "type": "online", "table": tid, "seats": [1]})
            assert 1 in rt.online()
            heard({"origin": "proc-c", "type": "bye"})
            assert 1 not in rt.online()
            ana.until(lambda f: f["type"] == "table" and _online(f)[:2] == [True, False])


def test_asked_who_a_process_echoes_the_token_then_names_its_seats(sqlite_url: str) -> None:
    with TestClient(create_app(make_settings(sqlite_url))) as c:
        hub: Any = c.app.state.hub  # type: ignore[attr-defined]
        me = hub.group.origin
        sent: list[dict[str, Any]] = []
        hub.group.bus.post = sent.append  # what would go on the bus
        table = create(c, **TABLE)
        tid = table["table_id"]

        def heard(msg: dict[str, Any]) -> list[dict[str, Any]]:
            assert c.portal is not None
            sent.clear()
            c.portal.call(hub.group.receive, msg)
            return list(sent)

        with c.websocket_connect(f"/ws/tables/{tid}") as ws:
            Player(ws, token=table["token"])
            # a process never heard of is asked in turn (no token: it is trusted)
            assert heard({"origin": "proc-b", "type": "beat", "period": 0.5}) == [
                {"type": "who", "to": "proc-b"}]
            # it says which tables it holds (the asker reads those it holds too again)
            # and which of their seats are connected to it
            assert heard({"origin": "proc-b", "type": "who", "to": me, "token": "7"}) == [
                {"type": "here", "to": "proc-b", "token": "7"},
                {"type": "held", "table": tid, "to": "proc-b"},
                {"type": "online", "table": tid, "seats": [0]}]
            assert heard({"origin": "proc-b", "type": "who", "table": tid}) == [
                {"type": "held", "table": tid, "to": "proc-b"},
                {"type": "online", "table": tid, "seats": [0]}]
            # a table not here: the asker is told so (it need not send its news here)
            assert heard({"origin": "proc-b", "type": "who", "table": "elsewhere"}) == [
                {"type": "gone", "table": "elsewhere", "to": "proc-b"}]
            assert heard({"origin": "proc-b", "type": "who", "to": "proc-c", "token": "8"}) == []
            # one that said goodbye and speaks again is asked with a token
            heard({"origin": "proc-b", "type": "bye"})
            asked = heard({"origin": "proc-b", "type": "beat", "period": 0.5})
            token = hub.group.peers.doubt("proc-b")
            assert token is not None
            assert asked == [{"type": "who", "to": "proc-b", "token": token}]


def _metric(c: TestClient, name: str) -> float:
    found = re.search(rf"^{name} ([0-9.]+)$", c.get("/metrics").text, re.M)
    assert found is not None, name
    return float(found.group(1))
