"""The report card's pages: ``report.html`` (plots and tables) and ``summary.md``,
both drawn from the summary (:func:`meio.design.report.summarise`).

The plots are matplotlib figures inlined as SVG (no script, nothing fetched), each
with its numbers in a table below; every axis of an effect includes 0, so a small
difference looks small. Several rulesets share each plot, side by side.
"""

from __future__ import annotations

import html
import io
import itertools
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from meio.analysis.report import PAGE_CSS
from meio.analysis.stats import shown_p

Json = dict[str, Any]

_CSS = PAGE_CSS + """
.better{color:#17632a}.worse{color:#9b1c1c}
"""

_SECTIONS = {
    "seats": ("Seat advantage", "Each position's mean round score minus the table's mean "
              "(lower is better, so a negative edge helps that seat), by position clockwise "
              "from the round's leader and from the first round's leader; p-values are "
              "Holm-corrected across the positions. Match wins against the fair share 1/N."),
    "depth": ("Depth", "Each step of the ladder: how much lower the stronger player's round "
              "score is than the weaker's on the same deals. A game whose strength stops "
              "rising early is shallow."),
    "luck": ("Luck and skill", "How much of a seat's round score the deal explains (the "
             "same hand in the same seat, whoever plays it) and how much the two players do; "
             "and how many rounds the stronger needs to finish ahead in 3 matches of 4."),
    "drama": ("Decisiveness and drama", "Under the named player's own play."),
    "specials": ("Special cards and trumps", "A card's worth is its holder's round score "
                 "minus the other sides' mean: negative helps its holder."),
    "length": ("Length", ""),
    "score": ("Scores", ""),
}
_COLOURS = ("#2b6cb0", "#c05621", "#2f855a", "#6b46c1", "#b83280")


def _e(text: object) -> str:
    return html.escape(str(text))


def shown(e: Json | None, digits: int = 3) -> str:
    """An estimate as ``value [low, high] (n=…)``; a dash when missing."""
    if not e or e.get("value") is None:
        return "–"
    lo, hi = e["ci95"]
    if lo is None or hi is None or math.isinf(lo) or math.isinf(hi):
        return f"{e['value']:.{digits}f} [no interval: no clear gap] (n={e['n']})"
    return f"{e['value']:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}] (n={e['n']})"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    th = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _figure(name: str, caption: str, draw: Callable[[Any], None]) -> str:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 3.4))
    ax = fig.add_subplot()
    draw(ax)
    fig.tight_layout()
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    svg = buf.getvalue()
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg[svg.index("<svg"):], flags=re.S)
    return (f'<figure data-plot="{name}">{svg}<figcaption>{_e(caption)}</figcaption>'
            f"</figure>")


def _bars(ax: Any, names: Sequence[str], labels: Sequence[str],
          series: Sequence[Sequence[Json | None]], ylabel: str, line: float | None = 0.0,
          ) -> None:
    """Grouped bars with 95% interval whiskers: one group per label, one bar per name."""
    width = 0.8 / max(len(series), 1)
    for i, (name, values) in enumerate(zip(names, series, strict=True)):
        xs: list[float] = []
        ys: list[float] = []
        err: list[list[float]] = [[], []]
        for j, e in enumerate(values):
            if not e or e.get("value") is None:
                continue
            lo, hi = e["ci95"]
            v = e["value"]
            xs.append(j + (i - (len(series) - 1) / 2) * width)
            ys.append(v)
            finite = lo is not None and hi is not None and not math.isinf(lo + hi)
            err[0].append(v - lo if finite else 0.0)
            err[1].append(hi - v if finite else 0.0)
        ax.bar(xs, ys, width, yerr=err, capsize=3, color=_COLOURS[i % len(_COLOURS)],
               label=name, alpha=0.85)
    if line is not None:
        ax.axhline(line, color="#444", lw=0.8, ls="--" if line else "-")
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylabel(ylabel)
    lo_, hi_ = ax.get_ylim()  # every effect's axis holds 0 (bars start there)
    ax.set_ylim(min(lo_, 0.0), max(hi_, 0.0))
    if len(names) > 1:
        ax.legend(fontsize=8)


def _drawer(names: Sequence[str], labels: Sequence[str],
            series: Sequence[Sequence[Json | None]], ylabel: str,
            line: float | None = 0.0) -> Callable[[Any], None]:
    def draw(ax: Any) -> None:
        _bars(ax, names, labels, series, ylabel, line)
    return draw


def render(summary: Json) -> str:
    """The whole ``report.html`` page."""
    plan = summary["plan"]
    names = [r["name"] for r in summary["rulesets"]]
    title = f"Report card: {' vs '.join(names)}, {plan['players']} players"
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
             f"<meta name='viewport' content='width=device-width,initial-scale=1'>"
             f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
             f"<h1>{_e(title)}</h1>", _intro(summary)]
    if "compare" in summary:
        parts.append(_compare(summary))
    parts += [_seats(summary), _depth(summary), _luck(summary),
              _rows_section(summary, "drama"), _specials(summary),
              _rows_section(summary, "length"), _length_note(summary),
              "</body></html>"]
    return "\n".join(parts)


def _intro(summary: Json) -> str:
    plan = summary["plan"]
    m = summary["matches"]
    notes = "".join(f"<li>{_e(n)}</li>" for n in plan["notes"])
    return (f"<p>Named player: <b>{_e(plan['player'])}</b> in every seat, on {plan['deals']:,} "
            f"duplicate deals, each played from every first leader ({m['self_play']:,} "
            f"matches a ruleset). Ladder: {_e(' < '.join(plan['ladder']))} "
            f"({sum(m['ladder'].values()):,} matches a ruleset). Every figure has its 95% "
            f"interval and n, the deals it rests on. {summary['run']['seconds']:,.0f} s of wall "
            f"time; seed {plan['seed']}.</p><ul class='note'>{notes}</ul>")


def _rows(summary: Json, section: str) -> list[str]:
    keys: list[str] = []
    for r in summary["rulesets"]:
        for key in r["figures"].get(section, {}):
            if key not in keys:
                keys.append(key)
    return keys


def _rows_section(summary: Json, section: str, intro: bool = True) -> str:
    names = [r["name"] for r in summary["rulesets"]]
    head = ["figure", *names]
    rows = []
    for key in _rows(summary, section):
        label = next(r["figures"][section][key]["label"] for r in summary["rulesets"]
                     if key in r["figures"].get(section, {}))
        rows.append([_e(label), *(_e(shown(r["figures"].get(section, {}).get(key)))
                                  for r in summary["rulesets"])])
    title, text = _SECTIONS[section]
    top = f"<h2>{_e(title)}</h2><p class='note'>{_e(text)}</p>" if intro else ""
    return top + _table(head, rows)


def _seats(summary: Json) -> str:
    names = [r["name"] for r in summary["rulesets"]]
    n = summary["plan"]["players"]
    out = [f"<h2>{_e(_SECTIONS['seats'][0])}</h2><p class='note'>{_e(_SECTIONS['seats'][1])}"
           "</p>"]
    for key, what in (("from_leader", "round's leader"), ("from_first", "first round's leader")):
        series = [r["seats"][key]["positions"] for r in summary["rulesets"]]
        labels = [f"+{k}" for k in range(n)]
        out.append(_figure(f"seats-{key}", f"Seat edge by position from the {what} "
                           "(score minus the table mean; 95% intervals)",
                           _drawer(names, labels, series, "score − table mean")))
        rows = [[f"+{k}", *(f"{_e(shown(s[k]))}; Holm p {shown_p(s[k]['p_holm'])}" for s in series)]
                for k in range(n)]
        out.append(_table([f"position from the {what}", *names], rows))
    wins = [r["seats"]["match_wins"]["positions"] for r in summary["rulesets"]]
    fair = 1 / n
    out.append(_figure("seats-wins", f"Match-win rate by position from the first round's "
                       f"leader; dashed: the fair share 1/{n}",
                       lambda ax: _bars(ax, names, [f"+{k}" for k in range(n)], wins,
                                        "match-win rate", fair)))
    out.append(_table(["position", *names], [
        [f"+{k}", *(f"{_e(shown(w[k]))}; Holm p {shown_p(w[k]['p_holm'])}" for w in wins)]
        for k in range(n)]))
    out.append(_rows_section(summary, "seats", intro=False))
    out.append(_rows_section(summary, "score", intro=False))
    return "\n".join(out)


def _depth(summary: Json) -> str:
    names = [r["name"] for r in summary["rulesets"]]
    ladder = summary["plan"]["ladder"]
    steps = [f"{a}>{b}" for a, b in itertools.pairwise(ladder)]
    series = [[r["figures"].get("depth", {}).get(f"gap:{s}") for s in steps]
              for r in summary["rulesets"]]
    out = [f"<h2>Depth</h2><p class='note'>{_e(_SECTIONS['depth'][1])}</p>"]
    if steps:
        out.append(_figure("depth-steps", "Each ladder step's score gap a round (weaker minus "
                           "stronger on the same deals; above 0: the stronger scores lower)",
                           lambda ax: _bars(ax, names, [s.replace(">", " → ") for s in steps],
                                            series, "points a round")))
    curves = [(r["name"], r["depth"]["curve"]) for r in summary["rulesets"]
              if r.get("depth", {}).get("curve")]
    if curves:
        out.append(_figure("depth-curve", "Each rung's strength over the bottom one: its "
                           "score a round lower, the steps below it summed (95% intervals)",
                           lambda ax: _curve(ax, curves)))
    for r in summary["rulesets"]:
        if r.get("depth"):
            out.append(f"<p>{_e(depth_reading(r))}</p>")
    out.append(_rows_section(summary, "depth", intro=False))
    return "\n".join(out)


def depth_reading(ruleset: Json) -> str:
    """Where a ruleset's depth curve flattens, in words: only where the step above a rung
    is narrow enough to show no gain that matters; a step too wide to tell says so."""
    d = ruleset["depth"]
    gain = d.get("smallest_gain", 0.03)
    text = f"{ruleset['name']}: {d['clear_steps']} clear step(s) from the bottom; "
    step = d["steps"][d["clear_steps"]] if d["clear_steps"] < len(d["steps"]) else None
    gap = (ruleset["figures"].get("depth", {}).get(f"gap:{step['weaker']}>{step['stronger']}")
           if step else None)
    if step is None:
        return text + "still rising at the top of the ladder."
    again = (f"; the curve rises again at {d['rises_again_at']}"
             if d.get("rises_again_at") else "")
    if d.get("falls_at"):
        return text + (f"{step['stronger']} scores worse than {step['weaker']} here "
                       f"({shown(gap)}): the ladder's order is not the players' strength "
                       f"on this ruleset{again}.")
    if step["reading"] == "flat" and again:
        return text + (f"{step['stronger']} adds less than {gain:g} a round over "
                       f"{step['weaker']} ({shown(gap)}){again}, so it does not flatten "
                       "there.")
    if d.get("flattens_at"):
        return text + (f"flattens at {d['flattens_at']}: {step['stronger']} adds less than "
                       f"{gain:g} a round ({shown(gap)}).")
    more = (f"; about {step['deals_to_tell']:,} deals would tell"
            if step.get("deals_to_tell") else "")
    return text + (f"cannot say whether it flattens at {step['weaker']}: {step['stronger']} "
                   f"over {step['weaker']} is {shown(gap)}, too wide to tell a gain of "
                   f"{gain:g} a round from none{more}.")


def _curve(ax: Any, curves: Sequence[tuple[str, Sequence[Json]]]) -> None:
    for i, (name, curve) in enumerate(curves):
        xs = list(range(len(curve)))
        ys = [p["value"] for p in curve]
        lo = [p["value"] - (p["ci95"][0] if p["ci95"][0] is not None else p["value"])
              for p in curve]
        hi = [(p["ci95"][1] if p["ci95"][1] is not None else p["value"]) - p["value"]
              for p in curve]
        ax.errorbar([x + 0.05 * i for x in xs], ys, yerr=[lo, hi], marker="o", capsize=3,
                    color=_COLOURS[i % len(_COLOURS)], label=name)
        ax.set_xticks(xs, [p["rung"] for p in curve])
    ax.axhline(0, color="#444", lw=0.8)
    ax.set_ylabel("points a round over the bottom")
    lo_, hi_ = ax.get_ylim()
    ax.set_ylim(min(lo_, 0.0), max(hi_, 0.0))
    if len(curves) > 1:
        ax.legend(fontsize=8)


def _luck(summary: Json) -> str:
    names = [r["name"] for r in summary["rulesets"]]
    ladder = summary["plan"]["ladder"]
    steps = [f"{a}>{b}" for a, b in itertools.pairwise(ladder)]
    out = [f"<h2>Luck and skill</h2><p class='note'>{_e(_SECTIONS['luck'][1])}</p>"]
    if steps:
        series = [[r["figures"].get("luck", {}).get(f"luck:{s}") for s in steps]
                  for r in summary["rulesets"]]
        out.append(_figure("luck-shares", "Share of a seat's round score the deal explains, "
                           "by ladder step",
                           lambda ax: _bars(ax, names, [s.replace(">", " v ") for s in steps],
                                            series, "share of variance")))
    out.append(_rows_section(summary, "luck", intro=False))
    return "\n".join(out)


def _specials(summary: Json) -> str:
    names = [r["name"] for r in summary["rulesets"]]
    cards = [k.split(":", 1)[1] for k in _rows(summary, "specials") if k.startswith("worth:")]
    out = [f"<h2>Special cards and trumps</h2><p class='note'>{_e(_SECTIONS['specials'][1])}"
           "</p>"]
    if cards:
        series = [[r["figures"].get("specials", {}).get(f"worth:{c}") for c in cards]
                  for r in summary["rulesets"]]
        out.append(_figure("specials-worth", "Each card's worth: holder's round score minus "
                           "the others' (negative helps the holder; a trump per trump dealt)",
                           lambda ax: _bars(ax, names, cards, series, "points a round")))
    out.append(_rows_section(summary, "specials", intro=False))
    return "\n".join(out)


def _length_note(summary: Json) -> str:
    how = summary["rulesets"][0].get("length", {}).get("how", "")
    return f"<p class='note'>Playing time: {_e(how)}.</p>"


def _compare(summary: Json) -> str:
    names = [r["name"] for r in summary["rulesets"]]
    head = ["figure", names[0], *(f"{n} − {names[0]}" for n in names[1:])]
    rows = []
    for entry in summary["compare"]:
        cells = [_e(entry["label"]), _e(shown(entry["values"][0]))]
        for diff in entry["differences"]:
            if diff is None:
                cells.append("–")
                continue
            cls = {"better": "better", "worse": "worse"}.get(diff["verdict"], "")
            cells.append(f"<span class='{cls}'>{_e(shown(diff))}: {_e(diff['verdict'])}</span>")
        rows.append(cells)
    return ("<h2>Side by side</h2><p class='note'>Each row's difference on the same deals, "
            "with its 95% interval; better or worse for a designer who wants fair seats, "
            "depth and drama, higher or lower where it is a matter of taste.</p>"
            + _table(head, rows))


def markdown(summary: Json) -> str:
    """``summary.md``: the headline rows as Markdown tables."""
    names = [r["name"] for r in summary["rulesets"]]
    plan = summary["plan"]
    lines = [f"# Report card: {' vs '.join(names)}, {plan['players']} players", "",
             f"Named player `{plan['player']}`, {plan['deals']:,} duplicate deals (each from "
             f"every first leader); ladder {' < '.join(f'`{k}`' for k in plan['ladder'])}; "
             f"seed {plan['seed']}; {summary['run']['seconds']:,.0f} s.", ""]
    lines += [f"* {n}" for n in plan["notes"]]
    for section in ("seats", "score", "depth", "luck", "drama", "specials", "length"):
        keys = _rows(summary, section)
        if not keys:
            continue
        lines += ["", f"## {_SECTIONS[section][0]}", "", "| figure | " + " | ".join(names) + " |",
                  "|---|" + "---|" * len(names)]
        for key in keys:
            label = next(r["figures"][section][key]["label"] for r in summary["rulesets"]
                         if key in r["figures"].get(section, {}))
            lines.append(f"| {label} | " + " | ".join(
                shown(r["figures"].get(section, {}).get(key)) for r in summary["rulesets"])
                + " |")
        if section == "depth":
            lines += [""] + [f"* {depth_reading(r)}" for r in summary["rulesets"]
                             if r.get("depth")]
    if "compare" in summary:
        lines += ["", "## Side by side (difference on the same deals)", "",
                  "| figure | " + " | ".join(f"{n} − {names[0]}" for n in names[1:]) + " |",
                  "|---|" + "---|" * (len(names) - 1)]
        for entry in summary["compare"]:
            lines.append(f"| {entry['label']} | " + " | ".join(
                "–" if d is None else f"{shown(d)} {d['verdict']}"
                for d in entry["differences"]) + " |")
    return "\n".join(lines) + "\n"
