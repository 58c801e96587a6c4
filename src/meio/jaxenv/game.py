"""MEIO as pure JAX functions: ``init``, ``step``, the legal-action mask, observations.

A :class:`JaxGame` holds one table's rules (:class:`~meio.jaxenv.rules.TableRules`)
and offers functions of a :class:`~meio.jaxenv.state.GameState` that ``jax.jit``,
``jax.vmap`` and ``jax.lax.scan`` take as they are:

>>> import jax
>>> from meio.engine import MatchConfig
>>> game = JaxGame(MatchConfig(players=4))
>>> states = jax.vmap(game.init)(jax.random.split(jax.random.key(0), 8))
>>> states.phase.shape, int(game.legal_mask(jax.tree.map(lambda x: x[0], states)).sum())
((8,), 13)

Actions are the engine's ids (:mod:`meio.engine.actions`) where they are small ints:
``0..64`` play a card, ``65..80`` lead a wild declaring a suit, ``81``/``82`` a
``+.5`` winner's pile; the split, which the engine takes as one pack of 6 cards, is
here six steps of one pick each: ``83 + i`` puts the seat's ``i``-th dealt card
(lowest id first) in its pack. So :data:`NUM_ACTIONS` is 96, the compact form of
meio's own trainer. The seats split one after the other, lowest seat first, and no
seat sees another's picks.
"""

from __future__ import annotations

from typing import cast

import jax
import jax.numpy as jnp
import numpy as np

from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.config import MatchConfig
from meio.jaxenv.rules import MAX_HAND, MAX_SEATS, NO_LIMIT, TableRules
from meio.jaxenv.state import OVER, PILE, PLAY, SPLIT, GameState

PICK_BASE = A.NUM_PLAY_ACTIONS  #: 83: action ``83 + i`` picks the i-th dealt card
NUM_ACTIONS = PICK_BASE + MAX_HAND  #: 96
NUM_CARDS = C.NUM_CARDS
#: observation layout, in this order (``R`` = :data:`~meio.jaxenv.rules.MAX_SEATS` seat
#: slots, the observing seat first, then the seats after it in play order)
OBSERVATION_PARTS: tuple[tuple[str, int], ...] = (
    ("hand", NUM_CARDS),  # own cards in play (all dealt cards not yet picked, in the split)
    ("pack", NUM_CARDS),  # own pack (own picks so far, in the split)
    ("received", NUM_CARDS),  # partnership: the partner's pack, once every seat has split
    ("played", NUM_CARDS),  # the cards played this round, by anyone
    ("specials", NUM_CARDS),  # the deck's specials when the table reveals them, else 0
    ("trick", MAX_SEATS * NUM_CARDS),  # the current trick's card of each seat slot
    ("led", 4),  # the led suit
    ("phase", 4),  # split, play, pile, over
    ("half", 1),  # 0 first half, 1 second
    ("trick_number", 1),  # (trick - 1) / hand size
    ("piles", MAX_SEATS * 2),  # each slot's H and V, / hand size
    ("totals", MAX_SEATS),  # each slot's total, / (hand size x 4)
    ("wins", MAX_SEATS),  # round victories of each slot's seat (or its team)
    ("to_act", MAX_SEATS),  # the slot to act
    ("split_done", MAX_SEATS),  # the slots that have chosen their pack
    ("round", 1),  # rounds finished / 4
)
OBSERVATION_SIZE = sum(size for _, size in OBSERVATION_PARTS)


class JaxGame:
    """One table of MEIO (edition or variant, seats, partnership, options) as pure
    functions of a :class:`GameState`. ``config``'s seed, specials and first leader
    are not used unless ``draw_specials`` is False (then every match has
    ``config.specials``): each match draws its deals, specials and leaders from the
    key given to :meth:`init`."""

    def __init__(self, config: MatchConfig, *, draw_specials: bool = True) -> None:
        self.config = config
        self.rules = r = TableRules.of(config, draw_specials=draw_specials)
        self.players = r.players
        self._suit_of = jnp.asarray(r.suit_of)
        self._wild = jnp.asarray(r.wild)
        self._free = jnp.asarray(r.free)
        self._suit_masks = jnp.asarray(r.suit_masks)
        self._values = jnp.asarray(r.values)
        self._relative = jnp.asarray(r.relative)
        self._pile = jnp.asarray(r.pile)
        self._base_deck = jnp.asarray(r.base_deck)
        self._pool = jnp.asarray(r.special_pool)
        self._fixed = jnp.asarray(r.fixed_specials)
        self._slot_wild = jnp.asarray(np.array(A.SLOT_WILD, np.int32))
        slot_of = np.full(NUM_CARDS, -1, np.int32)
        for card, slot in A.WILD_SLOT.items():
            slot_of[card] = slot
        self._slot_of = jnp.asarray(slot_of)

    # -- a match -------------------------------------------------------------------------
    def init(self, key: jax.Array) -> GameState:
        """A new match drawn from ``key``: its specials, every round's deal and the
        draws that pick each round's leader (so that ``step`` draws nothing)."""
        r = self.rules
        n = r.players
        k_spec, k_lead, k_deal = jax.random.split(key, 3)
        deck = self._base_deck
        if r.draws_specials:
            chosen = jax.random.permutation(k_spec, self._pool)[: r.special_count]
            deck = deck | jnp.any(jnp.arange(NUM_CARDS)[None, :] == chosen[:, None], axis=0)
        elif r.fixed_specials.size:
            deck = deck | jnp.any(jnp.arange(NUM_CARDS)[None, :] == self._fixed[:, None], axis=0)
        rounds = self.max_rounds
        deals = jax.vmap(lambda k: self._deal(k, deck))(jax.random.split(k_deal, rounds))
        draws = jax.random.uniform(k_lead, (rounds,))
        leader = jnp.minimum(jnp.floor(draws[0] * n), n - 1).astype(jnp.int32)
        z = jnp.int32(0)
        zn = jnp.zeros(n, jnp.int32)
        return GameState(
            deals=deals,
            leader_draws=draws,
            deck=deck,
            dealt=deals[0],
            hand=self._hand_of(deals[0]),
            pack=jnp.zeros((n, NUM_CARDS), bool),
            picks=zn,
            phase=jnp.int32(SPLIT),
            current=z,
            round_index=z,
            round_leader=leader,
            half=jnp.int32(1),
            trick_number=jnp.int32(1),
            trick_leader=leader,
            led=jnp.int32(-1),
            declared=jnp.int32(-1),
            trick=jnp.full(n, -1, jnp.int32),
            trick_len=z,
            piles=jnp.zeros((n, 2), jnp.int32),
            played=jnp.zeros(NUM_CARDS, bool),
            last_winner=jnp.int32(-1),
            last_pile=z,
            round_scores=zn,
            team_scores=jnp.zeros(2, jnp.int32),
            totals=zn,
            wins=zn,
            rounds_done=z,
            terminal=jnp.bool_(False),
            winners=jnp.zeros(n, bool),
            rewards=jnp.zeros(n, jnp.float32),
            illegal=jnp.bool_(False),
        )

    @property
    def max_rounds(self) -> int:
        """The most rounds a match can last: its rounds on totals; on victories, the
        variant's round limit, or (the editions, where every round gives one of two
        sides a victory) one round less than twice the victories to win."""
        r = self.rules
        if not r.victories:
            return r.rounds
        return 2 * r.to_win - 1 if r.round_limit == NO_LIMIT else r.round_limit

    def _deal(self, key: jax.Array, deck: jax.Array) -> jax.Array:
        # a random order of the deck's cards; the first n x k go to the seats in turn,
        # the rest (classic, 2-3 seats) are set aside
        n, k = self.rules.players, self.rules.hand
        order = jnp.argsort(jnp.where(deck, jax.random.uniform(key, (NUM_CARDS,)), 2.0))
        return jnp.sort(order[: n * k].reshape(n, k).astype(jnp.int32), axis=1)

    def _hand_of(self, dealt: jax.Array) -> jax.Array:
        return jnp.any(jnp.arange(NUM_CARDS)[None, None, :] == dealt[:, :, None], axis=1)

    # -- legality ------------------------------------------------------------------------
    def legal_mask(self, state: GameState) -> jax.Array:
        """bool[96]: the actions the seat to act (``state.current``) may take."""
        r = self.rules
        seat = jnp.maximum(state.current, 0)
        picked = state.pack[seat][state.dealt[seat]]
        split = jnp.concatenate([jnp.zeros(PICK_BASE, bool), ~picked,
                                 jnp.zeros(NUM_ACTIONS - PICK_BASE - r.hand, bool)])
        hand = state.hand[seat]
        leading = state.trick_len == 0
        led = state.led
        follow = hand & self._suit_masks[jnp.maximum(led, 0)]
        must = (led >= 0) & jnp.any(follow)
        cards = jnp.where(must, follow | (hand & self._free), hand)
        declaring = leading & r.declares
        plays = cards & ~(declaring & self._wild)
        declare_cards = hand[self._slot_wild] & self._wild[self._slot_wild] & declaring
        play = jnp.concatenate([
            plays,
            jnp.repeat(declare_cards, 4),
            jnp.zeros(NUM_ACTIONS - A.DECLARE_BASE - 16, bool),
        ])
        pile = (jnp.arange(NUM_ACTIONS) == A.PILE_1) | (jnp.arange(NUM_ACTIONS) == A.PILE_2)
        phase = state.phase
        return jnp.where(phase == SPLIT, split,
                         jnp.where(phase == PLAY, play,
                                   jnp.where(phase == PILE, pile, jnp.zeros_like(split))))

    # -- a step --------------------------------------------------------------------------
    def step(self, state: GameState, action: jax.Array | int) -> GameState:
        """The match after the seat to act plays ``action``. An action that is not
        legal (or any action after the match's end) changes nothing and sets
        ``illegal``; :func:`~meio.jaxenv.checked_step` raises for it instead."""
        action = jnp.asarray(action, jnp.int32)
        legal = self.legal_mask(state)[jnp.clip(action, 0, NUM_ACTIONS - 1)]
        legal = legal & (action >= 0) & (action < NUM_ACTIONS)
        cleared = state._replace(rewards=jnp.zeros_like(state.rewards), illegal=jnp.bool_(False))
        moved, finish = jax.lax.switch(
            jnp.clip(state.phase, 0, 2),
            [self._split_step, self._play_step, self._pile_step],
            cleared, action,
        )
        moved = jax.lax.cond(finish > 0, self._finish_trick, lambda s, p: s, moved, finish)
        refused = state._replace(illegal=jnp.bool_(True), rewards=jnp.zeros_like(state.rewards))
        return cast(GameState, jax.tree.map(
            lambda new, old: jnp.where(legal, new, old), moved, refused))

    def _split_step(self, s: GameState, action: jax.Array) -> tuple[GameState, jax.Array]:
        r = self.rules
        seat = s.current
        card = s.dealt[seat, jnp.clip(action - PICK_BASE, 0, r.hand - 1)]
        at = self._at(seat, card)
        pack = s.pack | at
        hand = s.hand & ~at
        picks = s.picks + (jnp.arange(r.players) == seat)
        waiting = picks < r.pack
        done = ~jnp.any(waiting)
        nxt = jnp.where(done, s.round_leader, jnp.argmax(waiting).astype(jnp.int32))
        return s._replace(
            pack=pack, hand=hand, picks=picks, current=nxt,
            phase=jnp.where(done, PLAY, SPLIT).astype(jnp.int32),
            trick_leader=jnp.where(done, s.round_leader, s.trick_leader),
        ), jnp.int32(0)

    def _play_step(self, s: GameState, action: jax.Array) -> tuple[GameState, jax.Array]:
        r = self.rules
        n = r.players
        seat = s.current
        is_declare = action >= A.DECLARE_BASE
        card = jnp.where(is_declare,
                         self._slot_wild[jnp.clip((action - A.DECLARE_BASE) >> 2, 0, 3)],
                         jnp.clip(action, 0, NUM_CARDS - 1))
        suit = jnp.where(is_declare, (action - A.DECLARE_BASE) & 3, self._suit_of[card])
        first = s.trick_len == 0
        led = jnp.where(first | (s.led < 0), suit, s.led)
        declared = jnp.where(first, jnp.where(is_declare, suit, -1), s.declared)
        trick = jnp.where(jnp.arange(n) == s.trick_len, card, s.trick)
        length = s.trick_len + 1
        s = s._replace(
            hand=s.hand & ~self._at(seat, card),
            played=s.played | (jnp.arange(NUM_CARDS) == card),
            trick=trick, trick_len=length, led=led, declared=declared,
            trick_leader=jnp.where(first, seat, s.trick_leader),
            current=(seat + 1) % n,
        )
        complete = length == n
        index = self._winning_index(trick, led, s.half)
        winner = (s.trick_leader + index) % n
        effect = self._pile[trick[index]]
        pile = jnp.where(effect == 2, 3 - s.half, jnp.where(effect == 1, 0, s.half))
        choosing = complete & (pile == 0)
        s = s._replace(
            last_winner=jnp.where(complete, winner, s.last_winner),
            last_pile=jnp.where(complete, pile, s.last_pile),
            phase=jnp.where(choosing, PILE, s.phase).astype(jnp.int32),
            current=jnp.where(complete, winner, s.current),
        )
        return s, jnp.where(complete, pile, 0).astype(jnp.int32)

    def _pile_step(self, s: GameState, action: jax.Array) -> tuple[GameState, jax.Array]:
        pile = jnp.where(action == A.PILE_1, 1, 2).astype(jnp.int32)
        return s._replace(last_pile=pile, phase=jnp.int32(PLAY)), pile

    def _winning_index(self, trick: jax.Array, led: jax.Array, half: jax.Array) -> jax.Array:
        # RULES.md §4 as meio.engine.tricks.table_winning_index states it: a trump beats
        # the led suit, a higher value the same kind, the first played wins a tie
        values = self._values[half - 1]
        relative = self._relative[half - 1]
        trump = self.rules.trump
        best: jax.Array = jnp.int32(-1)
        best_v = jnp.int32(0)
        best_trump = jnp.bool_(False)
        prev = jnp.int32(0)
        for i in range(self.rules.players):
            card = trick[i]
            v = jnp.where(relative[card], prev + 1, values[card])
            prev = v
            suit = self._suit_of[card]
            suit = jnp.where(suit < 0, led, suit)
            is_trump = (suit == trump) & (suit >= 0)
            counts = (suit == led) | is_trump
            better = (best < 0) | (is_trump & ~best_trump) | (
                (is_trump == best_trump) & (v > best_v))
            take = counts & better
            best = jnp.where(take, i, best)
            best_v = jnp.where(take, v, best_v)
            best_trump = jnp.where(take, is_trump, best_trump)
        return best

    def _finish_trick(self, s: GameState, pile: jax.Array) -> GameState:
        r = self.rules
        winner = s.last_winner
        number = s.trick_number + 1
        second = number == r.first_half + 1
        packs = jnp.roll(s.pack, 2, axis=0) if r.partnership else s.pack
        s = s._replace(
            piles=s.piles + ((jnp.arange(r.players) == winner)[:, None]
                             & (jnp.arange(2) == pile - 1)[None, :]),
            last_pile=pile,
            trick=jnp.full_like(s.trick, -1), trick_len=jnp.int32(0),
            led=jnp.int32(-1), declared=jnp.int32(-1),
            trick_number=number, current=winner, trick_leader=winner,
            half=jnp.where(second, 2, s.half).astype(jnp.int32),
            hand=jnp.where(second, packs, s.hand),
        )
        return cast(GameState, jax.lax.cond(number == r.hand + 1, self._end_round,
                                            lambda x: x, s))

    def _at(self, seat: jax.Array, card: jax.Array) -> jax.Array:
        # bool[n, 65]: only (seat, card) set; a mask is cheaper than a scatter under vmap
        return (jnp.arange(self.rules.players) == seat)[:, None] & (
            jnp.arange(NUM_CARDS) == card)[None, :]

    def _balance(self, first: jax.Array, second: jax.Array) -> jax.Array:
        diff = jnp.abs(first - second)
        form = self.rules.scoring  # difference, balance_bonus, squared
        if form == 2:
            return diff * diff
        if form == 1:
            return jnp.where(diff == 0, -self.rules.bonus, diff)
        return diff

    def _end_round(self, s: GameState) -> GameState:
        r = self.rules
        n = r.players
        scores = self._balance(s.piles[:, 0], s.piles[:, 1])
        team_scores = jnp.zeros(2, jnp.int32)
        if r.partnership:
            team_piles = s.piles[0::2].sum(0), s.piles[1::2].sum(0)
            team_scores = jnp.stack([self._balance(p[0], p[1]) for p in team_piles])
            ranked = jnp.concatenate([team_scores, jnp.full(n - 2, 1 << 30, jnp.int32)])
            rewards = -team_scores[jnp.arange(n) % 2]
        else:
            ranked = scores
            rewards = -scores
        low = ranked.min()
        unique = (ranked == low).sum() == 1
        wins = s.wins
        if r.victories:
            wins = wins + ((jnp.arange(n) == jnp.argmin(ranked)) & unique)
        totals = s.totals + scores
        done = s.rounds_done + 1
        if r.victories:
            over = (wins.max() >= r.to_win) | (done >= r.round_limit)
            sides = 2 if r.partnership else n
            best = wins[:sides] == wins[:sides].max()
            winners = best[jnp.arange(n) % 2] if r.partnership else best
        else:
            over = done >= r.rounds
            winners = totals == totals.min()
        if r.leader == 1:  # last_trick
            eligible = jnp.arange(n) == s.last_winner
        elif r.leader == 2:  # rotate
            eligible = jnp.arange(n) == (s.round_leader + 1) % n
        elif r.partnership:
            team = jnp.where(team_scores[0] > team_scores[1], 0, 1)
            eligible = jnp.arange(n) % 2 == team
        else:
            eligible = scores == scores.max()
        # the round's draw picks one of the allowed seats, each as likely
        following = jnp.minimum(s.round_index + 1, self.max_rounds - 1)
        pick = jnp.floor(s.leader_draws[following] * eligible.sum()).astype(jnp.int32)
        leader = jnp.argmax(eligible & (jnp.cumsum(eligible) - 1 == pick)).astype(jnp.int32)
        dealt = s.deals[following]
        ended = s._replace(
            round_scores=scores, team_scores=team_scores, totals=totals, wins=wins,
            rounds_done=done, rewards=rewards.astype(jnp.float32),
        )
        finished = ended._replace(
            phase=jnp.int32(OVER), current=jnp.int32(-1), terminal=jnp.bool_(True),
            winners=winners, hand=jnp.zeros_like(s.hand),
        )
        fresh = ended._replace(
            dealt=dealt, hand=self._hand_of(dealt), pack=jnp.zeros_like(s.pack),
            picks=jnp.zeros_like(s.picks), phase=jnp.int32(SPLIT), current=jnp.int32(0),
            round_index=s.round_index + 1, round_leader=leader, half=jnp.int32(1),
            trick_number=jnp.int32(1), trick_leader=leader,
            piles=jnp.zeros_like(s.piles), played=jnp.zeros_like(s.played),
        )
        return cast(GameState, jax.tree.map(lambda a, b: jnp.where(over, a, b), finished, fresh))

    # -- what a seat sees ----------------------------------------------------------------
    def observe(self, state: GameState, seat: jax.Array | int) -> jax.Array:
        """float32[:data:`OBSERVATION_SIZE`]: what ``seat`` may know (RULES.md §8), in
        the layout :data:`OBSERVATION_PARTS`: its own cards and pack (its partner's pack
        once every seat has split), and public facts only. Other seats' hands and
        packs, the set-aside cards and the deals of later rounds never enter it."""
        r = self.rules
        n = r.players
        seat = jnp.asarray(seat, jnp.int32)
        slots = (seat + jnp.arange(n)) % n  # slot j: the seat j places after ``seat``
        split_done = state.picks >= r.pack
        all_split = jnp.all(split_done) & (state.phase != SPLIT)
        received = jnp.zeros(NUM_CARDS, bool)
        if r.partnership:
            received = jnp.where(all_split, state.pack[(seat + 2) % 4], received)
        specials = state.deck & (jnp.arange(NUM_CARDS) >= 60)
        if not r.reveal_specials:
            specials = jnp.zeros_like(specials)
        # the trick's card of each slot: trick[i] was played by trick_leader + i
        position = (slots - state.trick_leader) % n
        card = state.trick[position]
        shown = (position < state.trick_len) & (card >= 0)
        trick = (jnp.arange(NUM_CARDS)[None, :] == card[:, None]) & shown[:, None]
        wins = state.wins[slots % 2] if r.partnership else state.wins[slots]
        pad = MAX_SEATS - n

        def seats(x: jax.Array) -> jax.Array:
            return jnp.concatenate([x.astype(jnp.float32), jnp.zeros(pad, jnp.float32)])

        k = float(r.hand)
        parts = [
            state.hand[seat], state.pack[seat], received, state.played, specials,
            jnp.concatenate([trick, jnp.zeros((pad, NUM_CARDS), bool)]).reshape(-1),
            (jnp.arange(4) == state.led),
            (jnp.arange(4) == state.phase),
            (state.half == 2)[None],
            ((state.trick_number - 1) / k)[None],
            jnp.concatenate([state.piles[slots] / k, jnp.zeros((pad, 2))]).reshape(-1),
            seats(state.totals[slots] / (4 * k)),
            seats(wins),
            seats(slots == state.current),
            seats(split_done[slots]),
            (state.rounds_done / 4.0)[None],
        ]
        return jnp.concatenate([jnp.asarray(p, jnp.float32).reshape(-1) for p in parts])
