"""The PostgreSQL bus: messages published together go in few NOTIFYs, each under
PostgreSQL's payload limit, and reach the other processes all, once, in order."""

from __future__ import annotations

import asyncio
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
    payloads: list[int] = []
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

        real = sender._notify

        async def counted(payload: str) -> None:
            payloads.append(len(payload.encode()))
            await real(payload)

        sender._notify = counted  # type: ignore[method-assign]
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
    assert 12 <= len(payloads) < 401  # batched, and split to fit
    assert max(payloads) < 8000


def test_a_message_of_an_older_server_is_still_understood() -> None:
    """A single message without a batch around it (what servers sent before)."""
    got: list[dict[str, Any]] = []
    bus = B.PostgresBus("me", "postgresql://unused")

    async def handler(msg: dict[str, Any]) -> None:
        got.append(msg)

    asyncio.run(bus._deliver('{"k":"tb","t":"x","o":"other"}', handler))
    asyncio.run(bus._deliver('{"o":"other","b":[{"k":"tb","t":"y"},5]}', handler))
    asyncio.run(bus._deliver('{"o":"me","b":[{"k":"tb","t":"z"}]}', handler))
    assert [(m["t"], m["o"]) for m in got] == [("x", "other"), ("y", "other")]
