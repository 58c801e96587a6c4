"""Search or the network on any ruleset: a bot against the ruleset's heuristic on
duplicate deals, and its CPU a decision against the standard game (not a test; takes
minutes). ``--bot`` is any bot name: ``search:4``, ``learned`` (the network for any
ruleset off the editions) or ``learned:PATH`` (a network ``meio train --variant`` wrote).

Each deal's round 1 is played twice at 4 players in complementary seatings (the bot
in seats 0 and 2 and the heuristic in 1 and 3, then the other way round), each side
choosing its own splits. The deal's figure is the mean round score of the bot's seats
minus the heuristic's (lower is better for the bot); the report gives its mean and a
paired 95% CI over the deals, and the bot's process CPU a card decision and a split.

    nice -n 10 .venv/bin/python bench/variant_strength.py \\
        --ruleset examples/variants/six-seven.toml --bot search:4 --minutes 8 --jobs 2

    nice -n 10 .venv/bin/python bench/variant_strength.py \\
        --ruleset bench/rulesets/no-trump.toml --bot learned --deals 200 --jobs 2

``--ruleset meio`` plays the box edition (the standard game) for the CPU comparison.

``--core`` plays a network file (``--bot learned:PATH``, a network for any ruleset) in
the compiled core instead (:func:`meio.bots.netcore.simulate`, which chooses as the
Python bot does): the same two seatings of each deal, its deals drawn from the core's
streams ``(seed, deal)`` and its specials from a table config every 50 deals, so
thousands of deals take seconds (no CPU figures). A quick
check while choosing a recipe; the figures of record come from the engine games above.

    nice -n 10 .venv/bin/python bench/variant_strength.py --core \\
        --ruleset examples/variants/six-seven.toml --bot learned:tuned.npz --deals 2000
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import time
from dataclasses import dataclass

from meio.bots import Bot, make_bot
from meio.engine import MatchConfig, Phase, State
from meio.engine.ruleset import Variant
from meio.engine.ruleset_file import load_variant
from meio.tournament.runner import deal_seed


@dataclass(frozen=True, slots=True)
class Deal:
    diff: float  #: the bot's seats' mean round score minus the heuristic's
    card_cpu: list[float]
    split_cpu: list[float]


def _config(variant: Variant | None, seed: int) -> MatchConfig:
    if variant is None:
        return MatchConfig(players=4, seed=seed)
    return MatchConfig(edition=variant.edition, players=4, seed=seed, variant=variant,
                       options=variant.options)


def _round(config: MatchConfig, bots: list[Bot], timed: set[int],
           card: list[float], split: list[float]) -> tuple[int, ...]:
    state = State.new(config)
    while not state.rounds:
        seat = state.current_seat()
        view = state.view(seat)
        legal = view.legal_actions()
        start = time.process_time()
        action = bots[seat].choose(view, legal)
        if seat in timed and len(legal) > 1:
            (split if view.phase is Phase.SPLIT else card).append(time.process_time() - start)
        state.apply(action, seat)
    return state.rounds[0].scores


def play_deal(job: tuple[str | None, str, int, int]) -> Deal:
    path, bot, seed, deal = job
    variant = load_variant(path) if path else None
    config = _config(variant, deal_seed(seed, deal))
    card: list[float] = []
    split: list[float] = []
    diffs = []
    for mine in ((0, 2), (1, 3)):
        bots = [make_bot(bot if s in mine else "heuristic", deal * 10 + s) for s in range(4)]
        scores = _round(config, bots, set(mine), card, split)
        ours = sum(scores[s] for s in mine) / 2
        theirs = sum(scores[s] for s in range(4) if s not in mine) / 2
        diffs.append(ours - theirs)
    return Deal(sum(diffs) / 2, card, split)


def core_diffs(path: str, bot: str, seed: int, deals: int) -> list[float]:
    """Each deal's figure (the module docstring) with the network in the compiled core."""
    import numpy as np

    from meio.bots.general import load_general
    from meio.bots.netcore import simulate
    from meio.engine.scoring import balance_score

    if not bot.startswith("learned:"):
        raise SystemExit("--core plays a network file: --bot learned:PATH")
    variant = load_variant(path)
    policy = load_general(bot.removeprefix("learned:"))
    out: list[float] = []
    # a block of 50 deals a table config: a config fixes the match's specials
    for block in range(0, deals, 50):
        config = _config(variant, deal_seed(seed, block))
        count = min(50, deals - block)

        def scores(seats: int, config: MatchConfig = config, count: int = count,
                   block: int = block) -> np.ndarray:
            games = simulate(config, block, count, seed, policy, net_seats=seats)
            piles = games["piles"][:, 0].astype(np.int64)  # round 1
            return np.array([[balance_score(config, int(h), int(v)) for h, v in row]
                             for row in piles])

        first, second = scores(0b0101), scores(0b1010)
        diff = (first[:, [0, 2]].mean(1) - first[:, [1, 3]].mean(1)
                + second[:, [1, 3]].mean(1) - second[:, [0, 2]].mean(1)) / 2
        out.extend(float(d) for d in diff)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="meio", help="a ruleset file, or meio")
    ap.add_argument("--bot", default="search:4")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--minutes", type=float, help="stop after the deal that passes this time")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=3737)
    ap.add_argument("--core", action="store_true",
                    help="play the network in the compiled core (a quick check)")
    args = ap.parse_args()
    path = None if args.ruleset == "meio" else args.ruleset
    if path:
        load_variant(path)  # a clear error before any work
    if args.core:
        if path is None:
            raise SystemExit("--core plays a variant file")
        diffs = core_diffs(path, args.bot, args.seed, args.deals)
        mean = statistics.fmean(diffs)
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
        print(f"| {args.ruleset} | {args.bot} vs heuristic (core) | {len(diffs)} | "
              f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}] |")
        return
    jobs = [(path, args.bot, args.seed, d) for d in range(args.deals)]
    start = time.monotonic()
    done: list[Deal] = []
    with multiprocessing.Pool(args.jobs) as pool:
        for deal in pool.imap(play_deal, jobs):
            done.append(deal)
            if args.minutes and time.monotonic() - start > 60 * args.minutes:
                pool.terminate()
                break
    diffs = [d.diff for d in done]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    card = [c for d in done for c in d.card_cpu]
    split = [c for d in done for c in d.split_cpu]
    print(f"| {args.ruleset} | {args.bot} vs heuristic | {len(done)} | {mean:+.3f} "
          f"[{mean - half:+.3f}, {mean + half:+.3f}] | "
          f"{1000 * statistics.fmean(card):.0f} ms | {1000 * statistics.fmean(split):.0f} ms |")


if __name__ == "__main__":
    main()
