"""The review judges each decision from its seat's view: a blunder is flagged, a forced
move never is, and what the other seats held changes nothing."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from meio.engine import MatchConfig, Phase, State, sample_world
from meio.engine import actions as A
from meio.engine.record import Record
from meio.review import QUICK, Budget, ReviewError, judge, review_match

DATA = Path(__file__).parent.parent / "data" / "review"
#: a 4-player match of heuristic players in which seat 1, at trick 12 of round 1 with
#: K♥ and Q+ left (and the trick it needs to send to its first-half pile), leads Q+
#: declaring diamonds, where spades or hearts keep the last trick its own
BLUNDER = Record.from_json((DATA / "blunder-4p.json").read_text())
BLUNDER_PLY = 49
SMALL = Budget(card_worlds=24, card_playouts=2, pool=48, split_worlds=8)


def position(record: Record, ply: int) -> tuple[State, int, int]:
    """The state before the ``ply``-th action of a record, its seat and its action."""
    final = record.to_state()
    deals = [(tuple(r.hands), r.aside, r.leader) for r in record.rounds]
    state = State.new(final.config, deals=deals)
    for seat, action in final.history[:ply]:
        state.apply(action, seat)
    seat, action = final.history[ply]
    return state, seat, action


def test_the_scripted_blunder_is_flagged_with_the_better_leads() -> None:
    state, seat, action = position(BLUNDER, BLUNDER_PLY)
    assert (seat, A.action_text(action), state.trick_number) == (1, "Q+=D", 12)
    verdict = judge(state.view(seat), action, QUICK)
    assert verdict.flag == "blunder"
    assert verdict.loss - verdict.margin >= 1.0
    assert verdict.best in ("Q+=S", "Q+=H")
    assert {o.action for o in verdict.better} >= {"Q+=S", "Q+=H"}


def test_the_best_move_is_not_flagged_and_loses_nothing() -> None:
    state, seat, _ = position(BLUNDER, BLUNDER_PLY)
    best = A.parse_action("Q+=S")
    verdict = judge(state.view(seat), best, QUICK)
    assert verdict.flag is None
    assert verdict.cleared == 0.0
    assert verdict.accuracy == 100.0


def test_forced_moves_are_never_flagged_and_never_searched() -> None:
    review = review_match(BLUNDER, budget=SMALL, seats=[1])
    forced = [d for d in review.decisions if d.judgement.forced]
    assert len(forced) >= 3  # at least the last trick of every round
    assert all(d.judgement.flag is None and d.judgement.worlds == 0 for d in forced)
    assert all(d.judgement.seat == 1 for d in review.decisions)
    flagged = {d.ply: d.judgement.flag for d in review.decisions}
    assert flagged[BLUNDER_PLY] == "blunder"
    summary = review.summary(1)
    assert summary.accuracy is not None and summary.accuracy < 100
    assert summary.flags["blunder"] >= 1


def test_another_deal_of_the_hidden_cards_changes_no_verdict() -> None:
    rng = random.Random(3)
    final = BLUNDER.to_state()
    checked = 0
    for ply in (0, 5, 30, BLUNDER_PLY, 70):
        state, seat, action = position(BLUNDER, ply)
        view = state.view(seat)
        world = sample_world(view, rng)
        others = [s for s in range(4) if s != seat]
        if state.phase is not Phase.SPLIT:
            # the other seats' hidden cards were dealt again: the verdict must not move
            assert any(world.hands[s] != state.hands[s] for s in others)
        assert world.view(seat) == view
        assert judge(world.view(seat), action, SMALL) == judge(view, action, SMALL)
        checked += 1
    assert checked == 5 and final.is_over


def test_the_match_review_is_the_judgement_of_each_seats_view() -> None:
    review = review_match(BLUNDER, budget=SMALL, seats=[2])
    decision = next(d for d in review.decisions if d.ply > 20 and not d.judgement.forced)
    state, seat, action = position(BLUNDER, decision.ply)
    world = sample_world(state.view(seat), random.Random(1))
    assert judge(world.view(seat), action, SMALL) == decision.judgement


def test_a_match_still_in_play_is_not_reviewable() -> None:
    state = State.new(MatchConfig(players=4, seed=1))
    for seat in range(4):
        state.apply(state.legal_actions(seat)[0], seat)
    with pytest.raises(ReviewError, match="finished"):
        review_match(Record.from_state(state))


def test_a_spectators_view_and_an_illegal_action_are_refused() -> None:
    state, seat, action = position(BLUNDER, BLUNDER_PLY)
    with pytest.raises(ReviewError, match="spectator"):
        judge(state.spectator_view(), action)
    with pytest.raises(ReviewError, match="not legal"):
        judge(state.view(seat), A.parse_action("2C"))
    with pytest.raises(ReviewError, match="seats 0 to 3"):
        review_match(BLUNDER, seats=[4])
