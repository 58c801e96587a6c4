"""The benchmark leaderboard: ratings, scores and paired differences with bootstrap intervals.

Every bot of a benchmark plays the same deals, so a deal (all its lineups
together) is the unit of observation: the 95% intervals here are percentile
bootstrap intervals over deals, the deals resampled with replacement and every
figure recomputed on each resample. Resampling whole deals keeps comparisons
*paired*: a paired difference of A and B on a resample compares them on the
same cards, which cancels most of the luck of the deal.

* **rating**: the Bradley–Terry fit of :func:`~meio.tournament.stats.fit_bradley_terry`
  to the pairwise results of the matches (who finished ahead, see
  :func:`~meio.tournament.stats.standing`), on the Elo scale, mean 1500;
* **mean round score** (lower is better): over every round the bot played, at
  every seat it held; per deal first, then over deals;
* **paired difference** of A and B: per deal, A's mean round score minus B's,
  averaged over deals (negative: A scored lower, so A did better);
* **pairwise win rate** of A against B: the share of the matches where both sat
  that A finished ahead of B (ties half each way).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from meio.tournament.runner import MatchResult
from meio.tournament.stats import fit_bradley_terry, standing

Interval = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Entry:
    """One bot's line of the leaderboard; its fields are named as in the JSON document
    (:meth:`Leaderboard.to_json`)."""

    bot: str
    rating: float
    rating_ci95: Interval
    mean_round_score: float
    mean_round_score_ci95: Interval
    seats: int  #: seat-matches (a bot in two seats of a match counts twice)
    wins: float  #: a match won by k seats gives each 1/k
    vs_reference: float  #: paired difference with the reference bot (0 for itself)
    vs_reference_ci95: Interval

    @property
    def win_rate_per_seat(self) -> float:
        """Wins per seat-match."""
        return self.wins / self.seats if self.seats else 0.0


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """The leaderboard of a benchmark run, best rating first."""

    entries: list[Entry]
    reference: str
    paired: dict[str, dict[str, tuple[float, float, float]]]  #: a -> b -> (diff, low, high)
    #: a -> b -> (share of their meetings a finished ahead, ties half; low, high)
    pairwise: dict[str, dict[str, tuple[float, float, float]]]
    deals: int
    games: int
    bootstrap: int
    seed: int

    def to_json(self) -> dict[str, object]:
        def r(x: float, digits: int = 4) -> float:
            return round(float(x), digits)

        return {
            "deals": self.deals,
            "games": self.games,
            "reference": self.reference,
            "intervals": f"95% percentile bootstrap over deals, {self.bootstrap} resamples, "
                         f"seed {self.seed}",
            "rating": "Bradley-Terry (maximum likelihood), Elo scale, mean 1500",
            "leaderboard": [
                {"bot": e.bot, "rating": r(e.rating, 1),
                 "rating_ci95": [r(e.rating_ci95[0], 1), r(e.rating_ci95[1], 1)],
                 "mean_round_score": r(e.mean_round_score),
                 "mean_round_score_ci95": [r(v) for v in e.mean_round_score_ci95],
                 "vs_reference": r(e.vs_reference),
                 "vs_reference_ci95": [r(v) for v in e.vs_reference_ci95],
                 "seats": e.seats, "wins": r(e.wins),
                 "win_rate_per_seat": r(e.win_rate_per_seat)}
                for e in self.entries
            ],
            "paired_difference": {a: {b: [r(v) for v in t] for b, t in row.items()}
                                  for a, row in self.paired.items()},
            "pairwise_win_rate": {a: {b: [r(v) for v in t] for b, t in row.items()}
                                  for a, row in self.pairwise.items()},
        }


def leaderboard(results: list[MatchResult], *, reference: str | None = None,
                bootstrap: int = 1000, seed: int = 0) -> Leaderboard:
    """The leaderboard of a duplicate tournament's results; ``reference`` (default: the
    first bot of the first lineup) is the bot every paired difference of the table is
    taken against."""
    if not results:
        raise ValueError("a leaderboard needs at least one match")
    bots = sorted({b for r in results for b in r.lineup})
    index = {b: i for i, b in enumerate(bots)}
    deals = sorted({r.deal for r in results})
    row = {d: i for i, d in enumerate(deals)}
    k, n = len(bots), len(deals)
    ref = results[0].lineup[0] if reference is None else reference
    if ref not in index:
        raise ValueError(f"the reference bot {ref} did not play")
    wins = np.zeros((n, k, k))  # per deal: a finished ahead of b (ties half each way)
    meets = np.zeros((n, k, k))
    score_sum = np.zeros((n, k))
    score_count = np.zeros((n, k))
    seats = np.zeros(k, dtype=int)
    shared = np.zeros(k)
    for res in results:
        d = row[res.deal]
        for seat, b in enumerate(res.lineup):
            i = index[b]
            seats[i] += 1
            if seat in res.winners:
                shared[i] += 1.0 / len(res.winners)
            for rnd in res.round_scores:
                score_sum[d, i] += rnd[seat]
                score_count[d, i] += 1
        present = sorted(set(res.lineup))
        for x, a in enumerate(present):
            for b in present[x + 1:]:
                i, j = index[a], index[b]
                sa, sb = standing(res, a), standing(res, b)
                meets[d, i, j] += 1
                meets[d, j, i] += 1
                w = 1.0 if sa < sb else 0.0 if sa > sb else 0.5
                wins[d, i, j] += w
                wins[d, j, i] += 1.0 - w
    with np.errstate(invalid="ignore", divide="ignore"):
        deal_means = score_sum / score_count  # nan where a bot sat out a deal
    # resample deals: weights[b, d] = how often deal d is drawn in resample b
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(n, np.full(n, 1.0 / n), size=bootstrap).astype(float)
    all_w = np.vstack([np.ones((1, n)), weights])  # row 0: the data itself
    ratings = fit_bradley_terry(np.einsum("bd,dij->bij", all_w, wins)) if k > 1 else \
        np.full((bootstrap + 1, 1), 1500.0)

    def over_deals(per_deal: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Weighted means over deals (columns: bots), skipping deals without data."""
        ok = ~np.isnan(per_deal)
        filled = np.where(ok, per_deal, 0.0)
        return np.asarray((all_w @ filled) / (all_w @ ok))

    def ci(samples: npt.NDArray[np.float64]) -> Interval:
        low, high = np.nanpercentile(samples[1:], [2.5, 97.5])
        return float(low), float(high)

    scores = over_deals(deal_means)
    diffs = {(a, b): over_deals((deal_means[:, index[a]] - deal_means[:, index[b]])[:, None])[:, 0]
             for a in bots for b in bots if a != b}
    entries = []
    for b, i in index.items():
        vs = diffs[(b, ref)] if b != ref else np.zeros(bootstrap + 1)
        entries.append(Entry(b, float(ratings[0, i]), ci(ratings[:, i]), float(scores[0, i]),
                             ci(scores[:, i]), int(seats[i]), float(shared[i]), float(vs[0]),
                             ci(vs)))
    entries.sort(key=lambda e: (-e.rating, e.bot))
    paired = {a: {b: (float(diffs[(a, b)][0]), *ci(diffs[(a, b)])) for b in bots if b != a}
              for a in bots}
    met = all_w @ meets.reshape(n, k * k)
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = ((all_w @ wins.reshape(n, k * k)) / met).reshape(-1, k, k)
    pairwise = {a: {b: (float(rates[0, i, j]), *ci(rates[:, i, j]))
                    for b, j in index.items() if b != a and met[0, i * k + j]}
                for a, i in index.items()}
    return Leaderboard(entries, ref, paired, pairwise, n, len(results), bootstrap, seed)
