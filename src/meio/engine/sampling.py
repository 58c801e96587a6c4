"""Deal the cards a seat cannot see, at random, consistently with what it knows.

Search bots reason over *worlds*: full states that the seat cannot tell apart
from the real one. :func:`sample_world` builds one from a :class:`View` alone,
so it cannot return the true hidden cards except by chance.

The unseen cards go into *slots*: each other seat's remaining hand for the half
in play, each unseen second-half pack during the first half, the set-aside cards.
A slot in the half in play may not hold a suit its seat has shown void in (a
card the ruleset lets be played on any trick, such as a wild, shows no void and
may sit anywhere). The sizes (hand, pack, first half), the deck, the suits and
the specials are the ruleset's (``view.config.ruleset``), so one sampler deals
the worlds of every ruleset, the editions and any variant alike. Sampling first
tries plain shuffles (uniform over valid worlds); when voids make that unlikely
it places cards one by one, each time keeping the rest feasible by Hall's
condition over suit classes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations

from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.errors import MeioError
from meio.engine.legal import Phase
from meio.engine.ruleset import CardRules
from meio.engine.state import RoundStart, State
from meio.engine.view import View

_REJECTION_TRIES = 24
_WILD_CLASS = 4


@dataclass(slots=True)
class _Slot:
    size: int
    voids: frozenset[int] = frozenset()
    cards: list[int] = field(default_factory=list)


def _card_class(card: int, rules: CardRules) -> int:
    """The suit a card must follow as (its void class), or the wild class for a card
    the ruleset lets be played on any trick (a void says nothing of it)."""
    return _WILD_CLASS if rules.free >> card & 1 else rules.suit_of[card]


def _allowed(slot: _Slot, card: int, rules: CardRules) -> bool:
    cls = _card_class(card, rules)
    return cls == _WILD_CLASS or cls not in slot.voids


def _feasible(counts: list[int], slots: list[_Slot], remaining: list[int]) -> bool:
    """Hall's condition: every set of card classes fits the slots that accept them."""
    classes = [c for c in range(5) if counts[c]]
    for r in range(1, len(classes) + 1):
        for subset in combinations(classes, r):
            need = sum(counts[c] for c in subset)
            room = sum(
                remaining[i]
                for i, s in enumerate(slots)
                if any(c == _WILD_CLASS or c not in s.voids for c in subset)
            )
            if need > room:
                return False
    return True


def _class_counts(pool: list[int], rules: CardRules) -> list[int]:
    counts = [0] * 5
    for c in pool:
        counts[_card_class(c, rules)] += 1
    return counts


def _fits(pool: list[int], slots: list[_Slot], rules: CardRules) -> bool:
    """Whether some deal of ``pool`` into ``slots`` respects every void."""
    return sum(s.size for s in slots) == len(pool) and _feasible(
        _class_counts(pool, rules), slots, [s.size for s in slots])


def _fill(pool: list[int], slots: list[_Slot], rng: random.Random, rules: CardRules) -> None:
    if sum(s.size for s in slots) != len(pool):
        raise MeioError("the view is inconsistent: unseen cards do not match hand sizes")
    for _ in range(_REJECTION_TRIES):
        rng.shuffle(pool)
        pos = 0
        ok = True
        for slot in slots:
            chunk = pool[pos : pos + slot.size]
            pos += slot.size
            if slot.voids and not all(_allowed(slot, c, rules) for c in chunk):
                ok = False
                break
            slot.cards = chunk
        if ok:
            return
    # constructive: place cards one at a time, never breaking feasibility
    for slot in slots:
        slot.cards = []
    remaining = [s.size for s in slots]
    counts = _class_counts(pool, rules)
    if not _feasible(counts, slots, remaining):
        raise MeioError("no deal of the unseen cards fits what this seat has seen")
    order = pool.copy()
    rng.shuffle(order)
    for card in order:
        cls = _card_class(card, rules)
        counts[cls] -= 1
        choices = [i for i, s in enumerate(slots) if remaining[i] and _allowed(s, card, rules)]
        rng.shuffle(choices)
        for i in choices:
            remaining[i] -= 1
            if _feasible(counts, slots, remaining):
                slots[i].cards.append(card)
                break
            remaining[i] += 1
        else:  # pragma: no cover - excluded by the feasibility check above
            raise MeioError("no deal of the unseen cards fits what this seat has seen")


def sample_world(view: View, rng: random.Random) -> State:
    """A full state consistent with ``view``, its hidden cards dealt at random.

    The world's history starts at the current round (earlier rounds are kept as
    results only), and its seed is drawn from ``rng`` so later deals vary too.
    Seats that have split but whose pack is unknown get a random pack.

    When the table hides its specials (RULES.md §10) the seat knows only the
    specials it was dealt and those played: the others in the deck are drawn at
    random from the specials it has not seen, so no world assumes one it cannot know.
    """
    cfg = view.config
    n = cfg.players
    me = view.seat
    if view.is_over:
        raise MeioError("the match is over: there is no hidden card left to deal")
    partnership = cfg.partnership
    rules = cfg.rules
    hand, pack, first = cfg.hand_size, cfg.pack_size, cfg.first_half_size
    played = [[0, 0] for _ in range(n)]  # by seat, by half
    for k, t in enumerate(view.tricks):
        for seat, card in t.plays:
            played[seat][0 if k < first else 1] |= 1 << card
    for seat, card in view.current_trick:
        played[seat][view.half - 1] |= 1 << card
    played_all = view.played

    # who plays the pack chosen by seat j in the second half
    def pack_player(j: int) -> int:
        return (j + 2) % 4 if partnership else j

    known = 0
    if me is not None:
        known = view.hand | view.pack | view.received
    specials = cfg.special_cards
    unknown = 0 if cfg.specials_known else view.special_count - len(view.specials)

    def unseen_cards(slots: list[_Slot]) -> list[int]:
        """The cards to deal into ``slots``; with hidden specials, first the specials
        the seat has not seen that are in the deck: a draw among those that some
        deal fits (a special of a suit every slot is void in cannot be there)."""
        nonlocal specials
        if cfg.specials_known:
            return C.cards_of(cfg.deck & ~played_all & ~known)
        unseen = [s for s in cfg.ruleset.special_pool if s not in view.specials]

        def pool_of(drawn: tuple[int, ...] | list[int]) -> list[int]:
            deck = cfg.deck | C.mask_of((*view.specials, *drawn))
            return C.cards_of(deck & ~played_all & ~known)

        fits = {frozenset(d) for d in combinations(unseen, unknown)
                if _fits(pool_of(d), slots, rules)}
        if not fits:
            raise MeioError("no deal of the unseen cards fits what this seat has seen")
        while True:  # uniform among the sets that fit (the first draw, nearly always)
            drawn = rng.sample(unseen, unknown)
            if frozenset(drawn) in fits:
                break
        specials = tuple(sorted((*view.specials, *drawn)))
        return pool_of(drawn)

    voids = view.voids()
    slots: list[_Slot] = []
    where: dict[tuple[str, int], _Slot] = {}
    # the public deck of a table that hides its specials holds none of them
    in_deck = cfg.deck.bit_count() + (0 if cfg.specials_known else view.special_count)
    aside_slot = _Slot(in_deck - hand * n)
    slots.append(aside_slot)

    deal = [0] * n
    packs = [0] * n
    if view.phase is Phase.SPLIT:
        for j in range(n):
            if j == me:
                deal[j] = view.hand | view.pack
                packs[j] = view.pack
            else:
                where[("deal", j)] = s = _Slot(hand)
                slots.append(s)
        _fill(unseen_cards(slots), slots, rng, rules)
        for (_, j), s in where.items():
            deal[j] = C.mask_of(s.cards)
            if view.split_done[j]:
                packs[j] = C.mask_of(rng.sample(s.cards, pack))
    else:
        # hands in play now
        for j in range(n):
            if j == me:
                continue
            if partnership and me is not None and view.half == 2 and j == (me + 2) % 4:
                continue  # the partner plays the pack this seat chose: known
            size = view.hand_sizes[j]
            where[("hand", j)] = s = _Slot(size, frozenset(voids[j]))
            slots.append(s)
        if view.half == 1:
            for j in range(n):
                if j == me:
                    continue
                if partnership and me is not None and j == (me + 2) % 4:
                    continue  # its pack is the one this seat received
                where[("pack", j)] = s = _Slot(pack)
                slots.append(s)
        _fill(unseen_cards(slots), slots, rng, rules)
        hand_now = [0] * n
        for (kind, j), s in where.items():
            if kind == "hand":
                hand_now[j] = C.mask_of(s.cards)
        if me is not None:
            hand_now[me] = view.hand
            if partnership and view.half == 2:
                partner = (me + 2) % 4
                hand_now[partner] = view.pack & ~played[partner][1]
        for j in range(n):
            if view.half == 1:
                if j == me:
                    packs[j] = view.pack
                elif partnership and me is not None and j == (me + 2) % 4:
                    packs[j] = view.received
                else:
                    packs[j] = C.mask_of(where[("pack", j)].cards)
                deal[j] = played[j][0] | hand_now[j] | packs[j]
            else:
                p = pack_player(j)
                packs[j] = played[p][1] | hand_now[p]
        if view.half == 2:
            for j in range(n):
                deal[j] = played[j][0] | packs[j]
    aside = C.mask_of(aside_slot.cards)

    world_cfg = cfg.with_specials(specials, rng.getrandbits(63))
    st = State.new(world_cfg, deals=[(tuple(deal), aside, view.round_leader)])
    # put the public past of the match in place, then replay this round
    st.rounds = list(view.rounds)
    st._starts = [RoundStart(view.round_index, view.round_leader, tuple(deal), aside, 0)]
    st.round_index = view.round_index
    for j in range(n):
        if packs[j] and (view.phase is not Phase.SPLIT or view.split_done[j]):
            st.apply_unchecked(A.pack_action(packs[j]), j)
    for seat, action in view.round_plays:
        st.apply_unchecked(action, seat)
    return st
