"""Helpers that drive the terminal app through Textual's headless pilot."""

from __future__ import annotations

import random
from collections.abc import Callable

from textual.app import App
from textual.color import Color
from textual.pilot import Pilot

from meio.engine import Phase
from meio.engine import actions as A
from meio.tui.app import PlayApp
from meio.tui.cards import is_wild
from meio.tui.screens import DeclareScreen, PileScreen, SaveScreen, SummaryScreen
from meio.tui.session import PlaySettings, Session
from meio.tui.table import TableScreen
from meio.tui.widgets import HandView


def screen_text(app: App[object]) -> str:
    """What the terminal shows now, as plain text lines."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def wait_for(pilot: Pilot[object], ready: Callable[[], bool], tries: int = 400) -> None:
    """Let the app run until ``ready()`` (bots think in threads, so poll)."""
    for _ in range(tries):
        if ready():
            return
        await pilot.pause(0.01)
    raise AssertionError("the app never reached the expected state:\n" + screen_text(pilot.app))


async def press_card(pilot: Pilot[object], card: int) -> None:
    """Move the hand's cursor to ``card`` and press Enter."""
    hand = pilot.app.screen.query_one(HandView)
    index = hand.cards.index(card)
    await pilot.press("home", *(["right"] * index), "enter")


def advance_to(
    session: Session, ready: Callable[[Session], bool], rng: random.Random, limit: int = 400
) -> bool:
    """Play the human at random (bots as themselves) until ``ready`` holds on the human's turn."""
    for _ in range(limit):
        session.run_bots()
        if session.is_over:
            return False
        if ready(session):
            return True
        legal = session.view().legal_actions()
        session.play(legal[rng.randrange(len(legal))])
    return False


async def take_turn(pilot: Pilot[object], session: Session, seen: set[str]) -> None:
    """Answer whatever the app asks now, by keys only; note each kind of prompt in ``seen``."""
    screen = pilot.app.screen
    if isinstance(screen, SummaryScreen):
        seen.add("summary-final" if screen.final else "summary")
        await pilot.press("enter")
    elif isinstance(screen, DeclareScreen):
        seen.add("declare")
        await pilot.press("d")
    elif isinstance(screen, PileScreen):
        seen.add("pile")
        await pilot.press("2")
    elif isinstance(screen, SaveScreen):
        raise AssertionError("unexpected save prompt")
    elif isinstance(screen, TableScreen) and session.human_to_act() and not screen.driving:
        view = session.view()
        if view.phase is Phase.SPLIT:
            seen.add("split")
            await pilot.press("home", *(["space", "right"] * view.config.pack_size), "c")
        elif view.phase is Phase.PLAY:
            legal = view.legal_actions()
            cards = [A.card_of(a) for a in legal]
            wilds = [c for c in cards if is_wild(c, view.config.rules)]
            await press_card(pilot, wilds[0] if wilds else cards[0])
        else:
            await pilot.pause(0.01)
    else:
        await pilot.pause(0.01)


SIZES = [(80, 24), (100, 30)]


def fast_settings(**kw: object) -> PlaySettings:
    """Settings for a quick test table: random bots, no delays."""
    base: dict[str, object] = {"seed": 1, "speed": "instant", "bots": ("random",)}
    base.update(kw)
    return PlaySettings(**base).checked()  # type: ignore[arg-type]


def session_where(ready: Callable[[Session], bool], **kw: object) -> Session:
    """A session (random bots, instant) advanced to a position where ``ready`` holds."""
    for seed in range(300):
        session = Session.new(fast_settings(seed=seed, **kw))
        if advance_to(session, ready, random.Random(seed)):
            return session
    raise AssertionError("no such position in 300 deals")


def ascii_screen(app: App[object]) -> str:
    """What the terminal receives, after the app's line filters (``--ascii``'s included)."""
    lines = []
    black = Color(0, 0, 0)
    for strip in app.screen._compositor.render_strips():
        segments = list(strip)
        for line_filter in app._filters:
            segments = line_filter.apply(segments, black)
        lines.append("".join(seg.text for seg in segments))
    return "\n".join(lines)


def table(app: PlayApp) -> TableScreen:
    """The app's table screen (there must be one)."""
    assert app.table is not None
    return app.table


async def ready_table(pilot: Pilot[object], app: PlayApp) -> TableScreen:
    """Wait until the table is up and the bots wait for the human."""
    await wait_for(pilot, lambda: app.table is not None and not table(app).driving)
    return table(app)


def footer_line(app: App[object]) -> str:
    """The footer's keys, as the last non-empty line of the screen."""
    return [line for line in screen_text(app).splitlines() if line.strip()][-1]


async def play_to_summary(pilot: Pilot[object], app: PlayApp, session: Session) -> None:
    """Play the human's turns (the bots play theirs) until the round summary opens."""
    seen: set[str] = set()
    for _ in range(300):
        if isinstance(app.screen, SummaryScreen):
            return
        await take_turn(pilot, session, seen)
    assert isinstance(app.screen, SummaryScreen), "the round summary never opened"
