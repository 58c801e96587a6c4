"""The server's collector (meio.web.collector): the heap frozen every few seconds, so
that automatic passes never walk the tables, and swept whole now and then."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from meio.web.collector import SWEPT, Collector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture(autouse=True)
def _restore_collector() -> Iterator[None]:
    yield
    gc.unfreeze()
    gc.collect()


def cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_a_freeze_and_a_sweep_come_when_they_are_due() -> None:
    c = Collector(freeze_every_s=5, sweep_every_s=60, clock=0.0)
    frozen = gc.get_freeze_count()
    assert c.step(now=4.9) is None
    assert gc.get_freeze_count() == frozen
    assert c.step(now=5.0) == "freeze"
    assert gc.get_freeze_count() > frozen
    assert c.step(now=5.1) is None  # the next freeze is 5 s on
    assert c.step(now=10.0) == "freeze"
    assert c.step(now=60.0) == "sweep"
    assert c.step(now=61.0) is None
    assert c.step(now=65.0) == "freeze"
    assert c.due(now=119.9) == "freeze" and c.due(now=120.0) == "sweep"


def test_a_frozen_cycle_waits_for_the_sweep_and_no_automatic_pass_frees_it() -> None:
    c = Collector(freeze_every_s=1, sweep_every_s=10, clock=0.0)
    keep = [cycle()]
    held = keep[0]()  # alive while frozen
    assert c.step(now=1.0) == "freeze"
    del held
    gc.collect(2)  # what an automatic full pass does: frozen objects are not scanned
    assert keep[0]() is not None
    swept = SWEPT._value.get()
    assert c.step(now=10.0) == "sweep"
    assert keep[0]() is None
    assert SWEPT._value.get() >= swept + 2


def test_objects_freed_by_reference_counting_go_even_when_frozen() -> None:
    c = Collector(freeze_every_s=1, sweep_every_s=0, clock=0.0)
    thing = Node()
    ref = weakref.ref(thing)
    c.step(now=1.0)
    del thing
    assert ref() is None


def test_without_a_sweep_period_there_is_never_a_sweep() -> None:
    c = Collector(freeze_every_s=1, sweep_every_s=0, clock=0.0)
    assert [c.step(now=t) for t in (1.0, 10**6)] == ["freeze", "freeze"]


@pytest.mark.parametrize(("freeze", "sweep", "message"), [
    (0, 60, "the freeze period must be above 0 s, not 0"),
    (5, -1, "the sweep period must be 0 (never) or more, not -1"),
])
def test_periods_out_of_range_are_refused(freeze: float, sweep: float, message: str) -> None:
    with pytest.raises(ValueError) as err:
        Collector(freeze, sweep)
    assert str(err.value) == message


def test_it_runs_on_the_event_loop_until_stopped() -> None:
    async def run() -> tuple[int, int]:
        c = Collector(freeze_every_s=0.01, sweep_every_s=0)
        gc.unfreeze()
        c.start()
        await asyncio.sleep(0.1)
        await c.stop()
        running = gc.get_freeze_count()
        gc.unfreeze()
        await asyncio.sleep(0.05)
        return running, gc.get_freeze_count()

    running, stopped = asyncio.run(run())
    assert running > 0
    assert stopped == 0
