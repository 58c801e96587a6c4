"""Puzzles: the miner's verdicts come from the player's view, a set round-trips through
its file, the shipped set is what the command made, and attempts are rated."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from meio.engine import Phase, sample_world
from meio.engine import actions as A
from meio.puzzles import PuzzleError, read_set, shipped
from meio.puzzles.collection import FORMAT, write_set
from meio.puzzles.mine import MIN_GAP, mine_match, positions, rank
from meio.puzzles.progress import Progress
from meio.ratings import Rating, RatingError
from meio.review import Budget
from tests.review.test_review import BLUNDER, BLUNDER_PLY, position

SMALL = Budget(card_worlds=24, card_playouts=2, pool=48, split_worlds=8)


def test_the_shipped_set_holds_500_puzzles_that_clear_their_margin() -> None:
    puzzles = shipped()
    assert puzzles.name == "meio-puzzles-v2" and puzzles.seed == 39
    assert puzzles.version and "mine-puzzles" in puzzles.command
    assert len(puzzles.puzzles) >= 500
    assert len({p.id for p in puzzles.puzzles}) == len(puzzles.puzzles)
    kinds = {p.kind for p in puzzles.puzzles}
    assert {"lead", "follow"} <= kinds
    for p in puzzles.puzzles:
        assert p.answer != p.heuristic
        assert p.options[0][0] == p.answer
        assert p.gap >= MIN_GAP


def test_the_second_set_keeps_every_puzzle_of_the_first_as_it_was() -> None:
    here = Path(__file__).parents[2] / "src/meio/puzzles"
    first = read_set((here / "meio-puzzles-v1.json.gz").read_bytes())
    second = shipped()
    assert first.name == "meio-puzzles-v1" and len(first.puzzles) == 520
    assert second.puzzles[: len(first.puzzles)] == first.puzzles
    assert second.budget["base"]["set"] == "meio-puzzles-v1"
    assert second.budget["base"]["command"] == first.command
    assert len(second.puzzles) > len(first.puzzles)


def test_a_shipped_puzzle_replays_to_its_seats_turn_and_its_answer_is_legal() -> None:
    for entry in random.Random(1).sample(shipped().puzzles, 12):
        state = entry.state()
        view = entry.view()
        assert entry.seat in state.seats_to_act() or state.to_move == entry.seat
        legal = list(view.legal_actions())
        assert len(legal) >= 2
        if entry.kind == "split":
            assert view.phase is Phase.SPLIT
        else:
            assert A.parse_action(entry.answer) in legal
            assert entry.solves(A.parse_action(entry.answer))
            assert not entry.solves(A.parse_action(entry.heuristic))


def test_the_ranking_of_a_position_reads_only_the_seats_view() -> None:
    state, seat, _ = position(BLUNDER, BLUNDER_PLY)
    view = state.view(seat)
    world = sample_world(view, random.Random(4))
    assert rank(world.view(seat), SMALL, 7) == rank(view, SMALL, 7)


def test_two_equally_good_moves_make_no_puzzle() -> None:
    # at the scripted blunder, Q+ declaring spades or hearts are worth the same: the
    # position has no one clear answer, so the miner must pass it by
    state, seat, _ = position(BLUNDER, BLUNDER_PLY)
    found = rank(state.view(seat), SMALL, 7)
    assert found is not None and found.kind == "lead"
    assert {A.action_text(a) for a, _ in found.options[:2]} == {"Q+=S", "Q+=H"}
    assert found.gap == 0.0
    assert found.gap - found.margin < MIN_GAP


def test_mining_a_match_is_fixed_by_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    import meio.puzzles.mine as mine

    monkeypatch.setattr(mine, "SPLIT_SHARE", 0.0)
    first = mine_match(BLUNDER, 5, 0, budget=SMALL, screen=SMALL)
    again = mine_match(BLUNDER, 5, 0, budget=SMALL, screen=SMALL)
    assert [p.to_json() for p in first] == [p.to_json() for p in again]
    plies = {len(state.history) for state, _, _ in positions(BLUNDER)}
    for p in first:
        assert int(p.id.split("-")[2]) in plies
        assert p.found.answer != p.found.heuristic


def test_a_set_round_trips_through_its_file(tmp_path: Path) -> None:
    entry = shipped().puzzles[0]
    raw = json.loads(gzip.decompress(
        (Path(__file__).parents[2] / "src/meio/puzzles/meio-puzzles-v1.json.gz").read_bytes()))
    path = tmp_path / "set.json.gz"
    write_set(path, "test-v1", 3, "meio mine-puzzles --count 1", {"x": 1}, raw["puzzles"][:1])
    back = read_set(path.read_bytes())
    assert back.name == "test-v1" and back.seed == 3 and back.puzzles[0] == entry
    # the same puzzles give the same bytes
    again = tmp_path / "again.json.gz"
    write_set(again, "test-v1", 3, "meio mine-puzzles --count 1", {"x": 1}, raw["puzzles"][:1])
    assert again.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("data", [b"", b"{}", b'{"format": "other"}',
                                  json.dumps({"format": FORMAT, "set": "x"}).encode(),
                                  gzip.compress(b"not json", mtime=0)])
def test_a_bad_puzzle_file_is_one_clear_error(data: bytes) -> None:
    with pytest.raises(PuzzleError):
        read_set(data, "bad.json.gz")


def test_an_unknown_puzzle_is_refused() -> None:
    with pytest.raises(PuzzleError, match="no puzzle"):
        shipped().get("nothing")


def test_solving_raises_the_solver_and_lowers_the_puzzle() -> None:
    p = Progress()
    p, puzzle = p.attempt(Rating(), solved=True)
    p, puzzle = p.attempt(puzzle, solved=True)
    assert p.streak == 2 and p.best_streak == 2 and p.rating.mu > 25 > puzzle.mu
    p, harder = p.attempt(Rating(30.0, 4.0), solved=False)
    assert p.streak == 0 and p.best_streak == 2 and harder.mu > 30
    assert Progress.from_json(json.loads(json.dumps(p.to_json()))) == p
    with pytest.raises(RatingError):
        Progress.from_json({"mu": 1})
