"""Who plays the lab's games: the policies ``meio analyze --bots`` takes, which of them
play a ruleset, and what algorithm each one actually runs on it.

A bot that meets an edition plays it by the editions' own policy (the heuristic's
pack ranking, search's playouts and its inference from play); on any other ruleset it
takes its general path (the rule of :mod:`meio.bots.variant_play`, the network for any
ruleset). So "the heuristic" is two players, and a comparison of an edition with a
variant under it compares a change of player as well as a change of rules.
:func:`player` names the algorithm a policy runs on a ruleset; the bots' general switch
(``heuristic-any``, ``search:K-any``, ``learned-any``:
:func:`meio.bots.variant_play.general_name`) makes a bot play its general path on an
edition too, so ``meio analyze compare`` can put one player on both sides
(``AnalysisSpec.general``).

>>> from meio.engine.presets import preset
>>> player("heuristic", preset("meio")) == player("heuristic", preset("meio"), general=True)
False
>>> player("random", preset("meio")) == player("random", preset("meio"), general=True)
True
"""

from __future__ import annotations

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


def player(policy: str, variant: Variant, general: bool = False) -> str:
    """The algorithm ``policy`` runs on ``variant`` (``general``: under the bots' general
    switch), in words: two rulesets whose texts are equal are played by the same
    player."""
    from meio.bots.variant_play import general_name

    if policy in _SAME_EVERYWHERE:
        return _SAME_EVERYWHERE[policy]
    name = general_name(policy) if general else policy
    edition = is_standard(variant) and not name.endswith("-any")
    policy = name.removesuffix("-any")
    if policy == "heuristic":
        return ("heuristic bot, the editions' policy (meio.bots.policy)" if edition else
                "heuristic bot, the general rule of any ruleset (meio.bots.variant_play)")
    if is_search(policy) and not policy.startswith(("search:5", "search:6")):
        return (f"{policy}: search with the editions' heuristic in its playouts and "
                "split candidates, worlds weighed by the play" if edition else
                f"{policy}: search with the general rule in its playouts and split "
                "candidates, worlds weighed by the play where the opponent model reads "
                "the ruleset, else uniform")
    if policy == "learned":
        return ("learned: the editions' network (learned-v7)" if edition else
                "learned: the network for any ruleset (learned-any-v1)")
    if policy in ("search:5", "search:6"):
        return (f"{policy}: search standing on the editions' network (learned-v7)" if edition
                else f"{policy}: search standing on the network for any ruleset "
                     "(learned-any-v1)")
    return f"{policy}: the network" + ("" if edition else " (on a ruleset of its own)")
