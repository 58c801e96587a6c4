"""``findings.md``: the headline of every study as Markdown tables, from ``summary.json``.

``meio analyze`` writes it next to the report so that a designer (or a document
such as docs/analysis.md) can quote the figures exactly as the command found them.
"""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]


def _e(x: Json | None, digits: int = 3) -> str:
    if not x or x.get("value") is None:
        return "–"
    lo, hi = x["ci95"]
    return f"{x['value']:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"


def _md(head: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return [*out, ""]


def findings(summary: Json) -> str:
    """The Markdown text; every figure is a mean with its 95% interval."""
    s = summary["studies"]
    spec = summary["spec"]
    games = sum(summary["games"].values())
    lines = [f"Policy {spec['policy']}, seed {spec['seed']}, {games:,} games. "
             "Figures: mean [95% CI].", ""]
    if "seats" in s:
        lines.append("### Seats (mean round score by seat after the round's leader; "
                     "lower is better)")
        lines += _md(["table", "games", "by seat: leader, next, …", "worst − best",
                      "significant"],
                     [[e["label"], f"{e['games']:,}",
                       " · ".join(_e(x, 3) for x in e["score_by_leader_offset"]),
                       f"{e['worst_offset']}−{e['best_offset']}: {_e(e['gap'])}",
                       "yes" if e["significant"] else "no"] for e in s["seats"].values()])
        lines.append("Match-win rate by seat after the match's first leader:")
        lines.append("")
        lines += _md(["table", "by seat: first leader, next, …"],
                     [[e["label"], " · ".join(_e(x, 3) for x in
                                              e["match_win_by_first_leader_offset"])]
                      for e in s["seats"].values()])
    if "specials" in s:
        lines.append("### Specials (holder's round score minus the others'; negative helps "
                     "the holder)")
        rows = []
        for e in s["specials"].values():
            for card, v in e["cards"].items():
                rows.append([e["label"], f"`{card}`", _e(v["holder_minus_others"]),
                             _e(v["kept_first_half"]), _e(v["kept_second_half"]),
                             _e(v["wins_its_trick"])])
        lines += _md(["table", "card", "holder − others", "kept for half 1",
                      "kept for half 2", "wins its trick"], rows)
        subsets = [[e["label"], f"`{e['subsets']['most_balanced']}`",
                    f"`{e['subsets']['most_skill_rewarding']}`"]
                   for e in s["specials"].values() if "subsets" in e]
        if subsets:
            lines += _md(["table", "most balanced set", "most skill-rewarding set"], subsets)
    if "skill" in s:
        lines.append("### Skill (duplicate deals: weaker bot's mean round score minus the "
                     "stronger's)")
        lines += _md(["table", "pair", "score gap", "share of variance explained",
                      "stronger's match wins"],
                     [[e["label"], p, _e(v["weaker_minus_stronger"]), _e(v["skill_share"]),
                       _e(v["match_win"][p.split("-vs-")[0]])]
                      for e in s["skill"].values() for p, v in e["pairs"].items()])
    if "splits" in s:
        lines.append("### Splits (share of the dealt cards of each kind put in the "
                     "second-half pack; random: 0.462)")
        lines += _md(["table", "hearts", "high cards", "specials"],
                     [[e["label"]] + [_e(e[k]["share_to_second_half"]) if k in e else "–"
                                      for k in ("hearts", "high", "specials")]
                      for e in s["splits"].values()])
    if "rules" in s:
        lines.append("### Rules (mean round score under each reading; change against the "
                     "default played the same way)")
        lines += _md(["reading", "mean round score", "change", "decided in last round"],
                     [[v["label"], _e(v["mean_round_score"]), _e(v.get("score_change")),
                       _e(v["decided_in_last_round"])]
                      for e in s["rules"].values() for v in e["variants"].values()])
        kept = [[v["label"]] + [_e(v.get("second_half_share", {}).get(k))
                                for k in ("hearts", "high", "specials")]
                for e in s["rules"].values() for v in e["variants"].values()]
        lines.append("What the split keeps for the second half, under each reading "
                     "(share of those dealt):")
        lines.append("")
        lines += _md(["reading", "hearts", "high cards", "specials"], kept)
        skill = [[v["label"], _e(v["weaker_minus_stronger"]), _e(v.get("change"))]
                 for e in s["rules"].values() for v in e.get("skill", {}).values()]
        if skill:
            pair = next(v["pair"] for e in s["rules"].values()
                        for v in e.get("skill", {}).values())
            lines.append(f"How much skill pays under each reading ({pair.replace('-vs-', ' vs ')}"
                         " on duplicate deals: the weaker's mean round score minus the "
                         "stronger's):")
            lines.append("")
            lines += _md(["reading", "skill gap", "change"], skill)
        fmt = [[e["label"], f"{e['format'].get('three_round_matches', 0):,}",
                _e(e["format"].get("winners_differ"))]
               for e in s["rules"].values() if "format" in e]
        if fmt:
            lines.append("2 players, matches that went to 3 rounds: how often "
                         "first-to-2-victories and lowest total pick different winners.")
            lines.append("")
            lines += _md(["table", "3-round matches", "winners differ"], fmt)
    if "length" in s:
        lines.append("### Length")
        lines += _md(["table", "mean round score", "rounds per match",
                      "decided in last round", "mean match total"],
                     [[e["label"], _e(e["mean_round_score"]), _e(e["mean_match_rounds"], 2),
                       _e(e["decided_in_last_round"]), _e(e["mean_match_total"], 2)]
                      for e in s["length"].values()])
    return "\n".join(lines)
