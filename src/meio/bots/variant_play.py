"""How the bots meet a variant (docs/variants.md): which bots play one, and the rule
the heuristic bot plays it by.

The heuristic's standard policy (:mod:`meio.bots.policy`) ranks the 1,716 packs of a
13-card hand with win chances worked out for the editions' decks and the box
specials; a variant may change all of these. For a variant it plays a simpler rule
read from the variant's own cards (:class:`~meio.engine.ruleset.CardRules`):

* **split**: every card gets a strength (its value in the half, a trump above any
  other suit, relative cards in the middle) and a chance to win a trick; the cards
  are dealt greedily, strongest first, to the half whose expected tricks are lower,
  so that the hand and the pack should take about as many tricks;
* **play**: it projects its team's ``H - V`` from the piles and the cards it still
  holds; behind in the pile of the half in play it plays to win the trick (the
  lowest card that wins when it plays last, its strongest otherwise), ahead it ducks
  (the strongest card that does not win); a trick its card would send to the other
  half (or let it choose) counts that way;
* **pile**: the pile that brings the projection nearer 0.

Search and the advisor read a ruleset's heuristic through :func:`heuristic_pack`,
:func:`ranked_packs` and :func:`heuristic_action`: the editions' policy
(:mod:`meio.bots.policy`) on an edition, the rule above on any other ruleset. With
``general=True`` (the bots' general switch: ``heuristic-any``, ``search:K-any``,
:func:`editions_player`) the rule above plays every ruleset, the editions included.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Sequence

import numpy as np

from meio.engine import Phase, State, View
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.config import MatchConfig
from meio.engine.errors import ConfigError
from meio.engine.presets import is_standard
from meio.engine.ruleset import CardRules
from meio.engine.tricks import winning_index

#: the bots that play any variant: the random and heuristic bots, every search level
#: and ``expert`` (worlds dealt by the ruleset, playouts in the compiled core), the
#: network (``learned`` plays the network for any ruleset off the editions) and the
#: search standing on it (``search:5`` and ``search:6`` stand on the same network there)
VARIANT_BOTS = ("random", "heuristic", "search", "search:1", "search:2", "search:3",
                "search:4", "expert", "learned", "learned-any", "search:5", "search:6")
#: the bots with two players in them, the editions' (tuned to the editions' cards) and a
#: general one (the heuristic of any ruleset, the network for any ruleset), each with
#: the name of the bot that plays its general path on every ruleset, the editions
#: included: the general switch (docs/bots.md, "The general switch")
GENERAL_NAMES = {"heuristic": "heuristic-any", "search": "search:2-any",
                 **{f"search:{k}": f"search:{k}-any" for k in (1, 2, 3, 4)},
                 "expert": "expert-any", "learned": "learned-any"}


def general_name(bot: str) -> str:
    """The name of the bot that plays ``bot``'s general path on every ruleset (itself for
    a bot with one path: ``random``, an ``-any`` bot, a policy file).

    >>> general_name("search:3"), general_name("random"), general_name("learned-any")
    ('search:3-any', 'random', 'learned-any')
    """
    return GENERAL_NAMES.get(bot, bot)


def editions_player(config: MatchConfig, general: bool = False) -> bool:
    """Whether a bot with two players plays ``config`` by its editions' one: on an
    edition's preset (whatever the table options), unless ``general`` (the switch)."""
    return not general and is_standard(config.ruleset)


#: the kinds that stand on an editions' network alone, whose input is the editions' cards
#: (the versioned names of ``search:5`` and ``search:6`` name their play on the editions'
#: network, as ``learned-v7`` names ``learned``'s)
NETWORK_BOTS = ("learned-v7", "ppo", "search:5-v1", "search:6-v1")


def plays_ruleset(bot: str, config: MatchConfig) -> bool:
    """Whether ``bot`` plays ``config``'s ruleset: every bot plays an edition (a preset,
    whatever the table options); on any other ruleset all but the kinds that stand on
    an editions' network alone (:data:`NETWORK_BOTS`, a ``search:5:PATH`` or
    ``search:6:PATH`` file, and a ``learned:PATH`` file that is not a network for any
    ruleset)."""
    if is_standard(config.ruleset):
        return True
    if bot.startswith(("search:5:", "search:6:")):
        return False
    if bot.startswith("learned:"):
        from meio.bots.general import is_general_file

        return is_general_file(bot.removeprefix("learned:"))
    from meio.bots.versions import UnknownVersionError, resolve

    if bot not in NETWORK_BOTS:
        with contextlib.suppress(UnknownVersionError):  # ppo-v1 plays where ppo does
            bot = resolve(bot).alias
    return not any(bot == k or bot.startswith(k + ":") for k in NETWORK_BOTS)


def check_variant_bot(bot: str, config: MatchConfig) -> None:
    """Raise :class:`ConfigError` (one line) when ``bot`` cannot play ``config``'s
    ruleset (:func:`plays_ruleset`)."""
    if plays_ruleset(bot, config):
        return
    raise ConfigError(
        f"the {bot} bot does not play variants (its network reads the editions' cards; "
        f"learned plays a network for any ruleset); "
        f"play a variant with {', '.join(VARIANT_BOTS)} or a plug-in bot",
        field="bots",
    )


def heuristic_pack(hand: int, config: MatchConfig, general: bool = False) -> int:
    """The heuristic's pack (a bitmask) for ``hand`` under ``config``'s ruleset
    (``general``: the rule of any ruleset, on an edition too)."""
    if editions_player(config, general):
        from meio.bots.policy import choose_pack as standard_pack

        return A.pack_of(standard_pack(hand, config))
    return A.pack_of(choose_pack(hand, config))


def ranked_packs(hand: int, config: MatchConfig, count: int,
                 general: bool = False) -> list[int]:
    """The heuristic's ``count`` best packs (bitmasks) of ``hand``, best first: the
    editions' ranking (:func:`meio.bots.policy.rank_packs`) on an edition; on any other
    ruleset (on every one with ``general``) the heuristic's own pack first, then every
    pack by how near its expected ``H - V`` is to 0 (the split rule of the module
    docstring, scored exactly)."""
    if count < 1:
        raise ValueError(f"count must be at least 1, not {count}")
    if editions_player(config, general):
        from meio.bots.policy import rank_packs

        ranking = rank_packs(hand, config)
        return [ranking.pack(i) for i in ranking.best(count)]
    rules = config.rules
    cards = C.cards_of(hand)
    if len(cards) != rules.hand:
        raise ValueError(f"a split needs the {rules.hand} dealt cards, not {len(cards)}")
    keep = np.array([_chance(c, 1, rules) * _towards(c, 1, rules) for c in cards])
    packed = np.array([_chance(c, 2, rules) * _towards(c, 2, rules) for c in cards])
    combos = np.array(list(itertools.combinations(range(len(cards)), rules.pack)),
                      dtype=np.int64)
    cost = np.abs(keep.sum() + (packed - keep)[combos].sum(axis=1))
    first = heuristic_pack(hand, config, general=True)
    out = [first]
    for row in np.argsort(cost, kind="stable"):
        if len(out) >= count:
            break
        pack = C.mask_of(cards[int(i)] for i in combos[int(row)])
        if pack != first:
            out.append(pack)
    return out


def heuristic_action(state: State, seat: int, legal: Sequence[int]) -> int:
    """The heuristic's action for ``seat`` in a full world on any ruleset other than an
    edition's (a playout; the editions' playouts read :mod:`meio.bots.policy`)."""
    return choose(state.view(seat), legal)


def _strength(card: int, half: int, rules: CardRules) -> float:
    if rules.relative[half - 1] >> card & 1:
        return 7.0
    value = rules.values[half - 1][card] / 2
    suit = rules.suit_of[card]
    if suit >= 0 and suit == rules.trump:
        value += 15.0
    elif suit < 0:
        value += 5.0  # a wild follows every suit
    return value


def _chance(card: int, half: int, rules: CardRules) -> float:
    """A rough chance that ``card`` takes a trick: its strength scaled to [0, 1], squared."""
    s = (_strength(card, half, rules) + 2.0) / 32.0
    s = min(1.0, max(0.0, s))
    return s * s


def _towards(card: int, half: int, rules: CardRules) -> int:
    """+1 when a trick the card wins adds to H, -1 to V, 0 when its winner chooses."""
    effect = rules.pile[card]
    if effect == 1:
        return 0
    pile = 3 - half if effect == 2 else half
    return 1 if pile == 1 else -1


def choose_pack(hand: int, config: MatchConfig) -> int:
    """The split: strongest cards first, each to the half expecting fewer tricks."""
    rules = config.rules
    cards = sorted(C.cards_of(hand), key=lambda c: -max(_chance(c, 1, rules),
                                                        _chance(c, 2, rules)))
    kept: list[int] = []
    pack: list[int] = []
    e1 = e2 = 0.0
    for c in cards:
        room1, room2 = len(kept) < rules.first_half, len(pack) < rules.pack
        # a card counts toward H (or V) by where a trick it wins goes
        d1 = _chance(c, 1, rules) * _towards(c, 1, rules)
        d2 = _chance(c, 2, rules) * _towards(c, 2, rules)
        to_hand = room1 and (not room2 or abs(e1 + d1 + e2) <= abs(e1 + e2 + d2))
        if to_hand:
            kept.append(c)
            e1 += d1
        else:
            pack.append(c)
            e2 += d2
    return A.pack_action(C.mask_of(pack))


def _projection(view: View, rules: CardRules) -> float:
    """The expected final ``H - V`` of this seat's team from what it holds now."""
    seat = view.seat if view.seat is not None else 0
    cfg = view.config
    seats = [seat] + ([(seat + 2) % 4] if cfg.partnership else [])
    h = sum(view.piles[s][0] for s in seats)
    v = sum(view.piles[s][1] for s in seats)
    d = float(h - v)
    for c in C.iter_cards(view.hand):
        d += _chance(c, view.half, rules) * _towards(c, view.half, rules)
    if view.half == 1:
        for c in C.iter_cards(view.pack):
            d += _chance(c, 2, rules) * _towards(c, 2, rules)
    return d


def choose_play(view: View, legal: Sequence[int]) -> int:
    """A card (or a wild lead with its declared suit) by the rule of the module docstring."""
    rules = view.config.rules
    half = view.half
    projection = _projection(view, rules)
    trick = [c for _, c in view.current_trick]
    last = len(trick) == view.config.players - 1
    held = [C.card_suit(c) for c in C.iter_cards(view.hand)]

    def wins_now(action: int) -> bool:
        if not trick:
            return True
        card = A.card_of(action)
        led = view.led_suit if view.led_suit >= 0 else rules.suit_of[card]
        index, _ = winning_index([*trick, card], led, rules.trick_values[half - 1],
                                 rules.suit_of, rules.trump)
        return index == len(trick)

    def helps(action: int) -> bool:
        # would winning this trick with it bring the projection nearer 0?
        towards = _towards(A.card_of(action), half, rules)
        return towards == 0 or (projection < 0) == (towards > 0)

    def strength(action: int) -> float:
        return _strength(A.card_of(action), half, rules)

    winners = [a for a in legal if wins_now(a) and helps(a)]
    if winners:
        pick = min(winners, key=strength) if last else max(winners, key=strength)
    else:
        losers = [a for a in legal if not wins_now(a)]
        pick = max(losers, key=strength) if losers else min(legal, key=strength)
    if pick >= A.DECLARE_BASE:  # a wild lead: declare the suit it holds most of
        card = A.card_of(pick)
        options = [a for a in legal if a >= A.DECLARE_BASE and A.card_of(a) == card]
        pick = max(options, key=lambda a: held.count(A.declared_suit(a)))
    return pick


def choose_pile(view: View) -> int:
    """After a trick its card lets it place: the pile that brings ``H - V`` nearer 0."""
    return A.PILE_1 if _projection(view, view.config.rules) < 0 else A.PILE_2


def choose(view: View, legal: Sequence[int]) -> int:
    """The heuristic's action in a variant game."""
    if view.phase is Phase.SPLIT:
        return choose_pack(view.hand, view.config)
    if view.phase is Phase.PILE:
        return choose_pile(view)
    return choose_play(view, legal)
