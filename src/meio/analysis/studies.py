"""The six studies: each turns the raw table into figures with 95% intervals.

Every function takes the rows of the games it needs and returns a JSON-ready dict;
figures are :class:`~meio.analysis.stats.Estimate` dicts (``value``, ``ci95``,
``n`` games). :func:`headline` lists, per table, the figures ``--ci`` waits on.
Scores are *side* scores (a team's in partnership): the number a seat is judged by.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import numpy.typing as npt

from meio.analysis.frame import Frame
from meio.analysis.plan import RULES_SKILL_PAIR, AnalysisSpec, Table
from meio.analysis.stats import NAN, Estimate, bootstrap, cluster_mean, mean_ci
from meio.engine import cards as C

Json = dict[str, Any]


def _by(frame: Frame, column: str, value: str, players: int) -> list[Estimate]:
    return [cluster_mean(f[value], f["cluster"])
            for f in (frame.eq(**{column: k}) for k in range(players))]


def _paired(frame: Frame, column: str, a: int, b: int, value: str) -> Estimate:
    """Mean of ``value`` at ``column == a`` minus at ``column == b``, paired by round."""
    fa, fb = frame.eq(**{column: a}), frame.eq(**{column: b})
    ka, kb = fa.keyed("round"), fb.keyed("round")
    oa, ob = np.argsort(ka), np.argsort(kb)
    if not np.array_equal(ka[oa], kb[ob]):
        return NAN
    return cluster_mean(fa[value][oa] - fb[value][ob], fa["cluster"][oa])


# -- seats -------------------------------------------------------------------------------
def seats(frame: Frame, tables: list[Table]) -> Json:
    """Round score, round wins and match wins by seat, counted from the round's leader
    and from the match's first leader; the gap between the best and worst seat."""
    out: Json = {}
    frame = frame.select("table", "round", "from_leader", "from_first_leader", "side_score",
                         "round_win", "match_win")
    for t in tables:
        f = frame.eq(table=t.key)
        if not len(f):
            continue
        p = t.players
        score = _by(f, "from_leader", "side_score", p)
        wins = [e.rate() for e in _by(f, "from_leader", "round_win", p)]
        first = f.eq(round=0)
        match = [e.rate() for e in _by(first, "from_first_leader", "match_win", p)]
        best = int(np.nanargmin([e.value for e in score]))
        worst = int(np.nanargmax([e.value for e in score]))
        gap = _paired(f, "from_leader", worst, best, "side_score")
        out[t.key] = {
            "label": t.label, "games": int(np.unique(f["cluster"]).size),
            "score_by_leader_offset": [e.to_json() for e in score],
            "round_win_by_leader_offset": [e.to_json() for e in wins],
            "match_win_by_first_leader_offset": [e.to_json() for e in match],
            "best_offset": best, "worst_offset": worst,
            "gap": gap.to_json(), "significant": gap.significant and best != worst,
        }
    return out


# -- specials ----------------------------------------------------------------------------
def _holder_diff(f: Frame, bit: int, partnership: bool) -> tuple[Frame, npt.NDArray[Any]]:
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


def specials(frame: Frame, contrast: Frame, tables: list[Table], subsets: bool = True) -> Json:
    """Per special: its holder's score against the others', by the half it is kept
    for, how often it wins its trick; and which sets of N specials are the most
    balanced (smallest seat gap) and reward skill most (random minus heuristic)."""
    out: Json = {}
    for t in tables:
        if t.edition != "meio":
            continue
        f = frame.eq(table=t.key)
        if not len(f):
            continue
        cards: Json = {}
        for card in C.SPECIALS:
            bit = 1 << (card - 60)
            g = f if t.players == 5 else f.where(_holds(f, card))
            if not len(g):
                continue
            h, diff = _holder_diff(g, bit, t.partnership)
            second = (h["pack_specials"] & bit) != 0
            won = ((h["won_specials"] & bit) != 0).astype(np.float64)
            cards[C.card_code(card)] = {
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
        if t.players < 5 and subsets:
            entry["subsets"] = _subsets(f, contrast.eq(table=t.key), t)
        out[t.key] = entry
    return out


def _holds(f: Frame, card: int) -> npt.NDArray[np.bool_]:
    """Per row, whether the row's set of specials (``-1,A+,+.5,Q+``) includes ``card``."""
    return f.isin("specials", [s for s in f.distinct("specials") if card in _parse(s)])


def _parse(text: str) -> tuple[int, ...]:
    """The special cards of a ``specials`` column value (codes joined by commas)."""
    return tuple(C.parse_card(c) for c in text.split(",")) if text != "none" else ()


def _subsets(f: Frame, contrast: Frame, t: Table) -> Json:
    rows: list[Json] = []
    for subset in f.distinct("specials"):
        g = f.eq(specials=subset)
        means = [e.value for e in _by(g, "from_leader", "side_score", t.players)]
        offsets = g["from_leader"]
        scores = g["side_score"].astype(np.float64)

        def spread(w: npt.NDArray[Any], s: npt.NDArray[Any] = scores,
                   o: npt.NDArray[Any] = offsets) -> float:
            m = [np.average(s[o == k], weights=w[o == k]) if w[o == k].sum() else np.nan
                 for k in range(t.players)]
            return float(np.nanmax(m) - np.nanmin(m))

        gap = float(np.nanmax(means) - np.nanmin(means))
        lo, hi = bootstrap(spread, g["cluster"], reps=100, seed=len(rows))
        skill = NAN
        rnd = contrast.eq(specials=subset, policy="random")
        heu = contrast.eq(specials=subset, policy="heuristic")
        if len(rnd) and len(heu):
            a, b = mean_ci_of(rnd), mean_ci_of(heu)
            half = np.hypot(a.value - a.low, b.value - b.low)
            d = a.value - b.value
            skill = Estimate(d, d - half, d + half, min(a.n, b.n))
        games = int(np.unique(g["cluster"]).size)
        rows.append({"specials": subset, "seat_gap": Estimate(gap, lo, hi, games).to_json(),
                     "skill_gap": skill.to_json()})
    balanced = min(rows, key=lambda r: r["seat_gap"]["value"])["specials"] if rows else None
    skilled = [r for r in rows if r["skill_gap"]["value"] is not None]
    return {"sets": rows, "most_balanced": balanced,
            "most_skill_rewarding": max(skilled, key=lambda r: r["skill_gap"]["value"])[
                "specials"] if skilled else None}


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
        sp_pack = _popcount(f["pack_specials"])
        sp_dealt = _popcount(f["dealt_specials"])
        kinds = {"hearts": (f["hearts_pack"], f["hearts_dealt"]),
                 "high": (f["high_pack"], f["high_dealt"])}
        if t.edition == "meio":
            kinds["specials"] = (sp_pack, sp_dealt)
        entry: Json = {"label": t.label, "random_share": round(6 / 13, 6)}
        for name, (pack, dealt) in kinds.items():
            dist = np.bincount(pack.astype(np.int64), minlength=7)[:7]
            entry[name] = {
                "share_to_second_half": _ratio(pack, dealt, f["cluster"]).to_json(),
                "pack_count_distribution": (dist / max(dist.sum(), 1)).round(6).tolist(),
                "by_dealt": {int(k): _ratio(pack[dealt == k], dealt[dealt == k],
                                            f["cluster"][dealt == k]).to_json()
                             for k in range(1, 14) if (dealt == k).sum() >= 20},
            }
        out[t.key] = entry
    return out


def _popcount(mask: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    m = mask.astype(np.int64)
    return sum(((m >> b) & 1) for b in range(5))  # type: ignore[return-value]


# -- length ------------------------------------------------------------------------------
def length(frame: Frame, tables: list[Table]) -> Json:
    """Round score distributions, match lengths, how often the last round decides."""
    out: Json = {}
    for t in tables:
        f = frame.eq(table=t.key)
        if not len(f):
            continue
        first = f.eq(round=0, seat=0)
        scores = f["side_score"].astype(np.int64)
        dist = np.bincount(scores, minlength=14)[:14]
        rounds = np.bincount(first["rounds"].astype(np.int64), minlength=4)[1:4]
        totals = f.eq(round=0)["total"].astype(np.int64)
        out[t.key] = {
            "label": t.label,
            "mean_round_score": cluster_mean(scores, f["cluster"]).to_json(),
            "round_score_distribution": (dist / max(dist.sum(), 1)).round(6).tolist(),
            "match_rounds_distribution": (rounds / max(rounds.sum(), 1)).round(6).tolist(),
            "mean_match_rounds": mean_ci(first["rounds"]).to_json(),
            "decided_in_last_round": mean_ci(first["decided_last"]).rate().to_json(),
            "mean_match_total": cluster_mean(totals, f.eq(round=0)["cluster"]).to_json(),
        }
    return out


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
            if "search" not in name:  # the search bot's deals are too slow to chase a width
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
