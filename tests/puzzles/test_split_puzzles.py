"""Split puzzles: which of three or four packs is best, the best certified world by
world against each pack offered beside it (the heuristic's among them); packs that
differ by cards that touch are one answer; the shipped set holds split puzzles that can
be answered."""

from __future__ import annotations

import itertools
import math
from importlib import resources

import pytest

import meio.bots.advisor as advisor
from meio.bots.advisor import Advice, Candidate
from meio.bots.heuristic import HeuristicBot
from meio.engine import MatchConfig, Phase, State, View
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.errors import MeioError
from meio.engine.record import Record
from meio.puzzles import Entry, shipped
from meio.puzzles.collection import SHIPPED, set_json
from meio.puzzles.mine import MIN_GAP, certified, mine_match, rank
from meio.puzzles.packs import pack_class, runs, same_split
from meio.review import Budget

SMALL = Budget(card_worlds=8, card_playouts=1, pool=8, split_worlds=8)
WORLDS = 32
#: a deal's luck: the round score of the best pack in each of 32 worlds (0 to 6)
LUCK = [(3 * w) % 7 for w in range(WORLDS)]


def split_view() -> tuple[State, View]:
    # classic, 4 players, seed 3: seat 0 holds 2S 5S 9S 4H 7H 8H 9H KH 9D QD 5C JC AC
    state = State.new(MatchConfig(edition="classic", players=4, seed=3))
    return state, state.view(0)


def packs(view: View) -> tuple[int, int, int, int]:
    """The heuristic's pack, a best pack of another split, the best pack with 7H for 9H
    (cards that touch: the same split) and a pack of a third split."""
    heuristic = A.pack_of(HeuristicBot().choose(view, list(view.legal_actions())))
    seven = C.parse_card("7H")
    nine = C.parse_card("9H")
    hand = view.hand
    found = []
    for cards in itertools.combinations(C.iter_cards(hand), 6):
        pack = C.mask_of(cards)
        if (pack >> seven & 1 and not pack >> nine & 1
                and not same_split(view, pack, heuristic)
                and all(not same_split(view, pack, p) for p in found)):
            found.append(pack)
        if len(found) == 2:
            break
    best, third = found
    twin = best & ~(1 << seven) | 1 << nine
    return heuristic, best, twin, third


def candidate(pack: int, scores: list[int]) -> Candidate:
    mean = sum(scores) / len(scores)
    return Candidate(pack, mean, max(0.0, mean - 1.0), mean + 1.0, 3.5, 3.5, "", tuple(scores))


def fake_advice(view: View, heuristic_scores: list[int]) -> Advice:
    """The advisor's answer, made up: the best pack scores a deal's luck, its twin the
    same, a pack of a third split 2 points more in every world."""
    heuristic, best, twin, third = packs(view)
    ranked = [candidate(best, LUCK), candidate(twin, LUCK),
              candidate(third, [s + 2 for s in LUCK]),
              candidate(heuristic, heuristic_scores)]
    ranked.sort(key=lambda c: c.mean)
    chosen = next(c for c in ranked if c.pack == heuristic)
    return Advice(ranked, ranked[0], chosen, "", WORLDS)


def test_packs_that_differ_by_touching_cards_are_one_split() -> None:
    _, view = split_view()
    assert [C.format_cards(r) for r in runs(view)][:5] == ["2S", "5S", "9S", "4H", "7H 8H 9H"]
    _, best, twin, third = packs(view)
    assert same_split(view, best, twin) and best != twin
    assert not same_split(view, best, third)
    assert pack_class(view, best) != pack_class(view, third)


def test_with_q_plus_in_another_hand_a_queen_and_king_do_not_touch() -> None:
    # a deal where the seat holds QD and KD and Q+ is in the deck, in another hand
    for seed in range(200):
        state = State.new(MatchConfig(players=4, seed=seed))
        view = state.view(0)
        q, k = C.parse_card("QD"), C.parse_card("KD")
        if view.hand >> q & 1 and view.hand >> k & 1 and not view.hand >> C.Q_PLUS & 1 \
                and C.Q_PLUS in view.specials:
            assert not any(r >> q & 1 and r >> k & 1 for r in runs(view))
            break
    else:
        pytest.fail("no deal of 200 had QD and KD with Q+ elsewhere")


@pytest.mark.parametrize(("shifts", "certify"), [
    # the heuristic's pack is 1 point worse in every other world: the difference is
    # sure (a narrow paired interval), though each pack's own interval is wide
    ([1, 0], True),
    # the same average gap (0.5) with the worlds disagreeing: no one answer
    ([3, -2], False),
])
def test_a_split_is_certified_only_when_the_paired_interval_clears_the_margin(
        monkeypatch: pytest.MonkeyPatch, shifts: list[int], certify: bool) -> None:
    _, view = split_view()
    rival = [s + shifts[w % 2] for w, s in enumerate(LUCK)]
    monkeypatch.setattr(advisor, "advise_view", lambda *a, **k: fake_advice(view, rival))
    found = rank(view, SMALL, 1)
    assert found is not None and found.kind == "split"
    heuristic, best, _, third = packs(view)
    assert found.answer == A.pack_action(best)
    # the twin (7H for 9H) is the same split as the answer: it is not offered beside it
    assert set(found.choices) == {A.pack_action(p) for p in (best, heuristic, third)}
    diffs = [r - s for r, s in zip(rival, LUCK, strict=True)]
    mean = sum(diffs) / WORLDS
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (WORLDS - 1))
    assert found.gap == pytest.approx(0.5)
    assert found.margin == pytest.approx(1.96 * sd / math.sqrt(WORLDS))
    # each pack's own 95% interval, combined as if independent, is wider than the gap
    luck_sd = math.sqrt(sum((s - sum(LUCK) / WORLDS) ** 2 for s in LUCK) / (WORLDS - 1))
    assert math.hypot(1.96 * luck_sd / math.sqrt(WORLDS), 1.96 * luck_sd / math.sqrt(WORLDS)) \
        > found.gap - MIN_GAP
    assert certified(found) is certify


def test_a_split_is_no_puzzle_when_the_heuristic_already_packs_the_best_split(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _, view = split_view()
    # the heuristic's pack scores as the best one in every world: no puzzle, however
    # clearly the other packs lose
    monkeypatch.setattr(advisor, "advise_view", lambda *a, **k: fake_advice(
        view, [s - 1 if s else 0 for s in LUCK]))
    found = rank(view, SMALL, 1)
    assert found is not None and found.answer == found.heuristic
    assert not certified(found)


def test_a_split_with_no_third_pack_to_offer_is_no_puzzle(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _, view = split_view()
    heuristic, best, twin, _ = packs(view)
    # the heuristic's pack loses clearly, but the only other pack is the best's twin:
    # a choice of two is a coin's toss, not a puzzle
    two = Advice([candidate(best, LUCK), candidate(twin, LUCK),
                  candidate(heuristic, [s + 2 for s in LUCK])], candidate(best, LUCK),
                 candidate(heuristic, [s + 2 for s in LUCK]), "", WORLDS)
    monkeypatch.setattr(advisor, "advise_view", lambda *a, **k: two)
    found = rank(view, SMALL, 1)
    assert found is not None and found.gap == 2.0 and not certified(found)


def test_a_split_puzzle_is_answered_by_its_split_not_by_another() -> None:
    state, view = split_view()
    heuristic, best, twin, third = packs(view)
    offered = tuple(A.action_text(A.pack_action(p)) for p in (heuristic, best, third))
    entry = Entry("t", 0, "split", "split-balance", A.action_text(A.pack_action(best)),
                  A.action_text(A.pack_action(heuristic)), (), 0.5,
                  Record.from_state(state).to_json(), offered)
    assert entry.solves(A.pack_action(best)) and entry.solves(A.pack_action(twin))
    assert not entry.solves(A.pack_action(third))
    assert not entry.solves(A.pack_action(heuristic))
    # what a solver types: the cards in any order, or the record's pack text
    assert entry.move(" ".join(reversed(C.codes(twin)))) == A.pack_action(twin)
    assert entry.move(A.action_text(A.pack_action(best))) == A.pack_action(best)
    # or the number of a pack offered
    assert entry.move("2") == A.pack_action(best) and entry.solves(entry.move("2"))
    assert not entry.solves(entry.move("1"))
    for bad in ("QS QS", "0", "4"):
        with pytest.raises(MeioError):
            entry.move(bad)


def test_mining_refuses_an_unknown_kind_or_share() -> None:
    with pytest.raises(MeioError, match="kinds"):
        mine_match(None, 1, 0, kinds=("splits",))
    with pytest.raises(MeioError, match="share"):
        mine_match(None, 1, 0, split_share=1.5)


def test_the_shipped_set_holds_split_puzzles_certified_against_every_rival() -> None:
    puzzles = shipped()
    assert puzzles.name == SHIPPED == "meio-puzzles-v2"
    data = resources.files("meio.puzzles").joinpath(f"{SHIPPED}.json.gz").read_bytes()
    raw = {p["id"]: p for p in set_json(data)["puzzles"]}
    splits = [p for p in puzzles.puzzles if p.kind == "split"]
    assert splits
    for entry in splits:
        assert raw[entry.id]["gap"] - raw[entry.id]["margin"] >= MIN_GAP
        view = entry.view()
        assert view.phase is Phase.SPLIT and view.seat == entry.seat
        answer = A.parse_action(entry.answer)
        assert answer in view.legal_actions()
        assert entry.solves(answer) and not entry.solves(A.parse_action(entry.heuristic))
        assert 3 <= len(entry.choices) <= 4 and entry.answer in entry.choices
        assert entry.heuristic in entry.choices
        assert sum(entry.solves(A.parse_action(c)) for c in entry.choices) == 1
