"""Playing a report card's games: duplicate deals through the engine, turned into rows.

Two kinds of work, each a run of consecutive deals (:class:`Work`), so that the
deals do not depend on how the work is cut or where it runs:

* **self-play**: the named player in every seat; each deal is played once per seat
  as the first round's leader (``first_leader`` 0 .. N−1), so every hand is played
  from every position and the seats' differences are measured on the same cards.
* **a pair** of ladder players: each deal once per lineup of
  :func:`meio.tournament.lineups` (every player in every seat equally often).

Deal ``d`` is the same match setup (cards, specials, bot seeds) under every ruleset
of the same table size and deck, so two rulesets are compared on the same deals.
Every figure of :mod:`meio.design.measures` is computed from the rows built here;
the tricks are read from the engine's round results, never from hidden state.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from meio.analysis.plan import derive
from meio.design.rulesets import config
from meio.engine import MatchConfig, State
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.ruleset import Variant
from meio.engine.scoring import balance

Columns = dict[str, npt.NDArray[Any]]
#: a chunk's rows, by table: ``seat`` (deal, rotation, round, seat), ``match`` (deal,
#: rotation), ``round`` (deal, rotation, round), ``special`` (deal, rotation, round, card)
Tables = dict[str, Columns]


@dataclass(frozen=True, slots=True)
class Work:
    """Deals ``first .. first + count − 1`` of one ruleset, played by ``bots``: one
    bot (self-play, ``pair=False``) or a ladder pair, weaker first."""

    variant: Variant
    players: int
    bots: tuple[str, ...]
    first: int
    count: int
    seed: int
    partnership: bool = False
    #: which ruleset of the report (its index), to file the rows under
    ruleset: int = 0

    @property
    def pair(self) -> bool:
        return len(self.bots) == 2

    def deal_seed(self, deal: int) -> int:
        return derive(self.seed, deal)


def play(work: Work) -> Tables:
    """Play ``work`` and return its rows (the unit of work of every backend)."""
    from meio.bots import make_bot, play_match
    from meio.tournament import lineups

    rows = _Rows()
    n = work.players
    for deal in range(work.first, work.first + work.count):
        seed = work.deal_seed(deal)
        if work.pair:
            seatings = lineups(list(work.bots), n, work.partnership)
            setups = [(config(work.variant, n, seed, None, work.partnership), lineup)
                      for lineup in seatings]
        else:
            setups = [(config(work.variant, n, seed, leader, work.partnership),
                       (work.bots[0],) * n) for leader in range(n)]
        for rotation, (cfg, lineup) in enumerate(setups):
            bots = [make_bot(kind, derive(seed, seat)) for seat, kind in enumerate(lineup)]
            state = play_match(cfg, bots)
            stronger = [work.pair and kind == work.bots[1] for kind in lineup]
            rows.add(deal, rotation, cfg, state, stronger)
    return rows.tables()


def sides_of(cfg: MatchConfig) -> list[int]:
    """The side each seat scores for: its team in partnership, else itself."""
    return [cfg.team_of(s) for s in range(cfg.players)] if cfg.partnership \
        else list(range(cfg.players))


def side_scores(cfg: MatchConfig, state: State) -> npt.NDArray[np.int64]:
    """``[round, side]``: each side's round score."""
    out = []
    for result in state.rounds:
        ts = result.team_scores
        out.append(list(ts) if cfg.partnership and ts is not None else list(result.scores))
    return np.array(out, dtype=np.int64)


class _Rows:
    def __init__(self) -> None:
        self.cols: dict[str, dict[str, list[Any]]] = {
            "seat": {}, "match": {}, "round": {}, "special": {}}

    def put(self, table: str, **values: Any) -> None:
        for key, value in values.items():
            self.cols[table].setdefault(key, []).append(value)

    def tables(self) -> Tables:
        return {t: {k: np.asarray(v) for k, v in c.items()} for t, c in self.cols.items()}

    def add(self, deal: int, rotation: int, cfg: MatchConfig, state: State,
            stronger: list[bool]) -> None:
        sides = sides_of(cfg)
        n_sides = max(sides) + 1
        scores = side_scores(cfg, state)
        win_sides = {sides[s] for s in state.winners}
        rules = cfg.rules
        starts = state.round_starts()
        bounds = [s.history_len for s in starts] + [len(state.history)]
        first_leader = state.rounds[0].leader
        for r, result in enumerate(state.rounds):
            low = scores[r].min()
            best = scores[r] == low
            moves = [a for a in state.history[bounds[r]:bounds[r + 1]]]
            for seat in range(cfg.players):
                side = sides[seat]
                others = np.delete(scores[r], side).mean() if n_sides > 1 else 0.0
                hand = C.cards_of(starts[r].deal[seat])
                self.put("seat", deal=deal, rotation=rotation, round=r, seat=seat,
                         from_leader=(seat - result.leader) % cfg.players,
                         from_first=(seat - first_leader) % cfg.players,
                         side=int(scores[r, side]), others=float(others),
                         round_win=float(best[side]) / int(best.sum()),
                         match_win=(1.0 / len(win_sides)) if side in win_sides else 0.0,
                         stronger=stronger[seat],
                         trumps=sum(1 for c in hand if c < 60 and rules.suit_of[c] == rules.trump),
                         decisions=sum(1 for who, _ in moves if who == seat))
            self._round(deal, rotation, r, cfg, state, sides, scores[r], moves)
        self._match(deal, rotation, cfg, scores, win_sides)

    def _round(self, deal: int, rotation: int, r: int, cfg: MatchConfig, state: State,
               sides: list[int], scores: npt.NDArray[np.int64],
               moves: list[tuple[int, int]]) -> None:
        rules = cfg.rules
        result = state.rounds[r]
        deal_of = state.round_starts()[r].deal
        ruffs = 0
        for trick in result.tricks:
            card = dict(trick.plays)[trick.winner]
            if (card < 60 and rules.suit_of[card] == rules.trump
                    and trick.led_suit != rules.trump):
                ruffs += 1
        self.put("round", deal=deal, rotation=rotation, round=r,
                 certain_after=certain_after(cfg, result.tricks, sides),
                 tied=bool((scores == scores.min()).sum() > 1),
                 tricks=len(result.tricks), ruffs=ruffs,
                 piles=sum(1 for _, a in moves if A.is_pile(a)),
                 cards=sum(len(t.plays) for t in result.tricks))
        for card in cfg.special_cards:
            holder = next((s for s in range(cfg.players) if deal_of[s] >> card & 1), None)
            if holder is None:  # set aside this round
                continue
            side = sides[holder]
            others = float(np.delete(scores, side).mean()) if len(scores) > 1 else 0.0
            played = decided = False
            for trick in result.tricks:
                for seat, c in trick.plays:
                    if c == card:
                        played, decided = True, seat == trick.winner
            self.put("special", deal=deal, rotation=rotation, round=r,
                     card=C.card_code(card), worth=float(scores[side]) - others,
                     played=played, decided=decided)

    def _match(self, deal: int, rotation: int, cfg: MatchConfig,
               scores: npt.NDArray[np.int64], win_sides: set[int]) -> None:
        rounds = scores.shape[0]
        victories = cfg.victories_to_win is not None
        leaders = list(standings(scores, victories))
        last_changed = settled = float("nan")
        if rounds >= 2:
            last_changed = float(leaders[-2] != frozenset(win_sides))
            if not victories:
                settled = float(is_settled(scores[:-1].sum(0), round_score_bound(cfg)))
        self.put("match", deal=deal, rotation=rotation, rounds=rounds,
                 shared=len(win_sides) > 1, last_changed=last_changed, settled=settled,
                 lead_changes=sum(leaders[k] != leaders[k - 1] for k in range(1, rounds)))


def standings(scores: npt.NDArray[np.int64], victories: bool) -> Iterator[frozenset[int]]:
    """The sides ahead after each round: the lowest running total, or (a match to
    victories) the most round victories, a round's victory going to its one lowest score.

    >>> [sorted(s) for s in standings(np.array([[1, 3], [4, 0], [2, 2]]), False)]
    [[0], [1], [1]]
    >>> [sorted(s) for s in standings(np.array([[1, 3], [1, 1]]), True)]
    [[0], [0]]
    """
    run = np.zeros(scores.shape[1], dtype=np.int64)
    for row in scores:
        if victories:
            low = row == row.min()
            if low.sum() == 1:
                run = run + low
            yield frozenset(np.flatnonzero(run == run.max()).tolist())
        else:
            run = run + row
            yield frozenset(np.flatnonzero(run == run.min()).tolist())


def round_score_bound(cfg: MatchConfig) -> int:
    """How much more one side can score than another in a round: its whole hand of
    tricks in one pile against a perfect balance, under the ruleset's scoring form."""
    v = cfg.ruleset
    return balance(v.scoring_form, v.bonus, v.hand, 0) - balance(v.scoring_form, v.bonus, 0, 0)


def is_settled(totals: npt.NDArray[np.int64], bound: int) -> bool:
    """Whether the one side lowest on ``totals`` is further ahead of every other side
    than a round can change (``bound``).

    >>> is_settled(np.array([2, 20, 18]), 13), is_settled(np.array([2, 14, 18]), 13)
    (True, False)
    """
    order = np.sort(totals)
    return len(order) > 1 and int(order[1] - order[0]) > bound


def certain_after(cfg: MatchConfig, tricks: Any, sides: list[int]) -> int:
    """After how many tricks the round's result (which side scores lowest, alone) was
    certain: no way of winning the tricks still to play could change it.

    While few tricks remain every way of winning them is tried (each trick to any side,
    and, while a special card that moves a trick to the other pile is unplayed, as many
    tricks to either pile); earlier each side is bounded on its own (it may win any of
    the remaining tricks), which errs late, never early. A round whose lowest score is
    tied is certain only at its end."""
    v = cfg.ruleset
    rules = cfg.rules
    n, fh = v.hand, v.first_half
    n_sides = max(sides) + 1
    movers = {c for c in cfg.special_cards if rules.pile[c] != 0}
    piles = np.zeros((n_sides, 2), dtype=np.int64)
    for t in range(n + 1):
        if t:
            trick = tricks[t - 1]
            piles[sides[trick.winner], trick.pile - 1] += 1
            movers -= {c for _, c in trick.plays}
        if _certain(piles, t, n, fh, len(movers), v.scoring_form, v.bonus):
            return t
    return n


#: the most ways of winning the remaining tricks that are tried one by one
EXACT_WAYS = 5000


def _certain(piles: npt.NDArray[np.int64], t: int, n: int, fh: int, movers: int,
             form: int, bonus: int) -> bool:
    sides = piles.shape[0]
    f, g = max(fh - t, 0), n - max(t, fh)
    x, y = min(f + min(movers, g), f + g), min(g + min(movers, f), f + g)
    d = piles[:, 0] - piles[:, 1]
    lo, hi = d - y, d + x
    near = np.where((lo <= 0) & (hi >= 0), 0, np.minimum(abs(lo), abs(hi)))
    far = np.maximum(abs(lo), abs(hi))
    best = [balance(form, bonus, int(a), 0) for a in near]
    worst = [balance(form, bonus, int(a), 0) for a in far]
    if any(all(worst[w] < best[s] for s in range(sides) if s != w) for w in range(sides)):
        return True
    k = f + g
    if k == 0 or (2 * sides) ** k > EXACT_WAYS:
        return False
    winner, moved = _ways(sides, k)
    keep = moved.sum(1) <= movers
    winner, moved = winner[keep], moved[keep]
    first = (np.arange(k) < f)[None, :] != moved  # the trick lands in the first-half pile
    step = np.where(first, 1, -1)
    final = d[None, :] + np.stack([(step * (winner == s)).sum(1) for s in range(sides)], 1)
    score = np.abs(final) if form != 2 else final * final
    if form == 1:
        score = np.where(final == 0, -bonus, score)
    low = score.min(1, keepdims=True)
    alone = (score == low).sum(1) == 1
    lowest = score.argmin(1)
    return bool(alone.all() and (lowest == lowest[0]).all())


_WAYS: dict[tuple[int, int], tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]] = {}


def _ways(sides: int, k: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Every way of winning ``k`` tricks: each trick's winning side and whether it
    changed pile, one row a way."""
    if (sides, k) not in _WAYS:
        codes = np.indices((2 * sides,) * k).reshape(k, -1).T
        _WAYS[sides, k] = (codes // 2, (codes % 2).astype(bool))
    return _WAYS[sides, k]
