"""The measures of a report card, from the rows of :mod:`meio.design.games`.

Each headline figure is a :class:`~meio.design.stats.Ratio` or a
:class:`~meio.design.stats.Figure` of per-deal sums, kept by key in
:attr:`Card.rows` so that two rulesets' figures can be subtracted on the same deals
(:func:`compare`); :attr:`Card.detail` holds the tables behind them (every seat, every
ladder step, every special card). Scores are round scores, lower is better; a side is
a seat, or a team in partnership.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from meio.analysis.stats import Estimate
from meio.analysis.studies import SECONDS
from meio.analysis.verdicts import holm
from meio.design.budget import STEP_TARGET
from meio.design.games import Columns, Tables
from meio.design.stats import (
    Figure,
    Floats,
    LargestEdge,
    Ratio,
    first_unclear,
    p_value,
    rounds_to_win,
)

Json = dict[str, Any]
Measure = Ratio | Figure


@dataclass(frozen=True)
class Row:
    """A headline figure: its measure, what it is called, and which way is better for a
    designer who wants a fair, deep, decisive game (``+1`` higher, ``-1`` lower, ``0``
    neither: a matter of taste)."""

    key: str
    label: str
    measure: Measure
    better: int = 0
    section: str = ""


@dataclass
class Card:
    """One ruleset's report card: headline rows and the detail behind them."""

    rows: dict[str, Row] = field(default_factory=dict)
    detail: Json = field(default_factory=dict)

    def add(self, section: str, key: str, label: str, measure: Measure,
            better: int = 0) -> None:
        self.rows[key] = Row(key, label, measure, better, section)

    def value(self, key: str) -> float:
        return self.rows[key].measure.value if key in self.rows else math.nan

    def json(self) -> Json:
        out: Json = {}
        for row in self.rows.values():
            e = row.measure.estimate()
            out.setdefault(row.section, {})[row.key] = {"label": row.label, **e.to_json()}
        return {"figures": out, **self.detail}


def _mask(cols: Columns, keep: Any) -> Columns:
    return {k: v[keep] for k, v in cols.items()}


def card(self_play: Tables, pairs: Sequence[tuple[tuple[str, str], Tables]], players: int,
         deals: int, sides: int) -> Card:
    """The report card of one ruleset: ``self_play`` under the named player (each deal
    from every first leader), ``pairs`` the ladder's neighbours (weaker first), on deals
    ``0 .. deals − 1``."""
    c = Card()
    seats(c, self_play["seat"], players, deals, sides)
    depth(c, pairs, deals)
    drama(c, self_play, deals)
    specials(c, self_play, deals)
    length(c, self_play, deals, players)
    return c


def seats(c: Card, rows: Columns, players: int, deals: int, sides: int) -> None:
    """Seat advantage: each position's round score against the table mean (from the
    round's leader and from the first round's leader), each tested with its
    cluster-robust interval and the p-values Holm-corrected across the positions (a
    permutation test would shuffle rows that are not independent here: one deal is
    played from every first leader), and match wins against 1/N the same way."""
    d = rows["deal"]
    # a side's score minus the mean of all sides, from its score minus the others'
    edge = (rows["side"] - rows["others"]) * (sides - 1) / sides
    c.add("score", "mean_round_score", "mean round score",
          Ratio.of(d, rows["side"], deals))
    detail: Json = {}
    for name, column in (("from_leader", "from_leader"), ("from_first", "from_first")):
        ratios = [Ratio.of(d[rows[column] == k], edge[rows[column] == k], deals)
                  for k in range(players)]
        estimates = [r.estimate() for r in ratios]
        adjusted = holm([p_value(e) for e in estimates])
        detail[name] = {"positions": [{**e.to_json(), "p_holm": _p(p)}
                                      for e, p in zip(estimates, adjusted, strict=True)],
                        "any_seat_p": _p(min(adjusted))}
        label = "round's leader" if name == "from_leader" else "first round's leader"
        c.add("seats", f"seat_gap_{name}",
              f"largest seat edge, by position from the {label}",
              LargestEdge(ratios, lambda v: float(np.nanmax(np.abs(v)))), -1)
    c.rows["seat_gap"] = Row("seat_gap", "seat gap: the largest seat edge (round's leader)",
                             c.rows["seat_gap_from_leader"].measure, -1, "seats")
    del c.rows["seat_gap_from_leader"]
    c.add("seats", "leader_edge", "the round's leader: score minus the table mean",
          Ratio.of(d[rows["from_leader"] == 0], edge[rows["from_leader"] == 0], deals))
    first = _mask(rows, rows["round"] == 0)
    wins = [Ratio.of(first["deal"][first["from_first"] == k],
                     first["match_win"][first["from_first"] == k], deals) for k in range(players)]
    fair = 1 / players
    w_est = [r.estimate() for r in wins]
    w_adj = holm([p_value(e, fair) for e in w_est])
    detail["match_wins"] = {"fair": fair, "positions": [
        {**e.to_json(), "p_holm": _p(p)} for e, p in zip(w_est, w_adj, strict=True)]}
    c.add("seats", "first_leader_wins", "match-win rate of the first round's leader",
          wins[0])
    c.add("seats", "match_win_gap", "largest match-win rate's distance from 1/N",
          LargestEdge(wins, lambda v: float(np.nanmax(np.abs(v - fair))), null=fair), -1)
    c.detail["seats"] = detail


def _p(p: float) -> float | None:
    return None if math.isnan(p) else round(float(p), 6)


def depth(c: Card, pairs: Sequence[tuple[tuple[str, str], Tables]], deals: int) -> None:
    """The ladder: each neighbour pair's score gap on the same deals (weaker minus
    stronger: positive when the stronger scores lower), where the curve flattens, and
    for each pair how much of a seat's round score the deal explains and how many
    rounds the stronger needs to win three matches in four."""
    steps: list[Json] = []
    gaps: list[Figure] = []
    for (weak, strong), tables in pairs:
        rows = tables["seat"]
        d = rows["deal"]
        st = rows["stronger"].astype(bool)
        gap = Figure([Ratio.of(d[~st], rows["side"][~st], deals),
                      Ratio.of(d[st], rows["side"][st], deals)], lambda v: float(v[0] - v[1]))
        gaps.append(gap)
        key = f"{weak}>{strong}"
        c.add("depth", f"gap:{key}", f"{strong} over {weak}: score gap a round", gap, +1)
        luck, skill, k75 = _luck(rows, deals)
        c.add("luck", f"luck:{key}", f"{weak} v {strong}: share of a seat's score the deal "
              "explains", luck)
        c.add("luck", f"skill:{key}", f"{weak} v {strong}: share the players explain", skill,
              +1)
        c.add("luck", f"rounds75:{key}", f"{weak} v {strong}: rounds for {strong} to win "
              "3 matches in 4", k75, -1)
        steps.append({"weaker": weak, "stronger": strong})
    if gaps:
        estimates = [g.estimate() for g in gaps]
        clear = first_unclear(estimates)
        for step, e in zip(steps, estimates, strict=True):
            step["reading"] = reading(e)
            step["deals_to_tell"] = deals_to_tell(e)
        c.add("depth", "depth", "ladder's total gain: top rung over the bottom, a round",
              Figure([r for g in gaps for r in g.ratios],
                     lambda v: float((v[0::2] - v[1::2]).sum())), +1)
        bottom = pairs[0][0][0]
        # the curve: each rung's strength over the bottom one, the steps below it summed
        curve = [{"rung": bottom, "value": 0.0, "ci95": [0.0, 0.0]}]
        for k in range(1, len(gaps) + 1):
            rung = Figure([r for g in gaps[:k] for r in g.ratios],
                          lambda v: float((v[0::2] - v[1::2]).sum())).estimate()
            curve.append({"rung": pairs[k - 1][0][1], **rung.to_json()})
        stop = steps[clear]["reading"] if clear < len(pairs) else ""
        # a curve that rises again above the stop has not flattened there
        again = next((pairs[k][0][1] for k in range(clear + 1, len(pairs))
                      if steps[k]["reading"] == "rises"), None)
        c.detail["depth"] = {"steps": steps, "clear_steps": clear, "smallest_gain": FLAT,
                             "flattens_at": (pairs[clear][0][0]
                                             if stop == "flat" and again is None else None),
                             "unclear_at": pairs[clear][0][0] if stop == "unclear" else None,
                             "falls_at": pairs[clear][0][0] if stop == "falls" else None,
                             "rises_again_at": again, "curve": curve}


#: the smallest gain of a ladder step that matters, a round (the lab's smallest skill gap)
FLAT = STEP_TARGET


def reading(gap: Estimate) -> str:
    """A ladder step read from its gap's interval: ``rises`` (above 0), ``falls`` (below
    0: the rung above is the weaker player here, so the ladder's order is not the
    players' strength), ``flat`` (it reaches 0 and holds no gain that matters: below
    :data:`FLAT`), or ``unclear`` (it reaches 0 and a gain that matters alike: too wide
    to say).

    >>> [reading(Estimate(0.2, lo, hi, 99)) for lo, hi in ((0.1, 0.3), (-0.02, 0.025),
    ...                                                   (-0.05, 0.2), (-0.15, -0.02))]
    ['rises', 'flat', 'unclear', 'falls']
    """
    if gap.low > 0:
        return "rises"
    if gap.high < 0:
        return "falls"
    return "flat" if gap.high < FLAT else "unclear"


def deals_to_tell(gap: Estimate) -> int | None:
    """About how many deals would bring an unclear step's interval to ± :data:`FLAT`,
    the width at which a flat step is told from a rising one (None when it is clear)."""
    if reading(gap) != "unclear" or not math.isfinite(gap.high - gap.low) or gap.n < 1:
        return None
    half = (gap.high - gap.low) / 2
    return math.ceil(gap.n * (half / FLAT) ** 2)


def _luck(rows: Columns, deals: int) -> tuple[Figure, Figure, Figure]:
    """Variance components of a seat's round score over duplicate deals: the deal (the
    same hand in the same seat and round, whoever plays it), the players (which of the
    two sat there), and the rest; and the rounds the stronger needs to win."""
    d, y = rows["deal"], rows["side"].astype(np.float64)
    st = rows["stronger"].astype(bool)
    cell = (d * 64 + rows["round"]) * 64 + rows["seat"]
    _, idx, counts = np.unique(cell, return_inverse=True, return_counts=True)
    cell_mean = np.bincount(idx, weights=y) / counts
    lineups = max(int(counts.max()), 2)
    cell_deal = np.bincount(idx, weights=d, minlength=counts.size) / counts
    parts = [Ratio.of(d, y, deals), Ratio.of(d, y * y, deals),
             Ratio.of(cell_deal.astype(np.int64), cell_mean ** 2, deals),
             Ratio.of(d[~st], y[~st], deals), Ratio.of(d[st], y[st], deals)]

    def luck(v: Floats) -> float:
        total = v[1] - v[0] ** 2
        between = v[2] - v[0] ** 2
        return float((between - (total - between) / (lineups - 1)) / total)

    def skill(v: Floats) -> float:
        return float(((v[3] - v[4]) / 2) ** 2 / (v[1] - v[0] ** 2))

    # one round at one table: the weaker's mean score minus the stronger's there
    key = (rows["deal"] * 64 + rows["rotation"]) * 64 + rows["round"]
    _, kidx = np.unique(key, return_inverse=True)
    weak_sum = np.bincount(kidx, weights=np.where(st, 0.0, y))
    weak_n = np.bincount(kidx, weights=(~st).astype(np.float64))
    strong_sum = np.bincount(kidx, weights=np.where(st, y, 0.0))
    strong_n = np.bincount(kidx, weights=st.astype(np.float64))
    keep = (weak_n > 0) & (strong_n > 0)
    delta = weak_sum[keep] / weak_n[keep] - strong_sum[keep] / strong_n[keep]
    key_deal = np.bincount(kidx, weights=d) / np.bincount(kidx)
    kd = key_deal[keep].astype(np.int64)
    k75 = Figure([Ratio.of(kd, delta, deals), Ratio.of(kd, delta * delta, deals)],
                 lambda v: rounds_to_win(float(v[0]), float(v[1])))
    return Figure(parts, luck), Figure(parts, skill), k75


def drama(c: Card, t: Tables, deals: int) -> None:
    """Decisiveness and drama: shared wins, the last round changing the winner, matches
    settled before it, lead changes, and the tricks until a round's result is certain."""
    m = t["match"]
    d = m["deal"]
    c.add("drama", "shared", "shared victories", Ratio.of(d, m["shared"], deals))
    for key, label in (("last_changed", "the last round changes the winner"),
                       ("settled", "settled before the last round (no last round could "
                        "change it)")):
        ok = ~np.isnan(m[key].astype(np.float64))
        if ok.any():
            c.add("drama", key, label, Ratio.of(d[ok], m[key][ok], deals))
    c.add("drama", "lead_changes", "lead changes in a match", Ratio.of(d, m["lead_changes"],
                                                                       deals), +1)
    r = t["round"]
    c.add("drama", "certain_after", "tricks until a round's result is certain",
          Ratio.of(r["deal"], r["certain_after"], deals), +1)
    alone = ~r["tied"].astype(bool)
    c.add("drama", "certain_after_untied", "the same, in rounds with one lowest score",
          Ratio.of(r["deal"][alone], r["certain_after"][alone], deals), +1)
    c.add("drama", "tied_rounds", "rounds whose lowest score is tied",
          Ratio.of(r["deal"], r["tied"], deals))


def specials(c: Card, t: Tables, deals: int) -> None:
    """Each special card's worth (its holder's round score minus the others' mean:
    negative helps the holder, since lower scores win) and how often it decides the
    trick it is played in; the same for trumps (worth per trump dealt, as a slope) and
    the tricks won by a trump on another suit's lead."""
    s = t["special"]
    cards: list[str] = sorted(set(s["card"].tolist())) if s else []
    for code in cards:
        one = _mask(s, s["card"] == code)
        c.add("specials", f"worth:{code}", f"{code}: holder's score minus the others'",
              Ratio.of(one["deal"], one["worth"], deals))
        played = one["played"].astype(bool)
        c.add("specials", f"decides:{code}", f"{code}: wins the trick it is played in",
              Ratio.of(one["deal"][played], one["decided"][played], deals))
    rows = t["seat"]
    x = rows["trumps"].astype(np.float64)
    y = (rows["side"] - rows["others"]).astype(np.float64)
    d = rows["deal"]
    if x.any():
        parts = [Ratio.of(d, x, deals), Ratio.of(d, y, deals), Ratio.of(d, x * y, deals),
                 Ratio.of(d, x * x, deals)]
        c.add("specials", "worth:trump", "each trump dealt: holder's score minus the "
              "others' (slope)",
              Figure(parts, lambda v: float((v[2] - v[0] * v[1]) / (v[3] - v[0] ** 2))))
        r = t["round"]
        ruffs = np.bincount(r["deal"], weights=r["ruffs"], minlength=deals)[:deals]
        tricks = np.bincount(r["deal"], weights=r["tricks"], minlength=deals)[:deals]
        c.add("specials", "ruffs", "share of tricks won by a trump on another suit's lead",
              Ratio(ruffs, tricks))


def length(c: Card, t: Tables, deals: int, players: int) -> None:
    """Decisions a player makes per match and the estimated playing time."""
    r = t["round"]
    m = t["match"]
    per_round = (SECONDS["split"] + SECONDS["round"] + r["cards"] * SECONDS["card"]
                 + r["piles"] * SECONDS["pile"]) / 60
    minutes = np.bincount(r["deal"], weights=per_round, minlength=deals)[:deals]
    matches = np.bincount(m["deal"], minlength=deals)[:deals].astype(np.float64)
    c.add("length", "minutes", "minutes a match (estimated)", Ratio(minutes, matches), -1)
    seat = t["seat"]
    decisions = np.bincount(seat["deal"], weights=seat["decisions"], minlength=deals)[:deals]
    c.add("length", "decisions", "decisions a player makes in a match",
          Ratio(decisions, matches * players))
    c.add("length", "rounds", "rounds a match", Ratio.of(m["deal"], m["rounds"], deals))
    c.detail["length"] = {"seconds": SECONDS, "how": (
        "estimated: 45 s a split (made at the same time by every player), 6 s a card "
        "played one after another round the table, 5 s a pile choice, and 90 s a round "
        "to shuffle, deal and score; assumptions, not measurements")}


def compare(cards: Sequence[Card]) -> list[Json]:
    """Each headline row of the first card against every other card's, on the same
    deals: the difference (other minus first) with its 95% interval."""
    base = cards[0]
    out = []
    for key, row in base.rows.items():
        entry: Json = {"key": key, "label": row.label, "section": row.section,
                       "better": row.better, "values": [], "differences": []}
        for other in cards:
            theirs = other.rows.get(key)
            entry["values"].append(None if theirs is None
                                   else theirs.measure.estimate().to_json())
        for other in cards[1:]:
            theirs = other.rows.get(key)
            if theirs is None or type(theirs.measure) is not type(row.measure):
                entry["differences"].append(None)
                continue
            diff = theirs.measure.minus(row.measure)  # type: ignore[arg-type]
            entry["differences"].append({**diff.to_json(), "verdict": verdict(diff,
                                                                             row.better)})
        out.append(entry)
    return out


def verdict(diff: Any, better: int) -> str:
    """``better``/``worse`` for a designer where the direction is clear and the interval
    excludes 0; ``higher``/``lower`` where it is a matter of taste; ``no clear
    difference`` otherwise."""
    if not diff.significant:
        return "no clear difference"
    up = diff.value > 0
    if better == 0:
        return "higher" if up else "lower"
    return "better" if up == (better > 0) else "worse"
