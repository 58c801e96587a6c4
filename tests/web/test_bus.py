"""The PostgreSQL bus: messages published together go in few NOTIFYs, each under
PostgreSQL's payload limit, and reach the other processes all, once, in order."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from meio.web import bus as B
from tests.web.conftest import _new_pg_database

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(60)]


def test_a_burst_goes_in_batches_under_the_payload_limit_and_in_order(
    postgres_server: str, caplog: pytest.LogCaptureFixture,
) -> None:
    url = _new_pg_database(postgres_server)
    sender = B.bus_for(url, "proc-a")
    listener = B.bus_for(url, "proc-b")
    assert isinstance(sender, B.PostgresBus) and isinstance(listener, B.PostgresBus)
    heard: list[dict[str, Any]] = []
    own: list[dict[str, Any]] = []

    async def run() -> None:
        done = asyncio.Event()

        async def on_b(msg: dict[str, Any]) -> None:
            heard.append(msg)
            if msg.get("type") == "last":
                done.set()

        async def on_a(msg: dict[str, Any]) -> None:
            own.append(msg)

        async def resync() -> None:
            pass

        await listener.start(on_b, resync)
        await sender.start(on_a, resync)
        # a server of the version before, with its one-letter keys: understood (as in
        # a rolling upgrade); then twice what no version sends: ignored, said once by
        # each process
        import psycopg

        old = await psycopg.AsyncConnection.connect(sender.dsn, autocommit=True)
        for payload in ('{"o":"proc-old","b":[{"k":"tb","t":"x"}]}', "[1]", "[1]"):
            await old.execute("SELECT pg_notify(%s, %s)", (B.CHANNEL, payload))
        await old.close()
        # 400 messages of ~250 bytes (with text that JSON escapes) at once: about
        # 100 KB, more than a dozen payloads' worth
        for i in range(400):
            sender.post({"type": "event", "table": "t", "seq": i, "text": "é\"\\" * 60})
        await sender.publish({"type": "last"})
        await asyncio.wait_for(done.wait(), 30)
        await sender.stop()
        await listener.stop()

    with caplog.at_level("WARNING", "meio.web.bus"):
        asyncio.run(run())
    warned = [r for r in caplog.records if "was ignored" in r.message]
    assert len(warned) == 2  # once by each of the two processes, for two payloads
    assert heard[0] == {"type": "reload", "table": "x", "origin": "proc-old"}
    heard.pop(0)
    assert [m["seq"] for m in heard if m["type"] == "event"] == list(range(400))
    assert heard[-1]["type"] == "last" and all(m["origin"] == "proc-a" for m in heard)
    assert heard[0]["text"] == "é\"\\" * 60
    # a process skips what it sent itself (and heard the old server too)
    assert own == [{"type": "reload", "table": "x", "origin": "proc-old"}]
    assert listener.received == 402


def test_a_burst_is_cut_into_payloads_under_the_limit_that_read_back_in_order() -> None:
    messages = [{"type": "chat", "table": "t", "seat": i, "text": "é\"\\" * 60}
                for i in range(400)]
    texts = [(json.dumps(m, separators=(",", ":")),
              json.dumps(B.to_earlier_form(m), separators=(",", ":"))) for m in messages]
    payloads = []
    while texts:
        payload, count = B.next_batch("proc-a", texts)
        assert count >= 1
        payloads.append(payload)
        del texts[:count]
    assert 20 <= len(payloads) < 400  # batched (both forms), and split to fit
    assert max(len(p.encode()) for p in payloads) <= B.MAX_PAYLOAD < 8000
    heard = [m for p in payloads for m in B.decode(p, "proc-b")]
    assert heard == [{**m, "origin": "proc-a"} for m in messages]
    assert all(B.decode(p, "proc-a") == [] for p in payloads)  # its own are skipped
    # one message too big for a payload still goes, alone
    big = json.dumps({"x": "y" * B.MAX_PAYLOAD})
    assert B.next_batch("proc-a", [(big, None), ("{}", None)])[1] == 1
    # a server of the version before reads the same payloads: all, in order
    earlier = [one for p in payloads for one in json.loads(p)["b"]]
    assert earlier == [{"k": "chat", "t": "t", "p": i, "x": "é\"\\" * 60} for i in range(400)]


def test_the_messages_of_the_version_before_are_read_in_this_version_s_words() -> None:
    """For one version the one-letter form is read too (docs/web.md): every message
    kind, in a batch or alone; what neither version sends reads as None."""
    old = {"o": "b", "b": [
        {"k": "ev", "t": "T", "m": "M", "s": 3, "p": 1, "a": "QS", "r": "bot", "c": None,
         "at": 1.5},
        {"k": "chat", "t": "T", "m": "M", "p": 0, "n": "react", "x": "gg", "at": 2.0},
        {"k": "on", "t": "T", "seats": [0, 2]}, {"k": "hb", "p": 0.5},
        {"k": "who", "to": "a", "n": "7"}, {"k": "here", "to": "a", "n": "7"},
        {"k": "rm", "t": "T", "m": "M", "p": 1}, {"k": "rel", "t": ["T", "U"]},
        {"k": "tb", "t": "T"}, {"k": "bye"}, {"k": "unknown"}, 5]}
    assert B.decode(json.dumps(old), "a") == [
        {"type": "event", "table": "T", "match": "M", "seq": 3, "seat": 1, "action": "QS",
         "source": "bot", "client_id": None, "at": 1.5, "origin": "b"},
        {"type": "chat", "table": "T", "match": "M", "seat": 0, "kind": "react",
         "text": "gg", "at": 2.0, "origin": "b"},
        {"type": "online", "table": "T", "seats": [0, 2], "origin": "b"},
        {"type": "beat", "period": 0.5, "origin": "b"},
        {"type": "who", "to": "a", "token": "7", "origin": "b"},
        {"type": "here", "to": "a", "token": "7", "origin": "b"},
        {"type": "rematch", "table": "T", "match": "M", "seat": 1, "origin": "b"},
        {"type": "released", "tables": ["T", "U"], "origin": "b"},
        {"type": "reload", "table": "T", "origin": "b"},
        {"type": "bye", "origin": "b"},
    ]
    # one message alone (what the versions before batching sent)
    assert B.decode('{"k":"tb","t":"x","o":"b"}', "a") == [
        {"type": "reload", "table": "x", "origin": "b"}]
    assert B.decode('{"o":"a","b":[{"k":"tb","t":"x"}]}', "a") == []  # its own
    for payload in ("not json", "[1]", '{"origin":"other","batch":{}}', '{"k":"tb"}'):
        assert B.decode(payload, "a") is None, payload
