"""Group commit (meio.web.writer), and a frame echoing a client's text going out.

The writer stores the actions of many tables in one transaction; it must keep
each action's promise (stored before its caller goes on), refuse only the action
that lost a race, and store a match's result with its last action. (What each seat
is sent: tests/web/test_frames.py.)
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from meio.web.db import migrate, open_engine
from meio.web.store import EventInfo, NewEvent, SeatInfo, Store, StoreError
from meio.web.tablesetup import TableSetup
from meio.web.writer import Writer

OPTIONS = TableSetup(players=2)


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
