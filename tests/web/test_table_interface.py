"""The live table's interface: the events it emits, the queries it answers, and that
its collaborators use nothing else (docs/architecture.md, "The table's interface")."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meio.engine import Phase
from meio.web import create_app
from tests.web.conftest import create, make_settings
from tests.web.helpers import Player

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "meio" / "web"

pytestmark = pytest.mark.timeout(60)


def _private_state() -> set[str]:
    """The private attributes a LiveTable sets on itself."""
    tree = ast.parse((WEB / "table.py").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "LiveTable")
    names = set()
    for node in ast.walk(cls):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "self" and node.attr.startswith("_")
                and isinstance(node.ctx, ast.Store)):
            names.add(node.attr)
    return names


def test_no_collaborator_reads_or_sets_the_table_s_state() -> None:
    private = _private_state()
    assert {"_state", "_events", "_conns", "_remote_online", "_listeners"} <= private
    reached = []
    for path in [*sorted(WEB.glob("*.py")), *sorted((ROOT / "tests" / "web").glob("*.py"))]:
        if path.name == "table.py" and path.parent == WEB:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            # another object's field of that name (a class's own ``self._x`` is its own)
            if (isinstance(node, ast.Attribute) and node.attr in private
                    and not (isinstance(node.value, ast.Name) and node.value.id == "self")):
                reached.append(f"{path.name}:{node.lineno} .{node.attr}")
    assert not reached


def test_listeners_hear_every_change_beside_the_auto_player_until_they_leave(
    sqlite_url: str,
) -> None:
    """A second listener does not replace the auto-player (the bot still moves), hears
    each accepted action, and hears nothing once unsubscribed."""
    with TestClient(create_app(make_settings(sqlite_url))) as c:
        hub: Any = c.app.state.hub  # type: ignore[attr-defined]
        assert c.portal is not None
        table = create(c, players=2, name="Ana", seed=3,
                       seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
        rt = hub.tables[table["table_id"]].table
        heard: list[int] = []

        def listener() -> None:
            heard.append(rt.seq)

        async def subscribe() -> None:
            async with rt.lock:
                rt.subscribe(listener)

        async def unsubscribe() -> int:
            async with rt.lock:
                rt.unsubscribe(listener)
                return int(rt.seq)

        c.portal.call(subscribe)
        with c.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
            ana = Player(ws, token=table["token"])
            ana.until(lambda f: f["type"] == "snapshot" and f["view"] is not None)
            answer = ana.split(f"pack:{','.join(ana.seen['hand'][:6])}")
            assert answer["type"] == "ack"
            # the bot splits too: the auto-player was woken, not replaced
            while not all(ana.seen["split_done"]):
                ana.until(lambda f: f["type"] == "event")
            assert answer["seq"] in heard and ana.seq == 2
            at = c.portal.call(unsubscribe)
            before = len(heard)
            # two more actions, Ana's and the bot's: changes it no longer hears
            while ana.seq < at + 2:
                if ana.my_turn():
                    assert ana.act(ana.seen["legal"][0])["type"] == "ack"
                else:
                    ana.until(lambda f: f["type"] == "event")
            assert len(heard) == before


def test_the_queries_answer_from_the_seat_s_own_view(sqlite_url: str) -> None:
    with TestClient(create_app(make_settings(sqlite_url))) as c:
        hub: Any = c.app.state.hub  # type: ignore[attr-defined]
        table = create(c, players=2, name="Ana", seed=8,
                       seats=[{"kind": "human"}, {"kind": "human"}])
        rt = hub.tables[table["table_id"]].table
        # no match before every seat is filled
        assert rt.match is None and rt.view(0) is None and rt.turn_of(0) is None
        assert not rt.in_play() and not rt.match_over() and rt.seats_to_act() == []
        c.post(f"/api/tables/{table['table_id']}/join",
               json={"invite": table["invite"], "name": "Bo"}).raise_for_status()
        assert rt.in_play() and rt.seats_to_act() == [0, 1]
        assert rt.seats_to_act("human") == [0, 1] and rt.seats_to_act("bot") == []
        mine, spectator = rt.view(0), rt.view(None)
        assert mine.seat == 0 and mine.phase is Phase.SPLIT and mine.hand
        assert spectator.seat is None and not spectator.hand
        turn = rt.turn_of(1)
        assert turn.seq == 0 and turn.turn == 0 and turn.view.seat == 1
        assert turn.view.hand != mine.hand
        assert not rt.connected() and rt.spectators() == 0 and rt.remote_seats() == set()
