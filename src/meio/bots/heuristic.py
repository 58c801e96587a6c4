"""The heuristic bot: fast, sensible, and the search bot's guide.

It splits so that its first-half hand and second-half pack are expected to take
the same number of tricks, then plays each card to bring its final
``|H - V|`` (its team's, in partnership) as close to 0 as it can: it plays to
win while a half is behind, ducks while it is ahead, and knows trumps, voids,
the special cards' half-dependent values and where ``Q+`` and ``+.5`` send a
trick. See :mod:`meio.bots.policy` for the rules it follows; a variant game
(docs/variants.md) it plays by the simpler rule of :mod:`meio.bots.variant_play`.

The general switch: ``HeuristicBot(general=True)`` (the bot ``heuristic-any``) plays
that rule on every ruleset, the editions included, so that two rulesets can be
compared under one player (``meio analyze compare``).
"""

from __future__ import annotations

from collections.abc import Sequence

from meio.bots import variant_play
from meio.bots.features import seen_from_view
from meio.bots.policy import choose_pack, choose_pile, choose_play
from meio.engine import Phase, View
from meio.engine import actions as A


class HeuristicBot:
    """Rule-based play toward balanced halves; deterministic (it uses no randomness).
    ``general``: the rule of any ruleset on every ruleset (the module docstring)."""

    def __init__(self, seed: int = 0, general: bool = False) -> None:
        self.seed = seed
        self.general = general
        self.name = "heuristic-any" if general else "heuristic"

    def choose(self, view: View, legal: Sequence[int]) -> int:
        if not legal:
            raise ValueError("no legal action to choose from")
        if not variant_play.editions_player(view.config, self.general):  # the general rule
            action = variant_play.choose(view, legal)
        elif view.phase is Phase.SPLIT:
            action = choose_pack(view.hand, view.config)
        elif view.phase is Phase.PILE:
            action = choose_pile(seen_from_view(view))
        else:
            action = choose_play(seen_from_view(view), legal)
        if action not in legal:
            raise AssertionError(f"heuristic chose {A.action_text(action)}, which is not legal")
        return action

