"""Heuristic decisions: the split, each card, the pile after a ``+.5`` win.

Every decision here aims at one number, the seat's (or team's) final
``D = H - V``, and picks the option with the smallest expected ``|D|``:

* **Split** (:func:`rank_packs`): each card's chance of taking a trick in the
  half it would be played in (:func:`~meio.bots.features.card_chance`) gives,
  for every one of the 1,716 packs at once (numpy), the mean and variance of
  ``D``; packs are ranked by ``E|D|`` under a normal approximation.
* **Card** (:func:`choose_play`): for each legal card, the chance it takes this
  trick, the pile it would go to, and what the cards left would still take;
  the card with the lowest expected ``|D|`` is played. So a seat behind in a
  half plays to win, a seat ahead ducks (shedding its highest loser), ``Q+``
  is welcome exactly when the *other* pile needs a trick, and a partner's
  winning card is left alone when the team does not want the trick.
* **Pile** (:func:`choose_pile`): the pile that brings the expected ``D`` closer to 0.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from meio.bots.features import (
    TRUMP_RISK,
    Seen,
    beaters,
    card_chance,
    expected_abs,
    holding_estimate,
    opponents_share,
    pile_of_win,
)
from meio.engine import MatchConfig
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.presets import preset
from meio.engine.tricks import winning_index

_SUIT_OF = C.SUIT_OF
#: the editions' trick values by (edition, half), as :func:`winning_index` reads them
_VALUE_TABLES = {(e, h): preset(e).card_rules.trick_values[h - 1]
                 for e in ("meio", "classic") for h in (1, 2)}
#: extra variance of D from a partner's cards this seat cannot see, per card
_PARTNER_VAR_PER_CARD = 0.15


# -- the split ---------------------------------------------------------------------------
@functools.cache
def _pack_matrix() -> npt.NDArray[np.float64]:
    """Row i marks the 6 positions (of 13, lowest card id first) of the i-th pack, in
    the lexicographic order of :class:`~meio.engine.PackChoices`."""
    rows = np.zeros((1716, 13))
    for i, combo in enumerate(itertools.combinations(range(13), 6)):
        rows[i, list(combo)] = 1.0
    return rows


def _normal_expected_abs(mu: npt.NDArray[np.float64], var: npt.NDArray[np.float64]
                         ) -> npt.NDArray[np.float64]:
    s = np.sqrt(np.maximum(var, 0.05))
    z = mu / s
    # erf by Abramowitz & Stegun 7.1.26 (error < 1.5e-7), vectorised
    x = np.abs(z) / math.sqrt(2.0)
    t = 1.0 / (1.0 + 0.3275911 * x)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027
                                                                         + t * 1.061405429))))
    erf = np.sign(z) * (1.0 - poly * np.exp(-x * x))
    result: npt.NDArray[np.float64] = s * math.sqrt(2.0 / math.pi) * np.exp(-0.5 * z * z) + (
        mu * erf
    )
    return result


class PackRanking:
    """Every pack of a 13-card hand with its heuristic ``E|D|``, mean ``D`` and the
    expected tricks of the first-half hand and the second-half pack."""

    __slots__ = ("cards", "cost", "first", "mean", "second")

    def __init__(self, cards: list[int], cost: npt.NDArray[np.float64],
                 mean: npt.NDArray[np.float64], first: npt.NDArray[np.float64],
                 second: npt.NDArray[np.float64]) -> None:
        self.cards = cards
        self.cost = cost
        self.mean = mean
        self.first = first
        self.second = second

    def pack(self, index: int) -> int:
        """The pack bitmask of row ``index``."""
        row = _pack_matrix()[index]
        return C.mask_of(c for c, used in zip(self.cards, row, strict=True) if used)

    def index_of(self, pack: int) -> int:
        """The row of a pack bitmask."""
        positions = [i for i, c in enumerate(self.cards) if pack >> c & 1]
        if len(positions) != 6 or pack & ~C.mask_of(self.cards):
            raise ValueError(f"{C.format_cards(pack)} is not a 6-card pack of this hand")
        index, start = 0, 0
        for k, pos in enumerate(positions):
            for skipped in range(start, pos):
                index += math.comb(13 - skipped - 1, 6 - k - 1)
            start = pos + 1
        return index

    def best(self, count: int) -> list[int]:
        """Row indices of the ``count`` best packs, best first (ties: lower row first)."""
        order = np.lexsort((np.arange(len(self.cost)), np.round(self.cost, 9)))
        return [int(i) for i in order[:count]]


def rank_packs(hand: int, config: MatchConfig) -> PackRanking:
    """Rank all 1,716 packs of a 13-card ``hand`` by the heuristic ``E|H - V|``.

    ``config`` may be a view's public config: when it hides the specials
    (RULES.md §10), every special not in ``hand`` counts as possibly unseen."""
    cards = C.cards_of(hand)
    if len(cards) != 13:
        raise ValueError(f"a split needs the 13 dealt cards, not {len(cards)}")
    unseen = config.deck & ~hand
    if not config.specials_known:
        unseen |= C.mask_of(C.SPECIALS) & ~hand
    u = unseen.bit_count()
    share1 = opponents_share(config, 1, u)
    share2 = opponents_share(config, 2, u)
    # per card: (to H, to V, variance) if kept for the first half / packed for the second
    keep = [_card_row(c, 1, config.edition, unseen, share1) for c in cards]
    pack = [_card_row(c, 2, config.edition, unseen, share2) for c in cards]
    keep_d = np.array([h - v for h, v, _ in keep])
    pack_d = np.array([h - v for h, v, _ in pack])
    keep_var = np.array([x for _, _, x in keep])
    pack_var = np.array([x for _, _, x in pack])
    m = _pack_matrix()
    mean = keep_d.sum() + m @ (pack_d - keep_d)
    var = keep_var.sum() + m @ (pack_var - keep_var)
    if config.partnership:
        var = var + 13 * _PARTNER_VAR_PER_CARD
    cost = _normal_expected_abs(mean, var)
    keep_tricks = np.array([h + v for h, v, _ in keep])
    pack_tricks = np.array([h + v for h, v, _ in pack])
    first = keep_tricks.sum() - m @ keep_tricks
    second = m @ pack_tricks
    return PackRanking(cards, cost, mean, first, second)


def _card_row(card: int, half: int, edition: str, unseen: int, share: float
              ) -> tuple[float, float, float]:
    p = card_chance(card, half, edition, unseen, share)
    pile = pile_of_win(card, half)
    return (p if pile == 1 else 0.0, p if pile == 2 else 0.0, p * (1.0 - p))


def choose_pack(hand: int, config: MatchConfig) -> int:
    """The heuristic's split: the pack action with the lowest expected ``|H - V|``."""
    ranking = rank_packs(hand, config)
    return A.pack_action(ranking.pack(ranking.best(1)[0]))


# -- card play ---------------------------------------------------------------------------
def _future(seen: Seen, unseen_count: int) -> tuple[float, float]:
    """Expected ``D`` still to come from cards other than the hand in play, and its variance."""
    mu = var = 0.0
    n = seen.players
    if seen.half == 1 and unseen_count:
        opp_packs = 6 * (n - 1 - (1 if seen.partnership else 0))
        share2 = min(1.0, opp_packs / unseen_count)
        for cards in (seen.future, seen.team_future):
            if cards:
                to1, to2, v = holding_estimate(cards, 2, seen.edition, seen.unseen, share2)
                mu += to1 - to2
                var += v
    if seen.partnership:
        partner = (seen.seat + 2) % 4
        left = seen.hand_sizes[partner]
        if seen.half == 1:
            # the partner's unseen first-half cards: a fair share of the tricks left
            mu += left / n
            var += left * _PARTNER_VAR_PER_CARD
        # in the second half the partner plays this seat's pack, counted by the caller
    return mu, var


def _share_now(seen: Seen, followers: Sequence[int], unseen_count: int) -> float:
    if not unseen_count:
        return 0.0
    held = sum(seen.hand_sizes[s] for s in followers if not seen.is_partner(s))
    return min(1.0, held / unseen_count)


def _win_chance(card: int, v2: int, led: int, seen: Seen, share: float) -> float:
    """Chance ``card`` (worth ``v2``) holds this trick against the cards still to come.

    With no led suit yet (``wild_lead: next``, a trick of wilds only) a later card
    will set it: the chance is averaged over the four suits it may be."""
    if led < 0:
        return sum(_win_chance(card, v2, suit, seen, share) for suit in range(4)) / 4.0
    sure, trumps = beaters(card, led, v2, seen.edition, seen.half)
    k = (sure & seen.unseen).bit_count()
    p = (1.0 - share) ** k
    if trumps:
        p *= (1.0 - TRUMP_RISK * share) ** (trumps & seen.unseen).bit_count()
    return p


def choose_play(seen: Seen, legal: Sequence[int]) -> int:
    """The heuristic's card (or wild lead with its declared suit, under ``declare``)."""
    costs = play_costs(seen, legal)
    best = 0
    for i, cost in enumerate(costs):  # ties: the first (lower card, smaller action)
        if cost < costs[best] - 1e-9:
            best = i
    return legal[best]


def play_costs(seen: Seen, legal: Sequence[int]) -> list[float]:
    """The heuristic's expected final ``|D|`` after each of ``legal`` (lower is better)."""
    n = seen.players
    half = seen.half
    values = _VALUE_TABLES[(seen.edition, half)]
    trick = seen.current_trick
    led = seen.led_suit
    mover_pos = len(trick)
    followers = [(seen.seat + k) % n for k in range(1, n - mover_pos)]
    unseen_count = seen.unseen.bit_count()
    share_now = _share_now(seen, followers, unseen_count)
    opp_hand_cards = sum(
        seen.hand_sizes[s] for s in range(n) if s != seen.seat and not seen.is_partner(s)
    )
    share_hand = min(1.0, opp_hand_cards / unseen_count) if unseen_count else 0.0

    h, v = seen.team_piles
    d_now = h - v
    fut_mu, fut_var = _future(seen, unseen_count)
    if seen.partner_hand:
        to1, to2, pvar = holding_estimate(seen.partner_hand, half, seen.edition, seen.unseen,
                                          share_hand)
        fut_mu += to1 - to2
        fut_var += pvar

    # what each card of the hand would still take if kept
    rows: dict[int, tuple[float, float, float]] = {}
    rest1 = rest2 = rest_var = 0.0
    for c in C.iter_cards(seen.hand):
        p = card_chance(c, half, seen.edition, seen.unseen, share_hand)
        pile = pile_of_win(c, half)
        row = (p if pile == 1 else 0.0, p if pile == 2 else 0.0, p * (1.0 - p))
        rows[c] = row
        rest1 += row[0]
        rest2 += row[1]
        rest_var += row[2]

    partner_winning = 0.0
    cards_so_far = [c for _, c in trick]
    if trick:
        best_i, best_v = winning_index(cards_so_far, led, values, _SUIT_OF, C.HEARTS)
        best_seat, best_card = trick[best_i]
        if seen.is_partner(best_seat):
            partner_winning = _win_chance(best_card, best_v, led, seen, share_now)
            partner_pile = pile_of_win(best_card, half)
        else:
            partner_pile = half

    costs: list[float] = []
    for action in legal:
        card = A.card_of(action)
        if trick:
            # under wild_lead "next" a trick of wilds only takes its suit from this card
            this_led = _SUIT_OF[card] if led < 0 else led
            index, v2 = winning_index([*cards_so_far, card], this_led, values, _SUIT_OF,
                                      C.HEARTS)
            if index != mover_pos:
                p_me = 0.0
            elif not followers:
                p_me = 1.0
            else:
                p_me = _win_chance(card, v2, this_led, seen, share_now)
        else:
            # a wild led without a declared suit (wild_lead "next") gets -1: no suit yet
            this_led = A.declared_suit(action) if action >= A.DECLARE_BASE else _SUIT_OF[card]
            v2 = values[card] if card != C.PLUS_HALF else 1
            p_me = _win_chance(card, v2, this_led, seen, share_now)
        row = rows[card]
        base = d_now + (rest1 - row[0]) - (rest2 - row[1]) + fut_mu
        var = rest_var - row[2] + fut_var
        lose = expected_abs(base, var)
        pile = pile_of_win(card, half)
        if pile == 0:
            win = min(expected_abs(base + 1, var), expected_abs(base - 1, var))
        else:
            win = expected_abs(base + (1 if pile == 1 else -1), var)
        if partner_winning and p_me == 0.0:
            team = partner_winning
            team_win = expected_abs(base + (1 if partner_pile == 1 else -1), var) \
                if partner_pile else win
            cost = team * team_win + (1.0 - team) * lose
        else:
            cost = p_me * win + (1.0 - p_me) * lose
        costs.append(cost)
    return costs


def choose_pile(seen: Seen) -> int:
    """After a ``+.5`` win: the pile that brings the expected final ``D`` nearer 0."""
    h, v = seen.team_piles
    unseen_count = seen.unseen.bit_count()
    opp = sum(seen.hand_sizes[s] for s in range(seen.players)
              if s != seen.seat and not seen.is_partner(s))
    share = min(1.0, opp / unseen_count) if unseen_count else 0.0
    to1, to2, var = holding_estimate(seen.hand, seen.half, seen.edition, seen.unseen, share)
    fut_mu, fut_var = _future(seen, unseen_count)
    if seen.partner_hand:
        p1, p2, pvar = holding_estimate(seen.partner_hand, seen.half, seen.edition, seen.unseen,
                                        share)
        fut_mu += p1 - p2
        fut_var += pvar
    base = h - v + to1 - to2 + fut_mu
    one = expected_abs(base + 1, var + fut_var)
    two = expected_abs(base - 1, var + fut_var)
    return A.PILE_1 if one < two else A.PILE_2
