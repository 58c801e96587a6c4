"""What one seat may know: the only thing a player, bot, browser or agent is given.

A :class:`View` holds the public facts of RULES.md §8 and, for a seat, its own
hand and pack (and in partnership the pack received from the partner). It never
holds another seat's hidden card: it is built field by field from the state, not
copied from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.config import MatchConfig
from meio.engine.tricks import Trick, follow_start, played_mask

if TYPE_CHECKING:
    from meio.engine.state import Phase, RoundResult, State


@dataclass(frozen=True, slots=True)
class View:
    """One seat's knowledge of the match (``seat`` None: a spectator's)."""

    config: MatchConfig
    seat: int | None
    phase: Phase
    round_index: int
    round_leader: int
    half: int
    trick_number: int
    #: the one seat to act next, as :attr:`State.to_move <meio.engine.State.to_move>` (-1
    #: during the split and once the match is over)
    to_move: int
    seats_to_act: tuple[int, ...]
    #: own cards in play now (all 13 before the split); 0 for a spectator
    hand: int
    #: own chosen second-half pack (0 before the split)
    pack: int
    #: partnership: the pack received from the partner, once every seat has split
    received: int
    hand_sizes: tuple[int, ...]
    split_done: tuple[bool, ...]
    trick_leader: int
    current_trick: tuple[tuple[int, int], ...]
    led_suit: int
    tricks: tuple[Trick, ...]
    piles: tuple[tuple[int, int], ...]
    rounds: tuple[RoundResult, ...]
    totals: tuple[int, ...]
    victories: tuple[int, ...] | None
    pending_pile: int
    winners: tuple[int, ...]
    is_over: bool
    #: the special cards this seat knows are in the deck: all N when the table
    #: reveals them (RULES.md §10), else those it was dealt and those played
    specials: tuple[int, ...] = ()
    #: how many special cards the deck holds (N = players in ``meio``)
    special_count: int = 0
    #: the public actions of this round so far, as ``(seat, action)``: every card
    #: played (a wild lead with its declared suit) and every pile choice; no split
    round_plays: tuple[tuple[int, int], ...] = ()

    @property
    def played(self) -> int:
        """Cards played this round (public), as a bitmask."""
        return played_mask(self.tricks, self.current_trick)

    def legal_actions(self) -> Sequence[int]:
        """This seat's legal actions now (empty when it is not this seat's turn)."""
        from meio.engine.state import PackChoices, Phase, legal_plays

        if self.seat is None:
            return []
        if self.phase is Phase.SPLIT:
            return [] if self.split_done[self.seat] else PackChoices(self.hand)
        if self.phase is Phase.PILE:
            return (A.PILE_1, A.PILE_2) if self.pending_pile == self.seat else []
        if self.phase is Phase.PLAY and self.to_move == self.seat:
            return legal_plays(
                self.hand, self.led_suit, self.config.declares, bool(self.current_trick)
            )
        return []

    def voids(self) -> list[set[int]]:
        """Suits each seat has shown it lacks in the half being played.

        A seat shows a void when it plays a non-wild card of another suit to a
        trick; a wild shows nothing. Only the current half counts: a void shown in
        the first half says nothing of the pack played in the second.
        """
        out: list[set[int]] = [set() for _ in range(self.config.players)]
        first = 0 if self.half == 1 else 7
        tricks: list[tuple[int, tuple[tuple[int, int], ...]]] = [
            (t.led_suit, t.plays) for t in self.tricks[first:]
        ]
        if self.current_trick:
            tricks.append((self.led_suit, self.current_trick))
        declares = self.config.declares
        for led, plays in tricks:
            if led < 0:
                continue  # only wilds so far (wild_lead: next): nobody had to follow
            # the plays after the card that set the led suit had to follow it
            start = follow_start([c for _, c in plays], declares)
            for seat, card in plays[start + 1 :]:
                suit = C.card_suit(card)
                if suit >= 0 and suit != led:
                    out[seat].add(led)
        return out

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (card codes, not ids) for clients."""
        return {
            "seat": self.seat,
            "rules": {
                "wild_lead": self.config.wild_lead,
                "reveal_specials": self.config.reveal_specials,
            },
            "specials": [C.card_code(c) for c in self.specials],
            "special_count": self.special_count,
            "phase": self.phase.name.lower(),
            "round": self.round_index + 1,
            "round_leader": self.round_leader,
            "half": self.half,
            "trick_number": self.trick_number,
            "to_move": self.to_move,
            "seats_to_act": list(self.seats_to_act),
            "hand": C.codes(self.hand),
            "pack": C.codes(self.pack),
            "received": C.codes(self.received),
            "hand_sizes": list(self.hand_sizes),
            "split_done": list(self.split_done),
            "trick_leader": self.trick_leader,
            "current_trick": [[s, C.card_code(c)] for s, c in self.current_trick],
            "led_suit": C.SUITS[self.led_suit] if self.led_suit >= 0 else None,
            "tricks": [
                {
                    "leader": t.leader,
                    "cards": [[s, C.card_code(c)] for s, c in t.plays],
                    "declared": C.SUITS[t.declared] if t.declared >= 0 else None,
                    "led": C.SUITS[t.led_suit] if t.led_suit >= 0 else None,
                    "winner": t.winner,
                    "pile": t.pile,
                }
                for t in self.tricks
            ],
            "piles": [list(p) for p in self.piles],
            "rounds": [
                {
                    "scores": list(r.scores),
                    "piles": [list(p) for p in r.piles],
                    "team_scores": None if r.team_scores is None else list(r.team_scores),
                    "victory": r.victory,
                }
                for r in self.rounds
            ],
            "totals": list(self.totals),
            "victories": None if self.victories is None else list(self.victories),
            "pending_pile": self.pending_pile,
            "winners": list(self.winners),
            "is_over": self.is_over,
            "legal": [A.action_text(a) for a in self.legal_actions()]
            if self.phase.name != "SPLIT"
            else [],
        }


def make_view(state: State, seat: int | None) -> View:
    from meio.engine.state import Phase

    cfg = state.config
    n = cfg.players
    split_done = tuple(bool(p) for p in state.packs)
    all_split = all(split_done)
    hand = pack = received = 0
    if seat is not None:
        hand = state.hands[seat]
        pack = state.packs[seat]
        if cfg.partnership and all_split and state.phase is not Phase.SPLIT:
            received = state.packs[(seat + 2) % 4]
    if state.phase is Phase.OVER:
        hand = 0
    hand_sizes = (
        tuple(h.bit_count() for h in state.hands) if state.phase is not Phase.OVER else ((0,) * n)
    )
    victories = state.victories
    public = cfg.public()
    specials = cfg.special_cards if public.specials_known else _known_specials(state, seat)
    return View(
        config=public,
        seat=seat,
        phase=state.phase,
        round_index=state.round_index,
        round_leader=state.round_leader,
        half=state.half,
        trick_number=state.trick_number,
        to_move=state.to_move,
        seats_to_act=state.seats_to_act(),
        hand=hand,
        pack=pack,
        received=received,
        hand_sizes=hand_sizes,
        split_done=split_done,
        trick_leader=state.trick_leader,
        current_trick=tuple(state.current_trick),
        led_suit=state.led_suit,
        tricks=tuple(state.tricks),
        piles=tuple((h, v) for h, v in state.piles),
        rounds=tuple(state.rounds),
        totals=tuple(state.totals),
        victories=None if victories is None else tuple(victories),
        pending_pile=state.pending_pile,
        winners=tuple(state.winners),
        is_over=state.is_over,
        specials=specials,
        special_count=cfg.special_count,
        round_plays=tuple(
            (s, a)
            for s, a in state.history[state.round_starts()[-1].history_len :]
            if not A.is_pack(a)
        )
        if state.phase is not Phase.OVER
        else (),
    )


def _known_specials(state: State, seat: int | None) -> tuple[int, ...]:
    """With hidden specials: those ``seat`` holds or held this round, and every
    special played in this match so far (public)."""
    seen = state.played
    for result in state.rounds:
        seen |= played_mask(result.tricks)
    if seat is not None:
        seen |= state.deal[seat] | state.packs[seat]
        if state.config.partnership and all(state.packs):
            seen |= state.packs[(seat + 2) % 4]
    return tuple(s for s in state.config.special_cards if seen >> s & 1)
