"""``meio analyze compare BASE VARIANT``: every study on the same deals for two rulesets,
and the difference of each figure with its 95% interval.

Both rulesets are analysed with the same spec and seed (two runs of
:func:`~meio.analysis.runner.run_analysis`), so game ``g`` of a cell has the same seed
under both (:attr:`~meio.analysis.plan.Cell.seed_key` leaves the ruleset out). Where
the two rulesets deal the same cards at a table — the same deck (ranks and special
cards) and hand size (the table options may differ) — a game of one is the same deal as
the game of the other with its seed, and each difference is **paired** deal by deal:
its interval comes from the per-deal differences of each figure's linearised
contributions, which removes the luck of the deal from the comparison. Otherwise the
two samples are independent and the interval is **unpaired** (the two standard
errors added in quadrature). Each comparison says which it is.

A figure is a ratio of per-game sums (a mean over rows, each game one draw, as in
:mod:`meio.analysis.stats`); the seat spread (max − min over seats) is not a ratio,
and its difference is bootstrapped over deals (the same draws of deals for both
rulesets when paired). A difference is called a **separation** only when it is
clear after Holm's correction over every figure, at least the measure's smallest
difference that matters, and both sides rest on at least
:data:`~meio.analysis.stats.MIN_GAMES` games (:mod:`meio.analysis.verdicts`);
otherwise no ruleset is named.

Both rulesets are played by one player (:mod:`meio.analysis.players`): where one of
them is an edition and the other is not, the bots' general switch is on
(``AnalysisSpec.general``), so they run their general path on both sides.

Over 500 lines on purpose: the pairing, the intervals, the verdicts and the files of a
comparison are one computation, each step reading the tables the one before made.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from meio.analysis import studies
from meio.analysis.frame import KEY_BASE, Frame
from meio.analysis.plan import AnalysisError, AnalysisSpec, Table, variant_tag
from meio.analysis.play import victories_format
from meio.analysis.players import PlayerError, check_plays, player, who_plays_variants
from meio.analysis.runner import Backend, Run, contrast_policies, run_analysis
from meio.analysis.stats import NAN, Z95, Estimate, by_round
from meio.analysis.verdicts import METHOD, judge
from meio.engine.presets import is_standard
from meio.engine.ruleset import Variant

Json = dict[str, Any]
FORMAT = "meio-analysis-compare/1"
#: bootstrap draws of deals behind the seat spread's difference
SPREAD_REPS = 400

#: per game: (deal ids, numerator sums, denominator sums) of one figure
Parts = tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64]]


def same_deals(a: Table, b: Table) -> bool:
    """Whether a game of ``a`` and the game of ``b`` with the same seed are dealt the
    same cards: the same seeds (:attr:`Table.seed_key`), hand size, deck of the table
    size and special cards."""
    if a.seed_key != b.seed_key or a.hand != b.hand:
        return False
    if (a.variant is None) != (b.variant is None):
        return False
    if a.variant is None or b.variant is None:
        return True
    return (a.variant.deck_for(a.players) == b.variant.deck_for(b.players)
            and a.special_pool == b.special_pool)


@dataclass
class Side:
    """One ruleset's games at one table: self-play of the spec's policy and the skill
    pairs' duplicate deals, each row tagged with the id of its deal."""

    table: Table
    selfplay: Frame
    deals: npt.NDArray[np.int64]  #: per self-play row
    duplicates: Frame
    dup_deals: npt.NDArray[np.int64]  #: per duplicate row


class _Ids:
    """Deal ids shared by both rulesets: a cell's seed key and a game index give the
    same id on either side."""

    def __init__(self) -> None:
        self.codes: dict[str, int] = {}

    def of(self, frame: Frame, table: Table) -> npt.NDArray[np.int64]:
        if not len(frame):
            return np.zeros(0, dtype=np.int64)
        names = frame.cats["cell"]
        lookup = np.array([self.codes.setdefault(n.replace(table.key, table.seed_key, 1),
                                                 len(self.codes)) for n in names],
                          dtype=np.int64)
        return lookup[frame.cols["cell"]] * (1 << 32) + frame["game"].astype(np.int64)


def _side(ids: _Ids, spec: AnalysisSpec, table: Table, selfplay: Frame,
          duplicates: Frame) -> Side:
    sp = selfplay.eq(table=table.key, policy=spec.policy) if len(selfplay) else selfplay
    dup = duplicates.eq(table=table.key) if len(duplicates) else duplicates
    return Side(table, sp, ids.of(sp, table), dup, ids.of(dup, table))


def _parts(deals: npt.NDArray[np.int64], num: npt.NDArray[Any],
           den: npt.NDArray[Any] | None = None) -> Parts:
    """Per deal, the sums of ``num`` and ``den`` (1 a row when ``den`` is None)."""
    uniq, idx = np.unique(deals, return_inverse=True)
    n = np.bincount(idx, weights=np.asarray(num, dtype=np.float64), minlength=uniq.size)
    d = np.bincount(idx, weights=None if den is None else np.asarray(den, dtype=np.float64),
                    minlength=uniq.size)
    return uniq.astype(np.int64), n.astype(np.float64), d.astype(np.float64)


def _linear(parts: Parts) -> tuple[float, npt.NDArray[np.float64]]:
    """The ratio of the sums and each deal's linearised contribution to it."""
    _, n, d = parts
    r = float(n.sum() / d.sum())
    return r, (n - r * d) / float(d.mean())


def difference(a: Parts, b: Parts, paired: bool) -> Json:
    """``b``'s ratio minus ``a``'s, with its 95% interval: from per-deal differences
    when ``paired``, else from the two standard errors in quadrature."""
    ga, gb = a[0].size, b[0].size
    if not ga or not gb or a[2].sum() == 0 or b[2].sum() == 0:
        return {"base": NAN.to_json(), "variant": NAN.to_json(),
                "difference": NAN.to_json(), "paired": paired}
    ra, ua = _linear(a)
    rb, ub = _linear(b)
    own_a = _estimate(ra, ua)
    own_b = _estimate(rb, ub)
    d = rb - ra
    if paired:
        ids = np.union1d(a[0], b[0])
        diff = np.zeros(ids.size)
        diff[np.searchsorted(ids, b[0])] += ub
        diff[np.searchsorted(ids, a[0])] -= ua
        g = ids.size
        half = Z95 * math.sqrt(float((diff ** 2).sum()) / (g * (g - 1))) if g > 1 else 0.0
        n = g
    else:
        half = math.hypot(own_a.value - own_a.low, own_b.value - own_b.low)
        n = min(ga, gb)
    est = Estimate(d, d - half, d + half, n)
    return {"base": own_a.to_json(), "variant": own_b.to_json(), "difference": est.to_json(),
            "paired": paired}


def _estimate(r: float, u: npt.NDArray[np.float64]) -> Estimate:
    g = u.size
    if g < 2:
        return Estimate(r, r, r, g)
    half = Z95 * math.sqrt(float((u ** 2).sum()) / (g * (g - 1)))
    return Estimate(r, r - half, r + half, g)


# -- the figures of each study -----------------------------------------------------------
Figure = Callable[[Side], Parts | None]


def _rows(pick: Callable[[Frame], npt.NDArray[np.bool_]], value: str) -> Figure:
    def figure(s: Side) -> Parts | None:
        if not len(s.selfplay):
            return None
        keep = pick(s.selfplay)
        return _parts(s.deals[keep], s.selfplay[value][keep])
    return figure


def _per_match(value: Callable[[Frame], npt.NDArray[Any]]) -> Figure:
    """A figure with one value per match (from its first row)."""
    def figure(s: Side) -> Parts | None:
        f = s.selfplay
        if not len(f):
            return None
        first = (f["round"] == 0) & (f["seat"] == 0)
        return _parts(s.deals[first], value(f.where(first)))
    return figure


def _per_game_sum(s: Side, flag: npt.NDArray[Any]) -> tuple[npt.NDArray[np.int64],
                                                             npt.NDArray[np.float64]]:
    uniq, idx = np.unique(s.deals, return_inverse=True)
    sums = np.bincount(idx, weights=np.asarray(flag, dtype=np.float64), minlength=uniq.size)
    return uniq.astype(np.int64), sums.astype(np.float64)


def _length_figures(t: Table) -> dict[str, Figure]:
    def shared(s: Side) -> Parts | None:
        f = s.selfplay
        if not len(f):
            return None
        first = f["round"] == 0
        flag = first & (f["match_win"] > 0) & (f["match_win"] < 1)
        ids, count = _per_game_sum(s, flag)
        return ids, (count > 0).astype(np.float64), np.ones(ids.size)

    def paced(minutes: bool) -> Figure:
        def figure(s: Side) -> Parts | None:
            f = s.selfplay
            if not len(f):
                return None
            chooses = studies.chooses_pile(s.table)
            ids, piles = _per_game_sum(s, (f["won_specials"] & chooses) != 0)
            _, rounds = _per_game_sum(s, f["seat"] == 0)
            tt = s.table
            if minutes:
                value = (rounds * (studies.SECONDS["split"] + studies.SECONDS["round"]
                                   + tt.hand * tt.players * studies.SECONDS["card"])
                         + piles * studies.SECONDS["pile"]) / 60
            else:
                value = rounds * (1 + tt.hand) + piles / tt.players
            return ids, value, np.ones(ids.size)
        return figure

    out: dict[str, Figure] = {
        "mean round score": _rows(lambda f: np.ones(len(f), dtype=bool), "side_score"),
        "rounds per match": _per_match(lambda f: f["rounds"]),
        "decided in the last round": _per_match(lambda f: f["decided_last"]),
        "shared victory": shared,
        "decisions a player makes per match": paced(False),
        "playing time per match (minutes)": paced(True),
    }
    if not victories_format(t):
        out["out of reach before the last round"] = _decided_before
    return out


def _decided_before(s: Side) -> Parts | None:
    f = s.selfplay
    if not len(f):
        return None
    last = (f["round"] == f["rounds"] - 1)
    g = f.where(last)
    before = g["total"].astype(np.float64) - g["side_score"].astype(np.float64)
    matrix, keys = by_round(before, g.keyed("round"), g["seat"], s.table.sides())
    if not matrix.shape[0]:
        return None
    ordered = np.sort(matrix, axis=1)
    settled = ordered[:, 1] - ordered[:, 0] > studies.swing_bound(f, s.table.sides())
    cluster_deal = dict(zip(f["cluster"].tolist(), s.deals.tolist(), strict=True))
    ids = np.array([cluster_deal[int(c)] for c in keys // KEY_BASE], dtype=np.int64)
    return _parts(ids, settled)


def _seat_figures(t: Table) -> dict[str, Figure]:
    out: dict[str, Figure] = {}

    def at(k: int) -> Callable[[Frame], npt.NDArray[np.bool_]]:
        return lambda f: np.asarray(f["from_leader"] == k)

    def first_at(k: int) -> Callable[[Frame], npt.NDArray[np.bool_]]:
        return lambda f: np.asarray((f["round"] == 0) & (f["from_first_leader"] == k))

    for k in range(t.players):
        out[f"mean round score, seat {k} after the leader"] = _rows(at(k), "side_score")
    for k in range(t.sides()):
        out[f"match-win rate, seat {k} after the first leader"] = _rows(first_at(k),
                                                                        "match_win")
    return out


def _special_figures(t: Table, cards: tuple[int, ...], other: Table | None = None
                     ) -> dict[str, Figure]:
    """Each special's figures, named as ``t`` names the card (``a / b`` where ``other``
    names it otherwise: the same id under two rulesets' names)."""
    out: dict[str, Figure] = {}
    for card in cards:
        bit = 1 << (card - 60)
        code = t.card_label(card)
        if other is not None and other.card_label(card) != code:
            code = f"{code} / {other.card_label(card)}"

        def held(s: Side, bit: int = bit, card: int = card
                 ) -> tuple[Frame, npt.NDArray[Any], npt.NDArray[np.int64]] | None:
            f = s.selfplay
            if not len(f):
                return None
            every = len(s.table.special_sets()) == 1  # each deal holds every special
            keep = np.ones(len(f), dtype=bool) if every else studies.holds(f, card)
            g = f.where(keep)
            if not len(g):
                return None
            h, diff = studies.holder_diff(g, bit, s.table.partnership)
            held_rows = (g["dealt_specials"] & bit) != 0
            return h, diff, s.deals[keep][held_rows]

        def effect(s: Side, held: Any = held) -> Parts | None:
            got = held(s)
            return None if got is None else _parts(got[2], got[1])

        def wins(s: Side, held: Any = held, bit: int = bit) -> Parts | None:
            got = held(s)
            if got is None:
                return None
            return _parts(got[2], (got[0]["won_specials"] & bit) != 0)

        out[f"{code}: holder − others"] = effect
        out[f"{code}: wins its trick"] = wins
    return out


def _split_figures(t: Table, with_specials: bool) -> dict[str, Figure]:
    def share(pack: str, dealt: str) -> Figure:
        def figure(s: Side) -> Parts | None:
            f = s.selfplay
            if not len(f):
                return None
            if pack == "specials":
                return _parts(s.deals, studies.popcount(f["pack_specials"]),
                              studies.popcount(f["dealt_specials"]))
            return _parts(s.deals, f[pack], f[dealt])
        return figure

    out = {"hearts kept for the second half": share("hearts_pack", "hearts_dealt"),
           "high cards kept for the second half": share("high_pack", "high_dealt")}
    if with_specials:
        out["specials kept for the second half"] = share("specials", "specials")
    return out


def _skill_figures(pairs: list[str]) -> dict[str, Figure]:
    out: dict[str, Figure] = {}
    for pair in pairs:
        strong = pair.split("-vs-")[0]

        def gap(s: Side, pair: str = pair, strong: str = strong) -> Parts | None:
            f = s.duplicates
            if not len(f):
                return None
            keep = f.mask("pair", pair)
            g = f.where(keep)
            if not len(g):
                return None
            deals = s.dup_deals[keep]
            score = g["side_score"].astype(np.float64)
            is_strong = g.mask("bot", strong)
            uniq, idx = np.unique(deals, return_inverse=True)
            weak = np.bincount(idx, weights=score * ~is_strong) / np.bincount(
                idx, weights=(~is_strong).astype(np.float64))
            good = np.bincount(idx, weights=score * is_strong) / np.bincount(
                idx, weights=is_strong.astype(np.float64))
            return uniq, weak - good, np.ones(uniq.size)

        out[f"{pair.replace('-vs-', ' vs ')}: weaker − stronger"] = gap
    return out


def _spread(a: Side, b: Side, paired: bool, seed: int) -> Json:
    """The seat spread (max − min of the seats' mean round scores) of each ruleset and
    its difference, bootstrapped over deals (the same draws for both when paired)."""
    sides = a.table.sides()

    def sums(s: Side) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64],
                               npt.NDArray[np.float64]]:
        f = s.selfplay
        matrix, keys = by_round(f["side_score"].astype(np.float64), f.keyed("round"),
                                f["from_leader"], sides)
        cluster_deal = dict(zip(f["cluster"].tolist(), s.deals.tolist(), strict=True))
        ids = np.array([cluster_deal[int(c)] for c in keys // KEY_BASE], dtype=np.int64)
        uniq, idx = np.unique(ids, return_inverse=True)
        total = np.zeros((uniq.size, sides))
        np.add.at(total, idx, matrix)
        return uniq, total, np.bincount(idx, minlength=uniq.size).astype(np.float64)

    if not len(a.selfplay) or not len(b.selfplay):
        return {"base": NAN.to_json(), "variant": NAN.to_json(), "difference": NAN.to_json(),
                "paired": paired}
    ia, sa, ca = sums(a)
    ib, sb, cb = sums(b)
    rng = np.random.default_rng(seed)

    def spread(total: npt.NDArray[np.float64], count: npt.NDArray[np.float64],
               w: npt.NDArray[Any]) -> npt.NDArray[np.float64]:
        means = (w @ total) / (w @ count)[:, None]
        return np.asarray(means.max(1) - means.min(1), dtype=np.float64)

    def draws(n: int) -> npt.NDArray[np.int64]:
        return rng.multinomial(n, np.full(n, 1 / n), SPREAD_REPS)

    if paired:
        ids = np.union1d(ia, ib)
        ta, tb = np.zeros((ids.size, sides)), np.zeros((ids.size, sides))
        na, nb = np.zeros(ids.size), np.zeros(ids.size)
        ta[np.searchsorted(ids, ia)], na[np.searchsorted(ids, ia)] = sa, ca
        tb[np.searchsorted(ids, ib)], nb[np.searchsorted(ids, ib)] = sb, cb
        w = draws(ids.size)
        da, db = spread(ta, na, w), spread(tb, nb, w)
        n = int(ids.size)
    else:
        da, db = spread(sa, ca, draws(ia.size)), spread(sb, cb, draws(ib.size))
        n = int(min(ia.size, ib.size))
    va = float(spread(sa, ca, np.ones((1, ia.size)))[0])
    vb = float(spread(sb, cb, np.ones((1, ib.size)))[0])

    def est(v: float, d: npt.NDArray[np.float64], games: int) -> Estimate:
        lo, hi = np.percentile(d, [2.5, 97.5])
        # a percentile interval of a max − min can miss its own estimate; widen to hold it
        return Estimate(v, min(float(lo), v), max(float(hi), v), games)

    diff = est(vb - va, db - da, n)
    return {"base": est(va, da, int(ia.size)).to_json(),
            "variant": est(vb, db, int(ib.size)).to_json(), "difference": diff.to_json(),
            "paired": paired}


# -- the whole comparison ----------------------------------------------------------------
def compare(base_spec: AnalysisSpec, base: tuple[Frame, Frame], variant_spec: AnalysisSpec,
            variant: tuple[Frame, Frame]) -> Json:
    """The ``compare`` key of ``summary.json``: per table size both rulesets play, every
    study's figures under each and their difference (variant − base) with its 95%
    interval, paired where the deals are the same; and what could not be compared."""
    ids = _Ids()
    out: Json = {"tables": {}, "skipped": {}}
    by_shape = {(t.players, t.partnership): t for t in variant_spec.tables()}
    base_tables = {(t.players, t.partnership): t for t in base_spec.tables()}
    for shape in sorted(set(by_shape) | set(base_tables)):
        name = f"{shape[0]}p" + (" partnership" if shape[1] else "")
        if shape not in by_shape or shape not in base_tables:
            which = "the variant" if shape not in by_shape else "the base"
            out["skipped"][name] = f"{which} has no {name} table"
            continue
        ta, tb = base_tables[shape], by_shape[shape]
        paired = same_deals(ta, tb)
        sa = _side(ids, base_spec, ta, *base)
        sb = _side(ids, variant_spec, tb, *variant)
        found: Json = {}
        questions = set(base_spec.questions)
        groups: dict[str, dict[str, Figure]] = {}
        if "seats" in questions:
            groups["seats"] = _seat_figures(ta)
        if "specials" in questions:
            cards = tuple(c for c in ta.special_pool if c in tb.special_pool)
            if cards:
                groups["specials"] = _special_figures(ta, cards, tb)
            else:
                out["skipped"][f"{name}/specials"] = (
                    "the two rulesets share no special card at this table")
        if "splits" in questions:
            groups["splits"] = _split_figures(ta, bool(ta.special_pool and tb.special_pool))
        if "length" in questions:
            groups["length"] = _length_figures(ta) if victories_format(ta) == \
                victories_format(tb) else {
                    k: v for k, v in _length_figures(ta).items()
                    if k != "out of reach before the last round"}
        if "skill" in questions:
            pairs = sorted(set(sa.duplicates.distinct("pair")) & set(
                sb.duplicates.distinct("pair"))) if len(sa.duplicates) and len(
                sb.duplicates) else []
            if pairs:
                groups["skill"] = _skill_figures(pairs)
        for study, figures in groups.items():
            rows: Json = {}
            for label, figure in figures.items():
                a, b = figure(sa), figure(sb)
                if a is None or b is None:
                    continue
                rows[label] = difference(a, b, paired)
            if study == "seats" and len(sa.selfplay) and len(sb.selfplay):
                rows["seat spread (worst − best)"] = _spread(sa, sb, paired,
                                                             seed=base_spec.seed)
            if rows:
                found[study] = rows
        out["tables"][name] = {
            "label": name, "base_table": ta.key, "variant_table": tb.key, "paired": paired,
            "pairing": (
                "paired: both rulesets deal the same cards from the same seeds, so each "
                "difference is taken deal by deal" if paired else
                "unpaired: the rulesets deal differently (deck, hand size or specials), "
                "so the two samples are independent"),
            "studies": found,
        }
    if "rules" in base_spec.questions:
        out["skipped"]["rules"] = ("the rules study compares the standard table options; "
                                   "compare a variant's [options] as two files instead")
    judge([(f"{study}: {name}", row) for e in out["tables"].values()
           for study, rows in e["studies"].items() for name, row in rows.items()])
    out["verdicts"] = METHOD
    return out


def ruleset_meta(variant: Variant) -> Json:
    """How ``summary.json`` names a ruleset: its name, tag and sizes."""
    return {"name": variant.name, "tag": variant_tag(variant), "edition": variant.edition,
            "hand": variant.hand, "first_half": variant.first_half, "pack": variant.pack,
            "specials": [s.code for s in variant.specials], "players": list(variant.players),
            "standard": is_standard(variant)}


def players(policy: str, base: Variant, variant: Variant, allow_different: bool = False,
            others: tuple[str, ...] = ()) -> tuple[bool, Json]:
    """Whether the comparison turns on the bots' general switch, and who plays the two
    rulesets.

    One player plays both: where a bot of the comparison (``policy``, and ``others``:
    the skill pairs' and the specials' contrast bots) would play the two rulesets by
    two algorithms — an edition beside any other ruleset — every bot plays by its
    general path on both sides (the general switch, ``AnalysisSpec.general``:
    ``heuristic-any``, ``search:K-any``, ``learned-any``; the rules, deals and seeds
    are unchanged), so a difference is the rules' alone. ``allow_different`` plays each
    ruleset as it is (an edition by the editions' own policy) and says the players
    differ. A bot that cannot play one of the two is refused in one line
    (:class:`AnalysisError`)."""
    sizes = tuple(sorted(set(base.players) & set(variant.players))) or base.players
    for v in (base, variant):
        try:
            check_plays(policy, v, sizes)
        except PlayerError as exc:
            raise AnalysisError(str(exc)) from None
    bots = tuple(dict.fromkeys((policy, *others)))

    def differ(general: bool) -> list[str]:
        return [bot for bot in bots
                if player(bot, base, general) != player(bot, variant, general)]

    general = not allow_different and bool(differ(False))
    if general and differ(True):
        raise AnalysisError(
            f"the {differ(True)[0]} bot plays {base.name!r} and {variant.name!r} as two "
            f"different players ({player(policy, base)}; {player(policy, variant)}) and "
            "has no general path to play both by, so a difference would mix the rules "
            f"with the player; compare them under --bots {who_plays_variants()}, or add "
            "--allow-different-players to compare anyway")
    who: Json = {"policy": policy, "base": player(policy, base, general),
                 "variant": player(policy, variant, general)}
    if len(bots) > 1:
        who["bots"] = {bot: {"base": player(bot, base, general),
                             "variant": player(bot, variant, general)} for bot in bots}
    different = differ(general)
    who["same"] = not different
    who["general"] = general
    if general:
        edition = " and ".join(name for name, v in (("base", base), ("variant", variant))
                               if is_standard(v))
        who["note"] = (f"the {edition} ruleset is an edition: every bot plays its general "
                       "path on both sides (the general switch: heuristic-any, "
                       "search:K-any, learned-any), as it must on the other one")
    if different:
        who["note"] = (f"the {', '.join(different)} bot plays the two rulesets as two "
                       "different players (asked with --allow-different-players): a "
                       "difference where it plays mixes the rules with the change of player")
    return general, who


def run_compare(spec: AnalysisSpec, base: Variant, variant: Variant, out: Path,
                backend: Backend, *,
                progress: Callable[[float, float, int], None] | None = None,
                allow_different_players: bool = False,
                ) -> tuple[Json, Run, Run]:
    """Analyse ``base`` and ``variant`` with ``spec`` (same seed, same games, one
    player: :func:`players`) into ``out/base`` and ``out/variant`` (each resumable)
    and compare them; the compare summary and the two runs."""
    if spec.ci is not None:
        raise AnalysisError("compare plays the same --games under both rulesets; give "
                            "--games, not --ci")
    named = (base, variant)
    others: list[str] = []
    if "skill" in spec.questions:
        others += [b for pair in spec.skill_pairs_played() for b in pair]
    if "specials" in spec.questions:
        others += list(contrast_policies(spec.policy))
    general, who = players(spec.policy, base, variant, allow_different_players,
                           tuple(others))
    specs = [dataclasses.replace(spec, variant=v, general=general) for v in (base, variant)]
    runs: list[Run] = []
    # the progress of both runs as one bar: the base run is about half the work
    last = [0.0, 0.0, 0.0]  # cost done and games played by the base run

    def first(done: float, total: float, count: int) -> None:
        last[:] = [done, total, count]
        if progress:
            progress(done, 2 * total, count)

    def second(done: float, total: float, count: int) -> None:
        if progress:
            progress(last[1] + done, last[1] + total, int(last[2]) + count)

    for s, name, show in zip(specs, ("base", "variant"), (first, second), strict=True):
        runs.append(run_analysis(s, out / name, backend, progress=show))
    summary: Json = {
        "format": FORMAT,
        "spec": {k: v for k, v in specs[0].to_json().items() if k != "variant"},
        "base": {**ruleset_meta(named[0]), "report": "base/report.html"},
        "variant": {**ruleset_meta(named[1]), "report": "variant/report.html"},
        "players": who,
        "compare": compare(specs[0], (runs[0].selfplay, runs[0].duplicates), specs[1],
                           (runs[1].selfplay, runs[1].duplicates)),
        "games": {"base": sum(runs[0].games.values()), "variant": sum(runs[1].games.values())},
    }
    return summary, runs[0], runs[1]

