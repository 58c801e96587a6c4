"""A PettingZoo AEC environment: every seat of a MEIO match is an agent.

Agents are ``"player_0"`` ... one per seat. Each observation is a dict, as in
PettingZoo's classic card games: ``"observation"`` (:func:`meio.rl.observe` of
the agent's own view) and ``"action_mask"`` (int8, :data:`meio.rl.NUM_ACTIONS`
entries). The simultaneous split is played one seat after another (lowest seat
first); a seat's observation never shows another seat's pack, so splitting
later reveals nothing. At the end of each round every agent is rewarded with
minus its round score (its team's in partnership); an episode is one match.

>>> e = env(players=3, seed=5)
>>> e.reset(seed=5)
>>> obs, reward, terminated, truncated, info = e.last()
>>> e.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum())
('player_0', (716,), 1716)
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from meio.engine import IllegalActionError, MatchConfig, Phase, State
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.errors import ConfigError
from meio.rl import spaces as S
from meio.rl.observation import OBS_SIZE, observe
from meio.rl.table import make_table


def env(
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
) -> MeioAEC:
    """A MEIO AEC environment (see the module docstring)."""
    return MeioAEC(players=players, edition=edition, partnership=partnership,
                   specials=specials, wild_lead=wild_lead, reveal_specials=reveal_specials,
                   split_mode=split_mode, seed=seed, render_mode=render_mode)


class MeioAEC(AECEnv):  # type: ignore[misc]
    """Every seat an agent; see :func:`env`."""

    metadata = {"render_modes": ["ansi"], "name": "meio_v0", "is_parallelizable": False}  # noqa: RUF012

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
    ) -> None:
        super().__init__()
        fixed = None if specials is None else tuple(
            C.parse_card(s) if isinstance(s, str) else int(s) for s in specials
        )
        table = make_table(players=players, edition=edition, partnership=partnership,
                           specials=fixed, wild_lead=wild_lead,
                           reveal_specials=reveal_specials)
        self._config_for = table.config
        self._fixed = fixed is not None or table.edition == "classic"
        self._options = (edition, players, partnership, wild_lead, reveal_specials)
        if split_mode not in ("pack", "sequential"):
            raise ConfigError(f"split_mode is 'pack' or 'sequential', not {split_mode!r}")
        self.split_mode: S.SplitMode = split_mode
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(players)]
        space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (S.NUM_ACTIONS,), np.int8),
        })
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {
            a: gymnasium.spaces.Discrete(S.NUM_ACTIONS) for a in self.possible_agents
        }
        self._seed = seed
        self._picked = 0
        self.state: State | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the match -----------------------------------------------------------------------
    def _new_config(self, seed: int) -> MatchConfig:
        _, players, partnership, wild_lead, reveal = self._options
        base = self._config_for(0, 0)
        kwargs: dict[str, Any] = {}
        if wild_lead != "declare" or not reveal:
            kwargs = {"wild_lead": wild_lead, "reveal_specials": reveal}
        return MatchConfig(
            edition=base.edition, players=players, partnership=partnership,
            specials=base.specials if self._fixed else None, seed=seed, **kwargs,
        )

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = self._seed if self._seed is not None else int(np.random.randint(2**31))
        self._seed = None
        self.state = State.new(self._new_config(int(seed)))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._picked = 0
        self.agent_selection = self._agent(self.state.current_seat())

    def _agent(self, seat: int) -> str:
        return self.possible_agents[seat]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.state
        if state is None:
            raise IllegalActionError(None, None, "call reset() before observe()")
        seat = self._seat(agent)
        picked = self._picked if agent == self.agent_selection else 0
        view = state.view(seat)
        if state.is_over or seat != state.current_seat():
            mask = np.zeros(S.NUM_ACTIONS, dtype=np.int8)
        else:
            mask = S.legal_mask(state, seat, split_mode=self.split_mode,
                                picked=picked).astype(np.int8)
        return {"observation": observe(view, picked=picked), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None
        seat = self._seat(agent)
        a = -1 if action is None else int(action)
        mask = S.legal_mask(state, seat, split_mode=self.split_mode, picked=self._picked)
        if not 0 <= a < S.NUM_ACTIONS or not mask[a]:
            raise IllegalActionError(seat, action, f"flat action {action} is not legal now")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        rounds_before = len(state.rounds)
        if state.phase is Phase.SPLIT:
            hand = state.hands[seat]
            if a >= S.PICK_BASE:
                self._picked |= 1 << S.pick_card(a, hand)
                if self._picked.bit_count() < 6:
                    self._accumulate_rewards()
                    return
                state.apply(A.pack_action(self._picked), seat)
                self._picked = 0
            else:
                state.apply(A.pack_action(S.pack_of_number(hand, a - S.PACK_BASE)), seat)
        else:
            state.apply(a, seat)
        if len(state.rounds) > rounds_before:
            result = state.rounds[-1]
            for p, name in enumerate(self.possible_agents):
                if result.team_scores is not None:
                    score = result.team_scores[p % 2]
                else:
                    score = result.scores[p]
                self.rewards[name] = -float(score)
        if state.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self._agent(state.current_seat())
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.state is None:
            return None
        st = self.state
        return (f"round {st.round_index + 1} trick {st.trick_number} {st.phase.name} "
                f"piles {st.piles}")

    def close(self) -> None:
        return None
