"""Chat safety: a seated player reports another seat's message, which is kept for the
operator; ``meio admin`` lists and removes reports; what a report may not be."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from meio.cli import app as cli
from meio.web import create_app
from tests.web.conftest import create, join, make_settings
from tests.web.helpers import Player, next_id
from tests.web.test_chat import say


def report(p: Player, seat: object, at: object) -> dict[str, object]:
    mid = next_id()
    p.ws.send_json({"type": "report", "id": mid, "seat": seat, "at": at})
    return p.until(lambda f: f["type"] in ("ack", "reject", "error")
                   and f.get("id", mid) == mid)


def test_a_reported_message_is_kept_for_the_operator_who_lists_and_removes_it(
        tmp_path: Path) -> None:
    db = tmp_path / "chat.db"
    with TestClient(create_app(make_settings(f"sqlite:///{db}"))) as client:
        table = create(client, players=2, name="Ana", seed=3)
        bo = join(client, table, "Bo")
        tid = table["table_id"]
        with client.websocket_connect(f"/ws/tables/{tid}") as wa, \
                client.websocket_connect(f"/ws/tables/{tid}") as wb, \
                client.websocket_connect(f"/ws/tables/{tid}") as ws:
            a, b = Player(wa, token=table["token"]), Player(wb, token=bo["token"])
            spec = Player(ws, spectate=table["spectate"])
            for p in (a, b, spec):
                p.until(lambda f: f["type"] == "chat_log")
            assert say(a, "you play like a potato")["type"] == "ack"
            line = b.until(lambda f: f["type"] == "chat")
            got = report(b, line["seat"], line["at"])
            assert got["type"] == "ack" and got["report"] == 1
            assert report(b, line["seat"], line["at"])["report"] == 1   # once per seat
            # what a report may not be
            assert report(a, line["seat"], line["at"])["code"] == "bad_message"  # one's own
            assert report(spec, line["seat"], line["at"])["code"] == "forbidden"
            assert report(b, 0, line["at"] + 1)["code"] == "no_message"
            assert report(b, 3, line["at"])["code"] == "no_message"   # no seat 4 here
            assert report(b, "0", line["at"])["code"] == "bad_message"
            assert report(b, 0, None)["code"] == "bad_message"
    runner = CliRunner()
    listed = runner.invoke(cli, ["admin", "--db", str(db)])
    assert listed.exit_code == 0, listed.output
    row = listed.stdout.strip().splitlines()
    assert len(row) == 1 and row[0].startswith("1\t") and "seat 1\tAna\t" in row[0]
    assert "'you play like a potato'" in row[0] and tid in row[0]
    removed = runner.invoke(cli, ["admin", "--db", str(db), "--remove-report", "1"])
    assert removed.exit_code == 0 and removed.stdout.strip() == "report 1 removed"
    assert runner.invoke(cli, ["admin", "--db", str(db)]).stdout.strip() == "no report"
    again = runner.invoke(cli, ["admin", "--db", str(db), "--remove-report", "1"])
    assert again.exit_code == 1 and again.stderr.strip() == "there is no report 1"
    # the message itself stays in the match's chat
    with TestClient(create_app(make_settings(f"sqlite:///{db}"))) as client:
        store = client.app.state.hub.store  # type: ignore[attr-defined]
        rows = store.chat(store.table(tid).current_match)
        assert [t for _, _, t, _ in rows] == ["you play like a potato"]
