"""Tournament statistics: per-bot results, confidence intervals, pairwise rates, ratings.

* **Wins** are shared fairly: a match won by ``k`` seats gives each ``1/k``
  (in partnership the two winning seats get ``1/2`` each, so a team win is 1).
* **Mean round score** is over every round a bot played, at every seat it held
  (team score in partnership). Its 95% confidence interval treats each *deal*
  (all lineups of one duplicate set) as one observation, which is what makes
  the interval honest: seats and lineups of the same deal are not independent.
* **Pairwise win rate** of A against B: over matches where both sat, how often
  A finished ahead of B (lower match total; where round victories decide the
  match, 2-player ``meio`` and partnership, on the winning side; 2-player
  ``classic`` is decided on totals); a tie counts one half.
* **Rating**: a Bradley–Terry model fitted by maximum likelihood to all those
  pairwise results (ties as half a win each way), reported on the Elo scale
  (400 points = 10:1 odds), centred on 1500. Unlike running Elo updates it does
  not depend on the order matches finished in.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from meio.tournament.runner import MatchResult


@dataclass(frozen=True, slots=True)
class BotStats:
    """One bot's results over a tournament."""

    bot: str
    matches: int  #: matches it took part in
    seats: int  #: seat-matches (a bot filling two seats of a match counts twice)
    wins: float  #: shared wins, see the module docstring
    rounds: int
    mean_score: float
    ci_low: float
    ci_high: float
    rating: float

    @property
    def win_rate(self) -> float:
        """Shared wins per seat-match."""
        return self.wins / self.seats if self.seats else 0.0


@dataclass(frozen=True, slots=True)
class Summary:
    """Everything a tournament's report shows."""

    bots: list[BotStats]
    pairwise: dict[str, dict[str, float]]  #: pairwise[a][b] = a's win rate against b
    pair_games: dict[str, dict[str, int]]
    deals: int
    games: int

    def to_json(self) -> dict[str, object]:
        return {
            "format": "meio-tournament/1",
            "deals": self.deals,
            "games": self.games,
            "rating": "Bradley-Terry (maximum likelihood), Elo scale, mean 1500",
            "bots": [
                {
                    "bot": b.bot, "matches": b.matches, "seats": b.seats,
                    "wins": round(b.wins, 4), "win_rate": round(b.win_rate, 4),
                    "rounds": b.rounds, "mean_score": round(b.mean_score, 4),
                    "ci95": [round(b.ci_low, 4), round(b.ci_high, 4)],
                    "rating": round(b.rating, 1),
                }
                for b in self.bots
            ],
            "pairwise": {a: {b: round(r, 4) for b, r in row.items()}
                         for a, row in self.pairwise.items()},
            "pair_games": self.pair_games,
        }

    def csv_rows(self) -> list[list[object]]:
        header: list[object] = ["bot", "matches", "seats", "wins", "win_rate", "rounds",
                                "mean_score", "ci95_low", "ci95_high", "rating"]
        rows = [header]
        for b in self.bots:
            rows.append([b.bot, b.matches, b.seats, round(b.wins, 4), round(b.win_rate, 4),
                         b.rounds, round(b.mean_score, 4), round(b.ci_low, 4),
                         round(b.ci_high, 4), round(b.rating, 1)])
        return rows


def mean_interval(samples: list[float]) -> tuple[float, float, float]:
    """Mean and normal-approximation 95% interval of ``samples``."""
    n = len(samples)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = sum(samples) / n
    if n == 1:
        return mean, mean, mean
    var = sum((x - mean) ** 2 for x in samples) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def standing(result: MatchResult, bot: str) -> float:
    """Lower is better: the bot's mean match total, or 0/1 for won/lost where victories count."""
    seats = [s for s, b in enumerate(result.lineup) if b == bot]
    if result.victories is not None:
        return 0.0 if any(s in result.winners for s in seats) else 1.0
    return sum(result.totals[s] for s in seats) / len(seats)


def bradley_terry(wins: dict[tuple[str, str], float], bots: list[str],
                  iterations: int = 500) -> dict[str, float]:
    """Elo-scale ratings from pairwise win counts ``wins[(a, b)]`` (a over b)."""
    index = {b: i for i, b in enumerate(bots)}
    matrix = np.zeros((len(bots), len(bots)))
    for (a, b), w in wins.items():
        matrix[index[a], index[b]] += w
    ratings = fit_bradley_terry(matrix, iterations)
    return {b: float(ratings[i]) for b, i in index.items()}


def fit_bradley_terry(wins: npt.NDArray[np.float64],
                      iterations: int = 500) -> npt.NDArray[np.float64]:
    """Elo-scale ratings (mean of the log-strengths at 1500) from win matrices
    ``wins[..., a, b]`` (a over b), any number of them at once (bootstrap samples).

    The maximum-likelihood fit by minorisation-maximisation, with a light prior: each
    bot is given half a win in one extra game against a bot of unit strength, so a
    bot that never lost still gets a finite rating.

    >>> r = fit_bradley_terry(np.array([[0.0, 3.0], [1.0, 0.0]]))
    >>> bool(r[0] > 1500 > r[1])
    True
    """
    k = wins.shape[-1]
    strength = np.ones(wins.shape[:-1])
    games = wins + np.swapaxes(wins, -1, -2)
    won = wins.sum(axis=-1) + 0.5
    off = ~np.eye(k, dtype=bool)
    for _ in range(iterations):
        pair = strength[..., :, None] + strength[..., None, :]
        denom = np.where(off, games / pair, 0.0).sum(axis=-1) + 1.0 / (strength + 1.0)
        new = won / denom
        strength = new / np.exp(np.log(new).mean(axis=-1, keepdims=True))
    return 1500.0 + 400.0 * np.log10(strength)


def summarize(results: list[MatchResult]) -> Summary:
    """Per-bot statistics, pairwise win rates and ratings of a tournament's results."""
    bots = sorted({b for r in results for b in r.lineup})
    matches: dict[str, int] = defaultdict(int)
    seats: dict[str, int] = defaultdict(int)
    wins: dict[str, float] = defaultdict(float)
    scores: dict[str, list[int]] = defaultdict(list)
    per_deal: dict[str, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    pair_wins: dict[tuple[str, str], float] = defaultdict(float)
    pair_count: dict[tuple[str, str], int] = defaultdict(int)
    for r in results:
        present = sorted(set(r.lineup))
        for b in present:
            matches[b] += 1
        for seat, b in enumerate(r.lineup):
            seats[b] += 1
            if seat in r.winners:
                wins[b] += 1.0 / len(r.winners)
            for rnd in r.round_scores:
                scores[b].append(rnd[seat])
                per_deal[b][r.deal].append(rnd[seat])
        for i, a in enumerate(present):
            for b in present[i + 1:]:
                sa, sb = standing(r, a), standing(r, b)
                pair_count[(a, b)] += 1
                pair_count[(b, a)] += 1
                if sa < sb:
                    pair_wins[(a, b)] += 1.0
                elif sb < sa:
                    pair_wins[(b, a)] += 1.0
                else:
                    pair_wins[(a, b)] += 0.5
                    pair_wins[(b, a)] += 0.5
    ratings = bradley_terry(dict(pair_wins), bots) if len(bots) > 1 else dict.fromkeys(bots,
                                                                                         1500.0)
    stats = []
    for b in bots:
        deal_means = [sum(v) / len(v) for v in per_deal[b].values()]
        _, low, high = mean_interval(deal_means)
        mean = sum(scores[b]) / len(scores[b]) if scores[b] else math.nan
        stats.append(BotStats(b, matches[b], seats[b], wins[b], len(scores[b]), mean, low, high,
                              ratings[b]))
    stats.sort(key=lambda s: (s.mean_score, s.bot))
    pairwise = {a: {b: pair_wins[(a, b)] / pair_count[(a, b)]
                    for b in bots if b != a and pair_count[(a, b)]} for a in bots}
    pair_games = {a: {b: pair_count[(a, b)] for b in bots if b != a and pair_count[(a, b)]}
                  for a in bots}
    return Summary(stats, pairwise, pair_games, len({r.deal for r in results}), len(results))
