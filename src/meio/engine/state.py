"""The mutable state of a match: deal, split, tricks, piles, scores, rounds.

>>> from meio.engine import MatchConfig, State
>>> st = State.new(MatchConfig(players=4, seed=3))
>>> st.phase.name, len(st.legal_actions(0))
('SPLIT', 1716)
>>> import random
>>> rng = random.Random(0)
>>> while not st.is_over:
...     _ = st.apply(rng.choice(st.legal_actions()))
>>> len(st.rounds), st.is_over
(3, True)
"""

from __future__ import annotations

import itertools
import math
import random
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, NamedTuple, overload

from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.config import MatchConfig
from meio.engine.errors import ConfigError, IllegalActionError, MeioError
from meio.engine.reasons import Reason, illegal, reason
from meio.engine.tricks import Trick, pile_for, played_mask, value_table, winning_index

if TYPE_CHECKING:
    from meio.engine.view import View


class Phase(IntEnum):
    """Where a round stands."""

    SPLIT = 0  #: every seat chooses its 6-card second-half pack, secretly
    PLAY = 1  #: a card is to be played
    PILE = 2  #: the winner of a trick taken by ``+.5`` chooses its pile
    OVER = 3  #: the match has ended


_SPLIT, _PLAY, _PILE, _OVER = Phase.SPLIT, Phase.PLAY, Phase.PILE, Phase.OVER
_WILD = C.WILD_MASK
_SUIT_MASKS = C.SUIT_MASKS
_SUIT_OF = tuple(C.card_suit(c) for c in range(65))
_DECLARES: tuple[tuple[int, ...], ...] = tuple(
    tuple(A.declare(c, s) for s in range(4)) if c in A.WILD_SLOT else () for c in range(65)
)
_PILE_ACTIONS = (A.PILE_1, A.PILE_2)


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The public outcome of a completed round."""

    scores: tuple[int, ...]
    piles: tuple[tuple[int, int], ...]
    team_scores: tuple[int, int] | None
    victory: int | None  #: 2 players: the winning seat; partnership: the winning team
    tricks: tuple[Trick, ...] = ()
    leader: int = 0


class Outcome(NamedTuple):
    """What one applied action did, as :meth:`State.apply` reports it.

    ``trick`` is the trick the action completed (its ``pile`` is 0 while a ``+.5``
    winner has still to choose), or the trick whose pile a ``pile=`` action chose;
    ``round_over`` the result of the round it ended; ``match_over`` whether the
    match ended with it.
    """

    seat: int
    action: int
    trick: Trick | None = None
    round_over: RoundResult | None = None
    match_over: bool = False

    @property
    def pile_pending(self) -> bool:
        """Whether the winner of the completed trick must now choose its pile."""
        return self.trick is not None and self.trick.pile == 0


class RoundStart(NamedTuple):
    """What a round began with; kept so that :meth:`State.undo` can rebuild it."""

    round_index: int
    leader: int
    deal: tuple[int, ...]
    aside: int
    history_len: int


class PackChoices(Sequence[int]):
    """The 1,716 legal split actions of a 13-card hand, built on demand.

    Supports ``len``, indexing (so ``random.choice`` works), iteration and ``in``.
    """

    __slots__ = ("_cards", "_hand")

    def __init__(self, hand: int) -> None:
        self._hand = hand
        self._cards = C.cards_of(hand)

    def __len__(self) -> int:
        return math.comb(len(self._cards), 6)

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...
    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(index)
        # unrank the index-th 6-combination in lexicographic order
        mask, k, start = 0, 6, 0
        cards = self._cards
        while k:
            for i in range(start, len(cards)):
                block = math.comb(len(cards) - i - 1, k - 1)
                if index < block:
                    mask |= 1 << cards[i]
                    start = i + 1
                    k -= 1
                    break
                index -= block
        return A.PACK_FLAG | mask

    def __iter__(self) -> Iterator[int]:
        for combo in itertools.combinations(self._cards, 6):
            yield A.PACK_FLAG | C.mask_of(combo)

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, int) or action < A.PACK_FLAG:
            return False
        pack = A.pack_of(action)
        return pack & ~self._hand == 0 and pack.bit_count() == 6

    def __repr__(self) -> str:
        return f"PackChoices({C.format_cards(self._hand)})"


def eligible_leaders(config: MatchConfig, result: RoundResult) -> tuple[int, ...]:
    """Seats allowed to lead the round after ``result`` (RULES.md §6–7)."""
    if config.partnership:
        if result.team_scores is None:
            raise MeioError("a partnership round result has no team scores")
        team = 0 if result.team_scores[0] > result.team_scores[1] else 1
        return (team, team + 2)
    top = max(result.scores)
    return tuple(s for s, v in enumerate(result.scores) if v == top)


class State:
    """A match in progress. Build one with :meth:`State.new`.

    ``apply`` checks every rule and raises :class:`IllegalActionError` leaving the
    state untouched; ``apply_unchecked`` trusts the caller (search). The fields in
    *Hidden* below must never reach a player: hand them :meth:`view` instead.
    """

    __slots__ = (
        "_deals",
        "_starts",
        "_values",
        "aside",
        "config",
        "current_trick",
        "deal",
        "half",
        "hands",
        "history",
        "led_suit",
        "packs",
        "pending_pile",
        "phase",
        "piles",
        "round_index",
        "round_leader",
        "rounds",
        "to_move",
        "trick_leader",
        "trick_number",
        "tricks",
        "winners",
    )

    config: MatchConfig
    phase: Phase
    round_index: int
    round_leader: int
    #: Hidden: the 13 cards dealt to each seat this round
    deal: list[int]
    #: Hidden: the set-aside cards (classic, 2–3 players)
    aside: int
    #: Hidden: the pack each seat chose (0 before its split)
    packs: list[int]
    #: Hidden: the cards each seat holds for the half in play (13 before its split)
    hands: list[int]
    half: int
    trick_number: int
    trick_leader: int
    current_trick: list[tuple[int, int]]
    led_suit: int
    #: the one seat to act next (the ``+.5`` winner while it chooses a pile); -1 when
    #: no single seat is: during the split (every seat still to split acts, see
    #: :meth:`seats_to_act`) and once the match is over
    to_move: int
    pending_pile: int
    tricks: list[Trick]
    piles: list[list[int]]
    rounds: list[RoundResult]
    winners: list[int]
    history: list[tuple[int, int]]
    _starts: list[RoundStart]
    _deals: list[tuple[tuple[int, ...], int, int]] | None
    _values: tuple[tuple[int, ...], tuple[int, ...]]

    # -- construction ------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        config: MatchConfig,
        deals: Sequence[tuple[Sequence[int], int, int]] | None = None,
    ) -> State:
        """A new match, round 1 dealt.

        ``deals`` optionally fixes the deals, one ``(hands, aside, leader)`` per round
        (records use this); rounds beyond it are dealt from ``config.seed``.
        """
        if not config.specials_known:
            raise ConfigError(
                "the specials of this match are hidden: a public config cannot be dealt"
            )
        st = cls.__new__(cls)
        st.config = config
        st._values = (
            value_table(config.edition, 1),
            value_table(config.edition, 2),
        )
        st._deals = [(tuple(h), a, ld) for h, a, ld in deals] if deals is not None else None
        st.rounds = []
        st.winners = []
        st.history = []
        st._starts = []
        st._start_round(0)
        return st

    def _deal_for(self, round_index: int) -> tuple[tuple[int, ...], int, int]:
        cfg = self.config
        if self._deals is not None and round_index < len(self._deals):
            return self._deals[round_index]
        cards = C.cards_of(cfg.deck)
        random.Random(cfg.round_seed(round_index, 0)).shuffle(cards)
        hands = tuple(C.mask_of(cards[13 * i : 13 * i + 13]) for i in range(cfg.players))
        aside = C.mask_of(cards[13 * cfg.players :])
        if round_index == 0:
            leader = cfg.leader_of_round_one
        else:
            options = eligible_leaders(cfg, self.rounds[round_index - 1])
            rng = random.Random(cfg.round_seed(round_index, 1))
            leader = options[0] if len(options) == 1 else rng.choice(options)
        return hands, aside, leader

    def _start_round(self, round_index: int) -> None:
        hands, aside, leader = self._deal_for(round_index)
        self._starts.append(RoundStart(round_index, leader, hands, aside, len(self.history)))
        self._reset_round(self._starts[-1])

    def _reset_round(self, start: RoundStart) -> None:
        n = self.config.players
        self.round_index = start.round_index
        self.round_leader = start.leader
        self.deal = list(start.deal)
        self.aside = start.aside
        self.packs = [0] * n
        self.hands = list(start.deal)
        self.phase = _SPLIT
        self.half = 1
        self.trick_number = 1
        self.trick_leader = start.leader
        self.current_trick = []
        self.led_suit = -1
        self.to_move = -1  # the split: every seat acts (seats_to_act)
        self.pending_pile = -1
        self.tricks = []
        self.piles = [[0, 0] for _ in range(n)]

    def redeal(self, hands: Sequence[int], aside: int, leader: int) -> None:
        """Replace the deal of the round just begun, before anyone acts in it.

        For a caller that draws each deal itself (the OpenSpiel game draws every
        card as a chance event): a later round is dealt from the seed as the last
        one ends, and this puts the drawn deal in its place without replaying the
        match. ``hands`` are the seats' 13-card masks, ``aside`` the rest of the
        deck, ``leader`` the seat that leads the round.
        """
        start = self._starts[-1]
        if self.phase is _OVER or len(self.history) != start.history_len:
            raise IllegalActionError(
                None, None, "a deal can be replaced only before the first action of its round"
            )
        cfg = self.config
        dealt = 0
        for hand in hands:
            if hand.bit_count() != 13 or hand & dealt:
                raise ConfigError("each seat is dealt 13 cards, no card twice")
            dealt |= hand
        if len(hands) != cfg.players or dealt | aside != cfg.deck or dealt & aside:
            raise ConfigError("the hands and the cards set aside make the deck, once each")
        if not 0 <= leader < cfg.players:
            raise ConfigError(f"there is no seat {leader} to lead")
        self._starts[-1] = RoundStart(start.round_index, leader, tuple(hands), aside,
                                      start.history_len)
        self._reset_round(self._starts[-1])

    # -- copying and undo --------------------------------------------------------------
    def clone(self) -> State:
        """An independent copy (cheap: a few list copies)."""
        st = State.__new__(State)
        st.config = self.config
        st._values = self._values
        st._deals = self._deals
        st._starts = self._starts.copy()
        st.rounds = self.rounds.copy()
        st.winners = self.winners.copy()
        st.history = self.history.copy()
        st.round_index = self.round_index
        st.round_leader = self.round_leader
        st.deal = self.deal.copy()
        st.aside = self.aside
        st.packs = self.packs.copy()
        st.hands = self.hands.copy()
        st.phase = self.phase
        st.half = self.half
        st.trick_number = self.trick_number
        st.trick_leader = self.trick_leader
        st.current_trick = self.current_trick.copy()
        st.led_suit = self.led_suit
        st.to_move = self.to_move
        st.pending_pile = self.pending_pile
        st.tricks = self.tricks.copy()
        st.piles = [p.copy() for p in self.piles]
        return st

    def undo(self) -> tuple[int, int]:
        """Take back the last action; returns its ``(seat, action)``.

        Rebuilds the round from its start, so it costs one replay of that round.
        """
        if not self.history:
            raise illegal(None, None, reason("nothing_to_undo"))
        last = self.history.pop()
        while self._starts[-1].history_len > len(self.history):
            self._starts.pop()
        start = self._starts[-1]
        del self.rounds[start.round_index :]
        self.winners = []
        self._reset_round(start)
        replay = self.history[start.history_len :]
        del self.history[start.history_len :]
        for seat, action in replay:
            self.apply_unchecked(action, seat)
        return last

    # -- whose turn ----------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    def seats_to_act(self) -> tuple[int, ...]:
        """Every seat that may act now (several only during the split)."""
        if self.phase is _SPLIT:
            return tuple(s for s, p in enumerate(self.packs) if not p)
        if self.phase is _PLAY:
            return (self.to_move,)
        if self.phase is _PILE:
            return (self.pending_pile,)
        return ()

    def current_seat(self) -> int:
        """The seat that acts next: :attr:`to_move`, except during the split, where it
        is the lowest seat still to split (for callers that drive the seats in turn)."""
        if self.phase is _SPLIT:
            for s, p in enumerate(self.packs):
                if not p:
                    return s
        if self.phase is _PILE:
            return self.pending_pile
        if self.phase is _OVER:
            return -1
        return self.to_move

    # -- legal actions -------------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> Sequence[int]:
        """The legal actions of ``seat`` (default: the seat to act); empty if none."""
        phase = self.phase
        if phase is _PLAY:
            if seat is not None and seat != self.to_move:
                return []
            return legal_plays(
                self.hands[self.to_move],
                self.led_suit,
                self.config.wild_lead == "declare",
                bool(self.current_trick),
            )
        if phase is _SPLIT:
            if seat is None:
                seat = self.current_seat()
            if self.packs[seat]:
                return []
            return PackChoices(self.hands[seat])
        if phase is _PILE:
            if seat is not None and seat != self.pending_pile:
                return []
            return _PILE_ACTIONS
        return []

    def is_legal(self, action: int, seat: int | None = None) -> bool:
        return self._illegal_reason(action, seat) is None

    def _illegal_reason(self, action: int, seat: int | None) -> Reason | None:
        """Why ``action`` by ``seat`` is not allowed, or None when it is."""
        phase = self.phase
        if not isinstance(action, int) or action < 0:
            return reason("not_an_action", action=repr(action))
        if phase is _OVER:
            return reason("match_over")
        if action >= A.PACK_FLAG:
            if phase is not _SPLIT:
                return reason("split_over")
            if seat is None:
                seat = self.current_seat()
            if not 0 <= seat < self.config.players:
                return reason("no_seat", seat=seat)
            if self.packs[seat]:
                return reason("pack_chosen", seat=seat)
            pack = A.pack_of(action)
            if pack & ~self.hands[seat]:
                stray = C.codes(pack & ~self.hands[seat])
                return reason("pack_not_in_hand", cards=stray, seat=seat)
            if pack.bit_count() != 6:
                return reason("pack_size", n=pack.bit_count())
            return None
        if phase is _SPLIT:
            return reason("waiting_for_packs", seats=list(self.seats_to_act()))
        if action in _PILE_ACTIONS:
            if phase is not _PILE:
                return reason("pile_not_now")
            if seat is not None and seat != self.pending_pile:
                return reason("pile_other_seat", seat=self.pending_pile)
            return None
        if phase is _PILE:
            return reason("pile_first", seat=self.pending_pile)
        if action >= A.NUM_PLAY_ACTIONS:
            return reason("not_an_action", action=repr(action))
        mover = self.to_move
        if seat is not None and seat != mover:
            return reason("not_your_turn", mover=mover, seat=seat)
        card = A.card_of(action)
        hand = self.hands[mover]
        if not hand >> card & 1:
            if self.half == 1 and self.packs[mover] >> card & 1:
                return reason("in_pack", card=C.card_code(card), seat=mover)
            return reason("not_in_hand", card=C.card_code(card), seat=mover)
        leading = not self.current_trick
        declares = self.config.wild_lead == "declare"
        if action >= A.DECLARE_BASE:
            if not declares:
                return reason("no_declare_table", card=C.card_code(card))
            if not leading:
                return reason("declare_only_leading", card=C.card_code(card))
            return None
        if _WILD >> card & 1:
            if leading and declares:
                return reason("wild_needs_suit", card=C.card_code(card))
            return None
        led = self.led_suit
        if not leading and led >= 0 and _SUIT_OF[card] != led and hand & _SUIT_MASKS[led]:
            return reason("must_follow", card=C.card_code(card), suit=C.SUITS[led])
        return None

    # -- acting --------------------------------------------------------------------------
    def apply(self, action: int, seat: int | None = None) -> Outcome:
        """Play ``action`` for ``seat`` (default: the seat to act), checking every rule,
        and report what it did (:class:`Outcome`).

        Raises :class:`IllegalActionError` and changes nothing if it is not allowed.
        """
        why = self._illegal_reason(action, seat)
        actor = self.current_seat() if seat is None else seat
        if why is not None:
            raise illegal(actor, action, why)
        choosing_pile = self.phase is _PILE
        rounds, tricks = len(self.rounds), len(self.tricks)
        self.apply_unchecked(action, seat)
        if len(self.rounds) > rounds:
            result = self.rounds[-1]
            return Outcome(actor, action, result.tricks[-1], result, self.phase is _OVER)
        if choosing_pile or len(self.tricks) > tricks:
            return Outcome(actor, action, self.tricks[-1])
        return Outcome(actor, action)

    def apply_text(self, text: str, seat: int | None = None) -> int:
        """Parse an action's record text and apply it; returns the action."""
        action = A.parse_action(text)
        self.apply(action, seat)
        return action

    def apply_unchecked(self, action: int, seat: int | None = None) -> None:
        """Apply a legal action without checking it (for search)."""
        phase = self.phase
        if phase is _PLAY:
            mover = self.to_move
            self.history.append((mover, action))
            if action < 65:
                card = action
                suit = _SUIT_OF[card]
            else:
                card = A.SLOT_WILD[(action - 65) >> 2]
                suit = (action - 65) & 3
            self.hands[mover] ^= 1 << card
            trick = self.current_trick
            if not trick:
                self.led_suit = suit  # -1 for a wild led under wild_lead: next
                self.trick_leader = mover
            elif self.led_suit < 0:
                self.led_suit = suit  # the first non-wild card sets it (wild_lead: next)
            trick.append((mover, card))
            if len(trick) < self.config.players:
                self.to_move = (mover + 1) % self.config.players
            else:
                self._resolve_trick()
        elif phase is _SPLIT:
            if seat is None:
                seat = self.current_seat()
            self.history.append((seat, action))
            pack = action & (A.PACK_FLAG - 1)
            self.packs[seat] = pack
            self.hands[seat] &= ~pack
            if all(self.packs):
                self.phase = _PLAY
                self.to_move = self.round_leader
        elif phase is _PILE:
            self.history.append((self.pending_pile, action))
            self._finish_trick(1 if action == A.PILE_1 else 2)
        else:
            raise illegal(seat, action, reason("match_over"))

    def _resolve_trick(self) -> None:
        trick = self.current_trick
        cards = [c for _, c in trick]
        index, _ = winning_index(cards, self.led_suit, self._values[self.half - 1])
        winner = trick[index][0]
        lead_card = cards[0]
        declares = self.config.wild_lead == "declare"
        declared = self.led_suit if declares and _WILD >> lead_card & 1 else -1
        pile = pile_for(cards[index], self.half)
        self.tricks.append(
            Trick(self.trick_leader, tuple(trick), declared, winner, pile, self.led_suit)
        )
        self.current_trick = []
        self.led_suit = -1
        if pile == 0:
            self.phase = _PILE
            self.pending_pile = winner
            self.to_move = winner
        else:
            self._finish_trick(pile)

    def _finish_trick(self, pile: int) -> None:
        last = self.tricks[-1]
        if last.pile != pile:
            self.tricks[-1] = last._replace(pile=pile)
        winner = last.winner
        self.piles[winner][pile - 1] += 1
        self.current_trick = []
        self.led_suit = -1
        self.pending_pile = -1
        self.phase = _PLAY
        self.trick_number += 1
        self.to_move = winner
        self.trick_leader = winner
        if self.trick_number == 8:
            self.half = 2
            packs = self.packs
            if self.config.partnership:
                self.hands = [packs[2], packs[3], packs[0], packs[1]]
            else:
                self.hands = packs.copy()
        elif self.trick_number == 14:
            self._end_round()

    def _end_round(self) -> None:
        cfg = self.config
        piles = tuple((h, v) for h, v in self.piles)
        scores = tuple(abs(h - v) for h, v in piles)
        team_scores: tuple[int, int] | None = None
        victory: int | None = None
        if cfg.partnership:
            team_scores = (
                abs(piles[0][0] + piles[2][0] - piles[0][1] - piles[2][1]),
                abs(piles[1][0] + piles[3][0] - piles[1][1] - piles[3][1]),
            )
            victory = 0 if team_scores[0] < team_scores[1] else 1
        elif cfg.victories_to_win is not None:  # 2-player meio
            victory = 0 if scores[0] < scores[1] else 1
        self.rounds.append(
            RoundResult(scores, piles, team_scores, victory, tuple(self.tricks), self.round_leader)
        )
        if self._match_finished():
            self.phase = _OVER
            self.to_move = -1
            self.winners = self._compute_winners()
        else:
            self._start_round(self.round_index + 1)

    # -- match progress ------------------------------------------------------------------
    @property
    def totals(self) -> list[int]:
        """Each seat's sum of completed-round scores."""
        out = [0] * self.config.players
        for r in self.rounds:
            for s, v in enumerate(r.scores):
                out[s] += v
        return out

    @property
    def victories(self) -> list[int] | None:
        """2 players: victories by seat; partnership: by team; else None."""
        cfg = self.config
        if cfg.victories_to_win is None:
            return None
        out = [0] * (2 if cfg.partnership else cfg.players)
        for r in self.rounds:
            if r.victory is not None:
                out[r.victory] += 1
        return out

    def _match_finished(self) -> bool:
        cfg = self.config
        wins = self.victories
        if cfg.victories_to_win is None or wins is None:
            return len(self.rounds) >= (cfg.rounds or 3)
        return max(wins) >= cfg.victories_to_win

    def _compute_winners(self) -> list[int]:
        cfg = self.config
        wins = self.victories
        if wins is None:
            totals = self.totals
            low = min(totals)
            return [s for s, t in enumerate(totals) if t == low]
        best = wins.index(max(wins))
        return [best, best + 2] if cfg.partnership else [best]

    @property
    def played(self) -> int:
        """The cards played so far this round (public)."""
        return played_mask(self.tricks, self.current_trick)

    def round_starts(self) -> list[RoundStart]:
        """How each round of the match began (hidden: the deals)."""
        return list(self._starts)

    # -- information ---------------------------------------------------------------------
    def view(self, seat: int) -> View:
        """What ``seat`` may know (RULES.md §8)."""
        from meio.engine.view import make_view

        if not 0 <= seat < self.config.players:
            raise ValueError(f"there is no seat {seat} at a {self.config.players}-seat table")
        return make_view(self, seat)

    def spectator_view(self) -> View:
        """Public facts only."""
        from meio.engine.view import make_view

        return make_view(self, None)

    def __repr__(self) -> str:
        cfg = self.config
        return (
            f"<State {cfg.edition} {cfg.players}p round {self.round_index + 1} "
            f"{self.phase.name} trick {self.trick_number} to_move {self.current_seat()}>"
        )


def legal_plays(hand: int, led: int, declare: bool = True, following: bool = False) -> list[int]:
    """Legal play actions for a hand; ``led`` is -1 when leading (and, under
    ``wild_lead: next``, while the trick holds only wilds: then any card goes).

    ``declare`` is False under ``wild_lead: next``, where a wild leads as a plain
    card; ``following`` says the trick already holds a card (so no suit is
    declared even with ``led`` -1).
    """
    out: list[int] = []
    if led < 0:
        m = hand
        ask = declare and not following
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            if ask and _WILD >> c & 1:
                out.extend(_DECLARES[c])
            else:
                out.append(c)
        return out
    follow = hand & _SUIT_MASKS[led]
    m = (follow | (hand & _WILD)) if follow else hand
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def replay_steps(
    config: MatchConfig,
    actions: Iterable[tuple[int, int]],
    deals: Sequence[tuple[Sequence[int], int, int]] | None = None,
) -> Iterator[tuple[State, Outcome]]:
    """Replay ``(seat, action)`` pairs from the start of a match, each checked, yielding
    the state (the same object, updated in place) and the :class:`Outcome` after each.

    Raises :class:`IllegalActionError` at the first action that breaks a rule.
    """
    state = State.new(config, deals)
    for seat, action in actions:
        yield state, state.apply(action, seat)


def replay(
    config: MatchConfig,
    actions: Iterable[tuple[int, int]],
    deals: Sequence[tuple[Sequence[int], int, int]] | None = None,
) -> State:
    """The state after ``(seat, action)`` pairs from the start of a match, each checked.

    Raises :class:`IllegalActionError` at the first action that breaks a rule.

    >>> st = State.new(MatchConfig(players=2, seed=5))
    >>> pairs = [(s, st.legal_actions(s)[0]) for s in (0, 1)]
    >>> replay(MatchConfig(players=2, seed=5), pairs).phase.name
    'PLAY'
    """
    last = deque(replay_steps(config, actions, deals), maxlen=1)
    return last[0][0] if last else State.new(config, deals)
