"""The catalogues of what the server sends (docs/web.md) cannot drift from the code.

Every frame a page is sent is built by one function of ``meio.web.frames``, every
message to the other server processes by one of ``meio.web.replica``; docs/web.md
lists both, frame by frame and field by field. These tests read the builders' source
and the docs, so a frame type or field added in the code and not in the docs (or
left in the docs after the code dropped it) fails here; a game played through the
server checks that what is actually sent is what the catalogue lists.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meio.engine.wire import config_from_json
from meio.web import create_app
from meio.web import frames as F
from meio.web import replica as R
from tests.web.conftest import create, join, make_settings
from tests.web.helpers import Player, assert_no_leak, choose

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "meio" / "web"
DOC = (ROOT / "docs" / "web.md").read_text()

pytestmark = pytest.mark.timeout(120)


@dataclass
class Built:
    """What one builder function puts in the dicts it builds."""

    name: str
    kind: str | None  # the ``type`` it sets (None: it builds no typed dict)
    keys: set[str] = field(default_factory=set)


def _builders(path: Path) -> list[Built]:
    """Each module-level function of ``path``: the ``type`` of the dict it builds and
    every key it gives that dict (in the literal, or by assignment afterwards)."""
    out = []
    for fn in ast.parse(path.read_text()).body:
        if not isinstance(fn, ast.FunctionDef) or fn.name.startswith("_"):
            continue
        built = Built(fn.name, None)
        for node in ast.walk(fn):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        if key.value == "type" and isinstance(value, ast.Constant):
                            built.kind = str(value.value)
                        else:
                            built.keys.add(key.value)
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    targets += t.elts if isinstance(t, ast.Tuple) else [t]
            for t in targets:
                if (isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant)
                        and isinstance(t.slice.value, str)):
                    built.keys.add(t.slice.value)
        if built.kind is not None or built.keys:
            out.append(built)
    return out


def _section(start: str, end: str) -> str:
    a = DOC.index(start)
    return DOC[a:DOC.index(end, a + len(start))]


CLIENT = _section("### The frame catalogue", "### Messages between server processes")
REPLICA = _section("### Messages between server processes", "## Security and limits")


@dataclass
class Row:
    kind: str
    builder: str | None  # the function named after "·" (None: the one named as the type)
    fields: set[str]


def _rows(section: str) -> list[Row]:
    rows = []
    for line in section.splitlines():
        m = re.match(r"\| `(\w+)`(?: · `(\w+)`)? \| ([^|]*) \|", line)
        if m:
            rows.append(Row(m[1], m[2], set(re.findall(r"`(\w+)`", m[3]))))
    return rows


def _row_of(rows: list[Row], b: Built) -> Row:
    named = [r for r in rows if r.builder == b.name]
    plain = [r for r in rows if r.kind == b.kind and r.builder is None and b.name == r.kind]
    found = named or plain
    assert len(found) == 1, f"{b.name} (type {b.kind!r}) has no row of its own in docs/web.md"
    return found[0]


@pytest.mark.parametrize(("module", "section"), [(WEB / "frames.py", CLIENT),
                                                 (WEB / "replica.py", REPLICA)],
                         ids=["frames", "replica"])
def test_every_type_and_field_the_builders_make_is_in_the_catalogue(
    module: Path, section: str
) -> None:
    rows = _rows(section)
    builders = _builders(module)
    typed = [b for b in builders if b.kind is not None]
    assert len(typed) >= 12 and len(rows) >= 12  # both sides were read
    for b in typed:
        row = _row_of(rows, b)
        assert row.kind == b.kind, (b.name, row.kind, b.kind)
        missing = b.keys - row.fields
        assert not missing, f"{b.name} builds {sorted(missing)}, not listed for {row.kind!r}"
    # and no row names a frame the code no longer builds
    assert {r.kind for r in rows} == {b.kind for b in typed}
    assert {r.builder for r in rows if r.builder} <= {b.name for b in typed} | {"duplicate"}


def test_the_untyped_parts_of_frames_are_documented_too() -> None:
    parts = {b.name: b for b in _builders(WEB / "frames.py") if b.kind is None}
    # a resent action's answer: the first answer marked duplicate, for ack and reject
    assert parts["duplicate"].keys == {"duplicate"}
    rows = {(r.kind, r.builder): r for r in _rows(CLIENT)}
    assert "duplicate" in rows[("ack", None)].fields
    assert "duplicate" in rows[("reject", None)].fields
    # the table object, in every welcome and table frame
    listed = set(re.findall(r"`(\w+)`", CLIENT[CLIENT.index("The `table` object"):]))
    assert parts["public_table"].keys <= listed, parts["public_table"].keys - listed
    assert set(parts) == {"duplicate", "public_table"}


def test_no_other_module_of_the_server_builds_a_frame_or_a_message() -> None:
    """Frames and replica messages are built in their catalogues only: a dict with a
    literal ``type`` anywhere else in ``meio.web`` (ASGI's own messages aside) would be
    a frame or message the catalogue does not list."""
    found = []
    for path in sorted(WEB.glob("*.py")):
        if path.name in ("frames.py", "replica.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if (isinstance(key, ast.Constant) and key.value == "type"
                            and isinstance(value, ast.Constant)
                            and not str(value.value).startswith("http.")):
                        found.append(f"{path.name}:{node.lineno} {value.value}")
    assert not found


def _documented(rows: list[Row]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for r in rows:
        out.setdefault(r.kind, set()).update(r.fields)
    return out


def _check_sent(frames: list[dict[str, Any]], rows: list[Row]) -> set[str]:
    docs = _documented(rows)
    for frame in frames:
        kind = frame["type"]
        assert kind in docs, f"a {kind!r} frame was sent that the catalogue does not list"
        extra = set(frame) - {"type", "origin"} - docs[kind]
        if kind != "advice":  # the advisor's own form, named as a whole
            assert not extra, (kind, sorted(extra))
    return {f["type"] for f in frames}


def test_what_a_whole_game_sends_is_what_the_catalogue_lists(sqlite_url: str) -> None:
    """Two people, a spectator and a page that comes back: every frame of theirs, and
    every message that would go to another process, is of a listed type with listed
    fields, and no frame names a card its recipient could not see."""
    with TestClient(create_app(make_settings(sqlite_url))) as c:
        hub: Any = c.app.state.hub  # type: ignore[attr-defined]
        assert c.portal is not None
        sent: list[dict[str, Any]] = []
        hub.group.bus.live = True  # as on PostgreSQL: another process holds every table
        hub.group.bus.post = sent.append
        c.portal.call(hub.group.receive,  # type: ignore[union-attr]
                      {"origin": "proc-b", "type": "beat", "period": 60.0})
        table = create(c, players=2, name="Ana", seed=4)
        bo = join(c, table, "Bo")
        url = f"/ws/tables/{table['table_id']}"
        with c.websocket_connect(url) as wa, c.websocket_connect(url) as wb, \
                c.websocket_connect(url) as ws:
            ana, bob = Player(wa, token=table["token"]), Player(wb, token=bo["token"])
            eve = Player(ws, spectate=table["spectate"])
            people = [ana, bob]
            for p in (*people, eve):
                p.until(lambda f: f["type"] == "snapshot" and f["view"] is not None)
            wa.send_json({"type": "ping"})
            ana.until(lambda f: f["type"] == "pong")
            wa.send_json({"type": "chat", "id": "c1", "text": "good luck"})
            ana.until(lambda f: f.get("id") == "c1")
            wa.send_json({"type": "advise", "id": "a1"})
            ana.until(lambda f: f["type"] == "advice")
            wa.send_json({"type": "bogus"})
            ana.until(lambda f: f["type"] == "error")
            ana.act("pile=3", msg_id="bad")
            assert ana.act("pile=3", msg_id="bad")["duplicate"] is True
            first = ana.split(f"pack:{','.join(ana.seen['hand'][:6])}", msg_id="p1")
            assert ana.act("pack:x", msg_id="p1") == {**first, "duplicate": True}
            while not all(p.view is not None and p.view["is_over"] for p in people):
                movers = [p for p in people if p.my_turn()]
                if not movers:
                    min(people, key=lambda p: p.seq).until(
                        lambda f: f["type"] in ("event", "snapshot"))
                    continue
                for p in movers:
                    action = choose(p.seen)
                    assert action is not None
                    answer = p.act(action)
                    assert answer["type"] == "ack" or answer["code"] == "stale", answer
            played = ana.match
            # a page that missed the end comes back with what it had
            since = {"match": ana.match, "seq": ana.seq - 5}
            with c.websocket_connect(url) as wa2:
                back = Player(wa2, token=table["token"], since=since)
                caught = [back.recv() for _ in range(6)]
                assert [f["type"] for f in caught] == ["event"] * 5 + ["chat_log"]
                assert "now" in caught[4] and "now" not in caught[3]
                people.append(back)
            bob.ws.send_json({"type": "rematch", "id": "r1"})
            bob.until(lambda f: f.get("id") == "r1")
            ana.ws.send_json({"type": "rematch", "id": "r2"})
            ana.until(lambda f: f.get("id") == "r2")
            eve.until(lambda f: f["type"] == "match")
        rows = _rows(CLIENT)
        kinds = set()
        for p in (*people, eve):
            kinds |= _check_sent([p.welcome, *p.frames], rows)
        assert kinds >= {"welcome", "table", "snapshot", "event", "ack", "reject", "advice",
                         "rematch", "match", "chat", "chat_log", "error", "pong"}
        assert _check_sent(sent, _rows(REPLICA)) >= {"event", "chat", "rematch", "reload",
                                                      "who", "online"}
        match = hub.store.match(played)
        config = config_from_json(match.config)
        actions = [(e.seat, e.action) for e in hub.store.events(match.id)]
        for seat, p in ((0, ana), (1, bob), (None, eve)):
            assert assert_no_leak(config, actions, seat, _until_match(p.frames)) > 50


def _until_match(frames: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The frames of the first match (the rematch's are of another deal)."""
    for f in frames:
        if f["type"] == "match":
            return
        yield f


def test_the_builders_the_catalogues_name_exist() -> None:
    for name in ("duplicate", "chat_ack", "report_ack", "advice_failed", "new_match"):
        assert callable(getattr(F, name))
    for name in ("who_holds", "who_is", "event_of"):
        assert callable(getattr(R, name))
