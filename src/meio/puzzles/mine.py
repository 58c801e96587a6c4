"""Mining puzzles: positions where one action is clearly best from the player's view.

:func:`mine` plays seeded self-play matches (and reads reviewed records), and looks at
every decision that is not forced. A position becomes a puzzle when, from the deciding
seat's view alone:

1. a cheap screen (:data:`SCREEN`) finds a best action that is not the heuristic's pick
   (the obvious move) and ahead of the next best by ``min_gap`` (a split skips it: the
   advisor costs about as much at the screen's budget as at the high one; one split
   in twenty is looked at unless ``split_share`` says otherwise);
2. a search at a high budget (:data:`~meio.review.judge.HIGH`) agrees: the same best
   action, not the heuristic's, and its advantage over the next best action, less the
   95% margin of that advantage (paired over the same worlds), is still ``min_gap``.
   A split puzzle asks which of three or four packs is best (:func:`_split`): the
   advisor plays every pack in the same sampled worlds, and the best pack must clear
   the margin so against each pack offered beside it, the heuristic's among them,
   each difference judged world by world
   (:meth:`~meio.bots.advisor.Candidate.ahead_of`). (Asked for the best of all 1,716
   packs, no split qualifies: near the top the packs differ by a few hundredths of a
   point, docs/bots.md.)

Each puzzle keeps the match up to the position as a ``meio-record/1`` record (a client
replays it and shows the solver only the seat's view), the answer, the heuristic's pick,
the ranked options and a theme (:func:`theme`). Everything follows from ``seed``.
"""

from __future__ import annotations

import contextlib
import math
import random
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from meio.bots import make_bot
from meio.bots.heuristic import HeuristicBot
from meio.bots.search import decision_seed
from meio.engine import MatchConfig, Phase, State, View, sample_world
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.errors import MeioError
from meio.engine.record import Record
from meio.engine.tricks import winning_index
from meio.puzzles.packs import pack_class
from meio.review.judge import HIGH, Z95, Budget, play_values

if TYPE_CHECKING:
    from meio.bots.advisor import Advice

#: the smallest advantage (points a round) of the best action over the next, margin off
MIN_GAP = 0.1
#: puzzles taken from one match at most, so a set is not a few matches retold
PER_MATCH = 6
#: the screen every decision gets (cheap: most positions have no clear answer)
SCREEN = Budget(card_worlds=16, card_playouts=2, pool=32, split_worlds=8)
#: the share of splits screened (a split costs the advisor about a second to judge)
SPLIT_SHARE = 0.05
#: the tables self-play deals, in turn
TABLES = ((4, False), (3, False), (4, True), (5, False), (2, False))
#: the seats' players in self-play (cheap, so the CPU goes to judging positions)
PLAYERS = ("heuristic",)
#: the most packs a split puzzle offers to choose from
SPLIT_CHOICES = 4
#: the kinds of position a puzzle can be
KINDS = ("split", "lead", "follow", "pile")


@dataclass(frozen=True, slots=True)
class Found:
    """One mined position: the best action and how clearly it is best."""

    seat: int
    kind: str  #: ``split``, ``lead``, ``follow`` or ``pile``
    theme: str
    answer: int
    heuristic: int
    options: tuple[tuple[int, float], ...]  #: actions and their values, best first
    gap: float  #: the best action's advantage over the next
    margin: float  #: the 95% half-width of ``gap``
    worlds: int
    #: a split puzzle's packs to choose from (split actions, in the order shown)
    choices: tuple[int, ...] = ()


def rank(view: View, budget: Budget, seed: int) -> Found | None:
    """The legal actions of ``view``'s seat ranked from its view; None when forced."""
    from meio.bots.advisor import advise_view

    seat = view.seat
    assert seat is not None
    legal = list(view.legal_actions())
    if len(legal) < 2:
        return None
    heuristic = HeuristicBot().choose(view, legal)
    if view.phase is Phase.SPLIT:
        advice = advise_view(view, worlds=budget.split_worlds, seed=decision_seed(seed, view),
                             chosen_pack=A.pack_of(heuristic))
        return _split(view, advice, heuristic, seed)
    values, _ = play_values(view, legal, budget, seed)
    means = values.mean(axis=1)
    order = sorted(range(len(legal)), key=lambda i: (float(means[i]), i))
    diffs = values[order[1]] - values[order[0]]
    margin = Z95 * float(diffs.std(ddof=1)) / math.sqrt(values.shape[1])
    kind = "pile" if view.phase is Phase.PILE else "follow" if view.current_trick else "lead"
    answer = legal[order[0]]
    return Found(seat, kind, theme(view, answer, heuristic), answer, heuristic,
                 tuple((legal[i], float(means[i])) for i in order),
                 float(means[order[1]] - means[order[0]]), margin, values.shape[1])


def _split(view: View, advice: Advice, heuristic: int, seed: int) -> Found:
    """A split as a puzzle: which of a few packs is best. The packs offered are the
    advisor's best, the heuristic's, and up to :data:`SPLIT_CHOICES` in all of the
    advisor's next best that the best beats by :data:`MIN_GAP` once the margin is off,
    each of another split (packs that differ by cards that touch are one split,
    :mod:`meio.puzzles.packs`). ``gap`` and ``margin`` are the closest call, each
    difference judged world by world (:meth:`~meio.bots.advisor.Candidate.ahead_of`);
    with fewer than three packs to offer there is no puzzle (the margin is unbounded)."""
    seat = view.seat
    assert seat is not None
    ranked, best, obvious = advice.candidates, advice.candidates[0], advice.chosen
    assert obvious is not None
    splits = {pack_class(view, best.pack)}
    answer = A.pack_action(best.pack)
    offered = [best]
    if pack_class(view, obvious.pack) in splits:
        answer = heuristic  # the heuristic's pack is the best split: no puzzle
    else:
        offered.append(obvious)
        splits.add(pack_class(view, obvious.pack))
        for rival in ranked[1:]:
            if len(offered) >= SPLIT_CHOICES:
                break
            kind = pack_class(view, rival.pack)
            gap, margin = best.ahead_of(rival)
            if kind not in splits and gap - margin >= MIN_GAP:
                offered.append(rival)
                splits.add(kind)
    calls = [best.ahead_of(c) for c in offered[1:]]
    gap, margin = min(calls, key=lambda gm: gm[0] - gm[1], default=(0.0, math.inf))
    if len(offered) < 3:
        margin = math.inf
    choices = [A.pack_action(c.pack) for c in offered]
    random.Random(seed).shuffle(choices)  # the answer is not always first
    return Found(seat, "split", theme(view, answer, heuristic), answer, heuristic,
                 tuple((A.pack_action(c.pack), c.mean) for c in ranked), gap, margin,
                 advice.worlds, tuple(choices))


def theme(view: View, answer: int, heuristic: int) -> str:
    """A theme key for the position (the clients translate it): what the answer does
    that the obvious move does not."""
    if view.phase is Phase.PILE:
        return "pile"
    if view.phase is Phase.SPLIT:
        moved = (A.pack_of(answer) ^ A.pack_of(heuristic)) & C.mask_of(C.SPECIALS)
        return "split-special" if moved else "split-balance"
    card = A.card_of(answer)
    if card == C.Q_PLUS:
        return "q-plus"
    if card == C.PLUS_HALF:
        return "plus-half"
    if A.declared_suit(answer) >= 0 and A.card_of(heuristic) == card:
        return "declare"
    if not view.current_trick:
        return "lead"
    takes, obvious_takes = _takes(view, answer), _takes(view, heuristic)
    if takes and not obvious_takes:
        return "take"
    if obvious_takes and not takes:
        return "duck"
    return "follow"


def _takes(view: View, action: int) -> bool:
    """Whether ``action`` would win the trick as it stands (the cards still to come
    unknown): the position, one world dealt from the view, the card played."""
    world = sample_world(view, random.Random(0))
    world.apply_unchecked(action, view.seat)
    if len(world.current_trick) == 0:
        return world.tricks[-1].winner == view.seat
    cards = [c for _, c in world.current_trick]
    rules = view.config.rules
    index, _ = winning_index(cards, world.led_suit, rules.trick_values[view.half - 1],
                             rules.suit_of, rules.trump)
    return world.current_trick[index][0] == view.seat


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A mined puzzle as the shipped set stores it."""

    id: str
    record: Record  #: the match up to the position
    found: Found

    def to_json(self) -> dict[str, object]:
        f = self.found
        return {
            "id": self.id, "seat": f.seat, "kind": f.kind, "theme": f.theme,
            "answer": A.action_text(f.answer), "heuristic": A.action_text(f.heuristic),
            "options": [[A.action_text(a), round(v, 4)] for a, v in f.options],
            "gap": round(f.gap, 4), "margin": round(f.margin, 4), "worlds": f.worlds,
            "record": self.record.to_json(),
            **({"choices": [A.action_text(c) for c in f.choices]} if f.choices else {}),
        }


def positions(record: Record) -> Iterator[tuple[State, int, int]]:
    """Every decision of a record: ``(state before it, seat, action)`` (the state is
    updated in place after each is yielded)."""
    final = record.to_state()
    deals = [(tuple(r.hands), r.aside, r.leader) for r in record.rounds]
    state = State.new(final.config, deals=deals)
    for seat, action in final.history:
        yield state, seat, action
        state.apply(action, seat)


def self_play_match(seed: int, game: int) -> Record:
    """The ``game``-th seeded self-play match: tables and players in turn."""
    from meio.bots import play_match

    players, partnership = TABLES[game % len(TABLES)]
    config = MatchConfig(players=players, partnership=partnership, seed=seed * 100_003 + game)
    bots = [make_bot(PLAYERS[(game + s) % len(PLAYERS)], seed=seed + game * 7 + s)
            for s in range(players)]
    return Record.from_state(play_match(config, bots))


def certified(found: Found, min_gap: float = MIN_GAP) -> bool:
    """Whether a ranked position is a puzzle: its best action is not the heuristic's
    pick and beats the next best (for a split, each rival pack) by ``min_gap`` once its
    95% margin is taken off."""
    return found.answer != found.heuristic and found.gap - found.margin >= min_gap


def _checked(kinds: Collection[str], split_share: float) -> tuple[str, ...]:
    """``kinds`` in :data:`KINDS`'s order; a :class:`MeioError` for an unknown one, none
    at all, or a share of splits outside 0 to 1."""
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown or not kinds:
        raise MeioError(f"puzzle kinds are {', '.join(KINDS)}, not "
                        f"{', '.join(unknown) or 'none'}")
    if not 0.0 <= split_share <= 1.0:
        raise MeioError(f"the share of splits looked at is 0 to 1, not {split_share}")
    return tuple(k for k in KINDS if k in kinds)


def _kind(state: State, seat: int) -> str:
    if state.phase is Phase.SPLIT:
        return "split"
    if state.phase is Phase.PILE:
        return "pile"
    return "follow" if state.view(seat).current_trick else "lead"


def mine_match(record: Record | None, seed: int, game: int, budget: Budget = HIGH,
               screen: Budget = SCREEN, min_gap: float = MIN_GAP, *,
               kinds: Collection[str] = KINDS, split_share: float = SPLIT_SHARE,
               ) -> list[Puzzle]:
    """The puzzles of one match (at most :data:`PER_MATCH`): ``record``, or the
    ``game``-th self-play match when it is None. Only positions of ``kinds`` are looked
    at, and a share ``split_share`` of the splits. Fixed by ``seed`` and ``game`` alone, so
    matches can be mined in any order, in several processes."""
    kinds = _checked(kinds, split_share)
    if record is None:
        record = self_play_match(seed, game)
    rng = random.Random(seed * 1_000_003 + game)
    found: list[Puzzle] = []
    for state, seat, _action in positions(record):
        if len(found) >= PER_MATCH:
            break
        if state.phase is Phase.SPLIT and rng.random() > split_share:
            continue
        if _kind(state, seat) not in kinds:
            continue
        view = state.view(seat)
        key = rng.getrandbits(31)
        quick = None
        # a split's screen would cost about what its judgement does: it is judged at once
        if state.phase is not Phase.SPLIT:
            quick = rank(view, screen, key)
            if quick is None or quick.answer == quick.heuristic or quick.gap < min_gap:
                continue
        deep = rank(view, budget, key)
        if (deep is None or (quick is not None and deep.answer != quick.answer)
                or not certified(deep, min_gap)):
            continue
        found.append(Puzzle(f"{seed}-{game}-{len(state.history)}-{seat}",
                            Record.from_state(state), deep))
    return found


Job = tuple[dict[str, object] | None, int, int, tuple[str, ...], float]


def _mine_one(job: Job) -> list[Puzzle]:
    data, seed, game, kinds, split_share = job
    return mine_match(None if data is None else Record.from_json(data), seed, game,
                      kinds=kinds, split_share=split_share)


def mine(
    count: int,
    seed: int,
    *,
    records: Sequence[Record] = (),
    jobs: int = 1,
    progress: Callable[[list[Puzzle], int], None] | None = None,
    kinds: Collection[str] = KINDS,
    split_share: float = SPLIT_SHARE,
) -> list[Puzzle]:
    """Mine ``count`` puzzles: first from ``records`` (reviewed games), then from
    self-play seeded by ``seed``, ``jobs`` matches at a time in worker processes.
    ``progress(puzzles, matches)`` after each match. The puzzles are those of the
    matches in order, so they do not depend on ``jobs``. ``kinds`` and ``split_share``:
    as :func:`mine_match` takes them."""
    found: list[Puzzle] = []
    given = [r.to_json() for r in records]
    wanted = _checked(kinds, split_share)

    def job(game: int) -> Job:
        return (given[game] if game < len(given) else None, seed, game, wanted, split_share)

    game = 0
    with contextlib.ExitStack() as stack:
        pool = None
        if jobs > 1:
            from concurrent.futures import ProcessPoolExecutor

            pool = stack.enter_context(ProcessPoolExecutor(jobs))
        while len(found) < count:
            batch = [job(g) for g in range(game, game + max(1, jobs))]
            results = pool.map(_mine_one, batch) if pool else map(_mine_one, batch)
            for puzzles in results:
                game += 1
                found.extend(puzzles[: count - len(found)])
                if progress is not None:
                    progress(found, game)
    return found
