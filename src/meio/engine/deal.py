"""How a round is dealt: the shuffle and the leader drawn from the seed (RULES.md §1, §6),
and the check of a deal given from outside.

Chance is explicit: a round's deal depends on the config's seed and the round's
number alone, and its leader on those and the previous round's result, so the same
seed deals the same hands in every lineup of a duplicate tournament.

>>> from meio.engine import MatchConfig
>>> hands, aside, leader = deal_round(MatchConfig(players=3, seed=2), 0, None)
>>> [h.bit_count() for h in hands], aside, leader == MatchConfig(players=3, seed=2).first_leader
([13, 13, 13], 0, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from meio.engine import cards as C
from meio.engine.config import MatchConfig
from meio.engine.errors import ConfigError
from meio.engine.scoring import RoundResult, eligible_leaders

#: a round's deal: each seat's 13 cards (masks), the cards set aside (a mask), the leader
Deal = tuple[tuple[int, ...], int, int]


def deal_round(config: MatchConfig, round_index: int, previous: RoundResult | None) -> Deal:
    """The deal of round ``round_index`` (0-based) drawn from ``config.seed``; the leader
    of a later round is one of the seats :func:`eligible_leaders` allows after
    ``previous``, drawn when several are."""
    cards = C.cards_of(config.deck)
    random.Random(config.round_seed(round_index, 0)).shuffle(cards)
    n, k = config.players, config.hand_size
    hands = tuple(C.mask_of(cards[k * i : k * i + k]) for i in range(n))
    aside = C.mask_of(cards[k * n :])
    if round_index == 0 or previous is None:
        return hands, aside, config.leader_of_round_one
    options = eligible_leaders(config, previous)
    rng = random.Random(config.round_seed(round_index, 1))
    return hands, aside, options[0] if len(options) == 1 else rng.choice(options)


def check_deal(config: MatchConfig, hands: Sequence[int], aside: int, leader: int) -> None:
    """Raise :class:`ConfigError` unless ``hands`` (13 cards a seat; a variant's hand
    size) and ``aside`` make the deck once each and ``leader`` is a seat."""
    dealt = 0
    k = config.hand_size
    for hand in hands:
        if hand.bit_count() != k or hand & dealt:
            raise ConfigError(f"each seat is dealt {k} cards, no card twice", field="hands")
        dealt |= hand
    if len(hands) != config.players or dealt | aside != config.deck or dealt & aside:
        raise ConfigError(
            "the hands and the cards set aside make the deck, once each", field="hands"
        )
    if not 0 <= leader < config.players:
        raise ConfigError(f"there is no seat {leader} to lead", field="leader")
