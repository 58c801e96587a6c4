"""The figures agree with a direct computation over the same games, read back from
the Parquet files; the core's special-card bookkeeping agrees with the engine."""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from meio.analysis import Run, read_table
from meio.analysis.plan import Cell, Chunk, Table
from meio.analysis.play import core_batch
from meio.engine import MatchConfig
from meio.engine import cards as C
from meio.engine.record import Record
from meio.sim import simulate


def _games(run: tuple[Run, Path]) -> dict[str, np.ndarray]:
    frame = read_table(run[1] / "games.parquet")
    return {key: frame[key] for key in frame.cols}


def _main(cols: dict[str, np.ndarray], table: str) -> np.ndarray:
    return (cols["table"] == table) & (cols["policy"] == "heuristic") & ~cols["engine"] & \
        ~np.char.endswith(cols["cell"].astype(str), "-engine")


def test_seat_figures_match_a_plain_recount(small_run: tuple[Run, Path],
                                            summary: dict[str, Any]) -> None:
    cols = _games(small_run)
    for table in ("meio-4p", "classic-2p", "meio-4p-team"):
        m = _main(cols, table)
        seats = summary["studies"]["seats"][table]
        for k, est in enumerate(seats["score_by_leader_offset"]):
            rows = m & (cols["from_leader"] == k)
            assert est["value"] == pytest.approx(cols["side_score"][rows].mean(), abs=1e-6)
        for k, est in enumerate(seats["match_win_by_first_leader_offset"]):
            rows = m & (cols["from_first_leader"] == k) & (cols["round"] == 0)
            assert est["value"] == pytest.approx(cols["match_win"][rows].mean(), abs=1e-6)


def test_an_interval_matches_a_recount_by_game(small_run: tuple[Run, Path],
                                               summary: dict[str, Any]) -> None:
    cols = _games(small_run)
    rows = _main(cols, "meio-4p") & (cols["from_leader"] == 0)
    by_game: dict[tuple[str, int], list[float]] = defaultdict(list)
    for cell, game, score in zip(cols["cell"][rows], cols["game"][rows],
                                 cols["side_score"][rows], strict=True):
        by_game[(str(cell), int(game))].append(float(score))
    sums = np.array([sum(v) for v in by_game.values()])
    counts = np.array([len(v) for v in by_game.values()])
    mean = sums.sum() / counts.sum()
    g = len(sums)
    se = math.sqrt(g / (g - 1) * ((sums - mean * counts) ** 2).sum()) / counts.sum()
    est = summary["studies"]["seats"]["meio-4p"]["score_by_leader_offset"][0]
    assert est["n"] == g == 300
    assert est["ci95"] == pytest.approx([mean - 1.96 * se, mean + 1.96 * se], abs=1e-3)


def test_length_splits_and_specials_match_a_recount(small_run: tuple[Run, Path],
                                                    summary: dict[str, Any]) -> None:
    cols = _games(small_run)
    m = _main(cols, "meio-4p")
    length = summary["studies"]["length"]["meio-4p"]
    assert length["mean_round_score"]["value"] == pytest.approx(
        cols["side_score"][m].mean(), abs=1e-6)
    splits = summary["studies"]["splits"]["meio-4p"]
    assert splits["hearts"]["share_to_second_half"]["value"] == pytest.approx(
        cols["hearts_pack"][m].sum() / cols["hearts_dealt"][m].sum(), abs=1e-6)
    # Q+ held: the holder's score minus the mean of the other three, round by round
    card = C.Q_PLUS
    bit = 1 << (card - 60)
    rounds: dict[tuple[str, int, int], list[tuple[int, int, int, int]]] = defaultdict(list)
    for i in np.nonzero(m)[0]:
        rounds[(str(cols["cell"][i]), int(cols["game"][i]), int(cols["round"][i]))].append(
            (int(cols["dealt_specials"][i]), int(cols["side_score"][i]),
             int(cols["won_specials"][i]), int(cols["pack_specials"][i])))
    diffs, won = [], []
    for seats in rounds.values():
        holders = [s for s in seats if s[0] & bit]
        if not holders:
            continue
        (_, score, w, _), = holders
        others = [s[1] for s in seats if not s[0] & bit]
        diffs.append(score - sum(others) / len(others))
        won.append(bool(w & bit))
    fig = summary["studies"]["specials"]["meio-4p"]["cards"]["Q+"]
    assert fig["holder_minus_others"]["value"] == pytest.approx(np.mean(diffs), abs=1e-6)
    assert fig["wins_its_trick"]["value"] == pytest.approx(np.mean(won), abs=1e-6)


def test_skill_gap_matches_a_recount_from_the_duplicates(
        small_run: tuple[Run, Path], summary: dict[str, Any]) -> None:
    frame = read_table(small_run[1] / "duplicates.parquet")
    cols = {key: frame[key] for key in frame.cols}
    m = cols["table"] == "classic-4p"
    per_deal = []
    for deal in np.unique(cols["game"][m]):
        d = m & (cols["game"] == deal)
        per_deal.append(cols["side_score"][d & (cols["bot"] == "random")].mean()
                        - cols["side_score"][d & (cols["bot"] == "heuristic")].mean())
    pair = summary["studies"]["skill"]["classic-4p"]["pairs"]["heuristic-vs-random"]
    assert pair["weaker_minus_stronger"]["value"] == pytest.approx(np.mean(per_deal), abs=1e-6)


@pytest.mark.parametrize(("players", "partnership"), [(2, False), (4, False), (5, False),
                                                     (4, True)])
def test_special_trick_wins_from_the_core_agree_with_the_engine(
        players: int, partnership: bool) -> None:
    specials = tuple(C.SPECIALS[:players])
    cell = Cell(Table("meio", players, partnership), specials, "random")
    batch = core_batch(Chunk(cell, 0, 30, seed=3))
    config = MatchConfig(players=players, partnership=partnership, specials=specials)
    res = simulate(config, 30, Chunk(cell, 0, 30, 3).block_seed(0), "random", record=True)
    checked = by_partner = 0
    for g in range(30):
        state = Record.from_json(res.record(g)).to_state()
        for r, result in enumerate(state.rounds):
            expect = [0] * players
            for number, trick in enumerate(result.tricks):
                for seat, c in trick.plays:
                    if c >= 60 and seat == trick.winner:
                        # the bit goes to the seat dealt the card: in partnership a
                        # second-half card is played by the partner of that seat
                        owner = (seat + 2) % 4 if partnership and number >= 7 else seat
                        expect[owner] |= 1 << (c - 60)
                        by_partner += owner != seat
            assert batch.won[g, r].tolist() == expect
            checked += sum(1 for e in expect if e)
    assert checked > 10
    assert (by_partner > 0) == partnership


def test_partnership_specials_kept_for_the_second_half_can_win_their_trick(
        summary: dict[str, Any]) -> None:
    cards = summary["studies"]["specials"]["meio-4p-team"]["cards"]
    # the partner plays a seat's second-half pack; its wins count for the seat dealt it
    assert any((v["wins_second_half"]["value"] or 0) > 0 for v in cards.values())
