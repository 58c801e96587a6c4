"""What one seat may know: the only thing a player, bot, browser or agent is given.

A :class:`View` holds the public facts of RULES.md §8 and, for a seat, its own
hand and pack (and in partnership the pack received from the partner). It never
holds another seat's hidden card: :meth:`State.view <meio.engine.State.view>` builds
it field by field, not by copying the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from meio.engine.config import MatchConfig
from meio.engine.legal import Phase, legal_actions
from meio.engine.scoring import RoundResult
from meio.engine.tricks import Trick, follow_start, played_mask


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
        if self.seat is None:
            return []
        return legal_actions(
            self.phase,
            self.seat,
            self.hand,
            self.split_done[self.seat],
            self.to_move,
            self.pending_pile,
            self.led_suit,
            bool(self.current_trick),
            self.config.options.declares,
            self.config.rules,
        )

    def voids(self) -> list[set[int]]:
        """Suits each seat has shown it lacks in the half being played.

        A seat shows a void when it plays a non-wild card of another suit to a
        trick; a wild shows nothing. Only the current half counts: a void shown in
        the first half says nothing of the pack played in the second.
        """
        out: list[set[int]] = [set() for _ in range(self.config.players)]
        rules = self.config.rules
        first = 0 if self.half == 1 else self.config.first_half_size
        tricks: list[tuple[int, tuple[tuple[int, int], ...]]] = [
            (t.led_suit, t.plays) for t in self.tricks[first:]
        ]
        if self.current_trick:
            tricks.append((self.led_suit, self.current_trick))
        declares = self.config.options.declares
        for led, plays in tricks:
            if led < 0:
                continue  # only wilds so far (wild_lead: next): nobody had to follow
            # the plays after the card that set the led suit had to follow it
            start = follow_start([c for _, c in plays], declares, rules.suit_of)
            for seat, card in plays[start + 1 :]:
                if rules.free >> card & 1:
                    continue  # a card playable on any trick (a wild) shows nothing
                suit = rules.suit_of[card]
                if suit >= 0 and suit != led:
                    out[seat].add(led)
        return out
