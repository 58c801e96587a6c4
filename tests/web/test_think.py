"""The think pool: at most one job per worker, the jobs of tables with people first."""

from __future__ import annotations

import asyncio
import threading

from meio.web.think import BOTS_ONLY, PEOPLE, ThinkPool


def test_jobs_of_tables_with_people_go_before_those_of_bots_alone() -> None:
    gate = threading.Event()
    order: list[str] = []

    def job(name: str) -> str:
        if name == "first":
            gate.wait(10)  # holds the only worker until all the others are in line
        order.append(name)
        return name

    async def scenario() -> list[str]:
        pool = ThinkPool(processes=0, threads=1)
        try:
            first = asyncio.ensure_future(pool.run(PEOPLE, job, "first"))
            await asyncio.sleep(0.05)
            later = [asyncio.ensure_future(pool.run(prio, job, name)) for prio, name in
                     ((BOTS_ONLY, "bots-1"), (PEOPLE, "people-1"), (BOTS_ONLY, "bots-2"),
                      (PEOPLE, "people-2"))]
            await asyncio.sleep(0.05)
            assert pool.waiting == 4 and order == []  # one worker: one job at a time
            gate.set()
            return list(await asyncio.gather(first, *later))
        finally:
            pool.close()

    assert asyncio.run(scenario()) == ["first", "bots-1", "people-1", "bots-2", "people-2"]
    assert order == ["first", "people-1", "people-2", "bots-1", "bots-2"]


def test_a_caller_that_goes_away_frees_its_place_in_line() -> None:
    gate = threading.Event()

    async def scenario() -> str:
        pool = ThinkPool(processes=0, threads=1)
        try:
            first = asyncio.ensure_future(pool.run(PEOPLE, gate.wait, 10))
            await asyncio.sleep(0.05)
            gone = asyncio.ensure_future(pool.run(PEOPLE, str, "never"))
            await asyncio.sleep(0.05)
            gone.cancel()
            gate.set()
            await first
            # the worker is free again: a new job runs at once
            return await asyncio.wait_for(pool.run(PEOPLE, str.upper, "next"), 5)
        finally:
            pool.close()

    assert asyncio.run(scenario()) == "NEXT"
