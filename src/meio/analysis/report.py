"""``report.html``: one self-contained page drawn from ``summary.json``.

Plots are matplotlib figures inlined as SVG (no scripts, no external files), each
followed by the numbers it shows with their 95% intervals, so the page reads
offline and on a phone. Every plot carries ``data-plot="<study>-<name>"``.

Over 500 lines on purpose: it is one page, and its sections share the helpers that
draw a plot and table its numbers.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable, Sequence
from typing import Any

from meio.analysis.findings import compare_rows, players_lines, says, variant_line
from meio.analysis.plan import STUDIES
from meio.analysis.stats import MIN_GAMES, enough, shown, shown_p

Json = dict[str, Any]

#: the style of the lab's and the designer's pages
PAGE_CSS = """
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



def _n(x: Json | None) -> str:
    return f"{x.get('n', 0):,}" if x else "0"



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
    from matplotlib import rc_context

    # text stays text (not drawn as paths): a smaller page, and labels one can search
    with rc_context({"svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    svg = buf.getvalue()
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg[svg.index("<svg"):], flags=re.S)
    return (f'<figure data-plot="{name}">{svg}<figcaption>{html.escape(caption)}'
            "</figcaption></figure>")


def n_label(ests: Sequence[Json]) -> str:
    """The games behind the estimates drawn, for a plot's label: ``n=2,000``, or the
    range where they differ (``n=100–2,000``).

    >>> n_label([{"n": 2000}, {"n": 100}])
    'n=100–2,000'
    """
    ns = [int(e.get("n", 0)) for e in ests]
    lo, hi = min(ns, default=0), max(ns, default=0)
    return f"n={lo:,}" if lo == hi else f"n={lo:,}–{hi:,}"


def _lines(ax: Any, series: dict[str, list[Json]], xlabel: str, ylabel: str,
           xs: Sequence[int] | None = None, from_zero: bool = False) -> None:
    """One line of estimates per series, each labelled with its games (``n``); a series
    resting on fewer than MIN_GAMES games is left out of the plot (its table says so).
    ``from_zero``: the axis starts at 0, so a small spread looks small."""
    from matplotlib.ticker import MaxNLocator

    for i, (label, ests) in enumerate(series.items()):
        if not ests or not all(enough(e) for e in ests):
            continue
        label = f"{label} ({n_label(ests)})"
        x = list(xs) if xs is not None else list(range(len(ests)))
        vals = [e["value"] if e.get("value") is not None else float("nan") for e in ests]
        lo = [v - (e["ci95"][0] if e["ci95"][0] is not None else v) for v, e in zip(
            vals, ests, strict=True)]
        hi = [(e["ci95"][1] if e["ci95"][1] is not None else v) - v for v, e in zip(
            vals, ests, strict=True)]
        off = (i - len(series) / 2) * 0.03
        ax.errorbar([a + off for a in x[:len(vals)]], vals, yerr=[lo, hi], marker="o",
                    capsize=3, label=label)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if from_zero:
        ax.set_ylim(bottom=0)
    if series:  # below the axes, where it hides no line
        ax.legend(fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.2))


def _bars(ax: Any, groups: dict[str, dict[str, Json]], ylabel: str,
          horizontal: bool = False) -> None:
    """Grouped bars: ``groups[group][bar]`` estimates, with their intervals; a bar on
    fewer than MIN_GAMES games is not drawn, and each group's label gives its games.
    ``horizontal``: the groups down the side, for many or long labels."""
    drawn = {g: {b: e for b, e in bars.items() if enough(e)} for g, bars in groups.items()}
    groups = {f"{g} ({n_label(list(bars.values()))})": bars
              for g, bars in drawn.items() if bars}
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
        if horizontal:
            ax.barh(xs, vals, width, xerr=[err_lo, err_hi], capsize=2, label=name)
        else:
            ax.bar(xs, vals, width, yerr=[err_lo, err_hi], capsize=2, label=name)
    if horizontal:
        ax.set_yticks(range(len(groups)), list(groups), fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel(ylabel)
        ax.axvline(0, color="#444", lw=0.8)
    else:
        ax.set_xticks(range(len(groups)), list(groups), rotation=20, ha="right", fontsize=8)
        ax.set_ylabel(ylabel)
        ax.axhline(0, color="#444", lw=0.8)
    if names:
        ax.legend(fontsize=7, ncol=4)


# -- one section per study ---------------------------------------------------------------
def _seats(s: Json) -> str:
    def match(ax: Any) -> None:
        _lines(ax, {e["label"]: e["match_win_by_first_leader_offset"] for e in s.values()},
               "seats after the first leader", "match-win rate", from_zero=True)
        for fair in sorted({e.get("fair_match_win") for e in s.values()} - {None}):
            ax.axhline(fair, color="#888", lw=0.8, ls="--")
            ax.annotate(f"1/{round(1 / fair)}", (0, fair), fontsize=7, color="#555")

    parts = [_figure("seats-score", "Mean round score (lower is better) by seat, counted "
                     "clockwise from the round's leader (0 = the leader); bars are 95% CIs. "
                     "The axis starts at 0, so a spread looks as large as it is against "
                     "the score itself.",
                     lambda ax: _lines(ax, {e["label"]: e["score_by_leader_offset"]
                                            for e in s.values()},
                                       "seats after the leader", "mean round score",
                                       from_zero=True)),
             _figure("seats-match", "Match-win rate by seat, counted from the match's "
                     "first leader (shared wins split between the sharers); dashed: the "
                     "fair share 1/N.", match)]
    rows = []
    for e in s.values():
        small = e["games"] < MIN_GAMES
        rows.append([e["label"], f"{e['games']:,}",
                     " · ".join(shown(x) for x in e["score_by_leader_offset"]),
                     f"{e['worst_offset']} vs {e['best_offset']}: {shown(e['gap'])}",
                     "–" if small else shown_p(e.get("p_value")),
                     "–" if small else ("yes" if e["significant"] else "no"),
                     " · ".join(shown(x) for x in e["match_win_by_first_leader_offset"]),
                     "–" if small else shown_p(e.get("match_win_p_value"))])
    parts.append(_table(["table", "games", "round score by seat", "spread worst − best",
                         "p (seat effect)", "significant", "match win by seat",
                         "p (match wins ≠ 1/N)"], rows))
    test = next((e["test"] for e in s.values() if "test" in e), None)
    if test:
        parts.append("<p class=note>The spread between the worst and the best seat is picked "
                     "after looking at the data, so a plain interval of it is biased upward. "
                     f"Its test: a {html.escape(test)}; its interval bounds every paired "
                     "difference of seats at once (Bonferroni), so it holds whichever seats "
                     "turn out worst and best. Match wins: a "
                     f"{html.escape(next(e['match_win_test'] for e in s.values()))}.</p>")
    return "".join(parts)


def _specials(s: Json) -> str:
    groups = {e["label"]: {v.get("name", c): v["holder_minus_others"]
                           for c, v in e["cards"].items()} for e in s.values()}
    wins = {f"{v.get('name', c)} · {e['label']}": {"first half": v["wins_first_half"],
                                                   "second half": v["wins_second_half"]}
            for e in s.values() for c, v in e["cards"].items()}
    parts = [_figure("specials-score", "Round score of the seat dealt each special minus the "
                     "others' (negative: the card helps its holder).",
                     lambda ax: _bars(ax, groups, "holder − others")),
             _figure("specials-wins", "How often each special wins the trick it is played "
                     "in, by the half its holder kept it for (in partnership the partner "
                     "plays the second-half pack, and its wins count).",
                     lambda ax: _bars(ax, wins, "wins its trick", horizontal=True),
                     height=max(3.4, 0.28 * len(wins)))]
    rows = [[e["label"], v.get("name", c), _n(v["holder_minus_others"]),
             shown(v["holder_minus_others"]),
             shown(v["kept_first_half"]), shown(v["kept_second_half"]),
             shown(v["share_kept_second_half"]), shown(v["wins_its_trick"])]
            for e in s.values() for c, v in e["cards"].items()]
    parts.append(_table(["table", "card", "games", "holder − others", "kept for half 1",
                         "kept for half 2", "share kept for half 2", "wins its trick"], rows))
    subsets = {e["label"]: e["subsets"] for e in s.values() if "subsets" in e}
    if subsets:
        def draw(ax: Any) -> None:
            for label, sub in subsets.items():
                sets = [r for r in sub["sets"] if enough(r["seat_gap"])]
                xs = [r["seat_gap"]["value"] for r in sets]
                ys = [r["skill_gap"]["value"] or 0.0 for r in sets]
                n = min((r["seat_gap"]["n"] for r in sets), default=0)
                ax.scatter(xs, ys, label=f"{label} (n={n:,} a set)")
                for r, x, y in zip(sets, xs, ys, strict=True):
                    ax.annotate(r["specials"], (x, y), fontsize=6)
            ax.set_xlabel("seat spread (max − min mean score by seat): lower is more balanced")
            who = next((sub.get("skill_players") for sub in subsets.values()
                        if sub.get("skill_players")), ["random", "heuristic"])
            ax.set_ylabel(f"{who[0]} − {who[1]} mean score")
            ax.legend(fontsize=7)
        parts.append(_figure("specials-subsets", "Each set of N specials: balance against "
                             "how much better play lowers the score.", draw, height=4.5))

        def rank(r: Json, kind: str) -> str:
            x = r.get(kind)
            if not x:
                return "–"
            lo, hi = x["rank_ci95"]
            return f"{x['p_first']:.2f} (rank {lo}–{hi})" if lo != hi else \
                f"{x['p_first']:.2f} (rank {lo})"
        rows = [[label, r["specials"], _n(r["seat_gap"]), shown(r["seat_gap"]),
                 shown_p(r.get("seat_gap_p_value")), rank(r, "balance_rank"), shown(r["skill_gap"]),
                 rank(r, "skill_rank")]
                for label, sub in subsets.items() for r in sub["sets"]]
        parts.append(_table(["table", "specials", "games", "seat spread", "p (seat effect)",
                             "first for balance (share of draws)", "skill gap",
                             "first for skill (share of draws)"], rows))

        def verdict(sub: Json, key: str, candidates: str) -> str:
            if sub.get(key):
                return f"<b>{html.escape(sub[key])}</b>"
            names = ", ".join(sub.get(candidates) or []) or "none"
            return f"no set stands out (candidates: {html.escape(names)})"
        verdicts = "; ".join(
            f"{html.escape(label)}: most balanced "
            f"{verdict(sub, 'most_balanced', 'balanced_candidates')}, most skill-rewarding "
            f"({html.escape(' against '.join(reversed(sub.get('skill_players') or [])))}) "
            f"{verdict(sub, 'most_skill_rewarding', 'skill_candidates')}"
            for label, sub in subsets.items())
        how = html.escape(next(iter(subsets.values())).get("ranking", ""))
        parts.append("<p class=note>Which set is the most balanced or the most "
                     f"skill-rewarding ({how}): {verdicts}.</p>")
    return "".join(parts)


def _skill(s: Json) -> str:
    gaps = {e["label"]: {_pair(p): v["weaker_minus_stronger"] for p, v in e["pairs"].items()}
            for e in s.values()}
    shares = {e["label"]: {_pair(p): v["skill_share"] for p, v in e["pairs"].items()}
              for e in s.values()}
    parts = [_figure("skill-gap", "Weaker bot's mean round score minus the stronger's, on "
                     "the same deals with the bots rotated through the seats.",
                     lambda ax: _bars(ax, gaps, "score gap")),
             _figure("skill-share", "Share of the variance of a seat's round score explained "
                     "by which bot sat there (the rest is the deal and the table).",
                     lambda ax: _bars(ax, shares, "share explained"))]
    rows = [[e["label"], _pair(p), _n(v["weaker_minus_stronger"]),
             shown(v["weaker_minus_stronger"]),
             " / ".join(f"{b} {shown(x)}" for b, x in v["mean_score"].items()),
             " / ".join(f"{b} {shown(x)}" for b, x in v["match_win"].items()),
             shown(v["skill_share"])]
            for e in s.values() for p, v in e["pairs"].items()]
    parts.append(_table(["table", "pair", "deals", "score gap", "mean score", "match win",
                         "share explained"], rows))
    if any(not enough(v["weaker_minus_stronger"]) for e in s.values()
           for v in e["pairs"].values()):
        parts.append(f"<p class=note>A pair played on fewer than {MIN_GAMES} deals shows no "
                     "figure and no bar: its interval would rest on too few deals (the "
                     "search bot's pairs, at seconds a deal, often do).</p>")
    return "".join(parts)


def _splits(s: Json) -> str:
    kinds = ("hearts", "high", "specials")
    shares = {e["label"]: {k: e[k]["share_to_second_half"] for k in kinds if k in e}
              for e in s.values()}
    parts = [_figure("splits-share", "Share of the dealt hearts, high cards (Q, K, MEIO A) "
                     "and specials put in the second-half pack (a random split: 6/13 = 0.46; a "
                     "variant's: its pack / hand).",
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
    rows = [[e["label"], _n(e["hearts"]["share_to_second_half"])]
            + [shown(e[k]["share_to_second_half"]) if k in e else "–" for k in kinds]
            + [" ".join(f"{x:.3f}" for x in e["hearts"]["pack_count_distribution"])]
            for e in s.values()]
    parts.append(_table(["table", "games", "hearts", "high cards", "specials",
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
    variants = [v for e in s.values() for v in e["variants"].values()]
    rows = [[v["label"], _n(v["mean_round_score"]), shown(v["mean_round_score"]),
             shown(v.get("score_change")), shown(v["seat_gap"]), shown(v["decided_in_last_round"]),
             shown(v["mean_match_rounds"])] for v in variants]
    parts.append(_table(["table", "games", "mean round score", "change vs default",
                         "seat spread", "decided in last round", "rounds per match"], rows))
    cards = sorted({c for v in variants for c in v.get("specials", {})})
    if cards:
        parts.append("<p class=note>Each special's holder − others under each reading "
                     "(negative helps the holder):</p>")
        parts.append(_table(["table", *cards], [
            [v["label"], *(shown(v["specials"].get(c)) for c in cards)]
            for v in variants if v.get("specials")]))
    kinds = [k for k in ("hearts", "high", "specials")
             if any(k in v.get("second_half_share", {}) for v in variants)]
    parts.append("<p class=note>What the split keeps for the second half under each reading "
                 "(share of those dealt):</p>")
    parts.append(_table(["table", *kinds], [
        [v["label"], *(shown(v.get("second_half_share", {}).get(k)) for k in kinds)]
        for v in variants]))
    skill = {e["label"]: {_reading(k, {}): v["weaker_minus_stronger"]
                          for k, v in e["skill"].items()} for e in s.values() if "skill" in e}
    if skill:
        pair = next(v["pair"] for e in s.values() for v in e.get("skill", {}).values())
        parts.append(_figure(
            "rules-skill", f"How much skill pays under each reading: {_pair(pair)}"
            " on duplicate deals, the weaker bot's mean round score minus the stronger's.",
            lambda ax: _bars(ax, skill, "skill gap (round score)")))
        parts.append(_table(["table", "skill gap", "change vs default"], [
            [v["label"], shown(v["weaker_minus_stronger"]), shown(v.get("change"))]
            for e in s.values() for v in e.get("skill", {}).values()]))
    fmt = [[e["label"], str(e["format"].get("three_round_matches", 0)),
            shown(e["format"].get("winners_differ"))] for e in s.values() if "format" in e]
    if fmt:
        parts.append("<p class=note>2 players: among matches that went to 3 rounds, how "
                     "often first-to-2-victories and lowest-total pick different winners.</p>")
        parts.append(_table(["table", "3-round matches", "winners differ"], fmt))
    return "".join(parts)


def _length(s: Json) -> str:
    def dist(ax: Any) -> None:
        for e in s.values():
            d = e["round_score_distribution"]
            lo = e.get("round_score_lowest", 0)
            top = max((i for i, x in enumerate(d) if x > 0), default=0)
            ax.plot(range(lo, lo + top + 1), d[:top + 1], marker="o", label=e["label"])
        ax.set_xlabel("round score |H − V| (team's in partnership)")
        ax.set_ylabel("share of rounds")
        ax.legend(fontsize=7, ncol=3)
    last = {e["label"]: {"decided in last round": e["decided_in_last_round"]}
            for e in s.values()}
    parts = [_figure("length-scores", "Distribution of round scores.", dist),
             _figure("length-last", "How often the match is decided in its last round.",
                     lambda ax: _bars(ax, last, "share of matches"))]
    rows = [[e["label"], _n(e["mean_round_score"]), shown(e["mean_round_score"]),
             shown(e["mean_match_rounds"]),
             " ".join(f"{x:.3f}" for x in e["match_rounds_distribution"]),
             shown(e["decided_in_last_round"]), shown(e.get("decided_before_last_round")),
             shown(e.get("shared_victory")), shown(e["mean_match_total"])]
            for e in s.values()]
    parts.append(_table(["table", "games", "mean round score", "rounds per match",
                         "share of 1/2/3/…-round matches", "decided in last round",
                         "out of reach before it", "shared victory",
                         "mean match total"], rows))
    rows = [[e["label"], shown(e.get("decisions_per_player"), 1),
             shown(e.get("minutes_per_match"), 1)] for e in s.values()]
    parts.append(_table(["table", "decisions a player makes per match",
                         "playing time per match (minutes)"], rows))
    how = next((e.get("playing_time") for e in s.values() if e.get("playing_time")), None)
    parts.append("<p class=note>Decided in the last round: with 2 victories to win, the "
                 "match went to a third round; on totals, the winners after it differ from "
                 "those before it. Out of reach: the leader before the last round was "
                 "further ahead than one round moves the sides apart in 99% of this "
                 "table's rounds (a lead no round can overturn, 7 points or 9 in MEIO, "
                 "never happens under any player). "
                 "Decisions: a split and 13 cards a round, and a pile choice for each trick "
                 "taken by +.5." + (f" Playing time {html.escape(how)}." if how else "")
                 + "</p>")
    return "".join(parts)


_SECTIONS: dict[str, Callable[[Json], str]] = {
    "seats": _seats, "specials": _specials, "skill": _skill, "splits": _splits,
    "rules": _rules, "length": _length,
}


#: who plays, in words: the core's heuristic and the heuristic bot are different players
PLAYERS = {
    "random": "random legal moves",
    "heuristic": ("the <b>core heuristic</b> (the compiled core's, meio.sim) in self-play; "
                  "where the engine plays (hidden specials, rows marked engine) and in the "
                  "skill pairs it is the <b>heuristic bot</b> (meio.bots), a different and "
                  "weaker player (4 players: mean round score about 0.78 against 1.04)"),
    "search": "the search bot, through the engine",
    "learned": ("the <b>learned network</b> (the policy file the learned bot plays, in the "
                "compiled core: meio.bots.netcore) in self-play; the skill pairs and "
                "engine-played rows use the bots named there"),
}


#: who plays a variant: every game goes through the engine and its bots
VARIANT_PLAYERS = {
    "heuristic": ("the <b>heuristic bot</b> (meio.bots) through the engine, which plays a "
                  "variant by the simpler rule of meio.bots.variant_play (a preset of an "
                  "edition by its standard policy)"),
}


def _pair(name: str) -> str:
    """A skill pair's name in words: its bots are engine bots."""
    return " vs ".join(f"{b} bot" for b in name.split("-vs-"))


def render(summary: Json) -> str:
    """The whole report page for a ``summary.json`` document."""
    spec = summary["spec"]
    games = sum(summary["games"].values())
    target = "" if spec["ci"] is None else f", target CI width {spec['ci']}"
    who = PLAYERS.get(spec["policy"], html.escape(spec["policy"]))
    if "variant" in summary:
        who = VARIANT_PLAYERS.get(spec["policy"], who)
    head = (f"<p class=note>Policy <b>{html.escape(spec['policy'])}</b>: {who}. Seed "
            f"{spec['seed']}, {games:,} games in {len(summary['games'])} cells, "
            f"{summary.get('waves', 1)} wave(s){target}. "
            "Figures are means with 95% confidence intervals that treat each match (or "
            "duplicate deal) as one draw; n is the number of those draws, and a figure on "
            f"fewer than {MIN_GAMES} is not shown. Seats are counted clockwise from the "
            "leader.</p>")
    if "variant" in summary:
        head += f"<p class=note><b>{html.escape(variant_line(summary['variant']))}</b></p>"
    skipped = summary.get("skipped", {})
    if skipped:
        head += "<p class=note>Skipped:</p><ul class=note>" + "".join(
            f"<li>{html.escape(k)}: {html.escape(v)}</li>" for k, v in skipped.items()) + "</ul>"
    body = []
    for q in STUDIES:
        if q in summary["studies"]:
            content = _SECTIONS[q](summary["studies"][q]) if summary["studies"][q] else (
                "<p class=note>No table of this run has games for this study.</p>")
            body.append(f'<section id="{q}"><h2>{html.escape(_TITLES[q])}</h2>{content}'
                        "</section>")
    return ("<!doctype html><html lang=en><head><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width,initial-scale=1'>"
            f"<title>meio analyze</title><style>{PAGE_CSS}</style></head><body>"
            f"<h1>MEIO balance report</h1>{head}{''.join(body)}</body></html>")


def _forest(rows: list[tuple[str, Json]]) -> Callable[[Any], None]:
    """Each figure's difference (variant − base) with its 95% interval, in units of its
    smallest difference that matters, so every measure shares one axis: the band
    between −1 and 1 is too small to matter; a called figure is drawn in colour."""
    def draw(ax: Any) -> None:
        shown_rows = [(name, r) for name, r in rows if not r.get("reason")
                      and r.get("minimum") and r["difference"].get("value") is not None]
        for y, (_name, r) in enumerate(shown_rows):
            d, m = r["difference"], r["minimum"]
            lo, hi = d["ci95"]
            colour = ("#1a7f37" if r.get("verdict") == "variant better" else
                      "#cf222e" if r.get("verdict") == "variant worse" else
                      "#0969da" if r.get("separates") else "#888")
            ax.errorbar([d["value"] / m], [y], xerr=[[(d["value"] - lo) / m],
                                                     [(hi - d["value"]) / m]],
                        fmt="o", color=colour, capsize=2, ms=4)
        ax.axvspan(-1, 1, color="#eee", zorder=0)
        ax.axvline(0, color="#444", lw=0.8)
        ax.set_yticks(range(len(shown_rows)), [n for n, _ in shown_rows], fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel("variant − base, in smallest differences that matter")
    return draw


def render_compare(summary: Json) -> str:
    """The page of ``meio analyze compare``: per table, every figure under both rulesets
    and the difference (variant − base) with its 95% interval, n, the p-value after
    Holm's correction and a verdict, and a plot of the differences."""
    spec = summary["spec"]
    c = summary["compare"]
    head = (f"<p class=note>Policy <b>{html.escape(spec['policy'])}</b>, seed {spec['seed']}, "
            f"{summary['games']['base']:,} games under each ruleset, on the same seeds. "
            "Difference = variant − base, with its 95% interval. "
            f"{html.escape(c.get('verdicts', ''))}; each side rests on at least "
            f"{MIN_GAMES} games. Each ruleset's full report: "
            "<a href='base/report.html'>base</a>, <a href='variant/report.html'>variant</a>."
            "</p><ul class=note>"
            f"<li>Base: {html.escape(variant_line(summary['base']))}</li>"
            f"<li>Variant: {html.escape(variant_line(summary['variant']))}</li>")
    head += "".join(f"<li>{html.escape(line)}</li>" for line in players_lines(summary))
    head += "".join(f"<li>Not compared, {html.escape(k)}: {html.escape(v)}</li>"
                    for k, v in c["skipped"].items()) + "</ul>"
    body = []
    for t, e in c["tables"].items():
        rows = []
        named = []
        for tt, name, r in compare_rows(summary):
            if tt != t:
                continue
            named.append((name, r))
            diff = r["reason"] if r.get("reason") else shown(r["difference"])
            rows.append([name, shown(r["base"]), shown(r["variant"]), diff,
                         _n(r["difference"]), shown_p(r.get("p_holm")), says(r)])
        plot = _figure(f"compare-{t.replace(' ', '-')}",
                       f"{t}: every figure's difference with its 95% interval, scaled by "
                       "the smallest difference that matters for its measure (the grey band "
                       "is too small to matter); green: the variant is better, red: worse, "
                       "blue: a called difference with no better side, grey: not called.",
                       _forest(named), height=max(3.4, 0.22 * len(named)))
        body.append(f"<h3>{html.escape(t)}</h3><p class=note>{html.escape(e['pairing'])}."
                    "</p>" + plot + _table(["figure", "base", "variant", "difference", "n",
                                            "p (Holm)", "verdict"], rows))
    return ("<!doctype html><html lang=en><head><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width,initial-scale=1'>"
            f"<title>meio analyze compare</title><style>{PAGE_CSS}</style></head><body>"
            f"<h1>MEIO rulesets compared: {html.escape(summary['base']['name'])} and "
            f"{html.escape(summary['variant']['name'])}</h1>{head}"
            f"<section id=compare><h2>Compare</h2>{''.join(body)}</section></body></html>")
