"""``findings.md``: the headline of every study as Markdown tables, from ``summary.json``.

``meio analyze`` writes it next to the report so that a designer (or a document
such as docs/analysis.md) can quote the figures exactly as the command found them.
"""

from __future__ import annotations

from typing import Any

from meio.analysis.stats import shown, shown_p

Json = dict[str, Any]




def _pick(sub: Json, key: str, candidates: str) -> str:
    if sub.get(key):
        return f"`{sub[key]}`"
    return "none stands out (candidates: " + (
        ", ".join(f"`{c}`" for c in sub.get(candidates) or []) or "none") + ")"


def _md(head: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return [*out, ""]


def findings(summary: Json) -> str:
    """The Markdown text; every figure is a mean with its 95% interval."""
    s = summary["studies"]
    spec = summary["spec"]
    games = sum(summary["games"].values())
    who = {"heuristic": " (self-play: the compiled core's heuristic; the skill pairs and "
                        "engine-played rows: the heuristic bot, a different, weaker player)",
           "learned": " (self-play: the learned bot's network, in the compiled core)",
           }.get(spec["policy"], "")
    if "variant" in summary and spec["policy"] == "heuristic":
        who = (" (the heuristic bot through the engine, playing a variant by the rule of "
               "meio.bots.variant_play)")
    lines = [f"Policy {spec['policy']}{who}, seed {spec['seed']}, {games:,} games. "
             "Figures: mean [95% CI].", ""]
    if "variant" in summary:
        lines += [variant_line(summary["variant"]), ""]
    for what, why in summary.get("skipped", {}).items():
        lines.append(f"* Skipped {what}: {why}.")
    if summary.get("skipped"):
        lines.append("")
    if "seats" in s:
        lines.append("### Seats (mean round score by seat after the round's leader; "
                     "lower is better)")
        lines += _md(["table", "games", "by seat: leader, next, …", "spread worst − best",
                      "p (seat effect)", "significant"],
                     [[e["label"], f"{e['games']:,}",
                       " · ".join(shown(x, 3) for x in e["score_by_leader_offset"]),
                       f"{e['worst_offset']}−{e['best_offset']}: {shown(e['gap'])}",
                       shown_p(e.get("p_value")), "yes" if e["significant"] else "no"]
                      for e in s["seats"].values()])
        test = next((e.get("test") for e in s["seats"].values() if e.get("test")), None)
        if test:
            lines += [f"The seat effect's test: a {test}.", ""]
        lines.append("Match-win rate by seat after the match's first leader (fair: 1/N):")
        lines.append("")
        lines += _md(["table", "by seat: first leader, next, …", "p (≠ 1/N)"],
                     [[e["label"], " · ".join(shown(x, 3) for x in
                                              e["match_win_by_first_leader_offset"]),
                       shown_p(e.get("match_win_p_value"))]
                      for e in s["seats"].values()])
    if "specials" in s:
        lines.append("### Specials (holder's round score minus the others'; negative helps "
                     "the holder)")
        rows = []
        for e in s["specials"].values():
            for card, v in e["cards"].items():
                rows.append([e["label"], f"`{v.get('name', card)}`",
                             shown(v["holder_minus_others"]),
                             shown(v["kept_first_half"]), shown(v["kept_second_half"]),
                             shown(v["wins_its_trick"])])
        lines += _md(["table", "card", "holder − others", "kept for half 1",
                      "kept for half 2", "wins its trick"], rows)
        subsets = [[e["label"], _pick(e["subsets"], "most_balanced", "balanced_candidates"),
                    _pick(e["subsets"], "most_skill_rewarding", "skill_candidates")]
                   for e in s["specials"].values() if "subsets" in e]
        if subsets:
            how = next(e["subsets"].get("ranking", "") for e in s["specials"].values()
                       if "subsets" in e)
            lines += [f"Sets of specials ({how}):", ""]
            players = next((e["subsets"].get("skill_players") for e in s["specials"].values()
                           if "subsets" in e and e["subsets"].get("skill_players")), None)
            skill_head = "most skill-rewarding set" + (
                f" ({players[1]} against {players[0]})" if players else "")
            lines += _md(["table", "most balanced set", skill_head], subsets)
    if "skill" in s:
        lines.append("### Skill (duplicate deals: weaker bot's mean round score minus the "
                     "stronger's)")
        lines += _md(["table", "pair", "score gap", "share of variance explained",
                      "stronger's match wins"],
                     [[e["label"], p, shown(v["weaker_minus_stronger"]), shown(v["skill_share"]),
                       shown(v["match_win"][p.split("-vs-")[0]])]
                      for e in s["skill"].values() for p, v in e["pairs"].items()])
    if "splits" in s:
        lines.append("### Splits (share of the dealt cards of each kind put in the "
                     "second-half pack; random: 0.462)")
        lines += _md(["table", "hearts", "high cards", "specials"],
                     [[e["label"]] + [shown(e[k]["share_to_second_half"]) if k in e else "–"
                                      for k in ("hearts", "high", "specials")]
                      for e in s["splits"].values()])
    if "rules" in s:
        lines.append("### Rules (mean round score under each reading; change against the "
                     "default played the same way)")
        lines += _md(["reading", "mean round score", "change", "decided in last round"],
                     [[v["label"], shown(v["mean_round_score"]), shown(v.get("score_change")),
                       shown(v["decided_in_last_round"])]
                      for e in s["rules"].values() for v in e["variants"].values()])
        kept = [[v["label"]] + [shown(v.get("second_half_share", {}).get(k))
                                for k in ("hearts", "high", "specials")]
                for e in s["rules"].values() for v in e["variants"].values()]
        lines.append("What the split keeps for the second half, under each reading "
                     "(share of those dealt):")
        lines.append("")
        lines += _md(["reading", "hearts", "high cards", "specials"], kept)
        skill = [[v["label"], shown(v["weaker_minus_stronger"]), shown(v.get("change"))]
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
                shown(e["format"].get("winners_differ"))]
               for e in s["rules"].values() if "format" in e]
        if fmt:
            lines.append("2 players, matches that went to 3 rounds: how often "
                         "first-to-2-victories and lowest total pick different winners.")
            lines.append("")
            lines += _md(["table", "3-round matches", "winners differ"], fmt)
    if "length" in s:
        lines.append("### Length")
        lines += _md(["table", "mean round score", "rounds per match",
                      "decided in last round", "out of reach before it", "shared victory",
                      "mean match total", "decisions per player", "minutes per match"],
                     [[e["label"], shown(e["mean_round_score"]), shown(e["mean_match_rounds"]),
                       shown(e["decided_in_last_round"]), shown(e.get("decided_before_last_round")),
                       shown(e.get("shared_victory")), shown(e["mean_match_total"]),
                       shown(e.get("decisions_per_player"), 1),
                       shown(e.get("minutes_per_match"), 1)]
                      for e in s["length"].values()])
        how = next((e.get("playing_time") for e in s["length"].values()), None)
        if how:
            lines += [f"Playing time {how}.", ""]
    return "\n".join(lines)



def variant_line(v: Json) -> str:
    """A ruleset in one line: its name, tag and sizes."""
    return (f"Ruleset {v['name']} ({v['tag']}): {v['hand']} cards dealt, {v['first_half']} "
            f"kept for the first half and a pack of {v['pack']}; specials "
            f"{', '.join(v['specials']) or 'none'}; for {', '.join(map(str, v['players']))} "
            "players; every game played through the engine.")


def _d(row: Json) -> str:
    """A difference, or why it is not shown."""
    if row.get("reason"):
        return str(row["reason"])
    return shown(row["difference"])


def says(row: Json) -> str:
    """A compared figure's verdict in words (:func:`meio.analysis.verdicts.judge`)."""
    if row.get("reason"):
        return "–"
    return str(row.get("verdict") or "no clear difference")


def players_lines(summary: Json) -> list[str]:
    """Who played a comparison, in a line or two."""
    who = summary.get("players")
    if not isinstance(who, dict):
        return []
    if who.get("same"):
        out = [f"Player on both rulesets: {who['base']}."]
    else:
        out = [f"Players: base {who['base']}; variant {who['variant']}."]
    if who.get("note"):
        out.append(f"Note: {who['note']}.")
    return out


def _p(row: Json) -> str:
    return shown_p(row.get("p_holm"))


def compare_rows(summary: Json) -> list[tuple[str, str, Json]]:
    """Every compared figure: (table, study, figure name) and its row."""
    return [(t, f"{study}: {name}", row)
            for t, e in summary["compare"]["tables"].items()
            for study, rows in e["studies"].items() for name, row in rows.items()]


def compare_findings(summary: Json) -> str:
    """The comparison as Markdown: per table, each figure under both rulesets and the
    difference (variant − base) with its 95% interval."""
    spec = summary["spec"]
    lines = [f"Base {summary['base']['name']}, variant {summary['variant']['name']}; "
             f"policy {spec['policy']}, seed {spec['seed']}, {summary['games']['base']:,} "
             "games under each. Figures: mean [95% CI]; difference = variant − base.", "",
             f"* {variant_line(summary['base'])}", f"* {variant_line(summary['variant'])}"]
    lines += [f"* {line}" for line in players_lines(summary)]
    if summary["compare"].get("verdicts"):
        lines.append(f"* Verdicts: {summary['compare']['verdicts']}.")
    for what, why in summary["compare"]["skipped"].items():
        lines.append(f"* Not compared, {what}: {why}.")
    lines.append("")
    for t, e in summary["compare"]["tables"].items():
        lines += [f"### {t} ({e['pairing']})", ""]
        rows = [[f, shown(r["base"]), shown(r["variant"]), _d(r),
                 f"{r['difference'].get('n', 0):,}", _p(r), says(r)]
                for (tt, f, r) in compare_rows(summary) if tt == t]
        lines += _md(["figure", "base", "variant", "difference", "n", "p (Holm)", "verdict"],
                     rows)
    return "\n".join(lines)
