"""The advisor at the table: the split hint (the same answer twice, with its interval)
and the card hint on the player's turn."""

from __future__ import annotations

import asyncio
import re

import pytest

from meio.engine import Phase
from meio.engine import actions as A
from meio.engine import cards as C
from meio.i18n import set_language
from meio.tui.app import PlayApp
from meio.tui.session import Session
from meio.tui.widgets import HandView
from meio.tui.words import score_text
from tests.tui.pilot import (
    SIZES,
    fast_settings,
    ready_table,
    screen_text,
    session_where,
    wait_for,
)

SCORE = r"\d\.\d\d (?:\(likely \d\.\d\d–\d\.\d\d\)|in every sampled deal)"


def hint_lines(text: str) -> list[str]:
    start = next(i for i, line in enumerate(text.splitlines()) if "Best pack:" in line)
    return text.splitlines()[start : start + 3]


@pytest.mark.parametrize("size", SIZES)
def test_split_hint_lines_fit_and_b_before_h_explains(size: tuple[int, int]) -> None:
    async def run() -> None:
        app = PlayApp(fast_settings(seed=4), setup=False)
        async with app.run_test(size=size) as pilot:
            screen = await ready_table(pilot, app)
            await pilot.press("b")
            assert "Press h first: b takes the pack the hint suggests." in screen_text(app)
            await pilot.press("c")
            assert "A pack is exactly 6 cards: you picked 0." in screen_text(app)
            await pilot.press("home", *(["space", "right"] * 7))
            assert "You already picked 6 cards: unpick one first." in screen_text(app)
            assert "First half — 7/7:" in screen_text(app)
            await pilot.press("h")
            await wait_for(pilot, lambda: "Expected" in screen_text(app), tries=3000)
            best, score, yours = hint_lines(screen_text(app))
            assert best.rstrip().endswith("(b: use it)")
            # the expected score with its interval, and the tricks of each half
            assert re.search(
                rf"Expected \|H−V\| {SCORE} · about \d\.\d tricks in H, \d\.\d in V",
                score,
            ), score
            assert re.search(rf"Your 6 cards: {SCORE}|Your 6 cards are that", yours)
            assert "Second-half pack — 6/6:" in screen_text(app)
            await pilot.press("b")
            best_pack = screen.best_pack
            assert screen.picked == set(C.cards_of(best_pack))
            await pilot.press("c")
            session = screen.session
            await wait_for(pilot, lambda: session.state.phase is not Phase.SPLIT)
            assert session.view().pack == best_pack
            assert "Your pack for tricks 8–13:" in screen_text(app)

    asyncio.run(run())


def test_h_twice_on_the_same_hand_gives_the_same_answer() -> None:
    # the hint used to run for a second of the clock: under load its "best" pack changed
    # from one press to the next (0.30, then 0.12)
    async def run() -> None:
        app = PlayApp(fast_settings(seed=6), setup=False)
        async with app.run_test(size=SIZES[0]) as pilot:
            screen = await ready_table(pilot, app)
            answers = []
            for _press in range(2):
                before = screen.hint_text
                await pilot.press("h")
                await wait_for(
                    pilot,
                    lambda b=before: (
                        screen.hint_text is not b and "Expected" in screen.hint_text.plain
                    ),
                    tries=3000,
                )
                answers.append((screen.hint_text.plain, screen.best_pack))
            assert answers[0] == answers[1]

    asyncio.run(run())


def test_a_score_and_its_interval_read_sensibly_in_both_languages() -> None:
    assert score_text(0.25, 0.1, 0.4) == "0.25 (likely 0.10–0.40)"
    # every sampled deal gave the same score: no "likely between 0 and 0"
    assert score_text(0.0, 0.0, 0.0) == "0.00 in every sampled deal"
    set_language("pt")
    assert score_text(0.25, 0.1, 0.4) == "0,25 (faixa provável 0,10–0,40)"
    assert score_text(0.0, 0.0, 0.0) == "0,00 em todas as simulações"


def _my_turn_with_choices(s: Session) -> bool:
    v = s.view()
    return v.phase is Phase.PLAY and v.to_move == s.seat and len(v.legal_actions()) >= 3


@pytest.mark.parametrize("size", SIZES)
def test_card_hint_on_the_players_turn_and_b_selects_it(size: tuple[int, int]) -> None:
    session = session_where(_my_turn_with_choices)

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            await pilot.press("b")
            assert "Press h first: b selects the card the hint suggests." in screen_text(app)
            shown = []
            for _press in range(2):
                await pilot.press("h")
                await wait_for(pilot, lambda: "Hint: play" in screen_text(app), tries=3000)
                shown.append(next(ln for ln in screen_text(app).splitlines() if "Hint:" in ln))
            assert shown[0] == shown[1]  # the same position gives the same hint
            line = shown[0]
            assert re.search(rf"Hint: play \S+ · expected \|H−V\| {SCORE}", line)
            assert line.rstrip().endswith("b selects it") and len(line.rstrip()) <= size[0]
            assert "Others:" in screen_text(app)
            await pilot.press("b")
            card = app.screen.query_one(HandView).current_card
            assert card is not None and session.label(card) in line
            before = len(session.state.history)
            await pilot.press("enter")
            await wait_for(pilot, lambda: len(session.state.history) > before)
            assert A.card_of(session.state.history[before][1]) == card
            # the hint was for that position: it goes once the card is played
            await wait_for(pilot, lambda: "Hint: play" not in screen_text(app))

    asyncio.run(run())
