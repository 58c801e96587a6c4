"""MEIO as an OpenSpiel game: ``import meio.openspiel`` registers ``"meio"``.

>>> import pyspiel
>>> import meio.openspiel
>>> game = pyspiel.load_game("meio", {"players": 3, "one_round": True})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), game.num_distinct_actions()
(True, 1812)

Parameters (:mod:`~meio.openspiel.params`): ``players`` (2–5), ``edition``
(``meio``/``classic``), ``partnership``, ``specials`` (codes joined by commas,
``""``: drawn by chance), the RULES.md §10 options ``wild_lead`` and
``reveal_specials``, ``one_round`` (stop after the first round: a research
variant, and quick for tests), ``split_mode``, ``variant`` (a preset such as
``mini`` or a ``.toml`` file: :mod:`meio.engine.ruleset`) and ``reward`` (``score``,
or ``victory``: +1/-1 a round for two sides, a zero-sum game; the small game is
solved with :mod:`meio.openspiel.solve`).

Chance is explicit, as in OpenSpiel's Hearts: the set of specials (outcome: its
index among the ``C(5, N)`` sets), round 1's leader, every card dealt (outcome:
the card id; seat 0 gets the first 13, and so on; where no card is set aside,
the last seat's hand is the 13 cards left, dealt without chance nodes of their
own) and each next-round leader drawn among tied seats. Player actions are
:mod:`meio.bots.spaces` flat actions: the split as one of 1,716 packs, or with
``split_mode="sequential"`` as six picks, seats splitting in turn without
seeing each other's packs. Rewards (``RewardModel.REWARDS``): the decision that
ends a round rewards every seat with minus its round score (its team's in
partnership), a reward kept through the next deal's chance nodes, as in
OpenSpiel's cribbage; so ``returns()`` is at every node the sum of the rewards
so far, minus each seat's total score, and 0 is perfect play.

The information state string holds the seat's own cards and every public
action; the tensors are :func:`meio.rl.observe` (observation) and that plus the
round's play order and declared suits (information state,
:mod:`~meio.openspiel.observer`). :meth:`MeioState.resample_from_infostate`
deals the hidden cards with :func:`meio.engine.sample_world` (earlier rounds
are public: every card dealt in them was played). :class:`ISMCTSBot` is
OpenSpiel's Python ISMCTS made reproducible from a seed and playable by
``evaluate_bots``; :class:`IsmctsPlayer` runs it as a meio bot (``ismcts`` in
``meio bench``).
"""

import pyspiel

from meio.openspiel.game import MeioGame
from meio.openspiel.ismcts import ISMCTSBot, IsmctsPlayer, ismcts_player
from meio.openspiel.observer import ANY_INFO_SIZE, INFO_EXTRA, INFO_SIZE, MeioObserver
from meio.openspiel.params import GAME_TYPE, GameParameters, parameters_of
from meio.openspiel.rounds import public_rounds
from meio.openspiel.state import MeioState, state_from_view

__all__ = [
    "ANY_INFO_SIZE",
    "INFO_EXTRA",
    "INFO_SIZE",
    "GameParameters",
    "ISMCTSBot",
    "IsmctsPlayer",
    "MeioGame",
    "MeioObserver",
    "MeioState",
    "ismcts_player",
    "parameters_of",
    "public_rounds",
    "state_from_view",
]

pyspiel.register_game(GAME_TYPE, MeioGame)
