"""Draw the documentation screenshots from the real app (``python -m meio.tui.screenshot DIR``).

Writes, in English and in Portuguese (``-pt``), all 80×24 and from fixed deals so
they change only when the app does: ``terminal-split`` (choosing the pack, with
the advisor's hint), ``terminal`` (a trick in play) and ``terminal-learn`` (the
*Learn to play* lesson).
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from meio.engine import Phase
from meio.i18n import set_language
from meio.tui.app import PlayApp
from meio.tui.learn import LearnApp, LearnScreen
from meio.tui.session import PlaySettings, Session

SETTINGS = PlaySettings(seed=12, bots=("random",), speed="slow")


async def _wait(
    pause: Callable[[float], Awaitable[None]], ready: Callable[[], bool], tries: int = 3000
) -> None:
    for _try in range(tries):
        if ready():
            return
        await pause(0.01)
    raise RuntimeError("the screen never got ready for its screenshot")


async def _shoot(out: Path, suffix: str) -> list[Path]:
    written: list[Path] = []
    split = Session.new(SETTINGS.checked())
    split.run_bots()
    app = PlayApp(split.settings, session=split)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        await pilot.press("home", "space", "right", "right", "space", "right", "space")
        await pilot.press("right", "right", "right", "space", "right", "space", "right", "space")
        await pilot.press("h")
        await _wait(pilot.pause, lambda: app.table is not None and app.table.best_pack != 0)
        await pilot.pause(0.1)
        written.append(Path(app.save_screenshot(f"terminal-split{suffix}.svg", str(out))))

    game = Session.new(SETTINGS.checked())
    rng = random.Random(5)
    while True:
        game.run_bots()
        view = game.view()
        if view.phase is Phase.PLAY and view.trick_number >= 4 and len(view.current_trick) >= 2:
            break
        legal = view.legal_actions()
        game.play(legal[rng.randrange(len(legal))])
    app = PlayApp(game.settings, session=game)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        written.append(Path(app.save_screenshot(f"terminal{suffix}.svg", str(out))))

    learn = LearnApp(speed="instant")
    async with learn.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        await pilot.press("enter")
        await pilot.pause(0.1)
        await pilot.press("enter")
        await _wait(pilot.pause, lambda: isinstance(learn.screen, LearnScreen))
        await pilot.press("home", *(["space", "right"] * 2))
        await pilot.pause(0.2)
        written.append(Path(learn.save_screenshot(f"terminal-learn{suffix}.svg", str(out))))
    return written


def main(argv: list[str] | None = None) -> None:
    """Write the screenshots into the folder given (default ``docs/img``)."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "docs/img")
    out.mkdir(parents=True, exist_ok=True)
    for language, suffix in (("en", ""), ("pt", "-pt")):
        set_language(language)
        for path in asyncio.run(_shoot(out, suffix)):
            print(path)
    set_language("en")


if __name__ == "__main__":
    main()
