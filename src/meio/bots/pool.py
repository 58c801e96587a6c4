"""Many worlds at once: the unseen cards of a view dealt in bulk, as arrays.

Inference weighs a pool of a few hundred worlds and keeps the likeliest; building
each one as an engine :class:`~meio.engine.State` (deal, replay of the round) would
cost more than weighing and playing them. A :class:`WorldPool` deals the unseen
cards of every world of the pool at once with numpy and hands them over in the
two forms that are needed: card sets for the compiled likelihoods
(:mod:`meio.bots.likelihood`) and positions of the compiled core for playouts
(:func:`meio.sim.rollout.evaluate_positions`).

It follows :func:`~meio.engine.sample_world` exactly in what a world is: one
world ``W0`` is drawn by ``sample_world`` itself, and its hidden *slots* (each other
seat's hand for the half in play, each unknown pack during the first half, the
set-aside cards) are the places the unseen cards go; every other world puts the
same cards in the same slots in another order. A slot may not hold a suit its seat
has shown void in: the rows that break a void are dealt again (rejection, so the
worlds are uniform over the deals that fit, as ``sample_world``'s). When voids make
that too unlikely (a seat void in two suits), every world is dealt slot by slot
instead, each void slot choosing among the cards it may hold, and
:attr:`WorldPool.log_weight` says how much each world must weigh to stand for a
uniform deal (importance sampling; the inference that weighs the pool adds it).

It deals the worlds of any ruleset, as ``sample_world`` does: the sizes of the
hands and packs are the ruleset's, and a card the ruleset lets be played on any
trick (a wild, a suited card that need not follow) shows no void and may sit in any
slot; every other card belongs to its ruleset suit. Only tables whose specials are
known use it (with hidden specials the unseen cards themselves differ from world to
world).
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from meio.engine import Phase, View, sample_world
from meio.engine import cards as C

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
I32 = npt.NDArray[np.int32]
_LOW64 = (1 << 64) - 1
#: plain shuffles tried per world before dealing by voids; redraws of a stuck row
_REJECTIONS = 24
_TRIES = 24


def _words(mask: int) -> tuple[int, int]:
    return mask & _LOW64, mask >> 64


def _log_comb(n: I64, k: int) -> F64:
    """``log C(n, k)`` elementwise (``n >= k``)."""
    from math import lgamma

    table = np.array([lgamma(i + 1) for i in range(66)])
    safe = np.maximum(n, k)
    result: F64 = table[safe] - table[k] - table[safe - k]
    return result


class WorldPool:
    """The unseen cards of ``view``, dealt ``count`` times (see the module docstring).

    After construction ``deal``, ``packs`` (``[world, seat, word]``) and ``deck``
    (``[world, word]``) hold every world's card sets as two ``uint64`` words (cards
    0..63, card 64); :meth:`positions` gives chosen worlds as core positions.
    """

    def __init__(self, view: View, count: int, rng: random.Random) -> None:
        if view.phase is Phase.SPLIT or view.seat is None:
            raise ValueError("a world pool is for a seat's card or pile decision")
        if not view.config.specials_known:
            raise ValueError("a world pool needs a table whose specials are known")
        self.view = view
        cfg = view.config
        n = cfg.players
        me = view.seat
        partner = (me + 2) % 4 if cfg.partnership else -1
        self.template = sample_world(view, rng)
        w0 = self.template
        # the slots, as sample_world makes them
        voids = view.voids()
        #: (holding, seat) of each slot: "hand" (in play now), "pack" (first half), "aside"
        self._places: list[tuple[str, int]] = []
        slots: list[tuple[int, frozenset[int]]] = []
        for j in range(n):
            if j == me or (view.half == 2 and j == partner):
                continue
            self._places.append(("hand", j))
            slots.append((w0.hands[j], frozenset(voids[j])))
        if view.half == 1:
            for j in range(n):
                if j != me and j != partner:
                    self._places.append(("pack", j))
                    slots.append((w0.packs[j], frozenset()))
        self._places.append(("aside", -1))
        slots.append((w0.aside, frozenset()))
        hidden = 0
        for mask, _ in slots:
            hidden |= mask
        self.hidden = hidden
        cards = np.array(C.cards_of(hidden), dtype=np.int64)
        sizes = [mask.bit_count() for mask, _ in slots]
        bounds = np.cumsum([0, *sizes])
        # which slots make up each seat's deal, pack and hand
        def members(mask: int) -> list[int]:
            out = []
            for k, (slot, _) in enumerate(slots):
                if slot and slot & mask == slot:
                    out.append(k)
                elif slot & mask:  # pragma: no cover - slots are whole or absent
                    raise AssertionError("a slot is split between holdings")
            return out

        sets = {"deal": w0.deal, "pack": w0.packs, "hand": w0.hands}
        self._members = {(kind, j): members(masks[j]) for kind, masks in sets.items()
                         for j in range(n)}
        self._fixed = {(kind, j): masks[j] & ~hidden for kind, masks in sets.items()
                       for j in range(n)}
        #: log weight of each world against a uniform deal (0 for all when uniform)
        self.log_weight: F64 = np.zeros(count)
        gen = np.random.Generator(np.random.PCG64(rng.getrandbits(64)))
        order = self._deal(cards, slots, bounds, count, gen, rng)
        # each slot's cards as two words, for every world
        low = np.where(order < 64, np.left_shift(np.uint64(1), np.minimum(order, 63)
                                                  .astype(np.uint64)), np.uint64(0))
        high = (order == 64).astype(np.uint64)
        k_slots = len(slots)
        slot_words = np.zeros((count, k_slots, 2), dtype=np.uint64)
        for k in range(k_slots):
            a, b = int(bounds[k]), int(bounds[k + 1])
            if b > a:
                slot_words[:, k, 0] = np.bitwise_or.reduce(low[:, a:b], axis=1)
                slot_words[:, k, 1] = np.bitwise_or.reduce(high[:, a:b], axis=1)
        self._slot_words = slot_words
        self.deal = self._sets("deal", count)
        self.packs = self._sets("pack", count)
        self.hands = self._sets("hand", count)
        self.deck = np.tile(np.array(_words(cfg.deck), dtype=np.uint64), (count, 1))

    def _deal(self, cards: I64, slots: list[tuple[int, frozenset[int]]], bounds: I64,
              count: int, gen: np.random.Generator, rng: random.Random) -> I64:
        """``[count, cards]``: the unseen cards in slot order, every void respected.

        First plain shuffles, the rows that break a void dealt again (rejection:
        uniform). When voids make that too unlikely, every row is dealt by
        :meth:`_by_voids` instead, and ``log_weight`` corrects for it."""
        # the suit a void rules out; -1 for a card that may sit in any slot
        rules = self.view.config.rules
        suit = np.array([-1 if rules.free >> int(c) & 1 else rules.suit_of[int(c)]
                         for c in cards], dtype=np.int64)
        order = np.empty((count, len(cards)), dtype=np.int64)
        todo = np.arange(count)
        for _ in range(_REJECTIONS):
            perm = np.argsort(gen.random((len(todo), len(cards))), axis=1)
            bad = np.zeros(len(todo), dtype=bool)
            for k, (_, voids) in enumerate(slots):
                a, b = int(bounds[k]), int(bounds[k + 1])
                for s in voids:
                    bad |= (suit[perm[:, a:b]] == s).any(axis=1)
            good = todo[~bad]
            order[good] = cards[perm[~bad]]
            todo = todo[bad]
            if not len(todo):
                return order
        if not len(todo):
            return order
        order, self.log_weight = self._by_voids(cards, suit, slots, bounds, count, gen)
        stuck = np.flatnonzero(self.log_weight == -np.inf)
        if len(stuck) == count:  # no sequence of draws met the voids: sample_world does
            self.log_weight[:] = 0.0
            stuck = np.arange(count)
        for row in stuck:  # as sample_world places them, card by card
            world = sample_world(self.view, rng)
            holdings = {"hand": world.hands, "pack": world.packs}
            order[row] = [c for kind, j in self._places
                          for c in C.cards_of(world.aside if j < 0 else holdings[kind][j])]
        return order

    @staticmethod
    def _by_voids(cards: I64, suit: I64, slots: list[tuple[int, frozenset[int]]],
                  bounds: I64, count: int, gen: np.random.Generator) -> tuple[I64, F64]:
        """Every row dealt slot by slot, the slots with voids first (most voids first),
        each taking a uniform choice of the cards it may hold among those left, the
        other slots sharing the rest at random. Such a deal is not uniform: its chance
        is ``1 / prod C(allowed_k, size_k)`` over the void slots, so its log weight
        (uniform over the deals that fit, up to a constant) is ``sum log C(allowed_k,
        size_k)``. A row that leaves a void slot too few cards is dealt again (up to
        ``_TRIES`` times), then given weight 0 (``-inf``)."""
        n_cards = len(cards)
        order = np.empty((count, n_cards), dtype=np.int64)
        log_weight = np.full(count, -np.inf)
        constrained = sorted((k for k, (_, v) in enumerate(slots) if v),
                             key=lambda k: -len(slots[k][1]))
        free = [k for k in range(len(slots)) if k not in constrained]
        todo = np.arange(count)
        for _ in range(_TRIES):
            rows = len(todo)
            used = np.zeros((rows, n_cards), dtype=bool)
            placed = np.empty((rows, n_cards), dtype=np.int64)
            lw = np.zeros(rows)
            ok = np.ones(rows, dtype=bool)
            for k in constrained:
                a, b = int(bounds[k]), int(bounds[k + 1])
                allowed = ~used & ~np.isin(suit, list(slots[k][1]))[None, :]
                avail = allowed.sum(axis=1)
                ok &= avail >= b - a
                keys = np.where(allowed, gen.random((rows, n_cards)), 2.0)
                pick = np.argsort(keys, axis=1)[:, : b - a]
                placed[:, a:b] = pick
                np.put_along_axis(used, pick, True, axis=1)
                lw += _log_comb(avail, b - a)
            # the other slots share what is left, in a random order
            keys = np.where(used, 2.0, gen.random((rows, n_cards)))
            rest = np.argsort(keys, axis=1)
            at = 0
            for k in free:
                a, b = int(bounds[k]), int(bounds[k + 1])
                placed[:, a:b] = rest[:, at : at + b - a]
                at += b - a
            done = todo[ok]
            order[done] = cards[placed[ok]]
            log_weight[done] = lw[ok]
            todo = todo[~ok]
            if not len(todo):
                break
        return order, log_weight

    def _sets(self, kind: str, count: int) -> U64:
        n = self.view.config.players
        out = np.zeros((count, n, 2), dtype=np.uint64)
        for j in range(n):
            out[:, j] = np.array(_words(self._fixed[(kind, j)]), dtype=np.uint64)
            for k in self._members[(kind, j)]:
                out[:, j] |= self._slot_words[:, k]
        return out

    def mask(self, kind: str, world: int, seat: int) -> int:
        """One seat's ``deal``, ``pack`` or ``hand`` in one world, as a card mask."""
        words = {"deal": self.deal, "pack": self.packs, "hand": self.hands}[kind]
        return int(words[world, seat, 0]) | int(words[world, seat, 1]) << 64

    def positions(self, chosen: npt.ArrayLike) -> I32:
        """Core positions (:mod:`meio.sim.convert`) of the worlds ``chosen``, each
        the array ``state_to_arrays`` makes of that world as an engine state."""
        from meio.sim import core as K
        from meio.sim.convert import state_to_arrays

        base = state_to_arrays(self.template).array
        rows = np.asarray(chosen, dtype=np.int64)
        out = np.tile(base, (len(rows), 1))
        n = self.view.config.players
        dealt = self.view.config.rules.hand
        shifts = np.arange(64, dtype=np.uint64)

        def cards(words: U64, size: int) -> I64:
            """Each row's ``size`` cards, lowest first (as ``cards_of``)."""
            held = np.empty((len(words), 65), dtype=bool)
            held[:, :64] = (words[:, 0:1] >> shifts) & np.uint64(1) != 0
            held[:, 64] = words[:, 1] != 0
            result: I64 = np.argsort(~held, axis=1, kind="stable")[:, :size]
            return result

        for j in range(n):
            if not any(self._members[(kind, j)] for kind in ("deal", "pack", "hand")):
                continue  # nothing of this seat is hidden: as in the template
            deal = K.DEAL + K.HAND_MAX * j
            out[:, deal : deal + dealt] = cards(self.deal[rows, j], dealt)
            size = int(base[K.HAND_N + j])
            hand = K.HAND + K.HAND_MAX * j
            out[:, hand : hand + size] = cards(self.hands[rows, j], size)
            packed = int(base[K.PACK_N + j])
            if packed:
                pack = K.PACK + K.PACK_MAX * j
                out[:, pack : pack + packed] = cards(self.packs[rows, j], packed)
        return out
