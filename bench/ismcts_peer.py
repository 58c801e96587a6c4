"""OpenSpiel's ISMCTSBot playing MEIO through a thin wrapper over the meio engine.

The peer for ``bench/strength.py --peer ismcts`` (needs the ``bench`` extra,
``open-spiel``). :class:`IsmctsPeer` is a meio :class:`~meio.bots.Bot`: it is
given a view, samples a world from it (:func:`~meio.engine.sample_world`, which
is also its resampler at every simulation), and runs OpenSpiel's
``ISMCTSBot`` over wrapped engine states for a fixed amount of CPU time.

The wrapper gives ISMCTS what it asks of a game: sequential moves, imperfect
information, legal actions, an information-state key per seat, returns at the
end of the round. Two choices make MEIO tractable for it:

* leaves are scored by one playout of the round with meio's heuristic (the
  compiled core, as the search bot's playouts), not a random one;
* at the split a seat chooses among the heuristic's best ``split_options``
  packs, not all 1,716 (ISMCTS expands one child per visit; it could not
  visit 1,716 in its budget).

Returns are the negated round score (own minus the other side's with 2
players or in partnership, as the search bot's objective).
"""

from __future__ import annotations

import random
import time
from types import SimpleNamespace
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms.ismcts import ISMCTSBot

from meio.bots.policy import rank_packs
from meio.engine import Phase, State, View, sample_world
from meio.engine import actions as A
from meio.sim import core as K
from meio.sim.convert import state_to_arrays
from meio.sim.tables import HEURISTIC_EPSILON, policy_code, tables_for

SPLIT_BASE = 1000  #: wrapper action of the i-th split option
_GAME_TYPE = SimpleNamespace(
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
)


class MeioGame:
    """The little of a pyspiel game that ISMCTSBot reads."""

    def __init__(self, split_options: int) -> None:
        self.split_options = split_options

    def get_type(self) -> Any:
        return _GAME_TYPE


class MeioSpielState:
    """A meio engine state seen through OpenSpiel's state interface, up to the end
    of the round in play."""

    __slots__ = ("_packs", "game", "rounds0", "state")

    def __init__(self, state: State, game: MeioGame, rounds0: int | None = None) -> None:
        self.state = state
        self.game = game
        self.rounds0 = len(state.rounds) if rounds0 is None else rounds0
        self._packs: dict[int, list[int]] = {}

    def get_game(self) -> MeioGame:
        return self.game

    def clone(self) -> MeioSpielState:
        return MeioSpielState(self.state.clone(), self.game, self.rounds0)

    def is_chance_node(self) -> bool:
        return False

    def is_terminal(self) -> bool:
        return len(self.state.rounds) > self.rounds0 or self.state.is_over

    def current_player(self) -> int:
        return self.state.current_seat()

    def split_packs(self, seat: int) -> list[int]:
        packs = self._packs.get(seat)
        if packs is None:
            ranking = rank_packs(self.state.hands[seat], self.state.config)
            packs = [ranking.pack(i) for i in ranking.best(self.game.split_options)]
            self._packs[seat] = packs
        return packs

    def legal_actions(self) -> list[int]:
        st = self.state
        if st.phase is Phase.SPLIT:
            return [SPLIT_BASE + i for i in range(len(self.split_packs(st.current_seat())))]
        return [int(a) for a in st.legal_actions()]

    def engine_action(self, action: int) -> int:
        if action >= SPLIT_BASE:
            return A.pack_action(self.split_packs(self.state.current_seat())[action - SPLIT_BASE])
        return action

    def apply_action(self, action: int) -> None:
        self.state.apply_unchecked(self.engine_action(int(action)))

    def information_state_string(self, player: int | None = None) -> Any:
        """A hashable key of what the seat to act knows (ISMCTS only compares keys)."""
        st = self.state
        seat = st.current_seat() if player is None else player
        received = 0
        if st.config.partnership and all(st.packs) and st.phase is not Phase.SPLIT:
            received = st.packs[(seat + 2) % 4]
        return (seat, st.phase.value, st.hands[seat], st.packs[seat], received,
                tuple(bool(p) for p in st.packs), tuple(t.plays for t in st.tricks),
                tuple(st.current_trick), st.led_suit, st.pending_pile)

    def returns(self) -> list[float]:
        result = self.state.rounds[-1]
        cfg = self.state.config
        n = cfg.players
        if result.team_scores is not None:
            own = [float(result.team_scores[s % 2]) for s in range(n)]
        else:
            own = [float(x) for x in result.scores]
        if n == 2 or cfg.partnership:
            return [own[(s + 1) % n] - own[s] for s in range(n)]
        return [-x for x in own]


class HeuristicRollout:
    """ISMCTS evaluator: one heuristic playout of the round (compiled core); uniform prior."""

    def __init__(self, seed: int) -> None:
        self.rng = np.zeros(1, dtype=np.uint64)
        self.seed = seed
        self.count = 0
        self.legal = np.zeros(32, dtype=np.int32)
        self.pack = np.zeros(6, dtype=np.int32)

    def evaluate(self, st: MeioSpielState) -> np.ndarray:
        state = st.state
        t = tables_for(state.config)
        s = state_to_arrays(state).array.copy()
        self.count += 1
        K.seed_stream(self.rng, self.seed, self.count, 0)
        K.play_out(s, t.cfg, t.ruleset, t.strength, policy_code("heuristic"), HEURISTIC_EPSILON,
                   self.rng, self.legal, self.pack)
        scores = np.zeros(state.config.players, dtype=np.int32)
        K.round_scores(s, t.cfg, t.ruleset, scores)
        n = state.config.players
        own = scores.astype(float)
        if n == 2 or state.config.partnership:
            return np.array([own[(p + 1) % n] - own[p] for p in range(n)])
        return -own

    def prior(self, st: MeioSpielState) -> list[tuple[int, float]]:
        legal = st.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class TimedISMCTS(ISMCTSBot):  # type: ignore[misc]
    """ISMCTSBot that searches for a CPU-time budget, or for ``count`` simulations when
    that is set (reproducible from the seed, unlike a budget of time)."""

    def __init__(self, game: MeioGame, evaluator: HeuristicRollout, uct_c: float,
                 seed: int) -> None:
        super().__init__(game, evaluator, uct_c, max_simulations=1,
                         random_state=np.random.RandomState(seed & 0xFFFFFFFF))
        self.budget = 0.01
        self.count: int | None = None
        self.simulations = 0

    def _more(self, done: int, stop: float) -> bool:
        if done < 2:
            return True
        return done < self.count if self.count is not None else time.process_time() < stop

    def run_search(self, state: MeioSpielState) -> list[tuple[int, float]]:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        stop = time.process_time() + self.budget
        done = 0
        while self._more(done, stop):
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.simulations += done
        return list(self.get_final_policy(state, self._root_node))


class IsmctsPeer:
    """A meio bot backed by OpenSpiel's ISMCTS; ``card_s``/``split_s`` are its CPU
    seconds per card (or pile) decision and per split, or ``simulations`` its
    simulations per card decision and per split (then it is reproducible from ``seed``)."""

    def __init__(self, seed: int, card_s: float, split_s: float, *, uct_c: float = 2.0,
                 split_options: int = 16, name: str = "ismcts",
                 simulations: tuple[int, int] | None = None) -> None:
        self.name = name
        self.card_s = card_s
        self.split_s = split_s
        self.simulations = simulations
        self.game = MeioGame(split_options)
        self.rng = random.Random(seed)
        self.bot = TimedISMCTS(self.game, HeuristicRollout(seed), uct_c, seed)
        self.bot.set_resampler(self._resample)
        self._view: View | None = None

    def _resample(self, st: MeioSpielState, player: int) -> MeioSpielState:
        assert self._view is not None
        return MeioSpielState(sample_world(self._view, self.rng), self.game)

    def choose(self, view: View, legal: Any) -> int:
        if len(legal) == 1:
            return int(legal[0])
        self._view = view
        root = MeioSpielState(sample_world(view, self.rng), self.game)
        split = view.phase is Phase.SPLIT
        self.bot.budget = self.split_s if split else self.card_s
        if self.simulations is not None:
            self.bot.count = self.simulations[1] if split else self.simulations[0]
        action = int(self.bot.step(root))
        return root.engine_action(action)
