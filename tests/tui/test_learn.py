"""``meio learn``: the lesson from its first note to the first real game, by keys only."""

from __future__ import annotations

import asyncio

import pytest

from meio.engine import Phase
from meio.engine import actions as A
from meio.engine import cards as C
from meio.i18n import _
from meio.tui.learn import LearnApp, LearnScreen, NoteScreen
from meio.tui.screens import DeclareScreen, PileScreen, SummaryScreen
from meio.tui.table import TableScreen
from meio.tui.widgets import HandView
from meio.tutorial import LESSON
from tests.tui.pilot import SIZES, press_card, screen_text, wait_for

pytestmark = pytest.mark.slow

KEYS = {C.SPADES: "s", C.HEARTS: "h", C.DIAMONDS: "d", C.CLUBS: "c"}


@pytest.mark.parametrize("size", SIZES)
def test_lesson_from_first_step_to_the_first_real_game(size: tuple[int, int]) -> None:
    async def run() -> None:
        app = LearnApp(speed="instant")
        async with app.run_test(size=size) as pilot:
            for title in ("Welcome to MEIO", "The special cards"):
                await wait_for(pilot, lambda: isinstance(app.screen, NoteScreen))
                assert title in screen_text(app)
                await pilot.press("enter")
                await pilot.pause(0.02)
            screen = app.table
            assert isinstance(screen, LearnScreen)
            session = screen.session
            moves = LESSON.moves
            for n, step in enumerate(moves, start=1):
                assert step.action is not None
                action = A.parse_action(step.action)
                if A.is_pile(action):
                    await wait_for(pilot, lambda: isinstance(app.screen, PileScreen))
                    await pilot.press("1" if action == A.PILE_1 else "2")
                    await wait_for(pilot, lambda a=action: screen.expected() != a)
                    continue
                await wait_for(
                    pilot,
                    lambda: (
                        session.human_to_act()
                        and not screen.driving
                        and isinstance(app.screen, LearnScreen)
                    ),
                )
                assert screen.expected() == action
                text = screen_text(app)
                assert f"Lesson — move {n} of {len(moves)}" in text
                assert _(step.text).split()[0] in text
                before = len(session.state.history)
                if A.is_pack(action):
                    await pilot.press("home", "space", "c")
                    assert "A pack is exactly 6 cards: you picked 1." in screen_text(app)
                    hand = app.screen.query_one(HandView).cards
                    keys = ["home", "space"]  # unpick the first card again
                    for card in hand:
                        if A.pack_of(action) >> card & 1:
                            keys.append("space")
                        keys.append("right")
                    await pilot.press(*keys, "c")
                elif A.is_declare(action):
                    await press_card(pilot, A.card_of(action))
                    await wait_for(pilot, lambda: isinstance(app.screen, DeclareScreen))
                    await pilot.press("h")  # not the lesson's suit: refused, asked again
                    await wait_for(pilot, lambda: isinstance(app.screen, DeclareScreen)
                                   and bool(app.screen.query("#declare-note")))
                    # the dialog that says "press S" is the one open: S there declares
                    assert "In this lesson, declare spades: press S." in screen_text(app)
                    assert len(session.state.history) == before
                    await pilot.press(KEYS[A.declared_suit(action)])
                else:
                    card = A.card_of(action)
                    if step.action == "3C":  # the follow-suit lesson: the rule refuses a spade
                        await press_card(pilot, C.parse_card("5S"))
                        assert "You must follow ♣" in screen_text(app)
                        assert len(session.state.history) == before
                    if step.action == "-1":  # legal, but not the lesson's move
                        await press_card(pilot, C.PLUS_HALF)
                        assert "In this lesson, play -1." in screen_text(app)
                        assert len(session.state.history) == before
                    await press_card(pilot, card)
                await wait_for(pilot, lambda b=before: len(session.state.history) > b)
                assert session.state.history[before] == (LESSON.seat, action)
            await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen))
            assert session.state.rounds[0].piles[0] == (2, 2)
            assert "Round 1 is over." in screen_text(app)
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, NoteScreen))
            assert "Scoring" in screen_text(app)
            await pilot.press("enter")
            await wait_for(
                pilot,
                lambda: (
                    isinstance(app.screen, TableScreen) and not isinstance(app.screen, LearnScreen)
                ),
            )
            game = app.screen.session  # type: ignore[attr-defined]
            assert game.settings.players == 4 and game.state.phase is Phase.SPLIT
            assert [b for s, b in enumerate(game.settings.bots) if s != 0] == ["heuristic"] * 3
            assert "Pick 6 cards for the second half" in screen_text(app)

    asyncio.run(run())


def test_the_lesson_at_80x24_keeps_its_advice_in_view_and_ends_cleanly() -> None:
    async def run() -> None:
        app = LearnApp(speed="instant")
        async with app.run_test(size=(80, 24)) as pilot:
            for _note in range(2):
                await wait_for(pilot, lambda: isinstance(app.screen, NoteScreen))
                await pilot.press("enter")
                await pilot.pause(0.02)
            screen = app.table
            assert isinstance(screen, LearnScreen)
            session = screen.session
            for step in LESSON.moves:
                assert step.action is not None
                action = A.parse_action(step.action)
                if A.is_pile(action):
                    await wait_for(pilot, lambda: isinstance(app.screen, PileScreen))
                    # the dialog covers the coach's panel: it says the step itself
                    assert _(step.text).split(". ")[0] in screen_text(app)
                    await pilot.press("2")
                    await pilot.pause(0.05)
                    await wait_for(pilot, lambda: isinstance(app.screen, PileScreen))
                    assert "In this lesson, put the trick in pile H (1)." in screen_text(app)
                    await pilot.press("1")
                    await wait_for(pilot, lambda a=action: screen.expected() != a)
                    await wait_for(pilot, lambda: isinstance(app.screen, LearnScreen))
                    # the refusal was about a choice now made: it is gone
                    assert "put the trick in pile" not in screen_text(app)
                    continue
                await wait_for(
                    pilot,
                    lambda: (
                        session.human_to_act()
                        and not screen.driving
                        and isinstance(app.screen, LearnScreen)
                    ),
                )
                before = len(session.state.history)
                if A.is_pack(action):
                    # h does nothing in the lesson: the prompt does not offer it
                    assert "c confirm" in screen_text(app) and "h hint" not in screen_text(app)
                    hand = app.screen.query_one(HandView).cards
                    keys = ["home"]
                    for card in hand:
                        if A.pack_of(action) >> card & 1:
                            keys.append("space")
                        keys.append("right")
                    await pilot.press(*keys, "c")
                elif A.is_declare(action):
                    # another wild is refused at once, before any suit is asked
                    await press_card(pilot, C.Q_PLUS)
                    assert not isinstance(app.screen, DeclareScreen)
                    assert "In this lesson, play A+." in screen_text(app)
                    await press_card(pilot, A.card_of(action))
                    await wait_for(pilot, lambda: isinstance(app.screen, DeclareScreen))
                    await pilot.press(KEYS[A.declared_suit(action)])
                else:
                    await press_card(pilot, A.card_of(action))
                await wait_for(pilot, lambda b=before: len(session.state.history) > b)
            await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen))
            # one dialog at a time, over a table that no longer shows next round's hand
            assert [type(s) for s in app.screen_stack[-2:]] == [LearnScreen, SummaryScreen]
            assert not screen.query_one(HandView).display
            assert "Enter: continue" in screen_text(app)
            await pilot.press("enter")
            await wait_for(pilot, lambda: isinstance(app.screen, NoteScreen))
            assert [type(s) for s in app.screen_stack[-2:]] == [LearnScreen, NoteScreen]

    asyncio.run(run())
