"""Group commit (meio.web.writer) and the frames each connection is sent.

The writer stores the actions of many tables in one transaction; it must keep
each action's promise (stored before its caller goes on), refuse only the action
that lost a race, and store a match's result with its last action. The broadcast
encodes each seat's frame once: no seat may ever get another seat's frame.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from meio.engine import MatchConfig, State
from meio.engine import cards as C
from meio.engine.wire import config_json
from meio.web.db import migrate, open_engine
from meio.web.store import EventInfo, NewEvent, SeatInfo, Store, StoreError
from meio.web.writer import Writer

OPTIONS = {"edition": "meio", "players": 2, "partnership": False, "specials": None,
           "turn_timer_s": None, "seed": None}


def _store(db_url: str) -> Store:
    engine = open_engine(db_url)
    migrate(engine)
    return Store(engine)


def _matches(store: Store, n: int) -> list[str]:
    out = []
    for _ in range(n):
        info = store.create_table(OPTIONS, [SeatInfo(0, "human", None, None, None),
                                            SeatInfo(1, "human", None, None, None)], True)
        out.append(store.start_match(info.id, 1, {"edition": "meio", "players": 2,
                                                  "seed": 1}).id)
    return out


def _event(match_id: str, seq: int, result: dict[str, Any] | None = None) -> NewEvent:
    return NewEvent(match_id, EventInfo(seq, seq % 2, f"pack:{seq}", "human", f"c{seq}",
                                        float(seq)),
                    result)


def test_actions_arriving_together_share_transactions(db_url: str) -> None:
    store = _store(db_url)
    matches = _matches(store, 30)
    writer = Writer(store)

    async def play() -> None:
        # thirty tables, three actions each, every table waiting for its own action
        async def table(m: str) -> None:
            for seq in (1, 2, 3):
                await writer.append(_event(m, seq))
                # stored before the caller goes on
                assert [e.seq for e in store.events(m)][-1] == seq

        await asyncio.gather(*(table(m) for m in matches))

    asyncio.run(play())
    assert writer.stored == 90
    assert writer.commits < 90  # batched: one transaction per action would be 90
    for m in matches:
        assert [(e.seq, e.action) for e in store.events(m)] == [
            (1, "pack:1"), (2, "pack:2"), (3, "pack:3")]
    store.engine.dispose()


def test_a_conflict_refuses_only_the_action_that_lost_its_race(db_url: str) -> None:
    store = _store(db_url)
    taken, free, other = _matches(store, 3)
    # another process stored action 1 of `taken` already
    store.append_events([NewEvent(taken, EventInfo(1, 1, "pack:theirs", "human", None, 0.5))])
    writer = Writer(store)

    async def race() -> list[BaseException | None]:
        jobs = [writer.append(_event(free, 1)), writer.append(_event(taken, 1)),
                writer.append(_event(other, 1, result={"winners": [0]}))]
        return await asyncio.gather(*jobs, return_exceptions=True)

    answers = asyncio.run(race())
    assert answers[0] is None and answers[2] is None
    assert isinstance(answers[1], StoreError) and answers[1].code == "conflict"
    assert [e.action for e in store.events(taken)] == ["pack:theirs"]
    assert [e.action for e in store.events(free)] == ["pack:1"]
    finished = store.match(other)
    assert finished is not None and finished.result == {"winners": [0]}
    assert finished.finished_at == 1.0
    store.engine.dispose()


def test_a_database_failure_reaches_every_waiting_caller(tmp_path: Path) -> None:
    store = _store(f"sqlite:///{tmp_path / 'w.db'}")
    (m,) = _matches(store, 1)

    def broken(events: list[NewEvent]) -> None:
        raise OSError("the disk is gone")

    store.append_events = broken  # type: ignore[method-assign]
    writer = Writer(store)

    async def run() -> list[BaseException | None]:
        return await asyncio.gather(writer.append(_event(m, 1)), writer.append(_event(m, 2)),
                                    return_exceptions=True)

    answers = asyncio.run(run())
    assert all(isinstance(a, OSError) for a in answers)
    store.engine.dispose()


class _Hub:
    """What TableRuntime._accept needs of its hub."""

    def __init__(self) -> None:
        from meio.web.settings import Settings

        self.settings = Settings(database_url="sqlite://")


def test_each_connection_gets_the_frame_of_its_own_seat() -> None:
    """Several pages of one seat and several spectators share a frame; seats never do."""
    from meio.web.runtime import Connection, TableRuntime
    from meio.web.store import MatchInfo, TableInfo

    config = MatchConfig(edition="meio", players=4, partnership=False, seed=11)
    state = State.new(config)
    seats = tuple(SeatInfo(s, "human", None, f"p{s}", "h") for s in range(4))
    info = TableInfo("t", 0.0, {**OPTIONS, "players": 4}, "i", "s", False, "m", seats)
    rt = TableRuntime(_Hub(), info)  # type: ignore[arg-type]
    rt.match = MatchInfo("m", "t", 1, config_json(config), 0.0, None, None)
    rt.config, rt.state = config, state
    conns = [Connection(0), Connection(1), Connection(0), Connection(None), Connection(None),
             Connection(3)]
    rt.conns = set(conns)
    # seat 2 splits: its pack is shown to seat 2 only
    new = state.clone()
    hand = new.view(2).hand
    pack = C.codes(hand)[:6]
    from meio.engine import actions as A

    action = A.parse_action("pack:" + ",".join(pack))
    outcome = new.apply(action, 2)
    rt._accept(EventInfo(1, 2, A.action_text(action), "human", None, 1.0), new, outcome)
    got = [json.loads(c.queue.get_nowait()) for c in conns]  # type: ignore[arg-type]
    for c, frame in zip(conns, got, strict=True):
        assert frame["type"] == "event" and frame["seq"] == 1
        assert frame["view"]["seat"] == c.seat
        expected = new.view(c.seat) if c.seat is not None else new.spectator_view()
        assert frame["view"]["hand"] == C.codes(expected.hand)
        assert frame["action"] == "pack"  # seat 2 is not connected: nobody sees the pack
    assert got[0] == got[2] and got[3] == got[4]
    assert got[0]["view"]["hand"] != got[1]["view"]["hand"]
    assert got[3]["view"]["hand"] == []
    with pytest.raises(asyncio.QueueEmpty):
        conns[0].queue.get_nowait()


def test_a_frame_echoing_a_lone_surrogate_still_goes_out(client: Any) -> None:
    """orjson refuses lone surrogates; a client may send one in a message id, which
    comes back in its reject: the frame must still be sent, and the socket live."""
    from tests.web.conftest import create, join
    from tests.web.helpers import Player

    table = create(client, players=2, name="Ana", seed=4)
    join(client, table, "Bo")
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        ana = Player(ws, token=table["token"])
        ana.until(lambda f: f["type"] == "snapshot")
        ws.send_text(json.dumps({"type": "act", "id": "x\ud800", "seq": 7, "action": "QS"}))
        answer = ana.until(lambda f: f["type"] in ("reject", "error"))
        assert answer["type"] == "reject" and answer["id"] == "x\ud800"
        assert answer["code"] == "stale"
        ws.send_text(json.dumps({"type": "ping"}))
        assert ana.until(lambda f: f["type"] == "pong")["type"] == "pong"
