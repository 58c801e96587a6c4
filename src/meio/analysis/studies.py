"""The six studies: each turns the raw table into figures with 95% intervals.

Every function takes the rows of the games it needs and returns a JSON-ready dict;
figures are :class:`~meio.analysis.stats.Estimate` dicts (``value``, ``ci95``,
``n`` games). :func:`headline` lists, per table, the figures ``--ci`` waits on.
Scores are *side* scores (a team's in partnership): the number a seat is judged by.

About 650 lines on purpose: each study is one function, and the six
share the estimate helpers at the top (paired differences, ratios, seat gaps,
bootstrap ranks); one file keeps every study beside the statistics it uses, and
:mod:`meio.analysis.stats` holds the general ones.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import numpy.typing as npt

from meio.analysis.frame import KEY_BASE, Frame
from meio.analysis.plan import RULES_SKILL_PAIR, AnalysisSpec, Table
from meio.analysis.play import victories_format
from meio.analysis.players import is_search
from meio.analysis.stats import (
    MIN_GAMES,
    NAN,
    Estimate,
    bootstrap,
    by_round,
    cluster_mean,
    mean_ci,
    permutation_test,
    range_interval,
)
from meio.engine import cards as C

Json = dict[str, Any]


def _by(frame: Frame, column: str, value: str, players: int) -> list[Estimate]:
    return [cluster_mean(f[value], f["cluster"])
            for f in (frame.eq(**{column: k}) for k in range(players))]


# -- seats -------------------------------------------------------------------------------
#: how the seat gap is tested (the report and summary.json say so)
SEAT_TEST = ("permutation test of the spread (max − min) of the mean round score by seat: "
             "the sides' scores are shuffled among the seats within each round, 999 times")
MATCH_TEST = ("permutation test of the match-win rates by seat against the fair share 1/N "
              "(sum of squared deviations): the sides' results are shuffled among the "
              "seats within each match, 999 times")


def _sides_matrix(f: Frame, offset: str, value: str, sides: int
                  ) -> tuple[npt.NDArray[np.float64], npt.NDArray[Any]]:
    """One row per round (``offset`` the seat column) of ``value`` for the first
    ``sides`` offsets, and each row's game: in partnership offsets 0 and 1 are the two
    teams (2 and 3 repeat them)."""
    keys = f.keyed("round")
    matrix, kept = by_round(f[value].astype(np.float64), keys, f[offset], sides)
    return matrix, kept // KEY_BASE  # keyed(): cluster * KEY_BASE + round


def seat_gap(f: Frame, sides: int, seed: int = 0) -> Json:
    """The spread of the mean round score across seats (by offset from the round's
    leader): its honest interval (:func:`~meio.analysis.stats.range_interval`) and the
    p-value of a permutation test that there is no seat effect at all."""
    matrix, clusters = _sides_matrix(f, "from_leader", "side_score", sides)
    gap = range_interval(matrix, clusters)
    p = permutation_test(matrix, lambda m: m.max() - m.min(), seed=seed)
    return {"gap": gap.to_json(), "p_value": None if np.isnan(p) else round(p, 4)}


def seats(frame: Frame, tables: list[Table]) -> Json:
    """Round score, round wins and match wins by seat, counted from the round's leader
    and from the match's first leader; the spread between the best and worst seat
    with a test made for a spread picked after looking (:data:`SEAT_TEST`), and the
    match-win rates tested against 1/N (:data:`MATCH_TEST`)."""
    out: Json = {}
    frame = frame.select("table", "round", "from_leader", "from_first_leader", "side_score",
                         "round_win", "match_win")
    for t in tables:
        f = frame.eq(table=t.key)
        if not len(f):
            continue
        p = t.players
        sides = t.sides()
        score = _by(f, "from_leader", "side_score", p)
        wins = [e.rate() for e in _by(f, "from_leader", "round_win", p)]
        first = f.eq(round=0)
        match = [e.rate() for e in _by(first, "from_first_leader", "match_win", p)]
        best = int(np.nanargmin([e.value for e in score[:sides]]))
        worst = int(np.nanargmax([e.value for e in score[:sides]]))
        gap = seat_gap(f, sides)
        wins_matrix, _ = _sides_matrix(first, "from_first_leader", "match_win", sides)
        fair = 1 / sides
        match_p = permutation_test(
            wins_matrix, lambda m, fair=fair: float(((m - fair) ** 2).sum()))
        games = int(np.unique(f["cluster"]).size)
        out[t.key] = {
            "label": t.label, "games": games,
            "score_by_leader_offset": [e.to_json() for e in score],
            "round_win_by_leader_offset": [e.to_json() for e in wins],
            "match_win_by_first_leader_offset": [e.to_json() for e in match],
            "best_offset": best, "worst_offset": worst,
            "gap": gap["gap"], "p_value": gap["p_value"], "test": SEAT_TEST,
            "significant": (gap["p_value"] is not None and gap["p_value"] < 0.05
                            and games >= MIN_GAMES),
            "fair_match_win": round(fair, 6),
            "match_win_p_value": None if np.isnan(match_p) else round(match_p, 4),
            "match_win_test": MATCH_TEST,
        }
    return out


# -- specials ----------------------------------------------------------------------------
def holder_diff(f: Frame, bit: int, partnership: bool) -> tuple[Frame, npt.NDArray[Any]]:
    """Rows of the seats dealt the special, and per row its side score minus the mean
    side score of the other sides in that round."""
    key = f.keyed("round")
    _uniq, idx = np.unique(key, return_inverse=True)
    sums = np.bincount(idx, weights=f["side_score"].astype(np.float64))
    counts = np.bincount(idx).astype(np.float64)
    held = (f["dealt_specials"] & bit) != 0
    h = f.where(held)
    hi = idx[held]
    if partnership:  # two seats per side: the other side's mean is over 2 seats
        others = (sums[hi] - 2 * h["side_score"]) / (counts[hi] - 2)
    else:
        others = (sums[hi] - h["side_score"]) / (counts[hi] - 1)
    return h, h["side_score"] - others


def specials(frame: Frame, contrast: Frame, tables: list[Table], subsets: bool = True,
             strong: str = "heuristic") -> Json:
    """Per special: its holder's score against the others', by the half it is kept
    for, how often it wins its trick; and which sets of N specials are the most
    balanced (smallest seat gap) and reward skill most (random self-play's mean round
    score minus ``strong``'s, the named player's)."""
    out: Json = {}
    for t in tables:
        if not t.special_pool:
            continue
        f = frame.eq(table=t.key)
        if not len(f):
            continue
        cards: Json = {}
        every = len(t.special_sets()) == 1  # every special of the pool is in each deal
        for card in t.special_pool:
            bit = 1 << (card - 60)
            g = f if every else f.where(holds(f, card))
            if not len(g):
                continue
            h, diff = holder_diff(g, bit, t.partnership)
            second = (h["pack_specials"] & bit) != 0
            won = ((h["won_specials"] & bit) != 0).astype(np.float64)
            cards[C.card_code(card)] = {
                "name": t.card_label(card),
                "holder_minus_others": cluster_mean(diff, h["cluster"]).to_json(),
                "kept_first_half": cluster_mean(diff[~second], h["cluster"][~second]).to_json(),
                "kept_second_half": cluster_mean(diff[second], h["cluster"][second]).to_json(),
                "share_kept_second_half": cluster_mean(second, h["cluster"]).rate().to_json(),
                "wins_its_trick": cluster_mean(won, h["cluster"]).rate().to_json(),
                "wins_first_half": cluster_mean(won[~second],
                                                h["cluster"][~second]).rate().to_json(),
                "wins_second_half": cluster_mean(won[second],
                                                 h["cluster"][second]).rate().to_json(),
            }
        entry: Json = {"label": t.label, "cards": cards}
        if not every and subsets:
            entry["subsets"] = _subsets(f, contrast.eq(table=t.key), t, strong)
        out[t.key] = entry
    return out


def holds(f: Frame, card: int) -> npt.NDArray[np.bool_]:
    """Per row, whether the row's set of specials (``-1,A+,+.5,Q+``) includes ``card``."""
    return f.isin("specials", [s for s in f.distinct("specials") if card in _parse(s)])


def _parse(text: str) -> tuple[int, ...]:
    """The special cards of a ``specials`` column value (codes joined by commas)."""
    return tuple(C.parse_card(c) for c in text.split(",")) if text != "none" else ()


#: bootstrap draws behind the ranking of the sets of specials
RANK_REPS = 400
#: a set is named the most balanced (or most skill-rewarding) only when it comes first
#: in at least this share of the bootstrap draws
RANK_SURE = 0.95


def _gap_draws(f: Frame, sides: int, reps: int, seed: int) -> npt.NDArray[np.float64]:
    """Bootstrap draws (whole games resampled) of the seat spread of ``f``."""
    matrix, clusters = _sides_matrix(f, "from_leader", "side_score", sides)
    if not matrix.shape[0]:
        return np.full(reps, np.nan)
    _, game = np.unique(clusters, return_inverse=True)
    sums = np.zeros((game.max() + 1, sides))
    np.add.at(sums, game, matrix)
    counts = np.bincount(game).astype(np.float64)
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(counts.size, np.full(counts.size, 1 / counts.size), reps)
    means = (weights @ sums) / (weights @ counts)[:, None]
    return np.asarray(means.max(1) - means.min(1), dtype=np.float64)


def rank_by_draws(draws: dict[str, npt.NDArray[np.float64]], lowest: bool) -> Json:
    """Which set comes first, from per-set draws of its figure: the share of draws in
    which each set is first, the 95% range of its rank, and the winner only when one
    set comes first in at least :data:`RANK_SURE` of the draws."""
    names = sorted(draws)
    table = np.stack([draws[k] for k in names], 1)  # [reps, sets]
    table = np.where(np.isnan(table), np.inf if lowest else -np.inf, table)
    order = np.argsort(table if lowest else -table, axis=1, kind="stable")
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(len(names))[None, :], 1)
    first = (ranks == 0).mean(0)
    out = {k: {"p_first": round(float(first[i]), 4),
               "rank_ci95": [int(np.percentile(ranks[:, i], 2.5)) + 1,
                             int(np.percentile(ranks[:, i], 97.5)) + 1]}
           for i, k in enumerate(names)}
    best = int(np.argmax(first))
    return {"sets": out, "winner": names[best] if first[best] >= RANK_SURE else None,
            "candidates": [names[i] for i in np.argsort(-first, kind="stable")
                           if first[i] >= 0.05]}


def _subsets(f: Frame, contrast: Frame, t: Table, strong: str) -> Json:
    rows: list[Json] = []
    gap_draws: dict[str, npt.NDArray[np.float64]] = {}
    skill_draws: dict[str, npt.NDArray[np.float64]] = {}
    rng = np.random.default_rng(len(f))
    for i, subset in enumerate(f.distinct("specials")):
        g = f.eq(specials=subset)
        gap = seat_gap(g, t.sides(), seed=i)
        gap_draws[subset] = _gap_draws(g, t.sides(), RANK_REPS, seed=i)
        skill = NAN
        rnd = contrast.eq(specials=subset, policy="random")
        heu = contrast.eq(specials=subset, policy=strong)
        if len(rnd) and len(heu):
            a, b = mean_ci_of(rnd), mean_ci_of(heu)
            half = np.hypot(a.value - a.low, b.value - b.low)
            d = a.value - b.value
            skill = Estimate(d, d - half, d + half, min(a.n, b.n))
            skill_draws[subset] = rng.normal(d, half / 1.959963984540054, RANK_REPS)
        rows.append({"specials": subset, "seat_gap": gap["gap"],
                     "seat_gap_p_value": gap["p_value"], "skill_gap": skill.to_json()})
    balance = rank_by_draws(gap_draws, lowest=True) if rows else None
    skilled = rank_by_draws(skill_draws, lowest=False) if skill_draws else None
    for r in rows:
        if balance:
            r["balance_rank"] = balance["sets"][r["specials"]]
        if skilled and r["specials"] in skilled["sets"]:
            r["skill_rank"] = skilled["sets"][r["specials"]]
    return {"sets": rows,
            "most_balanced": balance["winner"] if balance else None,
            "balanced_candidates": balance["candidates"] if balance else [],
            "most_skill_rewarding": skilled["winner"] if skilled else None,
            "skill_candidates": skilled["candidates"] if skilled else [],
            "skill_players": ["random", strong],
            "ranking": (f"bootstrap of whole games, {RANK_REPS} draws: a set is named "
                        f"only if it comes first in at least {RANK_SURE:.0%} of them")}


def mean_ci_of(f: Frame) -> Estimate:
    return cluster_mean(f["side_score"], f["cluster"])


# -- skill -------------------------------------------------------------------------------
def _gap(g: Frame, strong: str) -> Estimate:
    """One pair's duplicate deals: the weaker bot's mean round score minus the
    stronger's, per deal (every rotation of the deal together)."""
    score = g["side_score"].astype(np.float64)
    is_strong = g.mask("bot", strong)
    _, deal = np.unique(g["game"], return_inverse=True)
    weak_mean = np.bincount(deal, weights=score * ~is_strong) / np.bincount(
        deal, weights=(~is_strong).astype(np.float64))
    strong_mean = np.bincount(deal, weights=score * is_strong) / np.bincount(
        deal, weights=is_strong.astype(np.float64))
    return mean_ci(weak_mean - strong_mean)


def skill(dup: Frame, tables: list[Table]) -> Json:
    """Duplicate deals between a stronger and a weaker bot: the weaker's mean round
    score minus the stronger's (per deal, over every rotation), match-win rates, and
    the share of the variance of a seat's round score explained by which bot sat there."""
    out: Json = {}
    for t in tables:
        f = dup.eq(table=t.key)
        pairs: Json = {}
        for pair in f.distinct("pair"):
            g = f.eq(pair=pair)
            strong, weak = pair.split("-vs-")
            score = g["side_score"].astype(np.float64)
            is_strong = g.mask("bot", strong)
            gap = _gap(g, strong)

            def eta2(w: npt.NDArray[Any], s: npt.NDArray[Any] = score,
                     k: npt.NDArray[Any] = is_strong) -> float:
                mean = np.average(s, weights=w)
                total = float((w * (s - mean) ** 2).sum())
                between = sum(float(w[k == v].sum()) * (np.average(s[k == v], weights=w[
                    k == v]) - mean) ** 2 for v in (True, False) if w[k == v].sum())
                return between / total if total else 0.0

            first = g.eq(round=0)
            share = eta2(np.ones(score.size))
            lo, hi = bootstrap(eta2, g["cluster"], reps=100)
            pairs[pair] = {
                "weaker_minus_stronger": gap.to_json(),
                "mean_score": {b: cluster_mean(score[g.mask("bot", b)], g["cluster"][
                    g.mask("bot", b)]).to_json() for b in (strong, weak)},
                "match_win": {b: cluster_mean(first["match_win"][first.mask("bot", b)],
                                              first["cluster"][first.mask("bot", b)]
                                              ).rate().to_json()
                              for b in (strong, weak)},
                "skill_share": Estimate(share, lo, hi, gap.n).to_json(),
            }
        if pairs:
            out[t.key] = {"label": t.label, "pairs": pairs}
    return out


# -- splits ------------------------------------------------------------------------------
def _ratio(num: npt.NDArray[Any], den: npt.NDArray[Any], clusters: npt.NDArray[Any]) -> Estimate:
    """sum(num) / sum(den), with the cluster-robust interval of a ratio."""
    _, idx = np.unique(clusters, return_inverse=True)
    sn = np.bincount(idx, weights=num.astype(np.float64))
    sd = np.bincount(idx, weights=den.astype(np.float64))
    if sd.sum() == 0:
        return NAN
    r = float(sn.sum() / sd.sum())
    g = sn.size
    z = sn - r * sd
    half = 1.96 * float(np.sqrt(g / max(g - 1, 1) * (z * z).sum())) / float(sd.sum())
    return Estimate(r, r - half, r + half, g, int(num.size))


def splits(frame: Frame, tables: list[Table]) -> Json:
    """What the split keeps for the second half: hearts, high cards (Q, K and the MEIO
    A) and specials, as the share of those dealt and as distributions of the count."""
    out: Json = {}
    for t in tables:
        f = frame.eq(table=t.key)
        if not len(f):
            continue
        sp_pack = popcount(f["pack_specials"])
        sp_dealt = popcount(f["dealt_specials"])
        kinds = {"hearts": (f["hearts_pack"], f["hearts_dealt"]),
                 "high": (f["high_pack"], f["high_dealt"])}
        if t.special_pool:
            kinds["specials"] = (sp_pack, sp_dealt)
        entry: Json = {"label": t.label, "random_share": round(t.pack / t.hand, 6)}
        for name, (pack, dealt) in kinds.items():
            dist = np.bincount(pack.astype(np.int64), minlength=t.pack + 1)[:t.pack + 1]
            entry[name] = {
                "share_to_second_half": _ratio(pack, dealt, f["cluster"]).to_json(),
                "pack_count_distribution": (dist / max(dist.sum(), 1)).round(6).tolist(),
                "by_dealt": {int(k): _ratio(pack[dealt == k], dealt[dealt == k],
                                            f["cluster"][dealt == k]).to_json()
                             for k in range(1, t.hand + 1) if (dealt == k).sum() >= 20},
            }
        out[t.key] = entry
    return out


def popcount(mask: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    m = mask.astype(np.int64)
    return sum(((m >> b) & 1) for b in range(5))  # type: ignore[return-value]


# -- length ------------------------------------------------------------------------------
#: the most a side can score in one round: all 7 first-half tricks, plus in MEIO the
#: two second-half tricks that ``Q+`` and ``+.5`` can move into the first-half pile
MAX_ROUND_SCORE = {"classic": 7, "meio": 9}
#: seconds a person takes, assumed for the playing-time estimate (docs/analysis.md)
SECONDS = {"split": 45.0, "card": 6.0, "pile": 5.0, "round": 90.0}
PLAYING_TIME = ("estimated as 45 s a split, 6 s a card, 5 s a pile choice, played one "
                "after another round the table (the split at the same time), plus 90 s a "
                "round to shuffle, deal and score")
_PLUS_HALF_BIT = 1 << (C.PLUS_HALF - 60)


def round_score_bound(t: Table) -> int:
    """The most a side's round score can exceed its least (:data:`MAX_ROUND_SCORE` in
    the editions): a lead bigger than this before the last round settles a match on
    totals. A variant's: a side takes at most every trick of a half (of the whole round
    where a special moves tricks between piles), scored by the variant's form."""
    v = t.variant
    if v is None:
        return MAX_ROUND_SCORE[t.edition]
    moves = any(s.pile != "none" for s in v.specials) and bool(t.special_pool)
    most = v.hand if moves else max(v.first_half, v.pack)
    if v.scoring == "squared":
        return most * most
    return most + (v.bonus if v.scoring == "balance_bonus" else 0)


def chooses_pile(t: Table) -> int:
    """The bit mask of the specials whose won trick lets its winner choose the pile."""
    if t.variant is None:
        return _PLUS_HALF_BIT
    return sum(1 << (s.card - 60) for s in t.variant.specials if s.pile == "winner_chooses")


def length(frame: Frame, tables: list[Table]) -> Json:
    """Round score distributions, match lengths, how often the last round decides (and
    how often the match was already decided before it), shared victories, decisions a
    player makes per match and an estimate of the playing time (:data:`PLAYING_TIME`)."""
    out: Json = {}
    for t in tables:
        f = frame.eq(table=t.key)
        if not len(f):
            continue
        first = f.eq(round=0, seat=0)
        scores = f["side_score"].astype(np.int64)
        lowest = min(int(scores.min()), 0)  # a balance bonus scores below 0
        dist = np.bincount(scores - lowest, minlength=14)
        dist = dist[:14] if t.variant is None else dist
        most = max(int(first["rounds"].max()), 3)
        rounds = np.bincount(first["rounds"].astype(np.int64), minlength=most + 1)[1:most + 1]
        totals = f.eq(round=0)["total"].astype(np.int64)
        opening = f.eq(round=0)
        shared = _per_game(opening, (opening["match_win"] > 0) & (opening["match_win"] < 1))
        # one split and 13 cards a round, and a pile choice for each trick taken by +.5
        piles = ((f["won_specials"] & chooses_pile(t)) != 0).astype(np.float64)
        _, game = np.unique(f["cluster"], return_inverse=True)
        per_game_piles = np.bincount(game, weights=piles)
        match_rounds = np.bincount(game, weights=(f["seat"] == 0).astype(np.float64))
        decisions = match_rounds * (1 + t.hand) + per_game_piles / t.players
        minutes = (match_rounds * (SECONDS["split"] + SECONDS["round"]
                                   + t.hand * t.players * SECONDS["card"])
                   + per_game_piles * SECONDS["pile"]) / 60
        entry: Json = {
            "label": t.label,
            "mean_round_score": cluster_mean(scores, f["cluster"]).to_json(),
            "round_score_distribution": (dist / max(dist.sum(), 1)).round(6).tolist(),
            "round_score_lowest": lowest,
            "match_rounds_distribution": (rounds / max(rounds.sum(), 1)).round(6).tolist(),
            "mean_match_rounds": mean_ci(first["rounds"]).to_json(),
            "decided_in_last_round": mean_ci(first["decided_last"]).rate().to_json(),
            "mean_match_total": cluster_mean(totals, f.eq(round=0)["cluster"]).to_json(),
            "shared_victory": mean_ci(shared).rate().to_json(),
            "decisions_per_player": mean_ci(decisions).to_json(),
            "minutes_per_match": mean_ci(minutes).to_json(),
            "playing_time": PLAYING_TIME,
        }
        if not victories_format(t):
            reach = swing_bound(f, t.sides())
            entry["decided_before_last_round"] = mean_ci(
                decided_before_last(f, t.sides(), reach)).rate().to_json()
            entry["out_of_reach_lead"] = reach
        out[t.key] = entry
    return out


def _per_game(f: Frame, flag: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
    """Per game of ``f``, whether any of its rows has ``flag``."""
    _, game = np.unique(f["cluster"], return_inverse=True)
    return np.asarray(np.bincount(game, weights=flag.astype(np.float64)) > 0,
                      dtype=np.float64)


def decided_before_last(f: Frame, sides: int, bound: float) -> npt.NDArray[np.float64]:
    """Per match played on totals: whether the side leading before the last round was
    ahead of every other side by more than ``bound`` points (:func:`swing_bound`: what
    one side gains on another in a round, in 95% of rounds; the most a round can move
    them, :func:`round_score_bound`, is a certainty no 3-round match of the editions
    reaches, so a figure on it stayed at 0 under every player)."""
    last = f.where(f["round"] == f["rounds"] - 1)
    before = last["total"].astype(np.float64) - last["side_score"].astype(np.float64)
    matrix, _ = by_round(before, last.keyed("round"), last["seat"], sides)
    if not matrix.shape[0]:
        return np.zeros(0)
    ordered = np.sort(matrix, axis=1)
    return np.asarray(ordered[:, 1] - ordered[:, 0] > bound, dtype=np.float64)


#: the share of rounds whose swing :func:`swing_bound` stays within
REACH = 0.95


def swing_bound(f: Frame, sides: int, share: float = REACH) -> float:
    """How much one side gains on another in a round (the difference of their round
    scores, every pair of sides of every round of ``f``), in ``share`` of the cases: a
    lead above it before the last round puts the match out of reach in practice.

    >>> cols = {"cluster": np.repeat(np.arange(4), 2), "round": np.zeros(8, dtype=int),
    ...         "seat": np.tile([0, 1], 4), "side_score": np.array([0, 1, 0, 3, 2, 2, 1, 0])}
    >>> swing_bound(Frame(cols), 2, share=1.0), swing_bound(Frame(cols), 2, share=0.5)
    (3.0, 1.0)
    """
    matrix, _ = by_round(f["side_score"].astype(np.float64), f.keyed("round"), f["seat"],
                         sides)
    if not matrix.shape[0]:
        return float("nan")
    a, b = np.triu_indices(sides, 1)
    gains = np.abs(matrix[:, a] - matrix[:, b]).ravel()
    return float(np.quantile(gains, share, method="higher"))


# -- rules -------------------------------------------------------------------------------
def _diff(a: Estimate, b: Estimate) -> Estimate:
    half = float(np.hypot(a.value - a.low, b.value - b.low))
    d = a.value - b.value
    return Estimate(d, d - half, d + half, min(a.n, b.n))


def rules(frame: Frame, spec: AnalysisSpec, dup: Frame | None = None) -> Json:
    """Each table option's reading next to the default: the other studies' headline
    figures under each reading (mean round score, seat gap, each special's holder
    effect, what the split keeps for the second half, last-round decisions, match
    length), how much skill pays under it (the heuristic against random on duplicate
    deals, from ``dup``), and the 2-player format: how often first-to-2-victories and
    lowest-total-after-3-rounds pick different winners among matches that went to
    3 rounds.

    A reading the core cannot play is compared with the default played through the
    engine too (``engine: true``), never with the core's games."""
    out: Json = {}
    tables = spec.rule_tables()
    for base in sorted({t.default_options for t in tables}):
        rows: Json = {}
        refs: dict[bool, Estimate] = {}
        for t in sorted((t for t in tables if t.default_options == base),
                        key=lambda t: t != base):
            f = frame.eq(table=t.key)
            for engine in f.distinct("engine"):
                g = f.eq(engine=engine)
                mean = cluster_mean(g["side_score"], g["cluster"])
                first = g.eq(round=0, seat=0)
                gap = seats(g, [t]).get(t.key, {}).get("gap", NAN.to_json())
                entry: Json = {
                    "label": t.label + (" · engine" if engine else ""),
                    "engine": bool(engine),
                    "mean_round_score": mean.to_json(),
                    "seat_gap": gap,
                    "decided_in_last_round": mean_ci(first["decided_last"]).rate().to_json(),
                    "mean_match_rounds": mean_ci(first["rounds"]).to_json(),
                }
                if t.edition == "meio":
                    cards = specials(g, g, [t], subsets=False).get(t.key, {}).get("cards", {})
                    entry["specials"] = {c: v["holder_minus_others"] for c, v in cards.items()}
                kept = splits(g, [t]).get(t.key, {})
                entry["second_half_share"] = {
                    name: kept[name]["share_to_second_half"]
                    for name in ("hearts", "high", "specials") if name in kept}
                if t == base:
                    refs[bool(engine)] = mean
                elif bool(engine) in refs:
                    entry["score_change"] = _diff(mean, refs[bool(engine)]).to_json()
                rows[t.key + ("@engine" if engine else "")] = entry
        result: Json = {"label": base.label, "variants": rows}
        gaps = _skill_by_reading(dup, [t for t in tables if t.default_options == base], base)
        if gaps:
            result["skill"] = gaps
        if base.players == 2:
            result["format"] = _formats(frame.eq(table=base.key))
        if rows:
            out[base.key] = result
    return out


def _skill_by_reading(dup: Frame | None, readings: list[Table], base: Table) -> Json:
    """The rules study's skill pair under each reading: the weaker bot's mean round
    score minus the stronger's per deal, and its change from the default reading."""
    if dup is None or not len(dup):
        return {}
    name = "-vs-".join(RULES_SKILL_PAIR)
    out: Json = {}
    ref: Estimate | None = None
    for t in sorted(readings, key=lambda t: t != base):
        g = dup.eq(table=t.key, pair=name)
        if not len(g):
            continue
        gap = _gap(g, RULES_SKILL_PAIR[0])
        entry: Json = {"label": t.label, "pair": name,
                       "weaker_minus_stronger": gap.to_json()}
        if t == base:
            ref = gap
        elif ref is not None:
            entry["change"] = _diff(gap, ref).to_json()
        out[t.key] = entry
    return out


def _formats(f: Frame) -> Json:
    three = f.where(f["rounds"] == 3)
    if not len(three):
        return {"three_round_matches": 0}
    key = three["cluster"]
    games = np.unique(key)
    score = three["side_score"].astype(np.int64)
    order = np.lexsort((three["seat"], three["round"], key))
    s = score[order].reshape(games.size, 3, 2)
    wins = (s[:, :, 0] < s[:, :, 1]).sum(1)  # rounds won by seat 0
    by_victories = wins >= 2
    by_totals = s[:, :, 0].sum(1) < s[:, :, 1].sum(1)
    return {"three_round_matches": int(games.size),
            "share_of_matches": round(float(games.size / np.unique(f["cluster"]).size), 6),
            "winners_differ": mean_ci(by_victories != by_totals).rate().to_json()}


# -- what --ci waits on ------------------------------------------------------------------
def headline(summary: Json) -> dict[str, list[float]]:
    """Per table key (a skill pair: ``TABLE#STRONG-vs-WEAK``), the widths of its
    headline intervals in ``summary``. Pairs with the search bot are left out: their
    deals cost seconds each, so ``--ci`` leaves them at their share of the games."""
    widths: dict[str, list[float]] = {}

    def add(table: str, est: Json) -> None:
        lo, hi = est["ci95"]
        if lo is not None and hi is not None:
            widths.setdefault(table, []).append(hi - lo)

    studies = summary.get("studies", {})
    for key, e in studies.get("seats", {}).items():
        for est in itertools.chain(e["score_by_leader_offset"],
                                   e["match_win_by_first_leader_offset"]):
            add(key, est)
    for key, e in studies.get("specials", {}).items():
        for card in e["cards"].values():
            add(key, card["holder_minus_others"])
    for key, e in studies.get("skill", {}).items():
        for name, pair in e["pairs"].items():
            if not any(is_search(b) for b in name.split("-vs-")):  # seconds a deal
                add(f"{key}#{name}", pair["weaker_minus_stronger"])
    for key, e in studies.get("splits", {}).items():
        for name in ("hearts", "high", "specials"):
            if name in e:
                add(key, e[name]["share_to_second_half"])
    for key, e in studies.get("length", {}).items():
        add(key, e["mean_round_score"])
        add(key, e["decided_in_last_round"])
    for e in studies.get("rules", {}).values():
        # readings played through the engine (``@engine``) stay at their share of the
        # games: chasing a width there would cost a thousand times a core game
        for key, v in e["variants"].items():
            if not v["engine"]:
                add(key, v["mean_round_score"])
        for key, v in e.get("skill", {}).items():
            add(f"{key}#{v['pair']}", v["weaker_minus_stronger"])
    return widths
