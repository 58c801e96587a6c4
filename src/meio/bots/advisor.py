"""The split advisor: which cards to pack for the second half, and why.

:func:`advise_view` ranks candidate packs for one seat's dealt cards (13, and a pack
of 6, in the editions; any ruleset's sizes) by expected
round score (lower is better), each with a 95% confidence interval, the tricks
expected in each half, and plain-words reasons. The candidates are the
heuristic's best packs (:func:`~meio.bots.variant_play.ranked_packs`: the editions'
ranking, or the ruleset's own heuristic on a variant), narrowed by
successive halving, plus the pack the player chose, each simulated in the
*same* sampled worlds (the other seats' hands dealt from what this seat cannot
see, every other seat splitting with
the heuristic, the round played out by the heuristic policy), so the
comparison between packs is fair. The terminal and web interfaces show its
hints; ``meio advise`` prints it.

:func:`advise_play` is the card hint of the terminal: on the seat's turn in a
trick, every legal play ranked the same way, from worlds dealt from the view.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from meio.bots.inference import reads_play
from meio.bots.learned import LearnedPolicy
from meio.bots.playout import play_out
from meio.bots.search import split_worlds
from meio.bots.variant_play import ranked_packs
from meio.engine import PackChoices, Phase, State, View, sample_world
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.errors import MeioError

#: packs reported (besides the one the player chose)
CANDIDATES = 8
#: the heuristic's best packs that start the successive halving
POOL = 48
MIN_WORLDS = 8
#: worlds of the compiled screen that picks half of the simulated pool
SCREEN_WORLDS = 16
MAX_WORLDS = 400
#: sampled worlds per second of ``budget_s``: the budget sizes the work, not the clock,
#: so the same hand and seed give the same advice on any machine and under any load
#: (about a second for a 4-player hand on an idle core of the reference machine)
WORLDS_PER_SECOND = 16


def budget_worlds(budget_s: float) -> int:
    """How many worlds a budget of ``budget_s`` seconds simulates.

    >>> budget_worlds(1.0), budget_worlds(0.1), budget_worlds(60)
    (16, 8, 400)
    """
    if not budget_s > 0:
        raise ValueError("budget_s must be positive")
    return max(MIN_WORLDS, min(MAX_WORLDS, round(WORLDS_PER_SECOND * budget_s)))


@dataclass(frozen=True, slots=True)
class Candidate:
    """One pack (the cards kept for the second half) and how it fares."""

    pack: int  #: bitmask of the packed cards
    mean: float  #: expected round score (team score in partnership); lower is better
    low: float  #: 95% confidence interval of ``mean`` (never below 0, as no score is)
    high: float
    first_half_tricks: float  #: expected tricks in the first-half pile (the team's in partnership)
    second_half_tricks: float  #: expected tricks in the second-half pile
    reason: str
    #: the round score in each sampled world, in the order of the worlds (every pack of
    #: one :class:`Advice` is played in the same worlds)
    scores: tuple[int, ...] = field(default=(), repr=False, compare=False)

    @property
    def codes(self) -> list[str]:
        return C.codes(self.pack)

    def ahead_of(self, other: Candidate) -> tuple[float, float]:
        """How many points a round this pack scores below ``other`` on average, and the
        95% half-width of that difference, judged world by world: both packs were played
        in the same sampled worlds, so a deal's luck, which moves both scores alike,
        cancels out, and the interval is far narrower than the two packs' own intervals
        combined. (One world: an unbounded half-width.)

        >>> a = Candidate(1, 1.0, 0.0, 2.0, 3.0, 3.0, "", scores=(0, 1, 2, 1))
        >>> b = Candidate(2, 1.5, 0.0, 3.0, 3.0, 3.0, "", scores=(1, 1, 3, 1))
        >>> gap, half = a.ahead_of(b)
        >>> gap, round(half, 2)
        (0.5, 0.57)
        """
        if not self.scores or len(self.scores) != len(other.scores):
            raise MeioError("the two packs were not played in the same worlds")
        diffs = np.array(other.scores, dtype=float) - np.array(self.scores, dtype=float)
        n = len(diffs)
        half = 1.96 * float(diffs.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
        return float(diffs.mean()), half


@dataclass(frozen=True, slots=True)
class Advice:
    """The advisor's answer: candidates best first, the chosen pack's evaluation, and why."""

    candidates: list[Candidate]
    best: Candidate
    chosen: Candidate | None
    explanation: str
    worlds: int  #: sampled worlds each candidate was played in

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form (card codes)."""

        def one(c: Candidate) -> dict[str, object]:
            return {
                "pack": C.codes(c.pack),
                "mean": round(c.mean, 4),
                "ci95": [round(c.low, 4), round(c.high, 4)],
                "first_half_tricks": round(c.first_half_tricks, 3),
                "second_half_tricks": round(c.second_half_tricks, 3),
                "reason": c.reason,
            }

        return {
            "candidates": [one(c) for c in self.candidates],
            "best": one(self.best),
            "chosen": None if self.chosen is None else one(self.chosen),
            "explanation": self.explanation,
            "worlds": self.worlds,
        }


def advise_view(
    view: View,
    *,
    chosen_pack: int | None = None,
    budget_s: float = 1.0,
    seed: int = 0,
    worlds: int | None = None,
    candidates: int = CANDIDATES,
    pool: int = POOL,
    network: LearnedPolicy | None = None,
) -> Advice:
    """Rank packs for ``view.seat`` during the split (its dealt cards in ``view``).

    ``chosen_pack`` (a bitmask of a pack's worth of the seat's cards) is evaluated too and
    returned as ``chosen``. The work is ``worlds`` sampled worlds, or
    :func:`budget_worlds` of ``budget_s``; either way the answer depends only on the
    view, the chosen pack and ``seed``, never on the clock. The heuristic's
    ``pool`` best packs are all simulated at first; after 4, 8, 16... worlds the
    worse half is dropped (successive halving) until ``candidates`` remain. With a
    ``network`` (:class:`~meio.bots.learned.LearnedPolicy`), its best packs
    (:meth:`~meio.bots.learned.LearnedPolicy.top_packs`) take the heuristic's place.
    """
    if view.seat is None:
        raise MeioError("the advisor needs a seat's view, not a spectator's")
    if view.phase is not Phase.SPLIT:
        raise MeioError("the split advisor works during the split, before the first trick")
    hand = view.hand | view.pack
    dealt, pack_size = view.config.hand_size, view.config.pack_size
    if hand.bit_count() != dealt:
        raise MeioError(f"the split needs {dealt} cards, the view shows {hand.bit_count()}")
    if chosen_pack is None and view.pack:
        chosen_pack = view.pack
    if chosen_pack is not None and (chosen_pack & ~hand
                                    or chosen_pack.bit_count() != pack_size):
        raise MeioError(f"{C.format_cards(chosen_pack)} is not {pack_size} cards of this hand")
    limit = worlds if worlds is not None else budget_worlds(budget_s)
    view13 = view if not view.pack else _unsplit(view)

    size = max(1, pool, candidates)
    every = math.comb(dealt, pack_size)
    screened = _screen(view13, hand, seed) if size < every else None
    if network is not None and screened is not None:
        packs = network.top_packs(view13, (size + 1) // 2)
    else:
        packs = ranked_packs(hand, view.config, size)
    if screened is not None:
        # half the pool from the heuristic's ranking (or the network's), half from the
        # compiled screen of every pack (1,716 in the editions), so a pack the first
        # misjudges still races
        packs = packs[: (size + 1) // 2]
        for pack in screened:
            if len(packs) >= size:
                break
            if pack not in packs:
                packs.append(pack)
    # the packs that race (successive halving drops the worse half) are the same whether
    # or not the player asks about a pack of their own: that one is simulated beside
    # them and never takes a place, so asking about it cannot change the best found
    race = list(packs)
    if chosen_pack is not None and chosen_pack not in packs:
        packs.append(chosen_pack)
    rng = random.Random(seed)
    seat = view.seat
    samples: dict[int, list[tuple[int, int, int]]] = {p: [] for p in packs}
    alive = list(packs)
    done = 0
    next_cut = 4
    while done < limit:
        (world,) = split_worlds(view13, 1, rng)
        for pack in alive:
            st = world.clone()
            st.apply_unchecked(A.pack_action(pack), seat)
            play_out(st, "heuristic", rng)
            samples[pack].append(_outcome(st, seat))
        done += 1
        if done == next_cut and len(race) > candidates:
            # successive halving: keep the better half (and the player's own pack)
            race.sort(key=lambda p: (sum(r[0] for r in samples[p]), packs.index(p)))
            race = race[: max(candidates, len(race) // 2)]
            alive = race + [p for p in (chosen_pack,) if p is not None and p not in race]
            next_cut *= 2

    packs = alive
    samples_list = [samples[p] for p in packs]
    evaluated = [
        _candidate(pack, rows, view) for pack, rows in zip(packs, samples_list, strict=True)
    ]
    order = sorted(range(len(packs)), key=lambda i: (evaluated[i].mean, i))
    ranked = [evaluated[i] for i in order]
    best = ranked[0]
    chosen = None
    if chosen_pack is not None:
        chosen = evaluated[packs.index(chosen_pack)]
    return Advice(ranked, best, chosen,
                  explanation(best, chosen, hand, specials=reads_play(view.config)), done)


#: sampled worlds of a card hint (each played out :data:`PLAY_PLAYOUTS` times)
PLAY_WORLDS = 24
PLAY_PLAYOUTS = 4


@dataclass(frozen=True, slots=True)
class PlayOption:
    """One legal card (a led wild with its declared suit) and how the round ends after it."""

    action: int  #: the engine action (a card, or a wild with its declared suit)
    mean: float  #: expected round score (the team's in partnership); lower is better
    low: float  #: 95% confidence interval of ``mean`` over the sampled worlds (never below 0)
    high: float


@dataclass(frozen=True, slots=True)
class PlayAdvice:
    """The card hint: every legal play, best first, played out in the same worlds."""

    options: list[PlayOption]
    worlds: int

    @property
    def best(self) -> PlayOption:
        return self.options[0]


def advise_play(
    view: View, *, worlds: int = PLAY_WORLDS, playouts: int = PLAY_PLAYOUTS, seed: int = 0
) -> PlayAdvice:
    """Rank the legal plays of ``view.seat`` on its turn in a trick by expected round score.

    The unseen cards are dealt ``worlds`` times at random from what the seat can
    see (:func:`~meio.engine.sample_world`); in each world every legal play is
    followed by ``playouts`` heuristic playouts of the rest of the round on the
    compiled core, on the same random streams, so the plays are compared fairly.
    The answer depends only on the view and ``seed``. It costs a few
    milliseconds once the core is compiled, so a player may ask on every card.
    """
    from meio.sim import evaluate_actions

    if view.seat is None:
        raise MeioError("the advisor needs a seat's view, not a spectator's")
    if view.phase is not Phase.PLAY or view.to_move != view.seat:
        raise MeioError("the card hint is for your turn in a trick")
    if worlds < 1:
        raise ValueError("worlds must be at least 1")
    legal = list(view.legal_actions())
    rng = random.Random(seed)
    seat = view.seat
    rows = np.empty((len(legal), worlds))
    for w in range(worlds):
        world = sample_world(view, rng)
        means = evaluate_actions([world], legal, playouts, rng.getrandbits(32))
        rows[:, w] = means[:, seat]
    options = []
    for action, scores in zip(legal, rows, strict=True):
        mean = float(scores.mean())
        half = 1.96 * float(scores.std(ddof=1)) / math.sqrt(worlds) if worlds > 1 else 0.0
        options.append(PlayOption(action, mean, max(0.0, mean - half), mean + half))
    order = sorted(range(len(legal)), key=lambda i: (options[i].mean, i))
    return PlayAdvice([options[i] for i in order], worlds)


def _screen(view13: View, hand: int, seed: int) -> list[int]:
    """Every pack of ``hand``, best first, by a quick compiled playout in
    :data:`SCREEN_WORLDS` worlds."""
    from meio.sim import evaluate_actions

    if view13.seat is None:
        raise MeioError("split advice is for a seat, not for a spectator")
    worlds = split_worlds(view13, SCREEN_WORLDS, random.Random(seed ^ 0x5C2EE))
    actions = list(PackChoices(hand, view13.config.pack_size))
    means = evaluate_actions(worlds, actions, 1, seed)[:, view13.seat]
    order = np.argsort(means, kind="stable")
    return [A.pack_of(actions[int(i)]) for i in order]


def _unsplit(view: View) -> View:
    import dataclasses

    n = view.config.players
    split_done = tuple(False if s == view.seat else d for s, d in enumerate(view.split_done))
    return dataclasses.replace(
        view,
        hand=view.hand | view.pack,
        pack=0,
        split_done=split_done,
        seats_to_act=tuple(range(n)),
    )


def _outcome(state: State, seat: int) -> tuple[int, int, int]:
    result = state.rounds[-1]
    h, v = result.piles[seat]
    if result.team_scores is not None:
        ph, pv = result.piles[(seat + 2) % 4]
        return result.team_scores[seat % 2], h + ph, v + pv
    return result.scores[seat], h, v


def _candidate(pack: int, rows: list[tuple[int, int, int]], view: View) -> Candidate:
    scores = np.array([r[0] for r in rows], dtype=float)
    mean = float(scores.mean())
    half = 1.96 * float(scores.std(ddof=1)) / math.sqrt(len(scores)) if len(scores) > 1 else 0.0
    first = float(np.mean([r[1] for r in rows]))
    second = float(np.mean([r[2] for r in rows]))
    # a round score is never negative: the normal approximation's interval is cut at 0
    return Candidate(
        pack,
        mean,
        max(0.0, mean - half),
        mean + half,
        first,
        second,
        reason(pack, first, second, view.hand | view.pack, specials=reads_play(view.config)),
        tuple(r[0] for r in rows),
    )


def _english(message: str) -> str:
    return message


class Number(Protocol):
    """Writes a number with ``digits`` decimals (:func:`meio.i18n.decimal` in a language)."""

    def __call__(self, value: float, digits: int = 2) -> str: ...


def _fixed(value: float, digits: int = 2) -> str:
    return f"{value:.{digits}f}"


# The advice's words are written once, here. ``_`` is the translation of a message (the
# English is the message itself; ``meio advise`` hands in the catalogue's, and
# ``babel.cfg`` extracts these messages), ``number`` how a language writes a number.


def special_notes(pack: int, hand: int, _: Callable[[str], str] = _english) -> list[str]:
    """What ``pack`` does with each special card of ``hand``."""
    notes: list[str] = []
    if hand >> C.MINUS_ONE & 1:
        notes.append(
            _("-1 is packed where it is worth 15, a sure winner")
            if pack >> C.MINUS_ONE & 1
            else _("-1 is kept where it is worth -1, a sure loser")
        )
    if hand >> C.A_PLUS & 1:
        notes.append(
            _("A+ is packed where it is worth -1, a sure loser")
            if pack >> C.A_PLUS & 1
            else _("A+ is kept where it is worth 15, a sure winner")
        )
    if hand >> C.Q_PLUS & 1:
        notes.append(
            _("Q+ plays in the second half and sends a trick it wins to the first")
            if pack >> C.Q_PLUS & 1
            else _("Q+ plays in the first half and sends a trick it wins to the second")
        )
    if hand >> C.PLUS_HALF & 1:
        notes.append(
            _("+.5 (in the second half) lets you pick the pile when it wins")
            if pack >> C.PLUS_HALF & 1
            else _("+.5 (in the first half) lets you pick the pile when it wins")
        )
    return notes


def reason(pack: int, first: float, second: float, hand: int,
           _: Callable[[str], str] = _english, number: Number = _fixed,
           specials: bool = True) -> str:
    """Why ``pack`` of ``hand`` scores as it does, ``first`` and ``second`` the tricks
    expected in each half: how its halves weigh, and its special cards
    (:attr:`Candidate.reason`). ``specials`` False leaves the notes on the box's special
    cards out: they speak of an edition's rules, not of a variant's cards."""
    gap = first - second
    if abs(gap) < 0.35:
        balance = _("the halves balance (about {first} and {second} tricks)")
    elif gap > 0:
        balance = _("the first half is heavier ({first} tricks against {second})")
    else:
        balance = _("the second half is heavier ({second} tricks against {first})")
    notes = special_notes(pack, hand, _) if specials else []
    text = balance.format(first=number(first, 1), second=number(second, 1))
    return text + ("; " + "; ".join(notes) if notes else "")


def explanation(best: Candidate, chosen: Candidate | None, hand: int,
                _: Callable[[str], str] = _english, number: Number = _fixed,
                specials: bool = True, note: str | None = None) -> str:
    """The advisor's explanation of ``best`` (and of the pack the player ``chose``) for
    the 13-card ``hand`` (:attr:`Advice.explanation`); ``note``, a sentence on this
    hand's own cards, takes the place of the general one on how the halves weigh."""

    def why(candidate: Candidate) -> str:
        return reason(candidate.pack, candidate.first_half_tricks,
                      candidate.second_half_tricks, hand, _, number, specials)

    lines = [
        _("Best pack found: {pack} (keep {keep} for the first half).").format(
            pack=C.format_cards(best.pack), keep=C.format_cards(hand & ~best.pack)
        ),
        _("Expected round score {mean} (95% CI {low} to {high}): {reason}.").format(
            mean=number(best.mean), low=number(best.low), high=number(best.high),
            reason=why(best),
        ),
    ]
    gap = best.first_half_tricks - best.second_half_tricks
    if note is not None:
        lines.append(note)
    elif abs(gap) < 0.35:
        lines.append(
            _(
                "It balances because each half holds about the same winning power, so the "
                "tricks taken early can be matched late, and the cards left over let you "
                "win or duck to close any gap."
            )
        )
    elif gap > 0:
        lines.append(
            _(
                "No pack balances exactly; this one leaves the first half slightly heavier, "
                "which ducking can absorb."
            )
        )
    else:
        lines.append(
            _(
                "No pack balances exactly; this one leaves the second half slightly heavier, "
                "which ducking can absorb."
            )
        )
    if chosen is not None and chosen.pack != best.pack:
        lines.append(
            _(
                "Your pack {pack} scores {mean} on average ({delta} against the "
                "best): {reason}."
            ).format(
                pack=C.format_cards(chosen.pack),
                mean=number(chosen.mean),
                delta=("+" if chosen.mean >= best.mean else "") + number(chosen.mean - best.mean),
                reason=why(chosen),
            )
        )
    elif chosen is not None:
        lines.append(_("Your pack is the best one found."))
    return " ".join(lines)
