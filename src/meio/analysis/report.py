"""``report.html``: one self-contained page drawn from ``summary.json``.

Plots are matplotlib figures inlined as SVG (no scripts, no external files), each
followed by the numbers it shows with their 95% intervals, so the page reads
offline and on a phone. Every plot carries ``data-plot="<study>-<name>"``.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable, Sequence
from typing import Any

from meio.analysis.plan import STUDIES

Json = dict[str, Any]

_CSS = """
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:0 1rem;
color:#222;line-height:1.45}
h1{font-size:1.6rem}h2{border-bottom:2px solid #ccc;margin-top:2.5rem}
figure{margin:1rem 0}figure svg{width:100%;height:auto}figcaption{font-size:.9rem;color:#555}
table{border-collapse:collapse;font-size:.85rem;margin:.5rem 0 1.5rem;display:block;
overflow-x:auto}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}
.note{color:#555;font-size:.9rem}
"""

_TITLES = {
    "seats": "Seats: is there a position advantage?",
    "specials": "Special cards: which is strongest, and in which half?",
    "skill": "Skill: how far better play beats worse on the same deals",
    "splits": "Splits: what play keeps for the second half",
    "rules": "Rules: what each table option and format changes",
    "length": "Length: scores, match lengths and last-round decisions",
}


def _e(x: Json | None, digits: int = 3) -> str:
    if not x or x.get("value") is None:
        return "–"
    lo, hi = x["ci95"]
    return f"{x['value']:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>"
                   for r in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _figure(name: str, caption: str, draw: Callable[[Any], None], height: float = 3.4) -> str:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, height), layout="constrained")
    ax = fig.add_subplot()
    draw(ax)
    ax.grid(alpha=0.3)
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    svg = buf.getvalue()
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg[svg.index("<svg"):], flags=re.S)
    return (f'<figure data-plot="{name}">{svg}<figcaption>{html.escape(caption)}'
            "</figcaption></figure>")


def _lines(ax: Any, series: dict[str, list[Json]], xlabel: str, ylabel: str,
           xs: Sequence[int] | None = None) -> None:
    for i, (label, ests) in enumerate(series.items()):
        x = list(xs) if xs is not None else list(range(len(ests)))
        vals = [e["value"] if e.get("value") is not None else float("nan") for e in ests]
        lo = [v - (e["ci95"][0] if e["ci95"][0] is not None else v) for v, e in zip(
            vals, ests, strict=True)]
        hi = [(e["ci95"][1] if e["ci95"][1] is not None else v) - v for v, e in zip(
            vals, ests, strict=True)]
        off = (i - len(series) / 2) * 0.03
        ax.errorbar([a + off for a in x[:len(vals)]], vals, yerr=[lo, hi], marker="o",
                    capsize=3, label=label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if series:
        ax.legend(fontsize=7, ncol=3)


def _bars(ax: Any, groups: dict[str, dict[str, Json]], ylabel: str) -> None:
    """Grouped bars: ``groups[group][bar]`` estimates, with their intervals."""
    names = sorted({b for g in groups.values() for b in g})
    width = 0.8 / max(len(names), 1)
    for j, name in enumerate(names):
        xs, vals, err_lo, err_hi = [], [], [], []
        for i, g in enumerate(groups.values()):
            e = g.get(name)
            if not e or e.get("value") is None:
                continue
            xs.append(i + (j - (len(names) - 1) / 2) * width)
            vals.append(e["value"])
            err_lo.append(e["value"] - e["ci95"][0])
            err_hi.append(e["ci95"][1] - e["value"])
        ax.bar(xs, vals, width, yerr=[err_lo, err_hi], capsize=2, label=name)
    ax.set_xticks(range(len(groups)), list(groups), rotation=20, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.axhline(0, color="#444", lw=0.8)
    if names:
        ax.legend(fontsize=7, ncol=4)


# -- one section per study ---------------------------------------------------------------
def _seats(s: Json) -> str:
    parts = [_figure("seats-score", "Mean round score (lower is better) by seat, counted "
                     "clockwise from the round's leader (0 = the leader); bars are 95% CIs.",
                     lambda ax: _lines(ax, {e["label"]: e["score_by_leader_offset"]
                                            for e in s.values()},
                                       "seats after the leader", "mean round score")),
             _figure("seats-match", "Match-win rate by seat, counted from the match's "
                     "first leader (shared wins count for each sharer).",
                     lambda ax: _lines(ax, {e["label"]: e["match_win_by_first_leader_offset"]
                                            for e in s.values()},
                                       "seats after the first leader", "match-win rate"))]
    rows = []
    for e in s.values():
        rows.append([e["label"], str(e["games"]),
                     " · ".join(_e(x, 2) for x in e["score_by_leader_offset"]),
                     " · ".join(_e(x, 2) for x in e["match_win_by_first_leader_offset"]),
                     f"{e['worst_offset']} vs {e['best_offset']}: {_e(e['gap'])}",
                     "yes" if e["significant"] else "no"])
    parts.append(_table(["table", "games", "round score by offset", "match win by offset",
                         "gap worst − best", "significant"], rows))
    return "".join(parts)


def _specials(s: Json) -> str:
    groups = {e["label"]: {c: v["holder_minus_others"] for c, v in e["cards"].items()}
              for e in s.values()}
    wins = {e["label"] + f" · {c}": {"first half": v["wins_first_half"],
                                     "second half": v["wins_second_half"]}
            for e in s.values() for c, v in e["cards"].items()}
    parts = [_figure("specials-score", "Round score of the seat dealt each special minus the "
                     "others' (negative: the card helps its holder).",
                     lambda ax: _bars(ax, groups, "holder − others")),
             _figure("specials-wins", "How often each special wins the trick it is played "
                     "in, by the half its holder kept it for.",
                     lambda ax: _bars(ax, wins, "wins its trick"), height=4.2)]
    rows = [[e["label"], c, _e(v["holder_minus_others"]), _e(v["kept_first_half"]),
             _e(v["kept_second_half"]), _e(v["share_kept_second_half"]),
             _e(v["wins_its_trick"])]
            for e in s.values() for c, v in e["cards"].items()]
    parts.append(_table(["table", "card", "holder − others", "kept for half 1",
                         "kept for half 2", "share kept for half 2", "wins its trick"], rows))
    subsets = {e["label"]: e["subsets"] for e in s.values() if "subsets" in e}
    if subsets:
        def draw(ax: Any) -> None:
            for label, sub in subsets.items():
                xs = [r["seat_gap"]["value"] for r in sub["sets"]]
                ys = [r["skill_gap"]["value"] or 0.0 for r in sub["sets"]]
                ax.scatter(xs, ys, label=label)
                for r, x, y in zip(sub["sets"], xs, ys, strict=True):
                    ax.annotate(r["specials"], (x, y), fontsize=6)
            ax.set_xlabel("seat gap (max − min mean score by seat): lower is more balanced")
            ax.set_ylabel("random − heuristic mean score")
            ax.legend(fontsize=7)
        parts.append(_figure("specials-subsets", "Each set of N specials: balance against "
                             "how much better play lowers the score.", draw, height=4.5))
        rows = [[label, r["specials"], _e(r["seat_gap"]), _e(r["skill_gap"])]
                for label, sub in subsets.items() for r in sub["sets"]]
        parts.append(_table(["table", "specials", "seat gap", "skill gap"], rows))
        parts.append("<p class=note>" + "; ".join(
            f"{html.escape(label)}: most balanced {html.escape(str(sub['most_balanced']))}, "
            f"most skill-rewarding {html.escape(str(sub['most_skill_rewarding']))}"
            for label, sub in subsets.items()) + "</p>")
    return "".join(parts)


def _skill(s: Json) -> str:
    gaps = {e["label"]: {p: v["weaker_minus_stronger"] for p, v in e["pairs"].items()}
            for e in s.values()}
    shares = {e["label"]: {p: v["skill_share"] for p, v in e["pairs"].items()}
              for e in s.values()}
    parts = [_figure("skill-gap", "Weaker bot's mean round score minus the stronger's, on "
                     "the same deals with the bots rotated through the seats.",
                     lambda ax: _bars(ax, gaps, "score gap")),
             _figure("skill-share", "Share of the variance of a seat's round score explained "
                     "by which bot sat there (the rest is the deal and the table).",
                     lambda ax: _bars(ax, shares, "share explained"))]
    rows = [[e["label"], p, _e(v["weaker_minus_stronger"]),
             " / ".join(f"{b} {_e(x)}" for b, x in v["mean_score"].items()),
             " / ".join(f"{b} {_e(x)}" for b, x in v["match_win"].items()),
             _e(v["skill_share"])]
            for e in s.values() for p, v in e["pairs"].items()]
    parts.append(_table(["table", "pair", "score gap", "mean score", "match win",
                         "share explained"], rows))
    return "".join(parts)


def _splits(s: Json) -> str:
    kinds = ("hearts", "high", "specials")
    shares = {e["label"]: {k: e[k]["share_to_second_half"] for k in kinds if k in e}
              for e in s.values()}
    parts = [_figure("splits-share", "Share of the dealt hearts, high cards (Q, K, MEIO A) "
                     "and specials put in the second-half pack (a random split: 6/13 = 0.46).",
                     lambda ax: _bars(ax, shares, "share kept for half 2"))]

    def dist(kind: str, what: str) -> Callable[[Any], None]:
        def draw(ax: Any) -> None:
            for e in s.values():
                if kind in e:
                    d = e[kind]["pack_count_distribution"]
                    top = max((i for i, x in enumerate(d) if x > 0), default=0)
                    ax.plot(range(top + 1), d[:top + 1], marker="o", label=e["label"])
            ax.set_xlabel(f"{what} in the second-half pack")
            ax.set_ylabel("share of splits")
            ax.legend(fontsize=7, ncol=3)
        return draw

    parts.append(_figure("splits-hearts", "How many hearts the pack holds.",
                         dist("hearts", "hearts")))
    parts.append(_figure("splits-high", "How many high cards (Q, K, MEIO A) the pack holds.",
                         dist("high", "high cards")))
    if any("specials" in e for e in s.values()):
        parts.append(_figure("splits-specials", "How many specials the pack holds (MEIO).",
                             dist("specials", "specials")))
    rows = [[e["label"]] + [_e(e[k]["share_to_second_half"]) if k in e else "–" for k in kinds]
            + [" ".join(f"{x:.2f}" for x in e["hearts"]["pack_count_distribution"])]
            for e in s.values()]
    parts.append(_table(["table", "hearts", "high cards", "specials",
                         "hearts in pack: share with 0..6"], rows))
    return "".join(parts)


def _reading(key: str, entry: Json) -> str:
    """A variant's bar name: its reading, and whether the engine played it."""
    table = key.split("@")[0]
    name = "wild lead next" if table.endswith("-next") else (
        "specials hidden" if table.endswith("-hidden") else "default")
    return name + (" (engine)" if entry.get("engine") else "")


def _rules(s: Json) -> str:
    groups = {e["label"]: {_reading(k, v): v["mean_round_score"]
                           for k, v in e["variants"].items()} for e in s.values()}
    last = {e["label"]: {_reading(k, v): v["decided_in_last_round"]
                         for k, v in e["variants"].items()} for e in s.values()}
    parts = [_figure("rules-score", "Mean round score under each reading of the table "
                     "options (RULES.md §10).", lambda ax: _bars(ax, groups, "mean round score")),
             _figure("rules-last", "How often the last round decides the match, by reading.",
                     lambda ax: _bars(ax, last, "decided in the last round"))]
    rows = [[v["label"], _e(v["mean_round_score"]), _e(v.get("score_change")),
             _e(v["seat_gap"]), _e(v["decided_in_last_round"]), _e(v["mean_match_rounds"]),
             " · ".join(f"{c} {_e(x, 2)}" for c, x in v.get("specials", {}).items()) or "–",
             " · ".join(f"{k} {_e(x, 2)}" for k, x in v.get("second_half_share", {}).items())
             or "–"]
            for e in s.values() for v in e["variants"].values()]
    parts.append(_table(["table", "mean round score", "change vs default", "seat gap",
                         "decided in last round", "rounds per match",
                         "specials: holder − others", "kept for the second half"], rows))
    skill = {e["label"]: {_reading(k, {}): v["weaker_minus_stronger"]
                          for k, v in e["skill"].items()} for e in s.values() if "skill" in e}
    if skill:
        pair = next(v["pair"] for e in s.values() for v in e.get("skill", {}).values())
        parts.append(_figure(
            "rules-skill", f"How much skill pays under each reading: {pair.replace('-vs-', ' vs ')}"
            " on duplicate deals, the weaker bot's mean round score minus the stronger's.",
            lambda ax: _bars(ax, skill, "skill gap (round score)")))
        parts.append(_table(["table", "skill gap", "change vs default"], [
            [v["label"], _e(v["weaker_minus_stronger"]), _e(v.get("change"))]
            for e in s.values() for v in e.get("skill", {}).values()]))
    fmt = [[e["label"], str(e["format"].get("three_round_matches", 0)),
            _e(e["format"].get("winners_differ"))] for e in s.values() if "format" in e]
    if fmt:
        parts.append("<p class=note>2 players: among matches that went to 3 rounds, how "
                     "often first-to-2-victories and lowest-total pick different winners.</p>")
        parts.append(_table(["table", "3-round matches", "winners differ"], fmt))
    return "".join(parts)


def _length(s: Json) -> str:
    def dist(ax: Any) -> None:
        for e in s.values():
            d = e["round_score_distribution"]
            top = max((i for i, x in enumerate(d) if x > 0), default=0)
            ax.plot(range(top + 1), d[:top + 1], marker="o", label=e["label"])
        ax.set_xlabel("round score |H − V| (team's in partnership)")
        ax.set_ylabel("share of rounds")
        ax.legend(fontsize=7, ncol=3)
    last = {e["label"]: {"decided in last round": e["decided_in_last_round"]}
            for e in s.values()}
    parts = [_figure("length-scores", "Distribution of round scores.", dist),
             _figure("length-last", "How often the match is decided in its last round.",
                     lambda ax: _bars(ax, last, "share of matches"))]
    rows = [[e["label"], _e(e["mean_round_score"]), _e(e["mean_match_rounds"], 2),
             " ".join(f"{x:.2f}" for x in e["match_rounds_distribution"]),
             _e(e["decided_in_last_round"]), _e(e["mean_match_total"], 2)]
            for e in s.values()]
    parts.append(_table(["table", "mean round score", "rounds per match",
                         "share of 1/2/3-round matches", "decided in last round",
                         "mean match total"], rows))
    return "".join(parts)


_SECTIONS: dict[str, Callable[[Json], str]] = {
    "seats": _seats, "specials": _specials, "skill": _skill, "splits": _splits,
    "rules": _rules, "length": _length,
}


def render(summary: Json) -> str:
    """The whole report page for a ``summary.json`` document."""
    spec = summary["spec"]
    games = sum(summary["games"].values())
    target = "" if spec["ci"] is None else f", target CI width {spec['ci']}"
    head = (f"<p class=note>Policy <b>{html.escape(spec['policy'])}</b>, seed {spec['seed']}, "
            f"{games:,} games in {len(summary['games'])} cells, {summary.get('waves', 1)} "
            f"wave(s){target}. "
            "Figures are means with 95% confidence intervals that treat each match (or "
            "duplicate deal) as one draw. Seats are counted clockwise from the leader.</p>")
    body = []
    for q in STUDIES:
        if q in summary["studies"]:
            content = _SECTIONS[q](summary["studies"][q]) if summary["studies"][q] else (
                "<p class=note>No table of this run has games for this study.</p>")
            body.append(f'<section id="{q}"><h2>{html.escape(_TITLES[q])}</h2>{content}'
                        "</section>")
    return ("<!doctype html><html lang=en><head><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width,initial-scale=1'>"
            f"<title>meio analyze</title><style>{_CSS}</style></head><body>"
            f"<h1>MEIO balance report</h1>{head}{''.join(body)}</body></html>")
