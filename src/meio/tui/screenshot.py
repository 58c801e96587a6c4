"""Draw the documentation screenshots from the real app (``python -m meio.tui.screenshot DIR``).

Writes ``terminal-split.svg`` (choosing the pack) and ``terminal.svg`` (a trick
in play), both 80×24, from a fixed deal so they change only when the app does.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from meio.engine import Phase
from meio.tui.app import PlayApp
from meio.tui.session import PlaySettings, Session

SETTINGS = PlaySettings(seed=12, bots=("random",), speed="slow")


async def _shoot(out: Path) -> list[Path]:
    written: list[Path] = []
    split = Session.new(SETTINGS.checked())
    split.run_bots()
    app = PlayApp(split.settings, session=split)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.2)
        await pilot.press("home", "space", "right", "right", "space", "right", "space")
        await pilot.press("right", "right", "right", "space", "right", "space", "right", "space")
        await pilot.pause(0.1)
        written.append(Path(app.save_screenshot("terminal-split.svg", str(out))))

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
        written.append(Path(app.save_screenshot("terminal.svg", str(out))))
    return written


def main(argv: list[str] | None = None) -> None:
    """Write the screenshots into the folder given (default ``docs/img``)."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "docs/img")
    out.mkdir(parents=True, exist_ok=True)
    for path in asyncio.run(_shoot(out)):
        print(path)


if __name__ == "__main__":
    main()
