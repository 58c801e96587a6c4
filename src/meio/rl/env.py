"""A Gymnasium environment: one seat of a MEIO match against bots.

The agent plays seat ``seat`` (0 by default); every other seat is an opponent.
An episode is one match. The reward comes at the end of each round: minus the
agent's round score (its team's score in partnership), so a perfect match
scores 0. Each step returns ``info["action_mask"]`` (see :mod:`meio.bots.spaces`)
and ``info["view"]``, the engine :class:`~meio.engine.View` of the agent's seat
for agents that want structure.

Against the compiled opponents (``"random"``, ``"heuristic"``) the match is
stepped in the compiled core (:mod:`meio.rl.compiled`: the same games, about ten
times faster) and the view is built when it is read; ``backend="engine"`` plays
it through the engine instead, as it plays against any other bot.

>>> env = MeioEnv(players=4, opponents="random", seed=7)
>>> obs, info = env.reset()
>>> obs.shape, int(info["action_mask"].sum())
((716,), 1716)
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> total, done = 0.0, False
>>> while not done:
...     action = rng.choice(np.flatnonzero(info["action_mask"]))
...     obs, reward, done, truncated, info = env.step(action)
...     total += reward
>>> total <= 0 and env.state.is_over
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, SupportsFloat

import gymnasium as gym
import numpy as np

from meio.bots import Bot, make_bot
from meio.bots import spaces as S
from meio.bots.observation import F32
from meio.engine import IllegalActionError, MatchConfig, Phase, State, eligible_leaders
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.errors import ConfigError
from meio.rl import envcore as V
from meio.rl.compiled import CompiledMatch, StepInfo
from meio.rl.table import (
    OPPONENT_POLICIES,
    RulesetLike,
    TableArrays,
    make_table,
    next_leader,
    observation_box,
    observe_table,
)
from meio.rl.vector import VectorEnv
from meio.sim import core as K
from meio.sim.convert import state_to_arrays

Deal = tuple[tuple[int, ...], int, int]
Backend = Literal["core", "engine"]


def _side_scores(config: MatchConfig, state: State) -> list[int]:
    """Each seat's score of the last round (its team's, in partnership)."""
    result = state.rounds[-1]
    if config.partnership:
        assert result.team_scores is not None
        return [result.team_scores[p % 2] for p in range(config.players)]
    return list(result.scores)


class MatchDealer:
    """Plays the chance part of MEIO matches from the core's stream (see
    :mod:`meio.rl.table`), and the compiled opponents' decisions from it too."""

    def __init__(self, table: TableArrays, seed: int, episode: int) -> None:
        self.table = table
        self.rng, self.combo, leader = table.start_match(seed, episode)
        self.config = table.config(self.combo, leader)
        self.deck = table.deck(self.combo)
        self.deals: list[Deal] = []
        self.history: list[tuple[int, int]] = []
        self.state = self._deal_round(leader)

    def _deal_round(self, leader: int) -> State:
        players, hand = self.table.players, self.table.hand
        hands = np.zeros((5, K.HAND_MAX), dtype=np.int32)
        V.deal(self.rng, self.deck, players, hand, hands)
        masks = tuple(C.mask_of(int(c) for c in hands[p, :hand]) for p in range(players))
        dealt = 0
        for m in masks:
            dealt |= m
        aside = C.mask_of(int(c) for c in self.deck) & ~dealt
        self.deals.append((masks, aside, leader))
        state = State.new(self.config, deals=self.deals)
        for seat, action in self.history:
            state.apply_unchecked(action, seat)
        return state

    def next_round(self) -> None:
        """After a round has ended: draw the next leader and deal (the state is
        rebuilt with that deal)."""
        seats = eligible_leaders(self.config, self.state.rounds[-1])
        leader = next_leader(seats, self.config.ruleset.leader == "most_points", self.rng)
        self.state = self._deal_round(leader)

    def apply(self, action: int, seat: int) -> None:
        """Apply an action with every rule checked, and keep it for rebuilds."""
        self.state.apply(action, seat)
        self.history.append((seat, action))

    def compiled_choice(self, seat: int, policy: int) -> int:
        """The compiled opponent's action for ``seat`` (a pack action in the split)."""
        table = self.table
        s = state_to_arrays(self.state).array
        strength = table.strengths[self.combo]
        if self.state.phase is Phase.SPLIT:
            pack = np.zeros(table.pack, dtype=np.int32)
            V.policy_split(s, table.ruleset, seat, strength, policy, self.rng, pack)
            return A.pack_action(C.mask_of(int(c) for c in pack))
        return V.policy_action(s, table.cfg, table.ruleset, strength, policy, self.rng)


class MeioEnv(gym.Env[F32, np.int64]):
    """One seat of a MEIO match against ``opponents`` (Gymnasium API).

    ``opponents`` is ``"random"`` or ``"heuristic"`` (the compiled policies the
    :class:`~meio.rl.VectorEnv` uses: the same seed plays the same games there),
    any other :func:`meio.bots.make_bot` kind (``"search"``, ``"learned:PATH"``),
    or a list of :class:`~meio.bots.Bot` objects, one per opponent seat.
    ``specials`` fixes the specials (codes or ids); by default each match draws N
    of the five. ``split_mode`` is ``"pack"`` (one action of 1,716) or
    ``"sequential"`` (six picks). ``ruleset`` plays any ruleset (a preset's name, a
    variant file, a :class:`~meio.engine.ruleset.Variant`: :func:`meio.rl.table.
    resolve_ruleset`): on one that is not an edition the observation is the attribute
    encoding (:attr:`observation_space`, 1,941 entries) and the action space grows with
    its hand and pack (:attr:`layout`, :mod:`meio.rl.layout`). An illegal action ends the
    episode with reward ``illegal_reward`` (``info["illegal_action"]`` True), or raises
    :class:`~meio.engine.IllegalActionError` when ``strict``. ``backend`` is
    ``"core"`` (the default with compiled opponents) or ``"engine"`` (the default,
    and the only choice, with any other opponent): see the module docstring.
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(
        self,
        players: int = 4,
        edition: str = "meio",
        partnership: bool = False,
        opponents: str | Sequence[Bot] = "heuristic",
        seed: int | None = None,
        *,
        seat: int = 0,
        specials: Sequence[int | str] | None = None,
        wild_lead: str = "declare",
        reveal_specials: bool = True,
        split_mode: S.SplitMode = "pack",
        strict: bool = False,
        illegal_reward: float = -13.0,
        render_mode: str | None = None,
        backend: Backend | None = None,
        ruleset: RulesetLike | None = None,
    ) -> None:
        self.table = make_table(
            players=players, edition=edition, partnership=partnership,
            specials=None if specials is None else tuple(
                C.parse_card(s) if isinstance(s, str) else int(s) for s in specials
            ),
            wild_lead=wild_lead, reveal_specials=reveal_specials, ruleset=ruleset,
        )
        #: the flat action space of the table's hand and pack sizes
        self.layout = self.table.layout
        if not 0 <= seat < players:
            raise ConfigError(f"seat {seat} is not a seat of a {players}-seat table")
        if split_mode not in ("pack", "sequential"):
            raise ConfigError(f"split_mode is 'pack' or 'sequential', not {split_mode!r}")
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.seat = seat
        self.split_mode: S.SplitMode = split_mode
        self.strict = strict
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self._policy = -1
        self._bots: list[Bot | None] = [None] * players
        if isinstance(opponents, str):
            if opponents in OPPONENT_POLICIES:
                self._policy = self.table.policy(opponents)
            else:
                for p in range(players):
                    if p != seat:
                        self._bots[p] = make_bot(opponents, seed=(seed or 0) + p)
        else:
            bots = list(opponents)
            if len(bots) != players - 1:
                raise ConfigError(f"{players - 1} opponents are needed, not {len(bots)}")
            others = [p for p in range(players) if p != seat]
            for p, bot in zip(others, bots, strict=True):
                self._bots[p] = bot
        size = self.table.observation_size
        self.observation_space = observation_box(self.table.variant)
        self.action_space = gym.spaces.Discrete(self.layout.size)
        self._seed = (
            int(str(np.random.SeedSequence().entropy)) & 0x7FFFFFFF if seed is None else int(seed)
        )
        self._episode = -1
        self._picked = 0
        self._dealer: MatchDealer | None = None
        self._core: CompiledMatch | None = None
        compiled = isinstance(opponents, str) and opponents in OPPONENT_POLICIES
        if backend is None:
            backend = "core" if compiled else "engine"
        if backend not in ("core", "engine"):
            raise ConfigError(f"backend is 'core' or 'engine', not {backend!r}")
        if backend == "core":
            if not compiled:
                raise ConfigError(
                    "backend 'core' plays the compiled opponents 'random' or 'heuristic' only"
                )
            assert isinstance(opponents, str)
            venv = VectorEnv(1, players, edition, partnership, opponents, self._seed,
                             seat=seat, specials=specials, wild_lead=wild_lead,
                             reveal_specials=reveal_specials, split_mode=split_mode,
                             ruleset=ruleset)
            self._core = CompiledMatch(venv, seat)
        self.backend: Backend = backend
        self._obs = np.zeros(size, dtype=np.float32)
        self._mask = np.zeros(self.layout.size, dtype=np.bool_)
        self._over = False

    # -- facts ---------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The engine state of the match in progress (hidden cards included: for
        tests and tools, never for the agent)."""
        if self._core is not None:
            if self._core.record is None:
                raise IllegalActionError(self.seat, None, "call reset() before anything else")
            return self._core.state()
        if self._dealer is None:
            raise IllegalActionError(self.seat, None, "call reset() before anything else")
        return self._dealer.state

    def action_mask(self) -> S.BoolArray:
        """The agent's legal flat actions now."""
        if self._core is not None:
            if self._core.record is None:
                raise IllegalActionError(self.seat, None, "call reset() before anything else")
            return self._mask.copy()
        return self.layout.legal_mask(self.state, self.seat, split_mode=self.split_mode,
                                      picked=self._picked)

    def _observation(self) -> tuple[F32, dict[str, Any]]:
        core = self._core
        if core is not None:
            return self._obs.copy(), StepInfo(
                core.view_maker(), {"action_mask": self._mask.copy()}
            )
        view = self.state.view(self.seat)
        return observe_table(view, picked=self._picked), {
            "action_mask": self.action_mask(), "view": view
        }

    def _read_core(self, over: bool) -> None:
        core = self._core
        assert core is not None
        if over:
            self._obs[:] = core.venv.final_observations[0]
            self._mask[:] = False
        else:
            self._obs[:] = core.venv.observations[0]
            self._mask[:] = core.venv.masks[0]
        self._over = over

    # -- Gymnasium API -------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[F32, dict[str, Any]]:
        """Start the next match (match 0 of ``seed`` when a seed is given)."""
        super().reset(seed=seed)
        if seed is not None:
            self._seed = int(seed)
            self._episode = -1
        self._episode += 1
        self._picked = 0
        if self._core is not None:
            self._core.start(seed)
            self._read_core(over=False)
            return self._observation()
        self._dealer = MatchDealer(self.table, self._seed, self._episode)
        self._opponents_split()
        return self._observation()

    def step(self, action: int | np.integer[Any]) -> tuple[
        F32, float, bool, bool, dict[str, Any]
    ]:
        """Play the agent's flat ``action``, then the opponents until the agent is
        to act again or the match is over."""
        if self._core is not None:
            return self._core_step(action)
        dealer = self._dealer
        if dealer is None or dealer.state.is_over:
            raise IllegalActionError(self.seat, action, "the match is over: call reset()")
        a = int(action)
        if not 0 <= a < self.layout.size or not self.action_mask()[a]:
            if self.strict:
                raise IllegalActionError(self.seat, a, f"flat action {a} is not legal now")
            obs, info = self._observation()
            info["illegal_action"] = True
            return obs, self.illegal_reward, True, False, info
        state = dealer.state
        if state.phase is Phase.SPLIT:
            hand = state.view(self.seat).hand
            if a >= self.layout.pick_base:
                self._picked |= 1 << self.layout.pick_card(a, hand)
                if self._picked.bit_count() < self.layout.pack:
                    return self._step_result(0.0, False)
                engine_action = A.pack_action(self._picked)
            else:
                engine_action = A.pack_action(self.layout.pack_of_number(hand,
                                                                         a - S.PACK_BASE))
            self._picked = 0
        else:
            engine_action = a
        rounds_seen = len(state.rounds)
        dealer.apply(engine_action, self.seat)
        reward, done = self._advance(rounds_seen)
        return self._step_result(reward, done)

    def _core_step(self, action: int | np.integer[Any]) -> tuple[
        F32, float, bool, bool, dict[str, Any]
    ]:
        core = self._core
        assert core is not None
        if core.record is None or self._over:
            raise IllegalActionError(self.seat, action, "the match is over: call reset()")
        a = int(action)
        if not 0 <= a < self.layout.size or not self._mask[a]:
            if self.strict:
                raise IllegalActionError(self.seat, a, f"flat action {a} is not legal now")
            obs, info = self._observation()
            info["illegal_action"] = True
            return obs, self.illegal_reward, True, False, info
        reward, done = core.step(a)
        self._read_core(over=done)
        obs, info = self._observation()
        return obs, reward, done, False, info

    def _step_result(self, reward: float, done: bool) -> tuple[
        F32, float, bool, bool, dict[str, Any]
    ]:
        obs, info = self._observation()
        return obs, reward, done, False, info

    def render(self) -> str | None:
        """The agent's view as text (render mode ``"ansi"``)."""
        if self._dealer is None and (self._core is None or self._core.record is None):
            return None
        view = self.state.view(self.seat)
        trick = " ".join(C.card_code(c) for _, c in view.current_trick) or "-"
        return (
            f"round {view.round_index + 1} trick {view.trick_number} {view.phase.name}\n"
            f"hand {C.format_cards(view.hand)} | pack {C.format_cards(view.pack)}\n"
            f"trick {trick} | piles {list(view.piles)}"
        )

    # -- opponents -----------------------------------------------------------------------
    def _opponent_action(self, seat: int) -> int:
        dealer = self._dealer
        assert dealer is not None
        bot = self._bots[seat]
        if bot is None:
            return dealer.compiled_choice(seat, self._policy)
        view = dealer.state.view(seat)
        return bot.choose(view, view.legal_actions())

    def _opponents_split(self) -> None:
        dealer = self._dealer
        assert dealer is not None
        for seat in range(self.table.players):
            if seat != self.seat:
                dealer.apply(self._opponent_action(seat), seat)

    def _advance(self, rounds_seen: int) -> tuple[float, bool]:
        """Play the opponents until the agent acts; ``rounds_seen`` is the number
        of rounds completed before the agent's action."""
        dealer = self._dealer
        assert dealer is not None
        while True:
            state = dealer.state
            if len(state.rounds) > rounds_seen or state.is_over:
                reward = -float(_side_scores(dealer.config, state)[self.seat])
                if state.is_over:
                    return reward, True
                dealer.next_round()
                self._opponents_split()
                return reward, False
            seat = state.current_seat()
            if state.phase is Phase.SPLIT or seat == self.seat:
                return 0.0, False
            dealer.apply(self._opponent_action(seat), seat)


class CompactActions(gym.Wrapper[F32, np.int64, F32, np.int64]):
    """A :class:`MeioEnv` over the compact action space (``meio-compact-action-v1``):
    ``Discrete(96)``, the 83 play, declare and pile actions and the split as six picks
    (``83 + i`` picks the ``i``-th of the seat's 13 dealt cards), with a 96-entry
    ``info["action_mask"]``. ``gym.make("meio/Meio-v0", actions="compact")`` makes one.
    On a ruleset of 14 or 15 cards the picks are as many (:mod:`meio.rl.layout`).

    >>> import gymnasium as gym, numpy as np, meio.rl
    >>> env = gym.make("meio/Meio-v0", actions="compact", seed=3)
    >>> obs, info = env.reset()
    >>> env.action_space, info["action_mask"].shape
    (Discrete(96), (96,))
    """

    def __init__(self, env: MeioEnv) -> None:
        if env.split_mode != "sequential":
            raise ConfigError("the compact actions split by picks: make the MeioEnv with "
                              "split_mode 'sequential'")
        super().__init__(env)
        self._compact = np.array(env.layout.compact, dtype=np.int64)
        self.action_space = gym.spaces.Discrete(len(self._compact))

    def _info(self, info: dict[str, Any]) -> dict[str, Any]:
        info["action_mask"] = info["action_mask"][self._compact]
        return info

    def action_mask(self) -> S.BoolArray:
        """The agent's legal compact actions now (96 entries)."""
        mask: S.BoolArray = self.env.unwrapped.action_mask()[self._compact]  # type: ignore[attr-defined]
        return mask

    action_masks = action_mask

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[F32, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        return obs, self._info(info)

    def step(self, action: np.int64) -> tuple[F32, SupportsFloat, bool, bool, dict[str, Any]]:
        a = int(action)
        compact = self._compact
        if not 0 <= a < len(compact):
            raise IllegalActionError(self.env.unwrapped.seat,  # type: ignore[attr-defined]
                                     a, f"compact action {a} is not one of 0 to "
                                     f"{len(compact) - 1}")
        obs, reward, terminated, truncated, info = self.env.step(compact[a])
        return obs, reward, terminated, truncated, self._info(info)


def make_env(actions: str = "flat", **kwargs: Any) -> MeioEnv | CompactActions:
    """The ``entry_point`` of ``"meio/Meio-v0"``: a :class:`MeioEnv`, or with
    ``actions="compact"`` one over the compact action space (:class:`CompactActions`,
    which sets ``split_mode="sequential"``)."""
    if actions == "flat":
        return MeioEnv(**kwargs)
    if actions != "compact":
        raise ConfigError(f"actions is 'flat' or 'compact', not {actions!r}")
    if kwargs.get("split_mode", "sequential") != "sequential":
        raise ConfigError("the compact actions split by picks: split_mode 'pack' does not "
                          "go with actions 'compact'")
    return CompactActions(MeioEnv(**{**kwargs, "split_mode": "sequential"}))
