"""Generate the result tables of the docs from committed benchmark documents.

A table in a Markdown file sits between two markers that name its kind and the
``meio-bench/1`` documents (``docs/bench/*.json``, made by ``bench/docs_bench.sh``)
it is made from:

    <!-- bench-table: leaderboard docs/bench/meio-4-learned.json -->
    ...the table, written by this script...
    <!-- end bench-table -->

* ``leaderboard FILE``: one row per bot of one run, with the version each name
  resolved to and the first digits of its weights' SHA-256;
* ``tables FILE...``: one row per run (a table of the deal set), for the bots the
  runs share;
* ``best_response FILE...``: one row per approximate best response
  (``meio-best-response/1`` documents of ``bench/best_response.py``);
* ``cfr FILE`` and ``exploitability FILE``: CFR's convergence and one row per bot made
  a tabular policy of a solved game (``meio-exploitability/1``, ``bench/solve.py``).
* ``baselines FILE...``: one row per learner trained over several seeds
  (``meio-baselines/1``, ``bench/baselines.py``), then one row per bot of each
  ``meio-bench/1`` run given, as references (a run of the reference bot alone gives
  the reference's row);
* ``speed FILE``: the environments' speed (``meio-speed/1``, ``bench/rl.py --json``);
* ``compact FILE``: generic learners on the flat and the compact action spaces
  (``meio-compact-actions/1``, ``bench/compact_actions.py --json``; a learner's rows
  added later with ``--add`` name their own command).

``python bench/docs_tables.py`` rewrites every table in place; ``--check`` changes
nothing and exits 1 listing the tables that differ from their documents and every
document whose bot hash differs from the shipped bot's (``tests/tournament/
test_docs_tables.py`` runs the check).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from meio.bots.versions import UnknownVersionError, file_sha256, resolve

ROOT = Path(__file__).resolve().parent.parent
DOCS = ("docs/rl.md",)
_BLOCK = re.compile(r"(<!-- bench-table: (?P<kind>\w+) (?P<files>[^>]+?) -->\n)(?P<body>.*?)"
                    r"(<!-- end bench-table -->)", re.S)

Doc = dict[str, Any]


def _ci(pair: Sequence[float], fmt: str) -> str:
    return f"[{pair[0]:{fmt}}, {pair[1]:{fmt}}]"


def _plays_as(doc: Doc, bot: str) -> str:
    info = doc.get("bot_versions", {}).get(bot, {})
    text = f"`{info['version']}`" if "version" in info else (
        f"`{info['agent']}`" if "agent" in info else "—")
    if "sha256" in info:
        text += f" sha256 `{info['sha256'][:12]}`"
    return text


def leaderboard(docs: Sequence[Doc]) -> str:
    """One run's leaderboard, a row per bot, best rating first."""
    (doc,) = docs
    ref = doc["reference"]
    lines = [f"| bot | plays as | rating [95% CI] | mean round score [95% CI] | "
             f"vs {ref} [95% CI] | seats | win % per seat |",
             "|---|---|---|---|---|---:|---:|"]
    for e in doc["leaderboard"]:
        vs = "0" if e["bot"] == ref else \
            f"{e['vs_reference']:+.3f} {_ci(e['vs_reference_ci95'], '+.3f')}"
        lines.append(f"| {e['bot']} | {_plays_as(doc, e['bot'])} | {e['rating']:.0f} "
                     f"{_ci(e['rating_ci95'], '.0f')} | {e['mean_round_score']:.3f} "
                     f"{_ci(e['mean_round_score_ci95'], '.3f')} | {vs} | {e['seats']} | "
                     f"{100 * e['win_rate_per_seat']:.1f} |")
    lines.append("")
    lines.append(f"`{doc['command']}` — {doc['games']} matches, {doc['elapsed_s']:.0f} s "
                 f"with {doc['jobs']} jobs; {doc['intervals']}.")
    return "\n".join(lines) + "\n"


def tables(docs: Sequence[Doc]) -> str:
    """One row per run: each bot's rating and mean round score, and its paired difference
    from the reference bot."""
    bots = [b for b in docs[0]["bots"] if all(b in d["bots"] for d in docs)]
    ref = docs[0]["reference"]
    head = ["table", "deals", "matches"]
    for b in bots:
        head += [f"{b}: rating [95% CI]", "score"]
        if b != ref:
            head.append(f"{b} vs {ref}")
    head.append("s")
    lines = ["| " + " | ".join(head) + " |",
             "|" + "|".join("---:" if h in ("deals", "matches", "score", "s") else "---"
                            for h in head) + "|"]
    for doc in docs:
        if doc["reference"] != ref:
            raise ValueError(f"{doc['command']}: reference {doc['reference']}, not {ref}")
        entry = {e["bot"]: e for e in doc["leaderboard"]}
        row = [doc["table"], str(doc["deals"]), str(doc["games"])]
        for b in bots:
            e = entry[b]
            row += [f"{e['rating']:.0f} {_ci(e['rating_ci95'], '.0f')}",
                    f"{e['mean_round_score']:.3f}"]
            if b != ref:
                row.append(f"{e['vs_reference']:+.3f} {_ci(e['vs_reference_ci95'], '+.3f')}")
        row.append(f"{doc['elapsed_s']:.0f}")
        lines.append("| " + " | ".join(row) + " |")
    versions = {b: _plays_as(docs[0], b) for b in bots}
    lines.append("")
    lines.append("Bots: " + "; ".join(f"{b} = {v}" for b, v in versions.items()) + ".")
    return "\n".join(lines) + "\n"


def best_response(docs: Sequence[Doc]) -> str:
    """One row per approximate best response (``meio-best-response/1``, made by
    ``bench/best_response.py``): the points a round it gains over the bot in its seat."""
    lines = ["| bot | plays as | learner started from | decisions | seed | train CPU s | "
             "start's gain [95% CI] | gain [95% CI] | bot's score | response's score | "
             "deals |",
             "|---|---|---|---:|---:|---:|---|---|---:|---:|---:|"]
    for doc in docs:
        bot = doc["bot"]
        lines.append(
            f"| {bot} | {_plays_as(doc, bot)} | `{doc['init']}` | {doc['steps']:,} | "
            f"{', '.join(str(s) for s in doc['seeds'])} | {doc['train_cpu_s']:.0f} | "
            f"{doc['init_gain']:+.3f} {_ci(doc['init_gain_ci95'], '+.3f')} | "
            f"{doc['gain']:+.3f} {_ci(doc['gain_ci95'], '+.3f')} | {doc['bot_score']:.3f} | "
            f"{doc['response_score']:.3f} | {doc['deals']} |")
    lines.append("")
    lines += [f"`{doc['command']}`" + ("" if i == len(docs) - 1 else "  ")
              for i, doc in enumerate(docs)]
    return "\n".join(lines) + "\n"


def cfr(docs: Sequence[Doc]) -> str:
    """CFR's average policy on a solved game: its exploitability at each checkpoint."""
    (doc,) = docs
    points = doc["cfr"]
    lines = ["| iterations | " + " | ".join(str(p["iteration"]) for p in points) + " |",
             "|---|" + "---:|" * len(points),
             "| exploitability | " + " | ".join(f"{p['exploitability']:.6f}" for p in points)
             + " |",
             "| wall s so far | " + " | ".join(f"{p['seconds']:.0f}" for p in points) + " |"]
    return "\n".join(lines) + "\n"


def exploitability(docs: Sequence[Doc]) -> str:
    """Each bot of a solved game as a tabular policy: NashConv and exploitability, least
    exploitable first; then the bots not measured, with the reason."""
    (doc,) = docs
    lines = ["| policy | plays as | NashConv | exploitability | policy built in s |",
             "|---|---|---:|---:|---:|"]
    for row in sorted(doc["bots"], key=lambda r: r["exploitability"]):
        bot = row["bot"]
        lines.append(f"| {bot} | {_plays_as(doc, bot)} | {row['nash_conv']:.6f} | "
                     f"{row['exploitability']:.6f} | {row['policy_seconds']:.1f} |")
    lines.append("")
    lines.append(f"`{doc['command']}` — {doc['seconds']:.0f} s in all.")
    for added in doc.get("additions", ()):
        lines.append("")
        lines.append(f"Added by `{added['command']}` ({', '.join(added['bots'])}) — "
                     f"{added['seconds']:.0f} s.")
    if doc.get("refused"):
        lines.append("")
        lines.append("Not measured: " + "; ".join(f"`{k}`: {v}"
                                                  for k, v in doc["refused"].items()) + ".")
    return "\n".join(lines) + "\n"


def baselines(docs: Sequence[Doc]) -> str:
    """One row per learner (``meio-baselines/1``): its paired difference from the
    reference, averaged over seeds with a Student-t interval, and each seed's; then each
    bot of the ``meio-bench/1`` runs given that no row has shown yet (one deterministic
    run, its interval a bootstrap over deals), and the reference's own row from a run
    that seats the reference alone (its score at a table of itself)."""
    learners = [d for d in docs if d["format"] == BASELINES]
    runs = [d for d in docs if d["format"] == "meio-bench/1"]
    refs = {d["reference"] for d in docs}
    if len(refs) != 1:
        raise ValueError(f"the baselines table needs one reference bot, not {sorted(refs)}")
    (ref,) = refs
    lines = [f"| agent | training a seed | seeds | deals | vs {ref}: mean [95% CI] | "
             f"each seed's vs {ref} | mean round score [95% CI] |",
             "|---|---|---:|---:|---|---|---|"]
    def span(values: list[float], fmt: str) -> str:
        low, high = f"{min(values):{fmt}}", f"{max(values):{fmt}}"
        return low if low == high else f"{low}–{high}"

    for d in learners:
        steps = [r["steps"] for r in d["runs"]]
        cpu = [r["train_s"] for r in d["runs"]]
        each = ", ".join(f"{r['vs_reference']:+.3f}" for r in d["runs"])
        lines.append(
            f"| {d['label']} | {span(steps, ',')} steps, {span(cpu, '.0f')} CPU s | "
            f"{len(d['runs'])} | {d['deals']} | {d['vs_reference']:+.3f} "
            f"{_ci(d['vs_reference_ci95'], '+.3f')} | {each} | {d['mean_round_score']:.3f} "
            f"{_ci(d['mean_round_score_ci95'], '.3f')} |")
    shown: set[str] = set()
    for d in runs:
        for e in d["leaderboard"]:
            alone = d["bots"] == [ref]  # the reference at a table of itself
            if (e["bot"] == ref and not alone) or e["bot"] in shown:
                continue
            shown.add(e["bot"])
            plays = _plays_as(d, e["bot"])
            name = e["bot"] if plays == "—" else f"{e['bot']} ({plays})"
            vs = "0 (the reference)" if alone else \
                f"{e['vs_reference']:+.3f} {_ci(e['vs_reference_ci95'], '+.3f')}"
            lines.append(
                f"| {name} | {'shipped, at a table of itself' if alone else 'shipped'} | — | "
                f"{d['deals']} | {vs} | — | "
                f"{e['mean_round_score']:.3f} {_ci(e['mean_round_score_ci95'], '.3f')} |")
    lines.append("")
    lines += [f"`{d['command']}`" + ("" if i == len(docs) - 1 else "  ")
              for i, d in enumerate(docs)]
    return "\n".join(lines) + "\n"


def speed(docs: Sequence[Doc]) -> str:
    """The environments' speed (``meio-speed/1``): agent steps per CPU and per wall
    second, and each as a multiple of OpenSpiel's C++ Hearts in the same run."""
    (doc,) = docs
    hearts = next((r["cpu"] for r in doc["rows"] if "Hearts" in r["environment"]), 0)
    lines = ["| environment | agent steps/s (CPU) | x Hearts | steps/s (wall) | note |",
             "|---|---:|---:|---:|---|"]
    for r in doc["rows"]:
        ratio = f"{r['cpu'] / hearts:.2f}x" if hearts else "-"
        lines.append(f"| {r['environment']} | {r['cpu']:,} | {ratio} | {r['wall']:,} | "
                     f"{r['note']} |")
    lines.append("")
    lines.append(f"`{doc['command']}` — {doc['date']}, load average "
                 f"{', '.join(str(x) for x in doc['load_average'])} at the end.")
    return "\n".join(lines) + "\n"


def compact(docs: Sequence[Doc]) -> str:
    """Generic learners on both action spaces (``meio-compact-actions/1``): agent steps
    per CPU second, learning included."""
    (doc,) = docs
    rate = {(r["learner"], r["actions"]): r["cpu"] for r in doc["rows"]}
    lines = ["| learner | flat (1,812 actions) | compact (96 actions) | compact / flat |",
             "|---|---:|---:|---:|"]
    for learner in dict.fromkeys(r["learner"] for r in doc["rows"]):
        flat, small = rate[learner, "flat"], rate[learner, "compact"]
        lines.append(f"| {learner} | {flat:,} | {small:,} | {small / flat:.1f}× |")
    lines.append("")
    lines.append(f"`{doc['command']}` — {doc['date']}, {doc['envs']} environments, load "
                 f"average {', '.join(str(x) for x in doc['load_average'])} at the end.")
    # rows added to the document later (--add) carry their own run's command
    for r in doc["rows"]:
        if "command" in r and r["actions"] == "compact":
            lines.append("")
            lines.append(f"{r['learner']}: `{r['command']}` — {r['date']}, {r['envs']} "
                         f"environments, {r['steps']:,} steps, load average "
                         f"{', '.join(str(x) for x in r['load_average'])} at the end.")
    return "\n".join(lines) + "\n"


BASELINES = "meio-baselines/1"
KINDS = {"leaderboard": leaderboard, "tables": tables, "best_response": best_response,
         "cfr": cfr, "exploitability": exploitability, "baselines": baselines, "speed": speed,
         "compact": compact}
FORMATS = ("meio-bench/1", "meio-best-response/1", "meio-exploitability/1", BASELINES,
           "meio-speed/1", "meio-compact-actions/1")
#: the formats that name bots, so must record their versions
WITH_BOTS = ("meio-bench/1", "meio-best-response/1", "meio-exploitability/1", BASELINES)


def load(path: str, root: Path = ROOT) -> Doc:
    doc: Doc = json.loads((root / path).read_text())
    if doc.get("format") not in FORMATS:
        raise ValueError(f"{path}: not a document of {', '.join(FORMATS)}")
    return doc


def render(text: str, root: Path = ROOT) -> str:
    """``text`` with every marked table made again from its documents."""
    def one(m: re.Match[str]) -> str:
        docs = [load(f, root) for f in m["files"].split()]
        return m.group(1) + KINDS[m["kind"]](docs) + m.group(5)

    return _BLOCK.sub(one, text)


def hash_problems(doc: Doc, name: str) -> list[str]:
    """Where a document's bots differ from the shipped ones: a version that is no longer
    shipped, or a weights hash that is not the shipped file's."""
    out = []
    for bot, info in doc.get("bot_versions", {}).items():
        if "version" not in info:
            continue
        try:
            shipped = resolve(info["version"])
        except UnknownVersionError:
            out.append(f"{name}: {bot} played as {info['version']}, which is not shipped")
            continue
        if shipped.sha256 != info.get("sha256"):
            out.append(f"{name}: {bot} ({info['version']}) has sha256 {info.get('sha256')}, "
                       f"the shipped one {shipped.sha256}")
        path = shipped.weights_path
        if path is not None and file_sha256(path) != shipped.sha256:
            out.append(f"{path}: its sha256 is {file_sha256(path)}, not the "
                       f"{shipped.sha256} that {shipped.name} pins")
    return out


def check(root: Path = ROOT, docs: Sequence[str] = DOCS) -> list[str]:
    """Every problem: a table that differs from its documents, a document without
    versions, a bot hash that differs from the shipped one."""
    problems = []
    for name in docs:
        text = (root / name).read_text()
        blocks = list(_BLOCK.finditer(text))
        for m in blocks:
            if m["kind"] not in KINDS:
                problems.append(f"{name}: unknown table kind {m['kind']}")
                continue
            files = m["files"].split()
            if m["body"] != KINDS[m["kind"]]([load(f, root) for f in files]):
                problems.append(f"{name}: the table of {' '.join(files)} differs from its "
                                "documents (python bench/docs_tables.py remakes it)")
            for f in files:
                doc = load(f, root)
                if doc["format"] in WITH_BOTS and "bot_versions" not in doc:
                    problems.append(f"{f}: no bot_versions (made before bots had versions)")
                problems += hash_problems(doc, f)
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="change nothing; exit 1 listing what differs")
    args = ap.parse_args(argv)
    if args.check:
        problems = check()
        for p in problems:
            print(p)
        return 1 if problems else 0
    for name in DOCS:
        path = ROOT / name
        path.write_text(render(path.read_text()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
