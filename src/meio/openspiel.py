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
the card id; seat 0 gets the first 13, and so on; where no card is set aside,
the last seat's hand is the 13 cards left, dealt without chance nodes of their
own) and each next-round leader drawn among tied seats. Player actions are
:mod:`meio.bots.spaces` flat actions: the split as one of 1,716 packs, or with
``split_mode="sequential"`` as six picks, seats splitting in turn without
seeing each other's packs. Rewards (``RewardModel.REWARDS``): the decision that ends a
round rewards every seat with minus its round score (its team's in
partnership), a reward kept through the next deal's chance nodes, as in
OpenSpiel's cribbage; so ``returns()`` is at every node the sum of the
rewards so far, minus each seat's total score, and 0 is perfect play.

The information state string holds the seat's own cards and every public
action; the tensors are :func:`meio.rl.observe` (observation) and that plus the
round's play order and declared suits (information state).
:meth:`MeioState.resample_from_infostate` deals the hidden cards with
:func:`meio.engine.sample_world` (earlier rounds are public: every card dealt in
them was played). :class:`ISMCTSBot` is OpenSpiel's Python ISMCTS made
reproducible from a seed and playable by ``evaluate_bots``; OpenSpiel's C++
``pyspiel.ISMCTSBot`` cannot search Python games (docs/rl.md).
"""

from __future__ import annotations

import functools
import itertools
import random
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from meio.bots import observation as O
from meio.bots import spaces as S
from meio.engine import (
    ConfigError,
    IllegalActionError,
    MatchConfig,
    Phase,
    State,
    View,
    eligible_leaders,
    sample_world,
)
from meio.engine import actions as A
from meio.engine import cards as C
from meio.rl.table import _config

_DEFAULTS: dict[str, Any] = {
    "players": 4,
    "edition": "meio",
    "partnership": False,
    "specials": "",
    "wild_lead": "declare",
    "reveal_specials": True,
    "one_round": False,
    "split_mode": "pack",
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
    reward_model=pyspiel.GameType.RewardModel.REWARDS,
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
    sequential: bool  # split_mode "sequential": six picks of one card each

    def config(self, combo: int, leader: int) -> MatchConfig:
        """The match config with specials ``combos[combo]`` and ``leader`` leading round 1."""
        return _config(self.edition, self.players, self.partnership,
                       self.combos[combo] or None, leader, self.wild_lead,
                       self.reveal_specials)

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        return self  # frozen: a state's clone shares it


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
    mode = str(p["split_mode"])
    if mode not in ("pack", "sequential"):
        raise ConfigError(f"split_mode is 'pack' or 'sequential', not {mode!r}")
    return Rules(players, probe.edition, probe.partnership, str(p["wild_lead"]),
                 bool(p["reveal_specials"]), bool(p["one_round"]), combos,
                 mode == "sequential")


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
            max_game_length=rounds * ((19 if self.rules.sequential else 14) * players + 13),
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> MeioState:
        return MeioState(self, self.rules)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> MeioObserver:
        perfect = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return MeioObserver(perfect)


_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_COMBO, _LEADER, _DEAL = 0, 1, 2  # what the chance node draws
_PACK_ACTIONS = list(range(S.PACK_BASE, S.PICK_BASE))
_ZEROS = tuple((0.0,) * n for n in range(6))
#: ``_PAIRS[n][k]`` is the chance outcome ``(k, 1/n)``: built once, not per node
_PAIRS = [[(k, 1.0 / n) for k in range(65)] if n else [] for n in range(66)]


@functools.lru_cache(maxsize=64)
def _split_cards(hand: int) -> tuple[int, ...]:
    """The 13 cards of a hand being split, by id: pick ``i`` takes the ``i``-th."""
    return tuple(C.cards_of(hand))


class _Match:
    """What changes in a state, in one object that copies itself cheaply (OpenSpiel's
    ``clone()`` deep-copies each attribute of a Python state)."""

    __slots__ = (
        "combo",
        "config",
        "dealing",
        "deals",
        "engine",
        "leader",
        "left",
        "legal",
        "orders",
        "picks",
        "player",
        "reward",
        "stage",
        "tied",
        "totals",
    )

    def __init__(self, rules: Rules) -> None:
        n = rules.players
        self.player = _CHANCE  # the OpenSpiel player to act, kept up to date
        self.stage = _COMBO if len(rules.combos) > 1 else _LEADER
        self.combo = -1 if len(rules.combos) > 1 else 0
        self.leader = -1
        self.tied: tuple[int, ...] = ()  # seats tied to lead the next round
        self.config: MatchConfig | None = None
        self.left: list[int] = []  # cards still to deal this round, by id
        self.dealing: list[int] = []  # cards dealt this round, in order
        self.deals: list[tuple[tuple[int, ...], int, int]] = []
        self.engine: State | None = None
        self.legal: list[int] | None = None  # the legal actions, once asked for
        self.picks: list[int] = []  # sequential split: the cards the seat to act picked
        self.orders: list[tuple[int, ...]] = []  # the picks of each pack in the history
        self.reward: tuple[float, ...] = _ZEROS[n]
        self.totals: tuple[float, ...] = _ZEROS[n]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Match:
        out = _Match.__new__(_Match)
        out.player, out.stage, out.combo, out.leader = (self.player, self.stage,
                                                        self.combo, self.leader)
        out.tied, out.config, out.reward, out.totals = (self.tied, self.config,
                                                        self.reward, self.totals)
        out.left, out.dealing, out.deals = (self.left.copy(), self.dealing.copy(),
                                            self.deals.copy())
        out.engine = None if self.engine is None else self.engine.clone()
        out.legal = self.legal  # never changed in place
        out.picks, out.orders = self.picks.copy(), self.orders.copy()
        return out


class MeioState(pyspiel.State):  # type: ignore[misc]
    """A match in progress: chance events, then the engine's state.

    The queries an agent's loop makes (``current_player``, ``is_terminal``,
    ``is_chance_node``, ``legal_actions``, ``chance_outcomes``, ``rewards``) answer
    from Python directly, from values kept up to date by each action; OpenSpiel's
    C++ code reaches the same answers through its hooks (``_legal_actions`` ...).
    """

    def __init__(self, game: MeioGame, rules: Rules) -> None:
        super().__init__(game)
        self._rules = rules
        self._m = _Match(rules)

    @property
    def engine(self) -> State | None:
        """The engine state (None before the first deal is complete). Hidden cards:
        hand a player :meth:`view` instead."""
        return self._m.engine

    @property
    def config(self) -> MatchConfig | None:
        """The match config (None until the specials and first leader are drawn)."""
        return self._m.config

    # -- whose turn --------------------------------------------------------------------
    def current_player(self) -> int:
        return self._m.player

    def is_terminal(self) -> bool:
        return self._m.player == _TERMINAL

    def is_chance_node(self) -> bool:
        return self._m.player == _CHANCE

    def _legal(self) -> list[int]:
        """The current player's legal flat actions, sorted (cached until the next action)."""
        m = self._m
        if m.legal is None:
            st = m.engine
            assert st is not None
            if st.phase is Phase.SPLIT and self._rules.sequential:
                cards = _split_cards(st.hands[m.player])
                m.legal = [S.PICK_BASE + i for i, c in enumerate(cards) if c not in m.picks]
            elif st.phase is Phase.SPLIT:
                m.legal = _PACK_ACTIONS
            else:  # play and pile actions are the engine's own, declares above cards
                m.legal = sorted(st.legal_actions())
        return m.legal

    def legal_actions(self, player: int | None = None) -> list[int]:
        p = self._m.player
        if p == _TERMINAL:
            return []
        if p == _CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if player is None or player == p:
            return list(self._legal())
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        m = self._m
        if m.player != _CHANCE:
            return []
        if m.stage == _DEAL:
            pairs = _PAIRS[len(m.left)]
            return [pairs[c] for c in m.left]
        if m.stage == _COMBO:
            n = len(self._rules.combos)
            return _PAIRS[n][:n]
        if m.tied:
            pairs = _PAIRS[len(m.tied)]
            return [pairs[s] for s in m.tied]
        n = self._rules.players
        return _PAIRS[n][:n]

    # -- acting ------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        m = self._m
        seat = m.player
        if seat < 0:
            if seat != _CHANCE:
                raise IllegalActionError(None, action, "the match is over")
            self._apply_chance(m, int(action))
            return
        st = m.engine
        assert st is not None
        if st.phase is Phase.SPLIT and self._rules.sequential:
            legal = self._legal()
            if action not in legal:
                raise IllegalActionError(seat, action, f"flat action {action} is not a "
                                         f"pick seat {seat} may make now")
            m.picks.append(_split_cards(st.hands[seat])[action - S.PICK_BASE])
            m.legal = [a for a in legal if a != action]
            m.reward = _ZEROS[self._rules.players]
            if len(m.picks) < 6:
                return
            engine_action = A.pack_action(C.mask_of(m.picks))
            m.orders.append(tuple(m.picks))
            m.picks, m.legal = [], None
        elif st.phase is Phase.SPLIT and S.PACK_BASE <= action < S.PICK_BASE:
            engine_action = A.pack_action(S.pack_of_number(st.hands[seat],
                                                           action - S.PACK_BASE))
        elif action in self._legal():
            engine_action = int(action)
        else:
            raise IllegalActionError(seat, action,
                                     f"flat action {action} is not legal for seat {seat} now")
        rounds = len(st.rounds)
        st.apply_unchecked(engine_action, seat)
        m.legal = None
        m.reward = _ZEROS[self._rules.players]
        if len(st.rounds) > rounds:
            self._end_round(m, st)
        else:
            m.player = st.current_seat()

    def _end_round(self, m: _Match, st: State) -> None:
        """Reward every seat with minus its round score (its team's in partnership),
        then stop or draw the next round's leader and deal."""
        result = st.rounds[-1]
        if result.team_scores is not None:
            teams = result.team_scores
            m.reward = tuple(-float(teams[p % 2]) for p in range(self._rules.players))
        else:
            m.reward = tuple(-float(s) for s in result.scores)
        m.totals = tuple(t + r for t, r in zip(m.totals, m.reward, strict=True))
        if st.is_over or self._rules.one_round:
            m.player = _TERMINAL
            return
        assert m.config is not None
        ties = eligible_leaders(m.config, result)
        m.leader, m.tied = (ties[0], ()) if len(ties) == 1 else (-1, ties)
        m.stage = _DEAL if len(ties) == 1 else _LEADER
        m.left = C.cards_of(m.config.deck)
        m.player = _CHANCE

    def _apply_chance(self, m: _Match, outcome: int) -> None:
        rules = self._rules
        if m.stage == _COMBO:
            if not 0 <= outcome < len(rules.combos):
                raise IllegalActionError(None, outcome, f"there is no set of specials {outcome}")
            m.combo, m.stage = outcome, _LEADER
            return
        if m.stage == _LEADER:
            options = m.tied or range(rules.players)
            if outcome not in options:
                raise IllegalActionError(None, outcome, f"seat {outcome} may not lead now")
            m.leader, m.tied, m.stage = outcome, (), _DEAL
            if m.config is None:
                m.config = rules.config(m.combo, outcome)
                m.left = C.cards_of(m.config.deck)
            return
        try:
            m.left.remove(outcome)
        except ValueError:
            raise IllegalActionError(None, outcome,
                                     f"card {outcome} is not in the pack left to deal") from None
        m.dealing.append(outcome)
        if len(m.left) == 13 and len(m.dealing) == 13 * (rules.players - 1):
            m.dealing.extend(m.left)  # no card is set aside: the last hand is what is left
            m.left = []
        if len(m.dealing) < 13 * rules.players:
            return
        assert m.config is not None
        cards = m.dealing
        hands = tuple(C.mask_of(cards[13 * p : 13 * p + 13]) for p in range(rules.players))
        aside = C.mask_of(m.left)
        m.deals.append((hands, aside, m.leader))
        if m.engine is None:  # later rounds begin with this deal again, replaced when drawn
            m.engine = State.new(m.config, deals=m.deals * 3)
        else:
            m.engine.redeal(hands, aside, m.leader)
        m.dealing, m.left, m.leader, m.legal = [], [], -1, None
        m.player = m.engine.current_seat()

    # -- information -------------------------------------------------------------------
    def view(self, player: int) -> View | None:
        """The engine view of ``player`` (None before the first deal is complete)."""
        st = self._m.engine
        return None if st is None else st.view(player)

    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        m = self._m
        st = m.engine
        parts = [f"p{player}"]
        if m.config is not None and (self._rules.reveal_specials or self._rules.edition
                                     == "classic"):
            parts.append("specials " + C.format_cards(C.mask_of(m.config.special_cards)))
        if st is None:
            return " ".join(parts)
        view = st.view(player)
        parts.append("known " + C.format_cards(C.mask_of(O.known_specials(view))))
        starts = st.round_starts()[: len(m.deals)]
        for r, start in enumerate(starts):
            parts.append(f"| r{r + 1} lead {start.leader} dealt "
                         f"{C.format_cards(start.deal[player])}")
        sequential = self._rules.sequential
        orders = iter(m.orders)
        for seat, action in st.history:
            if not A.is_pack(action):
                parts.append(f"{seat}:{A.action_text(action)}")
                continue
            seen = seat == player or (
                self._rules.partnership and seat == (player + 2) % 4
                and st.phase is not Phase.SPLIT  # a partner's pack is seen after the split
            )
            if sequential:  # a seat's own picks in their order, the others' unseen
                order = next(orders)
                if seat == player:
                    parts.extend(f"{seat}:pick:{C.card_code(c)}" for c in order)
                    continue
                parts.extend([f"{seat}:pick"] * 6)
            parts.append(f"{seat}:{A.action_text(action) if seen else 'split'}")
        for card in m.picks:  # the seat to act is picking
            parts.append(f"{m.player}:pick:{C.card_code(card)}" if m.player == player
                         else f"{m.player}:pick")
        return " ".join(parts)

    def picked(self, player: int) -> int:
        """The cards ``player`` has picked so far in a sequential split (a mask)."""
        m = self._m
        return C.mask_of(m.picks) if player == m.player else 0

    def observation_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        st = self._m.engine
        if st is None:
            return f"p{player} dealing"
        v = st.view(player)
        picked = self.picked(player)
        trick = " ".join(f"{s}:{C.card_code(c)}" for s, c in v.current_trick)
        return (f"p{player} r{v.round_index + 1} t{v.trick_number} {v.phase.name} "
                f"hand {C.format_cards(v.hand & ~picked)} "
                f"pack {C.format_cards(v.pack | picked)} "
                f"recv {C.format_cards(v.received)} trick [{trick}] piles {list(v.piles)} "
                f"totals {list(v.totals)}")

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MeioState:
        """A state ``player_id`` cannot tell from this one, the hidden cards dealt at
        random (:func:`meio.engine.sample_world`)."""
        m = self._m
        st = m.engine
        if st is None or m.player < 0:
            return self.clone()  # type: ignore[no-any-return]
        seed = int(probability_sampler() * 2**62) if callable(probability_sampler) else 0
        world = sample_world(st.view(player_id), random.Random(seed))
        out = MeioState(self.get_game(), self._rules)
        o = out._m
        assert m.config is not None
        # with hidden specials the world may hold other specials than the real deck
        config = replace(m.config, specials=world.config.specials)
        combos = self._rules.combos
        o.combo = combos.index(config.special_cards) if config.special_cards in combos else 0
        o.config, o.stage, o.reward, o.totals = config, _DEAL, m.reward, m.totals
        # earlier rounds are public: every card dealt was played
        begin = st.round_starts()[-1].history_len
        o.deals = [*m.deals[:-1], (tuple(world.deal), world.aside, m.deals[-1][2])]
        engine = State.new(config, deals=o.deals)
        orders = iter(m.orders)
        for i, (seat, action) in enumerate(st.history):
            if A.is_pack(action):
                order = next(orders) if self._rules.sequential else ()
                if seat != player_id and i >= begin:
                    action = A.pack_action(world.packs[seat])
                if seat != player_id:  # the order of another seat's picks is unseen
                    order = tuple(C.cards_of(A.pack_of(action)))
                if self._rules.sequential:
                    o.orders.append(order)
            engine.apply_unchecked(action, seat)
        o.engine, o.player = engine, m.player
        o.picks = m.picks.copy()
        if m.picks and m.player != player_id:  # another seat is picking: its picks unseen
            o.picks = random.Random(seed + 1).sample(
                C.cards_of(engine.hands[m.player]), len(m.picks))
        return out

    def rewards(self) -> list[float]:
        """Each seat's reward for the last decision: minus its round score when that
        decision ended a round (kept through the next deal's chance nodes), else 0."""
        return list(self._m.reward)

    def returns(self) -> list[float]:
        """Minus each seat's total score of the rounds played (its team's in partnership)."""
        return list(self._m.totals)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            stage = self._m.stage
            if stage == _COMBO:
                return "specials " + C.format_cards(C.mask_of(self._rules.combos[action]))
            if stage == _LEADER:
                return f"leader {action}"
            return f"deal {C.card_code(action)}"
        if S.PACK_BASE <= action < S.PICK_BASE:
            return f"pack#{action - S.PACK_BASE}"
        if S.PICK_BASE <= action < S.NUM_ACTIONS:
            return f"pick#{action - S.PICK_BASE}"
        return A.action_text(action)

    def __str__(self) -> str:
        st = self._m.engine
        return "dealing" if st is None else repr(st)


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
        O.observe(view, picked=state.picked(player), out=self.dict["observation"])
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


class ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's Python ``ISMCTSBot``, reproducible from ``seed`` and playable by
    ``evaluate_bots``.

    The stock bot resamples with a ``pyspiel.UniformProbabilitySampler`` made
    anew for each world, seeded from the clock, and has no ``restart_at``; this
    one draws every world from its own ``RandomState(seed)`` and restarts its
    search tree at each ``restart_at``. ``evaluator`` defaults to one random
    rollout, seeded from ``seed`` too; other keyword arguments are the stock
    bot's (``max_world_samples``, ``final_policy_type`` ...).
    """

    def __init__(self, game: pyspiel.Game, *, seed: int, max_simulations: int = 100,
                 uct_c: float = 2.0, evaluator: Any = None, **kwargs: Any) -> None:
        if evaluator is None:
            evaluator = mcts.RandomRolloutEvaluator(
                n_rollouts=1, random_state=np.random.RandomState([seed, 1]))
        super().__init__(game, evaluator, uct_c, max_simulations,
                         random_state=np.random.RandomState([seed, 0]), **kwargs)

    def resample_from_infostate(self, state: pyspiel.State) -> pyspiel.State:
        return state.resample_from_infostate(state.current_player(), self.random_number)

    def restart_at(self, state: pyspiel.State) -> None:
        self.reset()

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        return None  # each step searches afresh from the state it is given


pyspiel.register_game(_GAME_TYPE, MeioGame)
