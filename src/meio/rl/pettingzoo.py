"""PettingZoo environments: every seat of a MEIO match is an agent.

Agents are ``"player_0"`` ... one per seat. Each observation is a dict, as in
PettingZoo's classic card games: ``"observation"`` (:func:`meio.rl.observe` of
the agent's own view) and ``"action_mask"`` (int8, :data:`meio.rl.NUM_ACTIONS`
entries, all 0 for an agent that is not to act). At the end of each round
every agent is rewarded with minus its round score (its team's in
partnership); an episode is one match.

* :func:`env` is the AEC (turn by turn) environment, wrapped as PettingZoo's
  classic games are: an illegal move ends the match, the mover rewarded
  ``illegal_reward`` (-13 by default, worse than any round) and the others 0
  (``TerminateIllegalWrapper``); an action outside the space is an error
  (``AssertOutOfBoundsWrapper``); and ``step`` before ``reset`` is refused
  (``OrderEnforcingWrapper``). :func:`raw_env` is the bare environment, which
  raises :class:`~meio.engine.IllegalActionError` on an illegal move instead. The
  simultaneous split is played one seat after another (lowest seat first); a
  seat's observation never shows another seat's pack, so splitting later reveals
  nothing.
* :func:`parallel_env` is the :class:`pettingzoo.ParallelEnv`: during the split
  every seat acts in the same step (in ``split_mode="sequential"``, six steps of
  one pick each), then one seat a step. ``step`` takes an action for each agent
  and reads only those of the agents to act (the others' are ignored).

Both have ``state()`` and ``state_space``: the **full** state, every seat's
observation side by side (``players`` × 716 entries, seat 0 first), hidden
cards included. It is for centralised critics in training (CTDE) only: a
policy that acts must see only its own observation.

``ruleset`` (a preset's name, a variant file or a :class:`~meio.engine.ruleset.Variant`:
:func:`meio.rl.table.resolve_ruleset`) plays any ruleset: on one that is not an edition
each observation is the attribute encoding (:func:`meio.bots.attributes.observe_any`,
1,941 entries) and the split's actions are those of its hand and pack
(:mod:`meio.rl.layout`).

>>> e = env(players=3, seed=5)
>>> e.reset(seed=5)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum())
('player_0', (716,), 1716)
>>> p = parallel_env(players=3)
>>> observations, infos = p.reset(seed=5)
>>> [int(observations[a]["action_mask"].sum()) for a in p.agents]  # all split at once
[1716, 1716, 1716]
>>> p.state().shape == p.state_space.shape == (3 * 716,)
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from meio.bots import spaces as S
from meio.engine import IllegalActionError, MatchConfig, Phase, State, TableOptions
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.errors import ConfigError
from meio.rl.table import RulesetLike, make_table, observation_box, observe_table

Obs = dict[str, npt.NDArray[Any]]
P = ParamSpec("P")

#: what :func:`env` rewards a seat that makes an illegal move (it ends the match)
ILLEGAL_REWARD = -13.0


class _Table:
    """What both environments share: the table's configs, the spaces, the
    observations and the full state."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "meio_v0"}  # noqa: RUF012

    def __init__(
        self,
        players: int = 4,
        edition: str = "meio",
        partnership: bool = False,
        *,
        specials: tuple[int | str, ...] | None = None,
        wild_lead: str = "declare",
        reveal_specials: bool = True,
        split_mode: S.SplitMode = "pack",
        seed: int | None = None,
        render_mode: str | None = None,
        illegal_reward: float = ILLEGAL_REWARD,
        ruleset: RulesetLike | None = None,
    ) -> None:
        """The one declaration of every environment's settings: :func:`env`,
        :func:`raw_env` and :func:`parallel_env` take these. ``illegal_reward`` is what
        :func:`env`'s wrapper rewards a seat that makes an illegal move; the bare
        environments raise instead. ``ruleset``: see the module docstring."""
        super().__init__()
        fixed = None if specials is None else tuple(
            C.parse_card(s) if isinstance(s, str) else int(s) for s in specials
        )
        table = make_table(players=players, edition=edition, partnership=partnership,
                           specials=fixed, wild_lead=wild_lead,
                           reveal_specials=reveal_specials, ruleset=ruleset)
        if split_mode not in ("pack", "sequential"):
            raise ConfigError(f"split_mode is 'pack' or 'sequential', not {split_mode!r}")
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self._base = table.config(0, 0)
        self._fixed = fixed is not None or table.combos.shape[1] == 0
        self._options = (players, partnership, table.wild_lead, table.reveal_specials)
        self.split_mode: S.SplitMode = split_mode
        self.render_mode = render_mode
        #: the flat action space of the table's hand and pack sizes (:mod:`meio.rl.layout`)
        self.layout = table.layout
        size = self.layout.size
        self.possible_agents = [f"player_{p}" for p in range(players)]
        box = observation_box(table.variant)
        space = gymnasium.spaces.Dict({
            "observation": box,
            "action_mask": gymnasium.spaces.Box(0, 1, (size,), np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(size) for a in self.possible_agents
        }
        #: the full state (every seat's observation): for centralised critics only
        self.state_space = gymnasium.spaces.Box(
            float(box.low.min()), float(box.high.max()), (players * box.shape[0],), np.float32)
        self._seed = seed
        self.illegal_reward = float(illegal_reward)
        self.agents: list[str] = []
        #: the engine state of the match (hidden cards: for the environment's own use)
        self.match: State | None = None
        self._picks = [0] * players  # sequential split: each seat's cards picked so far

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def _new_match(self, seed: int | None) -> State:
        if seed is None:
            seed = self._seed if self._seed is not None else int(np.random.randint(2**31))
        self._seed = None
        players, partnership, wild_lead, reveal = self._options
        config = MatchConfig(
            edition=self._base.edition, players=players, partnership=partnership,
            specials=self._base.specials if self._fixed else None, seed=int(seed),
            options=TableOptions("next" if wild_lead == "next" else "declare", reveal),
            variant=self._base.variant,
        )
        self.match = State.new(config)
        return self.match

    def _started(self) -> State:
        if self.match is None:
            raise IllegalActionError(None, None, "call reset() before using the environment")
        return self.match

    def _observe_seat(self, seat: int, acting: bool) -> Obs:
        state = self._started()
        picked = self._picks[seat]
        if acting:
            mask = self.layout.legal_mask(state, seat, split_mode=self.split_mode,
                                          picked=picked).astype(np.int8)
        else:
            mask = np.zeros(self.layout.size, dtype=np.int8)
        return {"observation": observe_table(state.view(seat), picked=picked),
                "action_mask": mask}

    def state(self) -> npt.NDArray[np.float32]:
        """The full state: every seat's observation, seat 0 first. It holds every
        hidden card: give it to a centralised critic, never to a policy that acts."""
        state = self._started()
        return np.concatenate([observe_table(state.view(s), picked=self._picks[s])
                               for s in range(len(self.possible_agents))])

    def _round_rewards(self, state: State) -> dict[str, float]:
        """Minus each seat's score of the round just ended (its team's in partnership)."""
        result = state.rounds[-1]
        teams = result.team_scores
        return {name: -float(teams[p % 2] if teams is not None else result.scores[p])
                for p, name in enumerate(self.possible_agents)}

    def render(self) -> str | None:
        if self.match is None:
            return None
        st = self.match
        return (f"round {st.round_index + 1} trick {st.trick_number} {st.phase.name} "
                f"piles {st.piles}")

    def close(self) -> None:
        return None


class MeioAEC(_Table, AECEnv):  # type: ignore[misc]
    """Every seat an agent, one acting at a time; see :func:`env`."""

    metadata = {**_Table.metadata, "is_parallelizable": False}  # noqa: RUF012

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        state = self._new_match(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._picks = [0] * len(self.possible_agents)
        self.agent_selection = self.possible_agents[state.current_seat()]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> Obs:
        state = self._started()
        seat = self._seat(agent)
        return self._observe_seat(seat, not state.is_over and seat == state.current_seat())

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._started()
        seat = self._seat(agent)
        a = -1 if action is None else int(action)
        lay = self.layout
        mask = lay.legal_mask(state, seat, split_mode=self.split_mode, picked=self._picks[seat])
        if not 0 <= a < lay.size or not mask[a]:
            raise IllegalActionError(seat, action, f"flat action {action} is not legal now")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        rounds_before = len(state.rounds)
        if state.phase is Phase.SPLIT:
            hand = state.hands[seat]
            if a >= lay.pick_base:
                self._picks[seat] |= 1 << lay.pick_card(a, hand)
                if self._picks[seat].bit_count() < lay.pack:
                    self._accumulate_rewards()
                    return
                state.apply(A.pack_action(self._picks[seat]), seat)
                self._picks[seat] = 0
            else:
                state.apply(A.pack_action(lay.pack_of_number(hand, a - S.PACK_BASE)), seat)
        else:
            state.apply(a, seat)
        if len(state.rounds) > rounds_before:
            self.rewards = self._round_rewards(state)
        if state.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[state.current_seat()]
        self._accumulate_rewards()


class MeioParallel(_Table, ParallelEnv):  # type: ignore[misc]
    """Every seat an agent, all acting at once during the split; see :func:`parallel_env`."""

    def _observations(self, state: State) -> dict[str, Obs]:
        acting = set(state.seats_to_act())
        return {a: self._observe_seat(s, s in acting)
                for s, a in enumerate(self.possible_agents)}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        state = self._new_match(seed)
        self.agents = list(self.possible_agents)
        self._picks = [0] * len(self.possible_agents)
        return self._observations(state), {a: {} for a in self.agents}

    def step(self, actions: dict[str, int]) -> tuple[
        dict[str, Obs], dict[str, float], dict[str, bool], dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        state = self._started()
        if not self.agents:
            raise IllegalActionError(None, None, "the match is over: call reset()")
        acting = state.seats_to_act()
        lay = self.layout
        chosen: list[tuple[int, int]] = []  # (seat, flat action), all checked first
        for seat in acting:
            agent = self.possible_agents[seat]
            if agent not in actions or actions[agent] is None:
                raise IllegalActionError(seat, None, f"{agent} is to act and gave no action")
            a = int(actions[agent])
            mask = lay.legal_mask(state, seat, split_mode=self.split_mode,
                                  picked=self._picks[seat])
            if not 0 <= a < lay.size or not mask[a]:
                raise IllegalActionError(seat, a, f"flat action {a} is not legal for {agent} now")
            chosen.append((seat, a))
        rounds_before = len(state.rounds)
        for seat, a in chosen:
            if state.phase is not Phase.SPLIT:
                state.apply(a, seat)
            elif a >= lay.pick_base:
                self._picks[seat] |= 1 << lay.pick_card(a, state.hands[seat])
            else:
                state.apply(A.pack_action(lay.pack_of_number(state.hands[seat],
                                                             a - S.PACK_BASE)), seat)
        if state.phase is Phase.SPLIT and all(p.bit_count() == lay.pack for p in self._picks):
            for seat, pack in enumerate(self._picks):
                state.apply(A.pack_action(pack), seat)
            self._picks = [0] * len(self._picks)
        rewards = dict.fromkeys(self.agents, 0.0)
        if len(state.rounds) > rounds_before:
            rewards = self._round_rewards(state)
        over = state.is_over
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        observations = self._observations(state)
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos


def _as_classic(raw_env: Callable[P, MeioAEC]) -> Callable[P, AECEnv]:
    """``raw_env`` with its environment wrapped as PettingZoo's classic games are."""

    @functools.wraps(raw_env)
    def env(*args: P.args, **kwargs: P.kwargs) -> AECEnv:
        raw = raw_env(*args, **kwargs)
        wrapped = wrappers.TerminateIllegalWrapper(raw, illegal_reward=raw.illegal_reward)
        wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
        return wrappers.OrderEnforcingWrapper(wrapped)

    return env


#: the bare MEIO AEC environment (its settings: :class:`MeioAEC`): an illegal move
#: raises :class:`~meio.engine.IllegalActionError` and changes nothing
raw_env = MeioAEC
#: a MEIO AEC environment, wrapped as PettingZoo's classic games are (see the module
#: docstring); ``env(...).unwrapped`` is the :class:`MeioAEC`
env = _as_classic(MeioAEC)
#: a MEIO parallel environment (see the module docstring; its settings:
#: :class:`MeioParallel`)
parallel_env = MeioParallel
