"""Batch simulation: many seeded rounds or matches played by the compiled core.

>>> from meio.engine import MatchConfig
>>> res = simulate(MatchConfig(players=3, specials=(60, 61, 64)), 20, seed=1, record=True)
>>> res.rounds_played.tolist() == [3] * 20
True
>>> rec = res.record(0)
>>> rec["format"], len(rec["rounds"]), len(rec["rounds"][0]["plays"]) >= 39
('meio-record/1', 3, True)
"""

from __future__ import annotations

import itertools
import multiprocessing
import sys
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from meio.engine import MatchConfig
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.record import Record, RoundRecord
from meio.engine.wire import config_from_json, config_json
from meio.sim import core as K
from meio.sim.tables import epsilon_for, plays_variant, policy_code, tables_for

I8 = npt.NDArray[np.int8]
I16 = npt.NDArray[np.int16]
I32 = npt.NDArray[np.int32]

ConfigLike = MatchConfig | Mapping[str, Any]
_MAX_GAMES = 50_000_000
#: the widths of a standard batch's ``plays`` and ``asides`` (a variant's: the core's
#: ``MAX_PLAYS`` and the cards its deal sets aside)
STANDARD_PLAYS = 80
STANDARD_ASIDES = 2


def as_config(config_like: ConfigLike) -> MatchConfig:
    """A :class:`MatchConfig` from itself or from a mapping of its fields
    (``{"players": 4, "edition": "meio", "partnership": False}``)."""
    if isinstance(config_like, MatchConfig):
        return config_like
    if isinstance(config_like, Mapping):
        return config_from_json(dict(config_like))
    raise TypeError(f"expected a MatchConfig or a mapping of its fields, not {config_like!r}")


@dataclass(frozen=True, slots=True, eq=False)
class SimResult:
    """What a batch produced. Rows are games; a standard match has at most 3 rounds.

    ``piles[g, r, seat]`` is ``(H, V)`` of round ``r`` of game ``g`` (zeros for rounds
    not played). With ``record=True`` the deals and every action are kept too, and
    :meth:`record` exports any game as a ``meio-record/1`` document.

    A variant game (a config whose variant is not an edition's preset) takes the
    variant's sizes: ``R`` rounds at most (1 for single rounds; else the format's
    ``rounds``, 20 more when a tie for the lowest total is not shared, or
    5 × ``to_win`` for a match to victories), hands of ``hand`` cards and packs of
    ``pack``: ``piles [G, R, players, 2]``, ``leaders [G, R]``, ``deals [G, R,
    players, hand]``, ``asides [G, R, aside]``, ``splits [G, R, players, pack]``,
    ``plays [G, R, 90]``, ``tricks [G, R, 2, hand]`` (winner, pile); ``won [G,
    players]`` the match's winners by the variant's format; :attr:`scores` are in
    the variant's scoring form. (A standard game: R = 3, hands of 13, packs of 6,
    ``asides [G, 3, 2]``, ``plays [G, 3, 80]``, ``won`` None.)
    """

    config: MatchConfig
    policy: str
    seed: int
    one_round: bool
    cards_played: int
    rounds_played: I8
    piles: I8
    leaders: I8
    deals: I8 | None = None
    asides: I8 | None = None
    splits: I8 | None = None
    split_orders: I8 | None = None
    plays: I8 | None = None
    nplays: I8 | None = None
    tricks: I8 | None = None
    won: npt.NDArray[np.bool_] | None = None

    @property
    def games(self) -> int:
        return int(self.rounds_played.shape[0])

    @property
    def scores(self) -> I16:
        """``[game, round, seat]``: each seat's |H - V| (its own, not its team's; a
        variant's scoring form, 0 for rounds not played)."""
        p = self.piles.astype(np.int16)
        if plays_variant(self.config):
            return self._variant_scores(p[..., 0], p[..., 1])
        out: I16 = np.abs(p[..., 0] - p[..., 1])
        return out

    def _variant_scores(self, h: I16, v: I16) -> I16:
        variant = self.config.variant
        assert variant is not None
        diff = np.abs(h - v)
        if variant.scoring == "squared":
            diff = diff * diff
        elif variant.scoring == "balance_bonus":
            diff = np.where(diff == 0, -variant.bonus, diff)
        played = np.arange(h.shape[1])[None, :] < self.rounds_played[:, None]
        out: I16 = (diff * played[..., None]).astype(np.int16)
        return out

    @property
    def team_scores(self) -> I16 | None:
        """Partnership: ``[game, round, team]`` with team 0 = seats 0 and 2."""
        if not self.config.partnership:
            return None
        p = self.piles.astype(np.int16)
        if plays_variant(self.config):
            team_h = np.stack([p[..., 0, 0] + p[..., 2, 0], p[..., 1, 0] + p[..., 3, 0]], -1)
            team_v = np.stack([p[..., 0, 1] + p[..., 2, 1], p[..., 1, 1] + p[..., 3, 1]], -1)
            return self._variant_scores(team_h, team_v)
        diff = p[..., 0] - p[..., 1]
        out: I16 = np.abs(np.stack([diff[..., 0] + diff[..., 2], diff[..., 1] + diff[..., 3]], -1))
        return out

    @property
    def totals(self) -> I16:
        """``[game, seat]``: the sum of each seat's round scores."""
        out: I16 = self.scores.sum(axis=1).astype(np.int16)
        return out

    def winners(self) -> npt.NDArray[np.bool_]:
        """``[game, seat]``: whether the seat won (or shares) its match; all False
        for single rounds. Partnership and 2-player ``meio`` count round victories;
        every other table (2-player ``classic`` included) the lowest total; a variant
        its own format."""
        n, players = self.games, self.config.players
        out = np.zeros((n, players), dtype=np.bool_)
        if self.one_round:
            return out
        if self.won is not None:
            return self.won.copy()
        if self.config.victories_to_win is not None:
            side = self.team_scores if self.config.partnership else self.scores
            if side is None:
                raise ValueError("this batch kept no per-round scores to decide its winners")
            played = np.arange(K.MAX_ROUNDS)[None, :] < self.rounds_played[:, None]
            wins_b = ((side[..., 1] < side[..., 0]) & played).sum(axis=1)
            wins_a = ((side[..., 0] < side[..., 1]) & played).sum(axis=1)
            first = wins_a > wins_b
            out[:, 0] = first
            out[:, 1] = ~first
            if players == 4:
                out[:, 2] = first
                out[:, 3] = ~first
            return out
        totals = self.totals
        return np.asarray(totals == totals.min(axis=1, keepdims=True))

    def record(self, game: int) -> dict[str, Any]:
        """Game ``game`` as a ``meio-record/1`` document (needs ``record=True``)."""
        return self.record_of(game).to_json()

    def record_of(self, game: int) -> Record:
        """Game ``game`` as a :class:`~meio.engine.record.Record` (needs ``record=True``):
        :meth:`record` is its JSON, written by the engine's record writer."""
        if self.deals is None or self.plays is None or self.nplays is None:
            raise ValueError("this batch kept no actions: simulate it with record=True")
        if not 0 <= game < self.games:
            raise IndexError(f"there is no game {game} in a batch of {self.games}")
        if self.asides is None or self.splits is None:
            raise ValueError("this batch kept no splits: simulate it with record=True")
        cfg = self.config
        players, aside = cfg.players, cfg.aside_count
        rounds = [
            RoundRecord(
                leader=int(self.leaders[game, r]),
                hands=[_mask(self.deals[game, r, p]) for p in range(players)],
                aside=_mask(self.asides[game, r, :aside]),
                splits=[_mask(self.splits[game, r, p]) for p in range(players)],
                plays=[A.action_text(int(a))
                       for a in self.plays[game, r, : int(self.nplays[game, r])]],
            )
            for r in range(int(self.rounds_played[game]))
        ]
        return Record(cfg.edition, players, cfg.partnership, cfg.special_cards, rounds,
                      cfg.options, cfg.variant)


def _mask(cards: I8) -> int:
    """The bitmask of a row of card ids."""
    return C.mask_of(int(c) for c in cards)


def _chunk(
    config: dict[str, Any], first: int, count: int, seed: int, policy: int, one_round: bool,
    record: bool,
) -> tuple[int, dict[str, npt.NDArray[Any]]]:
    """Play games ``first .. first + count - 1``; the arrays of those rows."""
    match = config_from_json(config)
    t = tables_for(match)
    r = 1 if one_round else t.rounds
    code = t.heuristic if policy == K.POLICY_HEURISTIC else policy
    out = batch_arrays(match, count, r, count if record else 1)
    played = K.simulate_games(
        t.cfg, t.ruleset, t.strength, t.deck, first, count, seed, code, epsilon_for(code),
        one_round, record, out["rounds_played"], out["piles"], out["leaders"],
        out["won"].view(np.int8), out["deals"], out["asides"], out["splits"],
        out["split_orders"], out["plays"], out["nplays"], out["tricks"],
    )
    check_ended(out["rounds_played"], first, r)
    return int(played), out


def batch_arrays(match: MatchConfig, count: int, rounds: int,
                 keep: int) -> dict[str, npt.NDArray[Any]]:
    """The arrays a batch of ``count`` matches of ``match`` fills (the core's
    :func:`~meio.sim.core.close_round` writes them), ``rounds`` rows a match, the
    record's arrays for ``keep`` matches (1 when nothing is recorded). A standard
    batch keeps the widths it always had (:data:`STANDARD_PLAYS`,
    :data:`STANDARD_ASIDES`); a variant's are the core's own."""
    players, hand, pack = match.players, match.hand_size, match.pack_size
    plays, aside = ((K.MAX_PLAYS, match.aside_count) if plays_variant(match)
                    else (STANDARD_PLAYS, STANDARD_ASIDES))
    r = rounds
    return {
        "rounds_played": np.zeros(count, dtype=np.int8),
        "piles": np.zeros((count, r, players, 2), dtype=np.int8),
        "leaders": np.zeros((count, r), dtype=np.int8),
        "won": np.zeros((count, players), dtype=np.bool_),
        "deals": np.zeros((keep, r, players, hand), dtype=np.int8),
        "asides": np.zeros((keep, r, aside), dtype=np.int8),
        "splits": np.zeros((keep, r, players, pack), dtype=np.int8),
        "split_orders": np.zeros((keep, r, players), dtype=np.int8),
        "plays": np.zeros((keep, r, plays), dtype=np.int8),
        "nplays": np.zeros((keep, r), dtype=np.int8),
        "tricks": np.zeros((keep, r, 2, hand), dtype=np.int8),
    }


def check_ended(rounds_played: npt.NDArray[np.int8], first: int, rounds: int) -> None:
    """Raise ``ValueError`` (one line) for a match of a batch that did not end within
    its ``rounds`` rows (``rounds_played`` -1: a tie for the lowest total that never
    broke)."""
    endless = np.flatnonzero(rounds_played < 0)
    if endless.size:
        raise ValueError(
            f"match {first + int(endless[0])} of this variant was not over after {rounds} "
            f"rounds: its tie for the lowest total never broke (share ties, or play to "
            f"victories)"
        )


def simulate(
    config_like: ConfigLike,
    n: int,
    seed: int,
    policy: str = "heuristic",
    record: bool = False,
    *,
    rounds: bool = False,
    jobs: int = 1,
) -> SimResult:
    """Play ``n`` matches (or, with ``rounds=True``, ``n`` single rounds) of
    ``config_like`` from ``seed`` with ``policy`` (``"random"`` or ``"heuristic"``)
    for every seat.

    Game ``i`` depends only on ``(seed, i)``: the same batch comes out whatever
    ``jobs`` (worker processes) is. The config's specials and table options are
    used; its seed and first leader are not (each game draws its own deals and
    first leader). A config with a variant plays the variant (see :class:`SimResult`
    for its arrays' shapes); its ``heuristic`` is :mod:`meio.bots.variant_play`'s rule,
    the engine's heuristic bot in a variant game, move for move.
    """
    config = as_config(config_like)
    code = policy_code(policy)
    if not isinstance(n, int) or not 0 < n <= _MAX_GAMES:
        raise ValueError(f"the number of games must be 1 to {_MAX_GAMES}, not {n!r}")
    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive number of processes, not {jobs!r}")
    seed = int(seed) & 0x7FFFFFFFFFFFFFFF
    cfg_dict = config_json(config)
    jobs = min(jobs, n)
    if jobs == 1:
        parts = [_chunk(cfg_dict, 0, n, seed, code, rounds, record)]
    else:
        bounds = np.linspace(0, n, jobs + 1).astype(int)
        # fail here, not in a worker, on a bad config
        tables_for(config)
        ctx = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
            futures = [
                pool.submit(_chunk, cfg_dict, int(a), int(b - a), seed, code, rounds, record)
                for a, b in itertools.pairwise(bounds)
            ]
            parts = [f.result() for f in futures]
    arrays: dict[str, Any] = {
        key: np.concatenate([p[1][key] for p in parts]) for key in parts[0][1]
    }
    kept: dict[str, Any] = {
        key: (arrays[key] if record else None)
        for key in ("deals", "asides", "splits", "split_orders", "plays", "nplays", "tricks")
    }
    if plays_variant(config) and not rounds:  # a standard batch's winners: winners()
        kept["won"] = arrays["won"]
    return SimResult(
        config=config,
        policy=policy,
        seed=seed,
        one_round=rounds,
        cards_played=sum(p[0] for p in parts),
        rounds_played=arrays["rounds_played"],
        piles=arrays["piles"],
        leaders=arrays["leaders"],
        **kept,
    )
