"""The lesson's data (``meio.tutorial``): its script follows the rules and tells its story."""

from __future__ import annotations

import pytest

from meio.engine import actions as A
from meio.engine import cards as C
from meio.tutorial import LESSON, Lesson, LessonError, ScriptedBot


def test_the_script_replays_and_balances_the_learner() -> None:
    state = LESSON.replay()
    result = state.rounds[0]
    assert result.piles[LESSON.seat] == (2, 2) and result.scores[LESSON.seat] == 0
    learner = [a for s, a in LESSON.actions if s == LESSON.seat]
    assert [A.parse_action(step.action or "") for step in LESSON.moves] == learner


def test_the_lesson_shows_what_its_steps_say() -> None:
    tricks = LESSON.replay().rounds[0].tricks
    played = {card: (i, t) for i, t in enumerate(tricks) for _, card in t.plays}
    seat = LESSON.seat
    # A+ leads and wins trick 1 into H; Q+ wins a first-half trick and sends it to V
    assert played[C.A_PLUS][0] == 0 and tricks[0].winner == seat and tricks[0].pile == 1
    q, trick = played[C.Q_PLUS]
    assert q < 7 and trick.winner == seat and trick.pile == 2
    # -1 wins in the second half; +.5 wins after a K and the learner picks H
    m, trick = played[C.MINUS_ONE]
    assert m >= 7 and trick.winner == seat and trick.pile == 2
    h, trick = played[C.PLUS_HALF]
    assert h >= 7 and trick.winner == seat and trick.pile == 1
    assert trick.plays[-2][1] == C.parse_card("KC") and trick.plays[-1] == (seat, C.PLUS_HALF)
    # a bot trumps spades with a heart in trick 2
    assert tricks[1].plays[1] == (1, C.parse_card("7H")) and tricks[1].winner == 1


def test_each_step_names_its_card() -> None:
    for step in LESSON.moves:
        assert step.action is not None
        action = A.parse_action(step.action)
        if A.is_pack(action) or A.is_pile(action):
            continue
        code = C.card_code(A.card_of(action))
        if code[-1] in "SHDC" and code not in ("-2H",):
            code = code[:-1] + C.SUIT_SYMBOLS["SHDC".index(code[-1])]
        assert code in step.text, step.action


def test_a_broken_script_is_refused() -> None:
    bad = Lesson(
        config=LESSON.config,
        hands=LESSON.hands,
        leader=LESSON.leader,
        seat=LESSON.seat,
        script=(*LESSON.script[:4], "1:7S"),  # seat 0 leads trick 1
        steps=LESSON.steps,
    )
    with pytest.raises(LessonError, match="breaks the rules"):
        bad.replay()
    bot = ScriptedBot([C.parse_card("7S")])
    state = LESSON.new_state()
    with pytest.raises(LessonError, match="cannot play 7S"):
        bot.choose(state.view(1), [])
