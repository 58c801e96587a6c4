"""The mutable state of a match: deal, split, tricks, piles, scores, rounds.

The rules it applies live beside it (:mod:`~meio.engine.legal` which actions are
legal, :mod:`~meio.engine.tricks` who wins a trick, :mod:`~meio.engine.scoring` the
scores and the match's end, :mod:`~meio.engine.deal` the deals); this module keeps
the one class that holds a match, a little over 500 lines on purpose: :class:`State`'s methods
share its slots and keep them consistent together (``apply_unchecked``, ``clone``,
``undo`` and the view builder each touch every field), which a split across files
would hide.

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

from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from meio.engine import actions as A
from meio.engine import scoring
from meio.engine.config import MatchConfig
from meio.engine.deal import Deal, check_deal, deal_round
from meio.engine.errors import ConfigError, IllegalActionError
from meio.engine.legal import Phase, illegal_reason, legal_actions
from meio.engine.reasons import illegal, reason
from meio.engine.ruleset import CardRules
from meio.engine.scoring import RoundResult
from meio.engine.tricks import Trick, pile_for, played_mask, winning_index
from meio.engine.view import View

_SPLIT, _PLAY, _PILE, _OVER = Phase.SPLIT, Phase.PLAY, Phase.PILE, Phase.OVER
_DECLARE_BASE = A.DECLARE_BASE
_SLOT_WILD = A.SLOT_WILD


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


class State:
    """A match in progress. Build one with :meth:`State.new`.

    ``State()`` alone is a blank shell, no match yet, that :meth:`new` and
    :meth:`clone` fill slot by slot. The class defines no ``__init__`` on purpose:
    ``State()`` is then as cheap as ``object.__new__`` interpreted, and mypyc, which
    compiles this module for the wheel, accepts it where it rejects
    ``State.__new__(State)``.

    ``apply`` checks every rule and raises :class:`IllegalActionError` leaving the
    state untouched; ``apply_unchecked`` trusts the caller (search). The fields in
    *Hidden* below must never reach a player: hand them :meth:`view` instead.
    """

    __slots__ = (
        "_deals",
        "_end_at",
        "_half_at",
        "_rules",
        "_starts",
        "_suit_of",
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
    _suit_of: tuple[int, ...]
    _rules: CardRules
    _half_at: int
    _end_at: int

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
        st = cls()
        st.config = config
        st._set_rules()
        st._deals = [(tuple(h), a, ld) for h, a, ld in deals] if deals is not None else None
        st.rounds = []
        st.winners = []
        st.history = []
        st._starts = []
        st._start_round(0)
        return st

    def _set_rules(self) -> None:
        # the trick numbers where the second half begins and the round ends
        cfg = self.config
        self._rules = cfg.rules
        self._values = cfg.rules.trick_values
        self._suit_of = cfg.rules.suit_of
        self._half_at = cfg.first_half_size + 1
        self._end_at = cfg.hand_size + 1

    def _deal_for(self, round_index: int) -> Deal:
        if self._deals is not None and round_index < len(self._deals):
            return self._deals[round_index]
        previous = self.rounds[round_index - 1] if round_index else None
        return deal_round(self.config, round_index, previous)

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
        check_deal(self.config, hands, aside, leader)
        self._starts[-1] = RoundStart(start.round_index, leader, tuple(hands), aside,
                                      start.history_len)
        self._reset_round(self._starts[-1])

    # -- copying and undo --------------------------------------------------------------
    def clone(self) -> State:
        """An independent copy (cheap: a few list copies)."""
        st = State()
        st.config = self.config
        st._values = self._values
        st._rules = self._rules
        st._suit_of = self._suit_of
        st._half_at = self._half_at
        st._end_at = self._end_at
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
        if seat is None:
            seat = self.to_move if phase is not _SPLIT else self.current_seat()
        return legal_actions(
            phase,
            seat,
            self.hands[seat],
            self.packs[seat] != 0,
            self.to_move,
            self.pending_pile,
            self.led_suit,
            bool(self.current_trick),
            self.config.options.declares,
            self._rules,
        )

    def is_legal(self, action: int, seat: int | None = None) -> bool:
        return illegal_reason(self, action, seat) is None

    # -- acting --------------------------------------------------------------------------
    def apply(self, action: int, seat: int | None = None) -> Outcome:
        """Play ``action`` for ``seat`` (default: the seat to act), checking every rule,
        and report what it did (:class:`Outcome`).

        Raises :class:`IllegalActionError` and changes nothing if it is not allowed.
        """
        why = illegal_reason(self, action, seat)
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
            if action < _DECLARE_BASE:
                card = action
                suit = self._suit_of[card]
            else:
                card = _SLOT_WILD[(action - _DECLARE_BASE) >> 2]
                suit = (action - _DECLARE_BASE) & 3
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
        rules = self._rules
        index, _ = winning_index(
            cards, self.led_suit, self._values[self.half - 1], self._suit_of, rules.trump
        )
        pile = pile_for(cards[index], self.half, rules.pile)
        wild = rules.wild
        winner = trick[index][0]
        lead_card = cards[0]
        declared = self.led_suit if self.config.options.declares and wild >> lead_card & 1 else -1
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
        if self.trick_number == self._half_at:
            self.half = 2
            packs = self.packs
            if self.config.partnership:
                self.hands = [packs[2], packs[3], packs[0], packs[1]]
            else:
                self.hands = packs.copy()
        elif self.trick_number == self._end_at:
            self._end_round()

    def _end_round(self) -> None:
        cfg = self.config
        self.rounds.append(
            scoring.score_round(cfg, self.piles, tuple(self.tricks), self.round_leader)
        )
        if scoring.match_finished(cfg, self.rounds):
            self.phase = _OVER
            self.to_move = -1
            self.winners = scoring.match_winners(cfg, self.rounds)
        else:
            self._start_round(self.round_index + 1)

    # -- match progress ------------------------------------------------------------------
    @property
    def totals(self) -> list[int]:
        """Each seat's sum of completed-round scores."""
        return scoring.totals(self.config, self.rounds)

    @property
    def victories(self) -> list[int] | None:
        """2 players: victories by seat; partnership: by team; else None."""
        return scoring.victories(self.config, self.rounds)

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
        if not 0 <= seat < self.config.players:
            raise ValueError(f"there is no seat {seat} at a {self.config.players}-seat table")
        return self._view(seat)

    def spectator_view(self) -> View:
        """Public facts only."""
        return self._view(None)

    def _view(self, seat: int | None) -> View:
        # field by field: only the public facts and ``seat``'s own cards go in
        cfg = self.config
        n = cfg.players
        over = self.phase is _OVER
        split_done = tuple(bool(p) for p in self.packs)
        hand = pack = received = 0
        if seat is not None:
            hand = 0 if over else self.hands[seat]
            pack = self.packs[seat]
            if cfg.partnership and all(split_done) and self.phase is not _SPLIT:
                received = self.packs[(seat + 2) % 4]
        victories = self.victories
        public = cfg.public()
        specials = cfg.special_cards if public.specials_known else self._known_specials(seat)
        return View(
            config=public,
            seat=seat,
            phase=self.phase,
            round_index=self.round_index,
            round_leader=self.round_leader,
            half=self.half,
            trick_number=self.trick_number,
            to_move=self.to_move,
            seats_to_act=self.seats_to_act(),
            hand=hand,
            pack=pack,
            received=received,
            hand_sizes=(0,) * n if over else tuple(h.bit_count() for h in self.hands),
            split_done=split_done,
            trick_leader=self.trick_leader,
            current_trick=tuple(self.current_trick),
            led_suit=self.led_suit,
            tricks=tuple(self.tricks),
            piles=tuple((h, v) for h, v in self.piles),
            rounds=tuple(self.rounds),
            totals=tuple(self.totals),
            victories=None if victories is None else tuple(victories),
            pending_pile=self.pending_pile,
            winners=tuple(self.winners),
            is_over=over,
            specials=specials,
            special_count=cfg.special_count,
            round_plays=()
            if over
            else tuple(
                (s, a)
                for s, a in self.history[self._starts[-1].history_len :]
                if not A.is_pack(a)
            ),
        )

    def _known_specials(self, seat: int | None) -> tuple[int, ...]:
        """With hidden specials: those ``seat`` holds or held this round, and every
        special played in this match so far (public)."""
        seen = self.played
        for result in self.rounds:
            seen |= played_mask(result.tricks)
        if seat is not None:
            seen |= self.deal[seat] | self.packs[seat]
            if self.config.partnership and all(self.packs):
                seen |= self.packs[(seat + 2) % 4]
        return tuple(s for s in self.config.special_cards if seen >> s & 1)

    def __repr__(self) -> str:
        cfg = self.config
        return (
            f"<State {cfg.edition} {cfg.players}p round {self.round_index + 1} "
            f"{self.phase.name} trick {self.trick_number} to_move {self.current_seat()}>"
        )


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


def replay_actions(
    config: MatchConfig,
    actions: Iterable[tuple[int, int]],
    deals: Sequence[tuple[Sequence[int], int, int]] | None = None,
) -> State:
    """The state after ``(seat, action)`` pairs from the start of a match, each checked.

    Raises :class:`IllegalActionError` at the first action that breaks a rule.

    >>> st = State.new(MatchConfig(players=2, seed=5))
    >>> pairs = [(s, st.legal_actions(s)[0]) for s in (0, 1)]
    >>> replay_actions(MatchConfig(players=2, seed=5), pairs).phase.name
    'PLAY'
    """
    last = deque(replay_steps(config, actions, deals), maxlen=1)
    return last[0][0] if last else State.new(config, deals)
