"""A failing bot or timer never stalls its table: the move is tried again, then the
random bot plays it, and the event says so."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meio.bots import register, unregister
from meio.bots.random_bot import RandomBot
from meio.engine import View
from meio.web import create_app
from meio.web.table import CHECKPOINT_EVERY
from tests.web.conftest import create, make_settings
from tests.web.helpers import Player, play_out

pytestmark = pytest.mark.timeout(60)


class FlakyBot(RandomBot):
    """Raises on the first decision this process asks of any FlakyBot, then plays."""

    name = "flaky-test"
    failures = 1

    def choose(self, view: View, legal: Sequence[int]) -> int:
        if FlakyBot.failures > 0:
            FlakyBot.failures -= 1
            raise RuntimeError("a bot bug")
        return super().choose(view, legal)


class BrokenBot(RandomBot):
    """Always raises."""

    name = "broken-test"

    def choose(self, view: View, legal: Sequence[int]) -> int:
        raise RuntimeError("this bot is broken")


class CheatingBot(RandomBot):
    """Always answers an action that is not legal."""

    name = "cheat-test"

    def choose(self, view: View, legal: Sequence[int]) -> int:
        return 9999


@pytest.fixture
def test_bots() -> Iterator[None]:
    kinds = {"flaky-test": FlakyBot, "broken-test": BrokenBot, "cheat-test": CheatingBot}
    for kind, bot in kinds.items():
        register(kind, bot)
    FlakyBot.failures = 1
    yield
    for kind in kinds:
        unregister(kind)


def bot_events(frames: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == "event" and f["actor"] == seat]


def test_a_bot_that_raises_once_is_asked_again_and_the_table_carries_on(
    sqlite_url: str, test_bots: None, caplog: pytest.LogCaptureFixture
) -> None:
    with TestClient(create_app(make_settings(sqlite_url))) as c:
        table = create(c, players=2, name="Ana", seed=3,
                       seats=[{"kind": "human"}, {"kind": "bot", "bot": "flaky-test"}])
        with c.websocket_connect(f"/ws/tables/{table['table_id']}") as wa:
            a = Player(wa, token=table["token"])
            play_out([a])
            moves = bot_events(a.frames, 1)
            assert moves and {f["source"] for f in moves} == {"bot"}
    assert FlakyBot.failures == 0
    assert any("flaky-test bot failed for seat 1" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("kind", ["broken-test", "cheat-test"])
def test_a_bot_that_keeps_failing_is_replaced_by_the_random_bot(
    sqlite_url: str, test_bots: None, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    with TestClient(create_app(make_settings(sqlite_url))) as c:
        table = create(c, players=2, name="Ana", seed=3,
                       seats=[{"kind": "human"}, {"kind": "bot", "bot": kind}])
        with c.websocket_connect(f"/ws/tables/{table['table_id']}") as wa:
            a = Player(wa, token=table["token"])
            play_out([a])
            moves = bot_events(a.frames, 1)
            assert moves and {f["source"] for f in moves} == {"fallback"}
            assert a.seen["is_over"]
    assert any(r.levelno >= logging.ERROR and f"{kind} bot" in r.getMessage()
               for r in caplog.records)


def test_a_turn_timer_whose_bot_fails_still_moves_for_the_late_seat(
    sqlite_url: str, test_bots: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from meio.web import autoplay

    monkeypatch.setattr(autoplay, "TIMEOUT_BOT", "broken-test")
    with TestClient(create_app(make_settings(sqlite_url))) as c:
        table = create(c, players=2, name="Ana", seed=5, turn_timer_s=0.2,
                       seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        with c.websocket_connect(f"/ws/tables/{table['table_id']}") as wa:
            a = Player(wa, token=table["token"])
            ev = a.until(lambda f: f["type"] == "event" and f["actor"] == 0)
            assert ev["source"] == "fallback" and ev["action"].startswith("pack:")


def test_the_last_action_and_the_result_are_stored_together(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No write may come between the last card and the finished match: a server that
    dies right after storing the last action must leave a finished match behind."""
    from meio.web.store import NewEvent, Store

    stored_alone: list[int] = []
    real = Store.append_events
    batches: list[int] = []

    def append_and_die_at_the_end(self: Store, events: list[NewEvent]) -> None:
        real(self, events)
        batches.append(len(events))
        from meio.engine import actions as A
        from meio.engine import replay_actions
        from meio.engine.wire import config_from_json

        for new in events:
            match = self.match(new.match_id)
            stored = [e for e in self.events(new.match_id) if e.seq <= new.event.seq]
            st = replay_actions(config_from_json(match.config),  # type: ignore[union-attr]
                        [(e.seat, A.parse_action(e.action)) for e in stored])
            if st.is_over and match is not None and match.finished_at is None:
                stored_alone.append(new.event.seq)

    monkeypatch.setattr(Store, "append_events", append_and_die_at_the_end)
    with TestClient(create_app(make_settings(sqlite_url))) as c:
        table = create(c, players=2, name="Ana", seed=8,
                       seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        with c.websocket_connect(f"/ws/tables/{table['table_id']}") as wa:
            a = Player(wa, token=table["token"])
            play_out([a])
        m = c.app.state.hub.store.match(a.match)  # type: ignore[attr-defined]
        assert m.finished_at is not None and m.result["winners"] == a.seen["winners"]
    assert batches, "the actions were stored some other way: this test saw none of them"
    assert stored_alone == []


def test_advice_does_not_hold_up_the_seats_moves(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    from meio.web import think

    release = threading.Event()
    real = think.advise_view

    def slow_advice(*args: Any, **kw: Any) -> Any:
        release.wait(10)  # thinks until the test has seen the move go through
        return real(*args, **{**kw, "budget_s": 0.05})

    monkeypatch.setattr(think, "advise_view", slow_advice)
    table = create(client, players=2, name="Ana", seed=2,
                   seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as wa:
        a = Player(wa, token=table["token"])
        a.until(lambda f: f["type"] == "snapshot")
        wa.send_json({"type": "advise", "id": "hint"})
        wa.send_json({"type": "advise", "id": "hint2"})
        busy = a.until(lambda f: f.get("id") == "hint2")
        assert busy["type"] == "reject" and busy["code"] == "busy"
        pack = "pack:" + ",".join(a.seen["hand"][:6])
        wa.send_json({"type": "act", "id": "split", "seq": a.seq, "action": pack})
        first = a.until(lambda f: f.get("id") in ("split", "hint"))
        release.set()
        # the move is answered while the advice is still being worked out (a bot's
        # simultaneous split may have made it stale: that answer counts as well)
        assert first["id"] == "split"
        assert first["type"] == "ack" or first["code"] == "stale"
        advice = a.until(lambda f: f.get("id") == "hint")
        assert advice["type"] == "advice" and len(advice["best"]["pack"]) == 6


def test_a_reconnection_costs_only_the_events_it_missed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from meio.engine import State

    table = create(client, players=2, name="Ana", seed=6,
                   seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    tid = table["table_id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as wa:
        a = Player(wa, token=table["token"])
        play_out([a])
        match, seq = a.match, a.seq
    applied: list[int] = []
    real = State.apply

    def counting(self: State, action: int, seat: int | None = None) -> Any:
        applied.append(action)
        return real(self, action, seat)

    monkeypatch.setattr(State, "apply", counting)
    with client.websocket_connect(f"/ws/tables/{tid}") as wa:
        a2 = Player(wa, token=table["token"], since={"match": match, "seq": seq - 2})
        missed = [a2.recv(), a2.recv()]
        assert [f["seq"] for f in missed] == [seq - 1, seq] and a2.seen["is_over"]
        assert missed[-1]["view"] == a.seen
    # only the actions since the latest checkpoint were applied again
    checkpoint = seq // CHECKPOINT_EVERY * CHECKPOINT_EVERY
    assert len(applied) == (seq - checkpoint if seq - 2 >= checkpoint else seq)
    applied.clear()
    # a gap beyond the checkpoint: the whole match is replayed, with the same frames
    assert seq > CHECKPOINT_EVERY + 1
    since = checkpoint - 1
    with client.websocket_connect(f"/ws/tables/{tid}") as wa:
        a3 = Player(wa, token=table["token"], since={"match": match, "seq": since})
        frames = [a3.recv() for _ in range(seq - since)]
        assert [f["seq"] for f in frames] == list(range(since + 1, seq + 1))
        assert [f["view"] for f in frames[-2:]] == [f["view"] for f in missed]
        assert frames[-1]["view"] == a.seen
    assert len(applied) == seq
    applied.clear()
    # further behind than max_resume_events: one snapshot, nothing replayed
    assert seq - 1 > client.app.state.settings.max_resume_events  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{tid}") as wa:
        a4 = Player(wa, token=table["token"], since={"match": match, "seq": 1})
        snap = a4.recv()
        assert snap["type"] == "snapshot" and snap["view"] == a.seen
    assert applied == []


def test_rejected_answers_are_remembered_within_a_bound(sqlite_url: str) -> None:
    settings = make_settings(sqlite_url, max_remembered_rejects=5)
    with TestClient(create_app(settings)) as c:
        table = create(c, players=2, name="Ana", seed=6,
                       seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        with c.websocket_connect(f"/ws/tables/{table['table_id']}") as wa:
            a = Player(wa, token=table["token"])
            a.until(lambda f: f["type"] == "snapshot")
            ok = a.split(f"pack:{','.join(a.seen['hand'][:6])}", msg_id="keep")
            assert ok["type"] == "ack"

            def my_turn(view: dict[str, Any] | None) -> bool:
                return view is not None and view["phase"] == "play" and view["to_move"] == 0

            # wait until the bot has split (and led, if it leads): from then on nothing
            # moves until Ana does, so each bad action is judged, never stale
            if not my_turn(a.view):
                a.until(lambda f: f["type"] == "event" and my_turn(f["view"]))
            for n in range(20):
                assert a.act("pile=3", msg_id=f"bad{n}")["code"] == "illegal"
            # the last five are answered as before, marked duplicate; an older one is
            # judged afresh
            for n in range(15, 20):
                again = a.act("pile=3", msg_id=f"bad{n}")
                assert again["code"] == "illegal" and again["duplicate"] is True
            afresh = a.act("pile=3", msg_id="bad14")
            assert afresh["code"] == "illegal" and "duplicate" not in afresh
            # an accepted action is answered the same way however many came after it
            # (the split is sent again under a new id when the bot's split made it
            # stale: the id that was accepted is the one in the ack)
            dup = a.act("anything", msg_id=ok["id"], seq=0)
            assert dup["type"] == "ack" and dup["seq"] == ok["seq"] and dup["duplicate"]
