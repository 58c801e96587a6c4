"""Who plays the lab's games: the policies ``meio analyze --bots`` takes, which of them
play a ruleset, and what algorithm each one actually runs on it.

A bot that meets an edition plays it by the editions' own policy (the heuristic's
pack ranking, search's playouts and its inference from play); on any other ruleset it
takes its general path (the rule of :mod:`meio.bots.variant_play`, uniform worlds).
So "the heuristic" is two players, and a comparison of an edition with a variant under
it compares a change of player as well as a change of rules. :func:`player` names the
algorithm a policy runs on a ruleset, and :func:`general_form` writes an edition as a
ruleset the bots play by their general path, with rules, deals and results unchanged,
so ``meio analyze compare`` can put one player on both sides.

>>> from meio.engine.presets import preset
>>> player("heuristic", preset("meio")) == player("heuristic", general_form(preset("meio")))
False
>>> player("random", preset("meio")) == player("random", general_form(preset("meio")))
True
"""

from __future__ import annotations

import dataclasses
import re

from meio.engine.config import MatchConfig
from meio.engine.errors import MeioError
from meio.engine.presets import is_standard
from meio.engine.ruleset import Variant

#: the named policies (``learned:FILE``, ``search:5:FILE`` and ``search:6:FILE`` too)
NAMED = ("random", "heuristic", "learned", "ppo", "search", "expert")
_SEARCH = re.compile(r"search:[1-6]")
#: what every policy is, in words, where it plays by the same algorithm on any ruleset
_SAME_EVERYWHERE = {"random": "random legal moves"}


def known(policy: str) -> bool:
    """Whether ``policy`` names a player the lab can seat.

    >>> [known(p) for p in ("expert", "search:3", "learned:x.npz", "search:9", "grand")]
    [True, True, True, False, False]
    """
    return (policy in NAMED or bool(_SEARCH.fullmatch(policy))
            or policy.startswith(("learned:", "search:5:", "search:6:")))


def is_search(policy: str) -> bool:
    """Whether ``policy`` is a search bot (seconds a decision, not microseconds)."""
    return policy == "expert" or policy.startswith("search")


def plays(policy: str, variant: Variant, players: int) -> bool:
    """Whether the ``policy`` bot plays ``variant`` at a table of ``players`` (every bot
    plays an edition; on any other ruleset :func:`meio.bots.variant_play.plays_ruleset`
    decides, so a bot that learns to play any ruleset is seated here with no change)."""
    from meio.bots.variant_play import plays_ruleset

    config = MatchConfig(edition=variant.edition, players=players, variant=variant,
                         options=variant.options)
    return plays_ruleset(policy, config)


def who_plays_variants() -> str:
    """The bots that play any ruleset, for an error line."""
    from meio.bots.variant_play import VARIANT_BOTS

    return ", ".join(VARIANT_BOTS)


class PlayerError(MeioError, ValueError):
    """A player that cannot play a ruleset the lab was asked about."""


def check_plays(policy: str, variant: Variant, players: tuple[int, ...]) -> None:
    """Raise :class:`PlayerError` (one line) when ``policy`` cannot play ``variant``."""
    for n in players:
        if not plays(policy, variant, n):
            raise PlayerError(
                f"the {policy.split(':')[0] if policy.startswith('learned:') else policy} "
                f"bot does not play the ruleset {variant.name!r} (its network reads the "
                f"editions' cards); analyze it with --bots {who_plays_variants()}")


def player(policy: str, variant: Variant) -> str:
    """The algorithm ``policy`` runs on ``variant``, in words: two rulesets whose texts
    are equal are played by the same player."""
    if policy in _SAME_EVERYWHERE:
        return _SAME_EVERYWHERE[policy]
    edition = is_standard(variant)
    if policy == "heuristic":
        return ("heuristic bot, the editions' policy (meio.bots.policy)" if edition else
                "heuristic bot, the general rule of any ruleset (meio.bots.variant_play)")
    if is_search(policy) and not policy.startswith(("search:5", "search:6")):
        return (f"{policy}: search with the editions' heuristic in its playouts and "
                "split candidates, worlds weighed by the play" if edition else
                f"{policy}: search with the general rule in its playouts and split "
                "candidates, uniform worlds")
    if policy == "learned":
        return ("learned: the editions' network (learned-v7)" if edition else
                "learned: the network for any ruleset (learned-any-v1)")
    return f"{policy}: the network" + ("" if edition else " (on a ruleset of its own)")


def general_form(variant: Variant) -> Variant:
    """``variant`` as a ruleset the bots play by their general path: an edition gets
    one table size's match format written out (the format that size already had), so
    the deals, the rules and every result stay the same while
    :func:`meio.engine.presets.is_standard` no longer holds; any other ruleset is
    returned as it is.

    >>> from meio.engine.presets import preset
    >>> g = general_form(preset("classic"))
    >>> is_standard(g), g.format_for(2, False) == preset("classic").format_for(2, False)
    (False, True)
    """
    if not is_standard(variant):
        return variant
    written = dict(variant.formats)
    for n in variant.players:
        if str(n) not in written:
            fmt = variant.format_for(n, False)
            return dataclasses.replace(variant, formats=(*variant.formats, (str(n), fmt)))
    raise PlayerError(f"the ruleset {variant.name!r} states every table's format; it has "
                      "no general form")  # no preset does: each leaves a size to default
