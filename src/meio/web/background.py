"""A job a server process runs on its event loop from start-up to shutdown (the
collector's freezes, SQLite's checkpoints): started once, cancelled at the end."""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod


class Background(ABC):
    """Subclasses write :meth:`run`, the job's endless loop."""

    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Run on the current event loop until :meth:`stop`."""
        self._task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    @abstractmethod
    async def run(self) -> None:
        """The job, until cancelled."""
