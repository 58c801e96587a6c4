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
    postgres_server: str,
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
            if msg.get("k") == "last":
                done.set()

        async def on_a(msg: dict[str, Any]) -> None:
            own.append(msg)

        async def resync() -> None:
            pass

        await listener.start(on_b, resync)
        await sender.start(on_a, resync)
        # 400 messages of ~250 bytes (with text that JSON escapes) at once: about
        # 100 KB, more than a dozen payloads' worth
        for i in range(400):
            sender.post({"k": "ev", "t": "table", "s": i, "x": "é\"\\" * 60})
        await sender.publish({"k": "last"})
        await asyncio.wait_for(done.wait(), 30)
        await sender.stop()
        await listener.stop()

    asyncio.run(run())
    assert [m["s"] for m in heard if m["k"] == "ev"] == list(range(400))
    assert heard[-1]["k"] == "last" and all(m["o"] == "proc-a" for m in heard)
    assert heard[0]["x"] == "é\"\\" * 60
    assert own == []  # a process skips what it sent itself
    assert listener.received == 401


def test_a_burst_is_cut_into_payloads_under_the_limit_that_read_back_in_order() -> None:
    messages = [{"k": "ev", "t": "table", "s": i, "x": "é\"\\" * 60} for i in range(400)]
    texts = [json.dumps(m, separators=(",", ":")) for m in messages]
    payloads = []
    while texts:
        payload, count = B.next_batch("proc-a", texts)
        assert count >= 1
        payloads.append(payload)
        del texts[:count]
    assert 12 <= len(payloads) < 400  # batched, and split to fit
    assert max(len(p.encode()) for p in payloads) <= B.MAX_PAYLOAD < 8000
    heard = [m for p in payloads for m in B.decode(p, "proc-b")]
    assert heard == [{**m, "o": "proc-a"} for m in messages]
    assert all(B.decode(p, "proc-a") == [] for p in payloads)  # its own are skipped
    # one message too big for a payload still goes, alone
    big = json.dumps({"x": "y" * B.MAX_PAYLOAD})
    assert B.next_batch("proc-a", [big, "{}"])[1] == 1


def test_a_message_of_an_older_server_is_still_understood() -> None:
    """A single message without a batch around it (what servers sent before)."""
    got = [*B.decode('{"k":"tb","t":"x","o":"other"}', "me"),
           *B.decode('{"o":"other","b":[{"k":"tb","t":"y"},5]}', "me"),
           *B.decode('{"o":"me","b":[{"k":"tb","t":"z"}]}', "me"),
           *B.decode('not json', "me")]
    assert [(m["t"], m["o"]) for m in got] == [("x", "other"), ("y", "other")]
