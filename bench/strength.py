"""Bot strength and decision times (not a test; takes minutes).

Without ``--peer``: duplicate tournaments (heuristic vs random, search vs
heuristic) for 4-, 3- and 2-player MEIO and 4-player partnership, then times
single decisions.

    .venv/bin/python bench/strength.py --deals 200 --search-deals 30 --jobs 2

With ``--peer``: a duplicate duel of ``--bot`` (default ``search:4``) against a
peer on one table, round 1 of each deal played twice, in complementary seatings
(every seat has each bot once: ABAB and BABA, ABA and BAB, ...), each side
choosing its own splits. The difference is taken deal by deal (mean round score
of the bot's seats minus the peer's, lower is better for the bot). ``--peer ismcts`` is
OpenSpiel's ISMCTSBot (``bench/ismcts_peer.py``, the ``bench`` extra) given, per
decision, the mean CPU time ``--bot`` spent on that kind of decision (card or
split) in a calibration round played in the same run; ``--peer search`` (or any
bot kind) plays with its own fixed work, or with ``--equal-cpu`` with its card and
split worlds (and, where a split's fixed cost asks for it, its screen's worlds) scaled
to the bot's calibrated CPU time. ``--scale`` multiplies every world and
pool count of the search levels on both sides (the same factor), to fit a run
into the time at hand.

    nice .venv/bin/python bench/strength.py --peer ismcts --players 4 --deals 100 --scale 0.25
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from meio.bots import Bot, bot_turn, make_bot
from meio.bots.learned import DEFAULT_POLICY
from meio.bots.netsearch import NET_LEVEL, NET_PLAYOUT_LEVEL, NetSearchBot
from meio.bots.search import LEVELS, Level, SearchBot
from meio.engine import MatchConfig, Phase, State
from meio.tournament import TournamentSpec, run_tournament, summarize
from meio.tournament.runner import deal_seed, lineups

TABLES = [("4-player MEIO", 4, False), ("3-player MEIO", 3, False),
          ("2-player MEIO", 2, False), ("4-player partnership", 4, True)]


def duel(a: str, b: str, players: int, partnership: bool, deals: int, jobs: int,
         wild_lead: str = "declare") -> str:
    spec = TournamentSpec((a, b), players=players, partnership=partnership, matches=deals,
                          seed=2024, wild_lead=wild_lead)  # type: ignore[arg-type]
    summary = summarize(run_tournament(spec, jobs=jobs))
    cells = []
    for name in (a, b):
        s = next(x for x in summary.bots if x.bot == name)
        cells.append(f"{s.mean_score:.3f} [{s.ci_low:.3f}, {s.ci_high:.3f}]")
    rate = summary.pairwise[a][b]
    return f"| {a} vs {b} | {deals} | {cells[0]} | {cells[1]} | {100 * rate:.0f}% |"


def timings(kind: str, samples: int) -> str:
    split: list[float] = []
    card: list[float] = []
    seed = 0
    while len(card) < samples or len(split) < 4:
        state = State.new(MatchConfig(players=4, seed=1000 + seed))
        bots = [make_bot(kind, s) for s in range(4)]
        while not state.is_over and state.round_index == 0 and len(card) < samples:
            phase = state.phase
            t = time.perf_counter()
            bot_turn(state, bots)
            (split if phase is Phase.SPLIT else card).append(time.perf_counter() - t)
        seed += 1

    def q(xs: list[float], p: float) -> float:
        return sorted(xs)[min(len(xs) - 1, int(p * len(xs)))] * 1000

    return (f"| {kind} | {statistics.median(split) * 1000:.1f} | {q(split, 0.95):.1f} | "
            f"{statistics.median(card) * 1000:.1f} | {q(card, 0.95):.1f} |")


# -- duels against a peer ---------------------------------------------------------------
def scaled(kind: str, scale: float) -> Level | None:
    """The budget of search bot ``kind`` with every count multiplied by ``scale``."""
    level = {"search": 2, "expert": 4}.get(kind)
    if level is None and kind.startswith("search:"):
        level = int(kind.split(":")[1])
    if level is None:
        return None
    base = {5: NET_LEVEL, 6: NET_PLAYOUT_LEVEL}.get(level) or LEVELS[level]
    return Level(*(max(1, round(x * scale)) if x else 0 for x in base))


#: budgets that replace a kind's scaled level (``--equal-cpu``); set before the workers start
BUDGETS: dict[str, Level] = {}


def build(kind: str, seed: int, scale: float, times: tuple[float, float]) -> Bot:
    """A bot for the duel; ``times`` are the ISMCTS peer's CPU seconds (card, split)."""
    if kind == "ismcts":
        sys.path.insert(0, str(Path(__file__).parent))
        from ismcts_peer import IsmctsPeer

        return IsmctsPeer(seed, card_s=times[0], split_s=times[1])
    budget = BUDGETS.get(kind) or scaled(kind, scale)
    if budget is None:
        return make_bot(kind, seed)
    if kind.startswith(("search:5", "search:6")):
        path = kind[len("search:5"):].removeprefix(":") or DEFAULT_POLICY
        playouts = "network" if kind.startswith("search:6") else "heuristic"
        return NetSearchBot(seed, path=path, name=kind, budget=budget, playouts=playouts)
    level = LEVELS_BY_KIND.get(kind, 2)
    return SearchBot(seed, level, budget=budget, name=kind)


LEVELS_BY_KIND = {"search": 2, "expert": 4, **{f"search:{k}": k for k in LEVELS}}


@dataclass(frozen=True)
class Game:
    deal: int
    lineup: tuple[str, ...]
    scores: tuple[int, ...]  #: round score by seat (team score in partnership)
    cpu: dict[str, tuple[float, int, float, int]]  #: by bot: card s, cards, split s, splits


def play_game(players: int, partnership: bool, deal: int, seed: int, lineup: tuple[str, ...],
              scale: float, times: tuple[float, float]) -> Game:
    """Round 1 of deal ``deal`` with ``lineup[seat]`` in each seat; CPU time per bot,
    over the decisions where it had a choice."""
    cfg = MatchConfig(players=players, partnership=partnership, seed=deal_seed(seed, deal))
    bots = [build(kind, cfg.seed * 8 + s, scale, times) for s, kind in enumerate(lineup)]
    state = State.new(cfg)
    cpu = {kind: [0.0, 0, 0.0, 0] for kind in lineup}
    while not state.rounds:
        seat = state.current_seat()
        split = state.phase is Phase.SPLIT
        forced = len(state.view(seat).legal_actions()) == 1  # no choice: not timed
        t = time.process_time()
        bot_turn(state, bots)
        if forced:
            continue
        used = cpu[lineup[seat]]
        k = 2 if split else 0
        used[k] += time.process_time() - t
        used[k + 1] += 1
    r = state.rounds[0]
    scores = tuple(r.team_scores[s % 2] for s in range(players)) if r.team_scores \
        else tuple(r.scores)
    return Game(deal, lineup, scores, {k: (v[0], int(v[1]), v[2], int(v[3]))
                                       for k, v in cpu.items()})


def _play(job: tuple[int, bool, int, int, tuple[str, ...], float, tuple[float, float]]) -> Game:
    return play_game(*job)


def calibrate(kind: str, players: int, partnership: bool, scale: float) -> tuple[float, float]:
    """Mean CPU seconds of ``kind`` per card (or pile) decision and per split, over a
    round it plays in every seat (a deal outside the duel's), after a warm-up round."""
    play_game(players, partnership, 10**6 + 1, 99, (kind,) * players, scale, (0.0, 0.0))
    g = play_game(players, partnership, 10**6, 99, (kind,) * players, scale, (0.0, 0.0))
    card_s, cards, split_s, splits = g.cpu[kind]
    return card_s / cards, split_s / splits


#: calibration rounds that may correct the peer's budget after the first scaling
CORRECTIONS = 3


def equal_budget(bot: str, peer: str, players: int, partnership: bool, scale: float,
                 times: tuple[float, float]) -> Level:
    """The peer search level with its work scaled so that its CPU time a card and a
    split match ``times`` (the bot's, calibrated).

    The card worlds and split worlds are scaled by the ratio of the times, measured in a
    calibration round of the peer at its own level. Part of a split's time does not
    grow with the split worlds (``search:4``'s screen of all 1,716 packs), so the peer
    is calibrated again at the scaled level: while its split costs more than 10% above
    the bot's, the screen's worlds are scaled down with the split worlds; below 10%
    under, the split worlds alone are scaled up (at most :data:`CORRECTIONS` times)."""
    base = scaled(peer, scale)
    if base is None:
        raise SystemExit(f"--equal-cpu needs a search peer, not {peer!r}")
    own = calibrate(peer, players, partnership, scale)
    card, split = times[0] / own[0], times[1] / own[1]
    level = base._replace(card_worlds=max(1, round(base.card_worlds * card)),
                          split_worlds=max(1, round(base.split_worlds * split)))
    for _ in range(CORRECTIONS):
        BUDGETS[peer] = level
        try:
            now = calibrate(peer, players, partnership, scale)
        finally:
            BUDGETS.pop(peer)
        ratio = times[1] / now[1]
        if 1 / 1.1 <= ratio <= 1.1 or (ratio < 1 and level.split_worlds == 1
                                       and level.screen_worlds <= 1):
            break
        if ratio > 1.1:  # too cheap now: more split worlds, the screen as it is
            level = level._replace(split_worlds=max(1, round(level.split_worlds * ratio)))
            continue
        level = level._replace(split_worlds=max(1, round(level.split_worlds * ratio)),
                               screen_worlds=max(1, round(level.screen_worlds * ratio))
                               if level.screen_worlds else 0)
    return level


def duel_vs_peer(bot: str, peer: str, players: int, partnership: bool, deals: int, seed: int,
                 scale: float, jobs: int, minutes: float | None = None,
                 equal_cpu: bool = False) -> None:
    """Play the duel and print its row; with ``minutes``, stop after the first whole
    deal past that time (the deals are played in order, so the sample stays fair)."""
    timed = peer == "ismcts" or equal_cpu
    times = calibrate(bot, players, partnership, scale) if timed else (0.0, 0.0)
    if peer == "ismcts":
        print(f"calibration: {bot} spends {1000 * times[0]:.1f} ms CPU a card, "
              f"{1000 * times[1]:.0f} ms a split; ismcts gets the same", flush=True)
    elif equal_cpu:
        BUDGETS[peer] = equal_budget(bot, peer, players, partnership, scale, times)
        print(f"calibration: {bot} spends {1000 * times[0]:.1f} ms CPU a card, "
              f"{1000 * times[1]:.0f} ms a split; {peer} gets {BUDGETS[peer]}", flush=True)
    # complementary seatings: every seat has each bot once (ABAB/BABA, ABA/BAB, ...)
    seatings = [lineups((bot, peer), players)[0], lineups((peer, bot), players)[0]]
    jobs_list = [(players, partnership, d, seed, lineup, scale, times)
                 for d in range(deals) for lineup in seatings]
    games: list[Game] = []
    start = time.time()
    with multiprocessing.Pool(jobs) as pool:  # leaving the block ends the workers
        for i, g in enumerate(pool.imap(_play, jobs_list)):  # results in order of deals
            games.append(g)
            if (i + 1) % (10 * len(seatings)) == 0:
                print(f"  {i + 1}/{len(jobs_list)} games, {time.time() - start:.0f} s",
                      file=sys.stderr, flush=True)
            if minutes and time.time() - start > 60 * minutes and (i + 1) % len(seatings) == 0:
                print(f"  time is up after {(i + 1) // len(seatings)} deals", file=sys.stderr)
                break
    report(bot, peer, players, partnership, games, time.time() - start)


def _side_mean(g: Game, kind: str) -> float:
    seats = [s for s, k in enumerate(g.lineup) if k == kind]
    return sum(g.scores[s] for s in seats) / len(seats)


def report(bot: str, peer: str, players: int, partnership: bool, games: list[Game],
           wall: float) -> None:
    by_deal: dict[int, list[Game]] = {}
    for g in games:
        by_deal.setdefault(g.deal, []).append(g)
    diffs, ours, theirs = [], [], []
    for gs in by_deal.values():
        a = statistics.mean(_side_mean(g, bot) for g in gs)
        b = statistics.mean(_side_mean(g, peer) for g in gs)
        ours.append(a)
        theirs.append(b)
        diffs.append(a - b)
    n = len(diffs)
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.nan

    def ms(kind: str, k: int) -> float:
        total = sum(g.cpu[kind][k] for g in games if kind in g.cpu)
        count = sum(g.cpu[kind][k + 1] for g in games if kind in g.cpu)
        return 1000 * total / max(1, count)

    table = f"{players}-player " + ("partnership" if partnership else "MEIO")
    print(f"| {table} | {bot} vs {peer} | {n} | {statistics.mean(ours):.3f} | "
          f"{statistics.mean(theirs):.3f} | {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}] "
          f"| {ms(bot, 0):.0f} / {ms(peer, 0):.0f} | {ms(bot, 2):.0f} / {ms(peer, 2):.0f} "
          f"| {wall / 60:.1f} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--search-deals", type=int, default=30)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timing-samples", type=int, default=60)
    ap.add_argument("--wild-lead", choices=("declare", "next"), default="declare",
                    help="the wild_lead table option (RULES.md §10) of every match")
    ap.add_argument("--search-4p-only", action="store_true",
                    help="only search vs heuristic on 4-player MEIO (no timings)")
    ap.add_argument("--peer", help="duel --bot against this peer: ismcts, or a bot kind")
    ap.add_argument("--bot", default="search:4")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--partnership", action="store_true")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--minutes", type=float, help="stop after the deal that passes this time")
    ap.add_argument("--equal-cpu", action="store_true",
                    help="scale a search peer's card and split worlds to the bot's CPU time")
    ap.add_argument("--peer-card-worlds", type=int, metavar="N",
                    help="a search peer weighs N worlds a card decision, its level's "
                         "others as they are (to compare playouts world for world)")
    args = ap.parse_args()
    if args.peer_card_worlds is not None:
        level = scaled(args.peer, args.scale) if args.peer else None
        if level is None or args.equal_cpu or args.peer_card_worlds < 1:
            ap.error("--peer-card-worlds takes a search peer, 1 or more, without --equal-cpu")
        BUDGETS[args.peer] = level._replace(card_worlds=args.peer_card_worlds)
    if args.peer:
        print("| table | duel | deals | mean round score (bot) | (peer) | difference [95% CI] "
              "| card ms CPU (bot / peer) | split ms CPU | minutes |")
        print("|---|---|---|---|---|---|---|---|---|")
        duel_vs_peer(args.bot, args.peer, args.players, args.partnership, args.deals,
                     args.seed, args.scale, args.jobs, args.minutes, args.equal_cpu)
        return
    if args.search_4p_only:
        row = duel("search", "heuristic", 4, False, args.search_deals, args.jobs, args.wild_lead)
        print(f"| 4-player MEIO, wild_lead {args.wild_lead} {row}")
        return
    print("| table | match-up | deals | mean round score (first) [95% CI] "
          "| mean round score (second) [95% CI] | first ahead |")
    print("|---|---|---|---|---|---|")
    for label, players, partnership in TABLES:
        for a, b, deals in (("heuristic", "random", args.deals),
                            ("search", "heuristic", args.search_deals)):
            row = duel(a, b, players, partnership, deals, args.jobs, args.wild_lead)
            print(f"| {label} {row}", flush=True)
    print()
    print("| bot (4-player MEIO) | split median ms | split p95 ms | card median ms | card p95 ms |")
    print("|---|---|---|---|---|")
    for kind in ("heuristic", "search:1", "search", "search:3"):
        print(timings(kind, args.timing_samples), flush=True)


if __name__ == "__main__":
    main()
