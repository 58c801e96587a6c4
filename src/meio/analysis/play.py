"""Playing one chunk of games and turning it into rows of the raw table.

Random and heuristic self-play runs in the compiled core (:func:`meio.sim.simulate`),
learned self-play too (the network in numba, :func:`meio.bots.netcore.simulate`);
the search bot, the skill study's mixed tables and any table option the core cannot
play go through the engine and the bots (:func:`meio.bots.play_match`). Both paths
fill the same arrays (:class:`Batch`), from which :func:`selfplay_rows` builds one
row per game, round and seat, so every figure is computed the same way whoever
played the games.

A variant's table (``Table.variant``) is played through the engine and the bots that
play variants (random, and the heuristic by :mod:`meio.bots.variant_play`'s rule);
its arrays take the variant's hand and pack sizes and as many rounds as its matches
run, and its rows are scored by its scoring form and match format.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from meio.analysis.plan import BLOCK, Cell, Chunk, Table, derive
from meio.engine import MatchConfig, TableOptions
from meio.engine import actions as A
from meio.engine import cards as C

Columns = dict[str, npt.NDArray[Any]]
MAX_ROUNDS = 3
#: the core's card id of each wild slot in a declare action (65 + 4 * slot + suit)
_SLOT_WILD = np.array([C.MINUS_ONE, C.A_PLUS, C.PLUS_HALF, C.Q_PLUS], dtype=np.int16)


@dataclass(frozen=True, slots=True)
class Batch:
    """Games of one cell as arrays (``G`` games, ``R`` rounds: 3 in the editions, as
    many as the longest match of a variant's batch; ``P`` seats).

    ``deals`` and ``splits`` hold card ids (the ``K`` dealt, the pack chosen for the
    second half: 13 and 6 in the editions, a variant's hand and pack sizes); ``won``
    is, per seat, the bit mask (bit ``card - 60``) of the special cards dealt to that
    seat that won the trick they were played in, whoever played them: in partnership
    a seat's second-half pack is played by its partner.
    """

    rounds_played: npt.NDArray[np.int8]  #: [G]
    leaders: npt.NDArray[np.int8]  #: [G, R]
    piles: npt.NDArray[np.int8]  #: [G, R, P, 2]
    deals: npt.NDArray[np.int8]  #: [G, R, P, K]
    splits: npt.NDArray[np.int8]  #: [G, R, P, pack]
    won: npt.NDArray[np.int8]  #: [G, R, P]


def match_config(table: Table, specials: tuple[int, ...] | None, seed: int) -> MatchConfig:
    """The engine's configuration of ``table``; ``specials=None`` draws them from ``seed``."""
    v = table.variant
    if v is not None:
        return MatchConfig(edition=v.edition, players=table.players,
                           partnership=table.partnership, specials=specials, seed=seed,
                           options=v.options, variant=v)
    return MatchConfig(edition=table.edition, players=table.players,
                       partnership=table.partnership,
                       specials=specials if table.edition == "meio" else None, seed=seed,
                       options=TableOptions(table.wild_lead, table.reveal_specials))


def core_plays(table: Table, policy: str) -> bool:
    """Whether the compiled core can play ``policy`` at ``table`` faithfully.

    The core plays random, heuristic and learned (the network, :mod:`meio.bots.netcore`)
    self-play. Hidden specials change nothing for random play, but the core's heuristic
    judges its cards against the whole deck, and the core's network is shown the
    table's specials, so they would know which specials are in: that reading goes to
    the engine. Both wild-lead readings are played by the core. A variant's table is
    played by the engine (its heuristic is :mod:`meio.bots.variant_play`'s rule).
    """
    if table.variant is not None or table.general:
        return False
    if policy not in ("random", "heuristic", "learned") and not policy.startswith("learned:"):
        return False
    return table.reveal_specials or policy == "random"


def on_core(cell: Cell) -> bool:
    """Whether ``cell``'s games are played by the compiled core."""
    return cell.pair is None and not cell.engine and core_plays(cell.table, cell.policy)


def play_chunk(chunk: Chunk) -> Columns:
    """Play a chunk and return its rows (the unit of work of every backend)."""
    cell = chunk.cell
    if cell.pair is not None:
        return duplicate_rows(chunk)
    batch = core_batch(chunk) if on_core(cell) else engine_batch(chunk)
    return selfplay_rows(cell, chunk.first, batch, engine=not on_core(cell))


# -- the two ways of playing self-play games ---------------------------------------------
def core_batch(chunk: Chunk) -> Batch:
    """The chunk's games played by the compiled core."""
    from meio.sim import simulate

    cell = chunk.cell
    config = match_config(cell.table, cell.specials, 0)
    parts: list[Batch] = []
    stop = chunk.first + chunk.count
    for block in range(chunk.first // BLOCK, (stop - 1) // BLOCK + 1):
        lo = max(chunk.first - block * BLOCK, 0)
        hi = min(stop - block * BLOCK, BLOCK)
        if cell.policy.startswith("learned"):
            full = _learned_block(config, hi, chunk.block_seed(block), cell.table,
                                  cell.policy.removeprefix("learned").removeprefix(":"))
            parts.append(Batch(*(getattr(full, f)[lo:hi] for f in Batch.__slots__)))
            continue
        res = simulate(config, hi, chunk.block_seed(block), cell.policy, record=True)
        assert res.deals is not None and res.splits is not None
        assert res.plays is not None and res.nplays is not None and res.tricks is not None
        won = _special_wins(res.plays, res.nplays, res.tricks, res.leaders,
                            cell.table.players, cell.table.partnership)
        full = Batch(res.rounds_played, res.leaders, res.piles, res.deals, res.splits, won)
        parts.append(Batch(*(getattr(full, f)[lo:hi] for f in Batch.__slots__)))
    return Batch(*(np.concatenate([getattr(p, f) for p in parts]) for f in Batch.__slots__))


def _learned_block(config: MatchConfig, count: int, seed: int, table: Table,
                   path: str) -> Batch:
    """Games ``0 .. count - 1`` of a block played by a network in every seat: the
    policy file at ``path`` (an edition's network or a network for any ruleset), or the
    one ``learned`` plays on this ruleset when ``path`` is empty (``learned-v7`` on an
    edition, the network for any ruleset elsewhere)."""
    from meio.bots.general import GENERAL_POLICY, GeneralPolicy, is_general_file, load_general
    from meio.bots.learned import DEFAULT_POLICY, LearnedPolicy, load_policy
    from meio.bots.netcore import simulate as simulate_net
    from meio.sim.tables import plays_variant

    if not path:
        path = str(GENERAL_POLICY if plays_variant(config) else DEFAULT_POLICY)
    policy: LearnedPolicy | GeneralPolicy = (load_general(path) if is_general_file(path)
                                             else load_policy(path))
    res = simulate_net(config, 0, count, seed, policy)
    won = _special_wins(res["plays"], res["nplays"], res["tricks"], res["leaders"],
                        table.players, table.partnership)
    return Batch(res["rounds_played"], res["leaders"], res["piles"], res["deals"],
                 res["splits"], won)


def _special_wins(plays: npt.NDArray[np.int8], nplays: npt.NDArray[np.int8],
                  tricks: npt.NDArray[np.int8], leaders: npt.NDArray[np.int8],
                  players: int, partnership: bool = False) -> npt.NDArray[np.int8]:
    """Per game, round and seat: the specials dealt to the seat that won their trick
    (in partnership a second-half card is played by the partner of the seat dealt it)."""
    acts = plays.astype(np.int16)
    live = np.arange(acts.shape[-1])[None, None, :] < nplays[..., None]
    is_card = live & (acts < A.PILE_1)
    card = np.where(acts >= 65, _SLOT_WILD[np.clip((acts - 65) // 4, 0, 3)], acts)
    order = np.cumsum(is_card, axis=-1) - 1  # index of each card play in the round
    trick = np.clip(order // players, 0, 12)
    winners = tricks[:, :, 0, :].astype(np.int16)
    trick_leader = np.concatenate([leaders[..., None].astype(np.int16), winners[..., :12]], -1)
    lead = np.take_along_axis(trick_leader, trick, -1)
    seat = (lead + order % players) % players
    won_trick = np.take_along_axis(winners, trick, -1) == seat
    special = is_card & (card >= 60) & won_trick
    owner = seat
    if partnership:
        owner = np.where(trick >= 7, (seat + 2) % players, seat)
    out = np.zeros((*leaders.shape, players), dtype=np.int8)
    g, r, i = np.nonzero(special)
    np.bitwise_or.at(out, (g, r, owner[g, r, i]), (1 << (card[g, r, i] - 60)).astype(np.int8))
    return out


def engine_batch(chunk: Chunk) -> Batch:
    """The chunk's games played through the engine by one bot per seat."""
    from meio.bots import make_bot, play_match

    cell = chunk.cell
    n, p = chunk.count, cell.table.players
    games = []
    for i in range(n):
        seed = chunk.game_seed(chunk.first + i)
        config = match_config(cell.table, cell.specials, seed)
        bots = [make_bot(cell.table.bot(cell.policy), derive(seed, seat)) for seat in range(p)]
        games.append((config, play_match(config, bots)))
    rounds = max([MAX_ROUNDS] + [len(state.rounds) for _, state in games])
    out = _empty(n, p, rounds, cell.table.hand, cell.table.pack)
    for i, (config, state) in enumerate(games):
        first_half = config.first_half_size
        starts = state.round_starts()
        bounds = [s.history_len for s in starts] + [len(state.history)]
        out["rounds_played"][i] = len(state.rounds)
        for r, result in enumerate(state.rounds):
            out["leaders"][i, r] = result.leader
            for seat in range(p):
                out["piles"][i, r, seat] = result.piles[seat]
                out["deals"][i, r, seat] = C.cards_of(starts[r].deal[seat])
            for seat, action in state.history[bounds[r]:bounds[r + 1]]:
                if A.is_pack(action):
                    out["splits"][i, r, seat] = C.cards_of(A.pack_of(action))
            for number, trick in enumerate(result.tricks):
                for seat, card in trick.plays:
                    if card >= 60 and seat == trick.winner:
                        # a second-half card in partnership came from the partner's deal
                        owner = (seat + 2) % p if config.partnership and number >= first_half \
                            else seat
                        out["won"][i, r, owner] |= 1 << (card - 60)
    return Batch(**out)


def _empty(n: int, p: int, rounds: int = MAX_ROUNDS, hand: int = 13,
           pack: int = 6) -> dict[str, npt.NDArray[np.int8]]:
    return {
        "rounds_played": np.zeros(n, dtype=np.int8),
        "leaders": np.zeros((n, rounds), dtype=np.int8),
        "piles": np.zeros((n, rounds, p, 2), dtype=np.int8),
        "deals": np.zeros((n, rounds, p, hand), dtype=np.int8),
        "splits": np.zeros((n, rounds, p, pack), dtype=np.int8),
        "won": np.zeros((n, rounds, p), dtype=np.int8),
    }


# -- rows -------------------------------------------------------------------------------
def victories_format(table: Table) -> bool:
    """Whether matches at ``table`` go to 2 round victories (else 3 rounds on totals)."""
    return match_config(table, None, 0).victories_to_win is not None


def _counts(cards: npt.NDArray[np.int8], table: Table) -> dict[str, npt.NDArray[Any]]:
    c = cards.astype(np.int16)
    plain = c < 60
    rank = c % 15
    # the specials of the hearts suit: -2H, or a variant's cards whose suit is hearts
    red = [C.MINUS_TWO_H] if table.variant is None else [
        s.card for s in table.variant.specials if s.suit == C.HEARTS]
    hearts = (plain & (c // 15 == C.HEARTS)) | np.isin(c, red)
    high = plain & ((rank == 12) | (rank == 13) | ((rank == 14) & (table.edition == "meio")))
    bits = np.where(c >= 60, 1 << np.clip(c - 60, 0, 4), 0)
    return {"hearts": hearts.sum(-1), "high": high.sum(-1), "specials": bits.sum(-1)}


def _scored(diff: npt.NDArray[np.int16], table: Table) -> npt.NDArray[np.int16]:
    """The score of piles differing by ``diff``: ``|H - V|``, or the variant's form
    (:func:`meio.engine.scoring.balance_score`, done on arrays)."""
    d = np.abs(diff).astype(np.int16)
    v = table.variant
    if v is None or v.scoring == "difference":
        return d
    if v.scoring == "squared":
        return (d * d).astype(np.int16)
    return np.where(d == 0, np.int16(-v.bonus), d).astype(np.int16)


def selfplay_rows(cell: Cell, first: int, batch: Batch, engine: bool = False) -> Columns:
    """One row per game, round and seat, with everything the studies read
    (``engine``: whether the engine and bots played them, not the core)."""
    table = cell.table
    g_n, p = batch.rounds_played.shape[0], table.players
    rounds = batch.leaders.shape[1]
    played = np.arange(rounds)[None, :] < batch.rounds_played[:, None]  # [G, R]
    piles = batch.piles.astype(np.int16)
    diff = piles[..., 0] - piles[..., 1]  # [G, R, P]
    score = _scored(diff, table)
    if table.partnership:
        team = np.stack([diff[..., 0] + diff[..., 2], diff[..., 1] + diff[..., 3]], -1)
        side_of = np.arange(p) % 2
    else:
        team = diff
        side_of = np.arange(p)
    side = _scored(team, table)  # [G, R, S]
    big = np.int16(30000)
    masked = np.where(played[..., None], side, 0)
    low = np.where(played[..., None], side, big).min(-1, keepdims=True)
    round_best = (side == low) & played[..., None]
    round_win = round_best / np.maximum(round_best.sum(-1, keepdims=True), 1)
    totals = masked.sum(1)  # [G, S]
    last = (batch.rounds_played - 1)[:, None, None].astype(np.int64)
    if table.variant is not None:
        # the engine's rules (meio.engine.scoring): a round victory is the one lowest
        # score's, a match the most victories' (first to K) or the lowest total's; the
        # last round decides when the winners after it differ from those before it
        if victories_format(table):
            victory = round_best & (round_best.sum(-1, keepdims=True) == 1)
            wins = victory.sum(1)
            before = wins - np.take_along_axis(victory, last, 1)[:, 0]
            best = wins == wins.max(-1, keepdims=True)
            best_before = before == before.max(-1, keepdims=True)
        else:
            before = totals - np.take_along_axis(masked, last, 1)[:, 0]
            best = totals == totals.min(-1, keepdims=True)
            best_before = before == before.min(-1, keepdims=True)
        decided_last = (best_before != best).any(-1)
    elif victories_format(table):
        wins = round_best.sum(1)
        best = wins == wins.max(-1, keepdims=True)
        decided_last = batch.rounds_played == MAX_ROUNDS
    else:
        best = totals == totals.min(-1, keepdims=True)
        before = totals - np.take_along_axis(masked, last, 1)[:, 0]
        best_before = before == before.min(-1, keepdims=True)
        decided_last = (best_before != best).any(-1)
    match_win = best / best.sum(-1, keepdims=True)
    dealt = _counts(batch.deals, table)
    pack = _counts(batch.splits, table)
    gi, ri, si = np.nonzero(np.broadcast_to(played[..., None], (g_n, rounds, p)))
    wide = np.int16 if table.variant is not None else np.int8  # a squared score > 127
    sides = side_of[si]
    leaders = batch.leaders.astype(np.int16)
    first_leader = leaders[gi, 0]
    rows: Columns = {
        "cell": np.full(gi.size, cell.key),
        "table": np.full(gi.size, table.key),
        "specials": np.full(gi.size, ",".join(C.card_code(s) for s in cell.specials) or "none"),
        "policy": np.full(gi.size, cell.policy),
        "engine": np.full(gi.size, engine),
        "game": (gi + first).astype(np.int64),
        "round": ri.astype(np.int8),
        "seat": si.astype(np.int8),
        "rounds": batch.rounds_played[gi].astype(np.int8),
        "leader": leaders[gi, ri].astype(np.int8),
        "first_leader": first_leader.astype(np.int8),
        "from_leader": ((si - leaders[gi, ri]) % p).astype(np.int8),
        "from_first_leader": ((si - first_leader) % p).astype(np.int8),
        "h": piles[gi, ri, si, 0].astype(np.int8),
        "v": piles[gi, ri, si, 1].astype(np.int8),
        "score": score[gi, ri, si].astype(wide),
        "side_score": side[gi, ri, sides].astype(wide),
        "total": totals[gi, sides].astype(np.int16),
        "round_win": round_win[gi, ri, sides].astype(np.float64),
        "match_win": match_win[gi, sides].astype(np.float64),
        "decided_last": decided_last[gi],
        "dealt_specials": dealt["specials"][gi, ri, si].astype(np.int8),
        "pack_specials": pack["specials"][gi, ri, si].astype(np.int8),
        "won_specials": batch.won[gi, ri, si].astype(np.int8),
        "hearts_dealt": dealt["hearts"][gi, ri, si].astype(np.int8),
        "hearts_pack": pack["hearts"][gi, ri, si].astype(np.int8),
        "high_dealt": dealt["high"][gi, ri, si].astype(np.int8),
        "high_pack": pack["high"][gi, ri, si].astype(np.int8),
    }
    return rows


def duplicate_rows(chunk: Chunk) -> Columns:
    """A skill pair on duplicate deals: each deal played once per rotation of the bots.

    One row per deal, rotation, round and seat: which bot sat there and its side's
    round score and match result.
    """
    from meio.bots import make_bot, play_match
    from meio.tournament import lineups

    cell = chunk.cell
    assert cell.pair is not None
    table = cell.table
    out: dict[str, list[Any]] = {k: [] for k in ("game", "rotation", "round", "seat", "bot",
                                                 "side_score", "match_win")}
    for d in range(chunk.first, chunk.first + chunk.count):
        seed = chunk.game_seed(d)
        config = match_config(table, None, seed)
        for rot, lineup in enumerate(lineups(cell.pair, table.players)):
            bots = [make_bot(table.bot(kind), derive(seed, seat))
                    for seat, kind in enumerate(lineup)]
            state = play_match(config, bots)
            winners = set(state.winners)
            win_sides = {config.team_of(s) for s in winners}
            for r, result in enumerate(state.rounds):
                for seat, kind in enumerate(lineup):
                    out["game"].append(d)
                    out["rotation"].append(rot)
                    out["round"].append(r)
                    out["seat"].append(seat)
                    out["bot"].append(kind)
                    ts = result.team_scores
                    out["side_score"].append(ts[seat % 2] if ts is not None
                                             else result.scores[seat])
                    out["match_win"].append(
                        (1.0 / len(win_sides)) if config.team_of(seat) in win_sides else 0.0)
    n = len(out["game"])
    return {
        "cell": np.full(n, cell.key),
        "table": np.full(n, table.key),
        "pair": np.full(n, "-vs-".join(cell.pair)),
        "game": np.array(out["game"], dtype=np.int64),
        "rotation": np.array(out["rotation"], dtype=np.int8),
        "round": np.array(out["round"], dtype=np.int8),
        "seat": np.array(out["seat"], dtype=np.int8),
        "bot": np.array(out["bot"], dtype=str),
        "side_score": np.array(out["side_score"],  # a variant's squared score passes 127
                               dtype=np.int8 if table.variant is None else np.int16),
        "match_win": np.array(out["match_win"], dtype=np.float64),
    }
