"""MEIO as an OpenSpiel game: ``import meio.openspiel`` registers ``"meio"``.

>>> import pyspiel
>>> import meio.openspiel
>>> game = pyspiel.load_game("meio", {"players": 3, "one_round": True})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), game.num_distinct_actions()
(True, 1812)

Parameters: ``players`` (2–5), ``edition`` (``meio``/``classic``), ``partnership``,
``specials`` (codes joined by commas, ``""``: drawn by chance), the RULES.md §10
options ``wild_lead`` and ``reveal_specials``, and ``one_round`` (stop after the
first round: a research variant, and quick for tests).

Chance is explicit, as in OpenSpiel's Hearts: the set of specials (outcome: its
index among the ``C(5, N)`` sets), round 1's leader, every card dealt (outcome:
the card id; seat 0 gets the first 13, and so on) and each next-round leader
drawn among tied seats. Player actions are :mod:`meio.rl.spaces` flat actions
(the split as one of 1,716 packs, seats splitting in turn without seeing each
other's packs). Returns: minus each seat's total score (its team's in
partnership), so 0 is perfect play.

The information state string holds the seat's own cards and every public
action; the tensors are :func:`meio.rl.observe` (observation) and that plus the
round's play order and declared suits (information state).
:meth:`MeioState.resample_from_infostate` deals the hidden cards with
:func:`meio.engine.sample_world` (earlier rounds are public: every card dealt in
them was played), so OpenSpiel's ``ISMCTSBot`` runs on MEIO unchanged.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pyspiel

from meio.engine import MatchConfig, Phase, State, View, eligible_leaders, sample_world
from meio.engine import actions as A
from meio.engine import cards as C
from meio.rl import observation as O
from meio.rl import spaces as S
from meio.rl.table import _config

_DEFAULTS: dict[str, Any] = {
    "players": 4,
    "edition": "meio",
    "partnership": False,
    "specials": "",
    "wild_lead": "declare",
    "reveal_specials": True,
    "one_round": False,
}
INFO_EXTRA = 65 + 13 * 4  # play order of each card, declared suit of each trick
INFO_SIZE = O.OBS_SIZE + INFO_EXTRA

_GAME_TYPE = pyspiel.GameType(
    short_name="meio",
    long_name="MEIO",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=5,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


@dataclass(frozen=True, slots=True)
class Rules:
    """The game's parameters as match settings (plain data: states copy it cheaply)."""

    players: int
    edition: str
    partnership: bool
    wild_lead: str
    reveal_specials: bool
    one_round: bool
    combos: tuple[tuple[int, ...], ...]

    def config(self, combo: int, leader: int) -> MatchConfig:
        """The match config with specials ``combos[combo]`` and ``leader`` leading round 1."""
        return _config(self.edition, self.players, self.partnership,
                       self.combos[combo] or None, leader, self.wild_lead,
                       self.reveal_specials)


def rules_of(params: dict[str, Any]) -> Rules:
    """Check game parameters (a clear :class:`meio.engine.ConfigError` if wrong)."""
    p = {**_DEFAULTS, **params}
    players = int(p["players"])
    fixed = tuple(C.parse_card(x) for x in str(p["specials"]).split(",") if x.strip())
    probe = _config(str(p["edition"]), players, bool(p["partnership"]), fixed or None, 0,
                    str(p["wild_lead"]), bool(p["reveal_specials"]))
    if probe.edition == "classic":
        combos: tuple[tuple[int, ...], ...] = ((),)
    elif fixed:
        combos = (probe.special_cards,)
    else:
        combos = tuple(itertools.combinations(C.SPECIALS, players))
    return Rules(players, probe.edition, probe.partnership, str(p["wild_lead"]),
                 bool(p["reveal_specials"]), bool(p["one_round"]), combos)


class MeioGame(pyspiel.Game):  # type: ignore[misc]
    """The game: its parameters made into match settings."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        self.rules = rules_of(p)
        players = self.rules.players
        rounds = 1 if self.rules.one_round else 3
        info = pyspiel.GameInfo(
            num_distinct_actions=S.NUM_ACTIONS,
            max_chance_outcomes=max(65, len(self.rules.combos)),
            num_players=players,
            min_utility=-13.0 * rounds,
            max_utility=0.0,
            utility_sum=None,
            max_game_length=rounds * (14 * players + 13),
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> MeioState:
        return MeioState(self, self.rules)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> MeioObserver:
        perfect = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return MeioObserver(perfect)


class MeioState(pyspiel.State):  # type: ignore[misc]
    """A match in progress: chance events, then the engine's state."""

    def __init__(self, game: MeioGame, rules: Rules) -> None:
        super().__init__(game)
        self._rules = rules
        self.combo = -1 if len(rules.combos) > 1 else 0
        self.leader = -1
        self.dealing: list[int] = []
        self.deals: list[tuple[tuple[int, ...], int, int]] = []
        self.history: list[tuple[int, int]] = []
        self.engine: State | None = None
        self.config: MatchConfig | None = None
        self.tied: tuple[int, ...] = ()

    # -- whose turn --------------------------------------------------------------------
    def _round_over(self) -> bool:
        st = self.engine
        return st is not None and len(st.rounds) > len(self.deals) - 1

    def _finished(self) -> bool:
        st = self.engine
        if st is None:
            return False
        return st.is_over or (self._rules.one_round and len(st.rounds) >= 1)

    def current_player(self) -> int:
        if self._finished():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.engine is None or self._round_over():
            return int(pyspiel.PlayerId.CHANCE)
        return self.engine.current_seat()

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        return [int(a) for a in np.flatnonzero(S.legal_mask(self.engine, player))]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        game = self._rules
        if self.combo < 0:
            n = len(game.combos)
            return [(k, 1.0 / n) for k in range(n)]
        if self.leader < 0 and not self.deals:
            return [(p, 1.0 / game.players) for p in range(game.players)]
        if self.tied and self.leader < 0:
            return [(p, 1.0 / len(self.tied)) for p in self.tied]
        assert self.config is not None
        left = C.cards_of(self.config.deck & ~C.mask_of(self.dealing))
        return [(c, 1.0 / len(left)) for c in left]

    # -- acting ------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._apply_chance(int(action))
            return
        st = self.engine
        assert st is not None
        seat = st.current_seat()
        if S.PACK_BASE <= action < S.PICK_BASE:
            engine_action = A.pack_action(S.pack_of_number(st.hands[seat], action - S.PACK_BASE))
        else:
            engine_action = int(action)
        st.apply(engine_action, seat)
        self.history.append((seat, engine_action))
        if self._round_over() and not self._finished():
            ties = eligible_leaders(st.config, st.rounds[-1])
            self.leader = -1
            self.tied = ties
            if len(ties) == 1:
                self.leader = ties[0]
                self.tied = ()

    def _apply_chance(self, outcome: int) -> None:
        game = self._rules
        if self.combo < 0:
            self.combo = outcome
            return
        if self.leader < 0:
            self.leader = outcome
            self.tied = ()
            if self.config is None:
                self.config = game.config(self.combo, outcome)
            return
        self.dealing.append(outcome)
        assert self.config is not None
        if len(self.dealing) < 13 * game.players:
            return
        cards = self.dealing
        hands = tuple(C.mask_of(cards[13 * p : 13 * p + 13]) for p in range(game.players))
        aside = self.config.deck & ~C.mask_of(cards)
        self.deals.append((hands, aside, self.leader))
        self.dealing = []
        self.leader = -1 if len(self.deals) else self.leader
        self._rebuild()

    def _rebuild(self) -> None:
        assert self.config is not None
        st = State.new(self.config, deals=self.deals)
        for seat, action in self.history:
            st.apply_unchecked(action, seat)
        self.engine = st

    # -- information -------------------------------------------------------------------
    def view(self, player: int) -> View | None:
        """The engine view of ``player`` (None before the first deal is complete)."""
        return None if self.engine is None else self.engine.view(player)

    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        st = self.engine
        parts = [f"p{player}"]
        if self.config is not None and (self._rules.reveal_specials or self._rules.edition
                                        == "classic"):
            parts.append("specials " + C.format_cards(C.mask_of(self.config.special_cards)))
        if st is None:
            return " ".join(parts)
        view = st.view(player)
        parts.append("known " + C.format_cards(C.mask_of(O.known_specials(view))))
        starts = st.round_starts()[: len(self.deals)]
        for r, start in enumerate(starts):
            parts.append(f"| r{r + 1} lead {start.leader} dealt "
                         f"{C.format_cards(start.deal[player])}")
        for seat, action in self.history:
            if A.is_pack(action):
                own = seat == player or (
                    self._rules.partnership and seat == (player + 2) % 4
                    and st.phase is not Phase.SPLIT  # a partner's pack is seen after the split
                )
                text = A.action_text(action) if own else "split"
                parts.append(f"{seat}:{text}")
            else:
                parts.append(f"{seat}:{A.action_text(action)}")
        return " ".join(parts)

    def observation_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        st = self.engine
        if st is None:
            return f"p{player} dealing"
        v = st.view(player)
        trick = " ".join(f"{s}:{C.card_code(c)}" for s, c in v.current_trick)
        return (f"p{player} r{v.round_index + 1} t{v.trick_number} {v.phase.name} "
                f"hand {C.format_cards(v.hand)} pack {C.format_cards(v.pack)} "
                f"recv {C.format_cards(v.received)} trick [{trick}] piles {list(v.piles)} "
                f"totals {list(v.totals)}")

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MeioState:
        """A state ``player_id`` cannot tell from this one, the hidden cards dealt at
        random (:func:`meio.engine.sample_world`)."""
        st = self.engine
        if st is None or self.is_chance_node() or self._finished():
            return self.clone()  # type: ignore[no-any-return]
        seed = int(probability_sampler() * 2**62) if callable(probability_sampler) else 0
        world = sample_world(st.view(player_id), random.Random(seed))
        out = MeioState(self.get_game(), self._rules)
        assert self.config is not None
        # with hidden specials the world may hold other specials than the real deck
        config = replace(self.config, specials=world.config.specials)
        combos = self._rules.combos
        combo = combos.index(config.special_cards) if config.special_cards in combos else 0
        out.combo, out.leader, out.config, out.tied = combo, -1, config, ()
        # earlier rounds are public: every card dealt was played
        begin = st.round_starts()[-1].history_len
        out.deals = [*self.deals[:-1], (tuple(world.deal), world.aside,
                                        self.deals[-1][2])]
        out.history = list(self.history[:begin])
        for seat, action in self.history[begin:]:
            if A.is_pack(action) and seat != player_id:
                action = A.pack_action(world.packs[seat])
            out.history.append((seat, action))
        out._rebuild()
        return out

    def is_terminal(self) -> bool:
        return self._finished()

    def returns(self) -> list[float]:
        st = self.engine
        n = self._rules.players
        if st is None:
            return [0.0] * n
        out = [0.0] * n
        for result in st.rounds:
            for p in range(n):
                if result.team_scores is not None:
                    out[p] -= result.team_scores[p % 2]
                else:
                    out[p] -= result.scores[p]
        return out

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.combo < 0:
                return "specials " + C.format_cards(C.mask_of(self._rules.combos[action]))
            if self.leader < 0:
                return f"leader {action}"
            return f"deal {C.card_code(action)}"
        if S.PACK_BASE <= action < S.PICK_BASE:
            return f"pack#{action - S.PACK_BASE}"
        return A.action_text(action)

    def __str__(self) -> str:
        return "dealing" if self.engine is None else repr(self.engine)


class MeioObserver:
    """Observation (``perfect_recall`` False) and information-state tensors and strings."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = INFO_SIZE if perfect_recall else O.OBS_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[: O.OBS_SIZE]}
        if perfect_recall:
            self.dict["play_order"] = self.tensor[O.OBS_SIZE : O.OBS_SIZE + 65]
            self.dict["declared"] = self.tensor[O.OBS_SIZE + 65 :].reshape(13, 4)

    def set_from(self, state: MeioState, player: int) -> None:
        self.tensor.fill(0.0)
        st = state.engine
        if st is None:
            return
        view = st.view(player)
        O.observe(view, out=self.dict["observation"])
        if self.perfect_recall:
            order = 0
            for t, trick in enumerate(view.tricks):
                if trick.declared >= 0:
                    self.dict["declared"][t, trick.declared] = 1.0
                for _, card in trick.plays:
                    order += 1
                    self.dict["play_order"][card] = order / 65.0
            for i, (_, card) in enumerate(view.current_trick):
                order += 1
                self.dict["play_order"][card] = order / 65.0
                if i == 0 and C.is_wild(card) and view.led_suit >= 0:
                    self.dict["declared"][len(view.tricks), view.led_suit] = 1.0

    def string_from(self, state: MeioState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


pyspiel.register_game(_GAME_TYPE, MeioGame)
