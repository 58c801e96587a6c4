"""Many MEIO matches stepped in one call of the compiled core, as a Gymnasium vector env.

:class:`VectorEnv` is a :class:`gymnasium.vector.VectorEnv` of ``num_envs``
matches, each with the agent in one seat (``seat``, 0 by default) against
compiled ``"random"`` or ``"heuristic"`` opponents. ``gym.make_vec("meio/Meio-v0",
num_envs=N)`` makes one (with :class:`~meio.rl.MeioEnv`'s defaults: heuristic
opponents). ``step(actions)`` applies one flat action per environment, plays the
opponents up to the agent's next decision and returns NumPy arrays: observation
``[N, 716]`` float32, reward ``[N]`` float32, terminated and truncated ``[N]``
bool, and ``info["action_mask"]`` ``[N, 1812]`` bool (also :meth:`action_masks`,
the name sb3-contrib calls). Environment ``i`` plays the matches of
``MeioEnv(seed=seed + i)``.

Autoreset is Gymnasium's ``AutoresetMode.SAME_STEP`` by default: a finished match
is replaced by the next one in the same step, so the observation returned is the
new match's first; the finished match's last observation is in
``info["final_obs"]`` (rows where ``info["_final_obs"]``, i.e. ``terminated``, is
True). ``autoreset_mode="next_step"`` (or ``AutoresetMode.NEXT_STEP``) is
Gymnasium's other mode, the one its vector observation wrappers
(``NormalizeObservation``, ``TransformObservation``, ...) need: the step that ends
a match returns its last observation, and the next step ignores that
environment's action and returns the new match's first observation, reward 0.
(The mask returned with a last observation is already the next match's, so an
action drawn from it is always accepted; it is then ignored.) It costs a copy of
the observations a step. A match always ends by being played out: ``truncated``
is always False.

**Self-play.** ``seats`` makes several seats agents (``seats="all"``: every seat;
the others stay compiled opponents). Each environment then waits for one agent
seat at a time, ``info["seat"]`` (``[N]``, also :meth:`seats_to_act`): the
observation and mask returned are that seat's, the action given next is that
seat's move. Each agent seat's reward at this step (minus its round score at a
round's end, so a round's end rewards every agent seat at once) is
``info["seat_rewards"]``, ``[N, len(seats)]``; the reward returned is ``[N]``, that
of the seat whose move the step applied, so that Gymnasium's wrappers
(``RecordEpisodeStatistics``, ...) take it. ``final_obs`` is then
``[N, len(seats), 716]``. One shared policy gives
self-play; routing each seat's observations to a different policy (a pool of
past snapshots, the shipped network) gives league training, all stepped in the
core. The split stays secret: agent seats split one after another, and a seat's
observation never shows a pack another seat chose.

**The compact action space.** ``actions="compact"`` offers the 96 actions a
policy needs (encoding ``meio-compact-action-v1``): the 83 play, declare and pile
actions as they are, and the split as six picks of one card (``83 + i`` picks the
``i``-th of the seat's 13 dealt cards, by id; this sets ``split_mode="sequential"``).
The action space is then ``Discrete(96)`` and the mask ``[N, 96]``, so any library
that takes a Gymnasium vector env (CleanRL, RLlib) or SB3's (:mod:`meio.rl.sb3`)
learns over 96 logits instead of 1,812. The games are the same.

**Any ruleset.** ``ruleset`` (a preset's name, a variant file or a
:class:`~meio.engine.ruleset.Variant`: :func:`meio.rl.table.resolve_ruleset`) plays a
variant in the core as well: its deck, hand and pack sizes, specials and rules, the
variant heuristic as ``"heuristic"``, the action space of its hand and pack
(:mod:`meio.rl.layout`: 1,812 actions up to 13 cards) and the attribute observation,
``[N, 1941]`` (:func:`meio.bots.attributes.observe_any`, compiled here to the same
numbers: ``tests/rl/test_rulesets.py`` compares them on many positions). An edition's
preset plays the standard game with the standard observation.

The returned observation and mask arrays are reused by the next step: copy them
to keep them.

>>> venv = VectorEnv(num_envs=8, players=4, opponents="random", seed=1)
>>> obs, info = venv.reset()
>>> obs.shape, info["action_mask"].shape, venv.action_space
((8, 716), (8, 1812), MultiDiscrete([1812 1812 1812 1812 1812 1812 1812 1812]))
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> for _ in range(200):
...     actions = np.array([rng.choice(np.flatnonzero(m)) for m in venv.action_masks()])
...     obs, reward, terminated, truncated, info = venv.step(actions)
>>> bool((reward <= 0).all()), venv.episodes_done > 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from meio.bots import spaces as S
from meio.bots.observation import F32
from meio.engine import IllegalActionError
from meio.engine import cards as C
from meio.engine.errors import ConfigError
from meio.rl import envcore as V
from meio.rl.table import (
    OPPONENT_POLICIES,
    RulesetLike,
    make_table,
    observation_box,
)
from meio.sim import core as K

_MAX_ENVS = 1 << 20


Obs = npt.NDArray[np.float32]
Actions = npt.NDArray[np.int64]


class VectorEnv(gym.vector.VectorEnv[Obs, Actions, npt.NDArray[Any]]):
    """``num_envs`` MEIO matches stepped by compiled code, with one agent seat
    (``seat``) or several (``seats``) each; see the module docstring."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's)

    def __init__(
        self,
        num_envs: int,
        players: int = 4,
        edition: str = "meio",
        partnership: bool = False,
        opponents: str = "heuristic",
        seed: int = 0,
        *,
        seat: int = 0,
        seats: Sequence[int] | str | None = None,
        specials: Sequence[int | str] | None = None,
        wild_lead: str = "declare",
        reveal_specials: bool = True,
        split_mode: S.SplitMode | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        actions: str = "flat",
        ruleset: RulesetLike | None = None,
    ) -> None:
        mode = _autoreset_mode(autoreset_mode)
        if actions not in ("flat", "compact"):
            raise ConfigError(f"actions is 'flat' or 'compact', not {actions!r}")
        if actions == "compact":
            if split_mode == "pack":
                raise ConfigError("the compact actions split by picks: split_mode 'pack' "
                                  "does not go with actions 'compact'")
            split_mode = "sequential"
        split_mode = split_mode or "pack"
        if not isinstance(num_envs, int) or not 0 < num_envs <= _MAX_ENVS:
            raise ConfigError(f"num_envs must be 1 to {_MAX_ENVS}, not {num_envs!r}")
        if opponents not in OPPONENT_POLICIES:
            raise ConfigError(
                f"VectorEnv opponents are 'random' or 'heuristic' (compiled), not {opponents!r}"
            )
        if split_mode not in ("pack", "sequential"):
            raise ConfigError(f"split_mode is 'pack' or 'sequential', not {split_mode!r}")
        if not isinstance(players, int) or not 2 <= players <= 5:
            raise ConfigError(f"players must be 2 to 5, not {players!r}")
        agents = _agent_seats(seat, seats, players)
        table = make_table(
            players=players, edition=edition, partnership=partnership,
            specials=None if specials is None else tuple(
                C.parse_card(s) if isinstance(s, str) else int(s) for s in specials
            ),
            wild_lead=wild_lead, reveal_specials=reveal_specials, ruleset=ruleset,
        )
        wild_lead, reveal_specials = table.wild_lead, table.reveal_specials
        self.table = table
        #: the flat action space of the table's hand and pack sizes
        self.layout = layout = table.layout
        obs_size = table.observation_size
        self.num_envs = num_envs
        #: the agent seats: their moves come from step(); the other seats are opponents
        self.seats = agents
        self.seat = agents[0]
        self.seed = int(seed) & 0x3FFFFFFFFFFFFFFF
        self.split_mode = split_mode
        cfg = np.zeros(V.C_LEN, dtype=np.int32)
        cfg[V.C_PLAYERS] = players
        cfg[V.C_PART] = int(partnership)
        cfg[V.C_EDITION] = int(table.cfg[2])
        cfg[V.C_ME] = agents[0]
        cfg[V.C_AGENTS] = sum(1 << p for p in agents)
        cfg[V.C_NOBS] = len(agents)
        cfg[V.C_OBS : V.C_OBS + len(agents)] = agents
        cfg[V.C_POLICY] = table.policy(opponents)
        cfg[V.C_SEQUENTIAL] = int(split_mode == "sequential")
        cfg[V.C_WILD_NEXT] = int(wild_lead == "next")
        cfg[V.C_REVEAL] = int(reveal_specials)
        cfg[V.C_ROUNDS] = table.rounds
        cfg[V.C_TO_WIN] = table.to_win
        cfg[V.C_NCOMBO] = len(table.combos)
        cfg[V.C_HAND] = table.hand
        cfg[V.C_FIRST] = table.first_half
        cfg[V.C_PACK] = table.pack
        cfg[V.C_PICK_BASE] = layout.pick_base
        cfg[V.C_PACKS] = layout.packs
        cfg[V.C_WIDTH] = layout.size
        cfg[V.C_NSPECIALS] = table.combos.shape[1]
        cfg[V.C_POOL] = len(table.config(0, 0).ruleset.special_pool)
        cfg[V.C_ANY] = int(table.variant is not None)
        self._cfg = cfg
        self._anyd = table.attribute_data()
        n = num_envs
        self._states = np.zeros((n, K.STATE_LEN), dtype=np.int32)
        self._decks = np.zeros((n, 65), dtype=np.int32)
        self._decks[:, : len(table.base_deck)] = table.base_deck
        self._rngs = np.zeros(n, dtype=np.uint64)
        self._metas = np.zeros((n, V.M_LEN), dtype=np.int32)
        k = len(agents)
        #: every agent seat's observation, kept up to date: ``[N, agent seats, 716]`` (at a
        #: variant table 1,941; its attribute entries are those of the seat's last decision)
        self.seat_observations = np.zeros((n, k, obs_size), dtype=np.float32)
        self.observations = (
            self.seat_observations[:, 0] if k == 1 else np.zeros((n, obs_size), dtype=np.float32)
        )
        self.masks = np.zeros((n, layout.size), dtype=np.bool_)
        self._seat_rewards = np.zeros((n, k), dtype=np.float32)
        self._rewards = self._seat_rewards[:, 0] if k == 1 else self._seat_rewards
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._started = False
        self.episodes_done = 0
        self._sample_rng: npt.NDArray[np.uint64] | None = None
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self._next_step = mode is AutoresetMode.NEXT_STEP
        #: next-step autoreset: the environments whose match ended at the last step
        self._pending = np.zeros(n, dtype=np.bool_)
        self._out_obs = np.zeros((n, obs_size), dtype=np.float32) if self._next_step \
            else self.observations
        self._acting_rewards = np.zeros(n, dtype=np.float32)
        self._row_index = np.arange(n)
        # scratch of the compiled step (it allocates nothing itself)
        self._hands = np.zeros((5, K.HAND_MAX), dtype=np.int32)
        self._pack = np.zeros(K.PACK_MAX, dtype=np.int32)
        self._legal = np.zeros(32, dtype=np.int32)
        self._rng = np.zeros(1, dtype=np.uint64)
        self._scores = np.zeros(5, dtype=np.int32)
        self._work = np.zeros(V.WORK_LEN, dtype=np.int32)
        self._found = np.zeros(S.PACK_BASE, dtype=np.int64)  # scratch of sample_actions
        self._seat_finals = np.zeros((n, k, obs_size), dtype=np.float32)
        #: each environment's final observation of its last finished match (with
        #: several agent seats, ``[N, agent seats, 716]``)
        self.final_observations = self._seat_finals[:, 0] if k == 1 else self._seat_finals
        self._seat_of_row = np.array(agents, dtype=np.int64)
        #: the position of each environment's last finished round (core array)
        self.last_rounds = np.zeros((n, K.STATE_LEN), dtype=np.int32)
        self.single_observation_space: gym.spaces.Box = observation_box(table.variant)
        #: ``"flat"`` (1,812 actions) or ``"compact"`` (96)
        self.actions = actions
        self._compact = actions == "compact"
        #: the flat action of each compact action, and the compact action of each flat one
        self._to_flat = np.array(layout.compact, dtype=np.int64)
        self._to_compact = np.full(layout.size, -1, dtype=np.int64)
        self._to_compact[self._to_flat] = np.arange(len(self._to_flat))
        width = len(self._to_flat) if self._compact else layout.size
        self._out_masks = np.zeros((n, width), dtype=np.bool_) if self._compact else self.masks
        self.single_action_space: gym.spaces.Discrete = gym.spaces.Discrete(width)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)

    def _info(self) -> dict[str, Any]:
        if self._compact:
            np.take(self.masks, self._to_flat, axis=1, out=self._out_masks)
        if len(self.seats) == 1:
            return {"action_mask": self._out_masks}
        return {"action_mask": self._out_masks, "seat": self.seats_to_act(),
                "seat_rewards": self._seat_rewards}

    def seats_to_act(self) -> npt.NDArray[np.int64]:
        """The agent seat whose move each environment waits for, ``[N]``."""
        out: npt.NDArray[np.int64] = self._seat_of_row[self._metas[:, V.M_ACTING]]
        return out

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every environment now, ``[N, 1812]`` bool (``[N, 96]``
        with ``actions="compact"``; ``info["action_mask"]``; the name sb3-contrib's
        maskable algorithms call)."""
        return self._out_masks

    action_mask = action_masks

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[F32, dict[str, Any]]:
        """Start match 0 of every environment (of ``seed`` when given: environment
        ``i`` plays seed ``seed + i``). ``options`` is not used."""
        if isinstance(seed, list):
            raise ConfigError(
                "VectorEnv seeds environment i with seed + i: pass one int, not a list"
            )
        super().reset(seed=seed)
        if seed is not None:
            self.seed = int(seed) & 0x3FFFFFFFFFFFFFFF
            self._sample_rng = None  # sample_actions draws anew from this seed
        t = self.table
        V.reset_all(
            self._states, self._cfg, t.ruleset, self._anyd, t.strengths, self._decks,
            len(t.base_deck), t.combos, self.seed, self._rngs, self._metas,
            self.seat_observations, self.masks, self.observations,
        )
        self._started = True
        self.episodes_done = 0
        self._pending[:] = False
        if self._next_step:
            np.copyto(self._out_obs, self.observations)
        return self._out_obs, self._info()

    def step(self, actions: npt.ArrayLike) -> tuple[
        F32, npt.NDArray[np.float32], npt.NDArray[np.bool_], npt.NDArray[np.bool_],
        dict[str, Any]
    ]:
        """Apply one flat action per environment; see the module docstring."""
        if self.closed:
            raise IllegalActionError(None, None, "this VectorEnv is closed")
        if not self._started:
            raise IllegalActionError(None, None, "call reset() before step()")
        acts = np.ascontiguousarray(actions, dtype=np.int64)
        if acts.shape != (self.num_envs,):
            raise IllegalActionError(
                None, None, f"step needs {self.num_envs} actions, not an array of {acts.shape}"
            )
        if self._compact:
            compact = self._to_flat
            outside = np.flatnonzero((acts < 0) | (acts >= len(compact)))
            if len(outside):
                i = int(outside[0])
                raise IllegalActionError(
                    int(self.seats_to_act()[i]), int(acts[i]),
                    f"environment {i}: compact action {int(acts[i])} is not one of 0 to "
                    f"{len(compact) - 1} (no environment has moved)")
            acts = compact[acts]
        pending = np.flatnonzero(self._pending) if self._next_step else _NONE
        if len(pending):
            # these environments' matches ended at the last step and the core already
            # dealt the next: step them with a legal action, then put them back
            saved = self._save_rows(pending)
            acts = acts.copy()
            acts[pending] = np.argmax(self.masks[pending], axis=1)
        acting = self._metas[:, V.M_ACTING].copy() if len(self.seats) > 1 else None
        t = self.table
        bad = V.step_all(
            self._states, self._cfg, t.ruleset, self._anyd, t.strengths, self._decks,
            len(t.base_deck), t.combos, self.seed, self._rngs, self._metas,
            self.seat_observations, self.masks, acts, self._seat_rewards, self._terminated,
            self.layout.positions, self._hands,
            self._pack, self._legal, self._rng, self._scores, self._work, self._seat_finals,
            self.last_rounds, self.observations,
        )
        if bad >= 0:
            raise IllegalActionError(
                int(self.seats_to_act()[bad]), int(acts[bad]),
                f"environment {bad}: flat action {int(acts[bad])} is not legal now "
                "(no environment has moved)",
            )
        if len(pending):
            self._restore_rows(pending, saved)
        rewards = self._rewards
        if acting is not None:
            self._acting_rewards[:] = self._seat_rewards[self._row_index, acting]
            rewards = self._acting_rewards
        info = self._info()
        ended = int(self._terminated.sum())
        self.episodes_done += ended
        if self._next_step:
            np.copyto(self._out_obs, self.observations)
            if ended:
                finals = self._seat_finals[self._row_index,
                                           acting if acting is not None else 0]
                self._out_obs[self._terminated] = finals[self._terminated]
            self._pending[:] = self._terminated
            return self._out_obs, rewards, self._terminated, self._truncated, info
        if ended:
            info["final_obs"] = self.final_observations
            info["_final_obs"] = self._terminated
        return self.observations, rewards, self._terminated, self._truncated, info

    def _rows(self) -> tuple[npt.NDArray[Any], ...]:
        """Every per-environment array the core reads or writes."""
        rows = (self._states, self._decks, self._rngs, self._metas, self.seat_observations,
                self.masks, self.last_rounds, self._seat_finals, self._seat_rewards,
                self._terminated)
        return rows if len(self.seats) == 1 else (*rows, self.observations)

    def _save_rows(self, rows: npt.NDArray[np.intp]) -> list[npt.NDArray[Any]]:
        return [a[rows].copy() for a in self._rows()]

    def _restore_rows(self, rows: npt.NDArray[np.intp], saved: list[npt.NDArray[Any]]) -> None:
        for a, kept in zip(self._rows(), saved, strict=True):
            a[rows] = kept
        self._seat_rewards[rows] = 0.0
        self._terminated[rows] = False

    def sample_actions(self, seed: int | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action for every environment (compiled: for
        baselines and benchmarks). Successive calls draw new actions from one stream,
        seeded at the first call after the environment is made or reseeded
        (``reset(seed=...)``): by ``seed`` when given, else by the environment's seed.
        So a reseeded environment draws the same actions again."""
        if not self._started:
            raise IllegalActionError(None, None, "call reset() before sample_actions()")
        if self._sample_rng is None:
            self._sample_rng = np.zeros(1, dtype=np.uint64)
            K.seed_stream(self._sample_rng, self.seed if seed is None else int(seed),
                          1 << 40, 1)
        out = np.zeros(self.num_envs, dtype=np.int64)
        V.sample_legal(self._metas, self.masks, self._sample_rng, out, self._found,
                       self.layout.packs, self.layout.pick_base)
        return self._to_compact[out] if self._compact else out

    def position(self, i: int) -> npt.NDArray[np.int32]:
        """Environment ``i``'s core position of the round in progress (the live
        array, hidden cards included: for tools, never for an agent)."""
        row: npt.NDArray[np.int32] = self._states[i]
        return row

    def rounds_finished(self, i: int) -> int:
        """How many rounds environment ``i``'s match in progress has finished."""
        return int(self._metas[i, V.M_ROUND])

    def specials_set(self, i: int) -> int:
        """Which of ``table.combos`` environment ``i``'s match plays with."""
        return int(self._metas[i, V.M_COMBO])

    def start_match(self, i: int, episode: int) -> None:
        """Abandon environment ``i``'s match and start its match ``episode``."""
        if not self._started:
            raise IllegalActionError(None, None, "call reset() before start_match()")
        t = self.table
        V.start_episode(self._states, self._cfg, t.ruleset, self._anyd, t.strengths, self._decks,
                        len(t.base_deck), t.combos, self.seed, self._rngs, self._metas,
                        self.seat_observations, self.masks, self.observations, i, episode)

    def episodes(self) -> npt.NDArray[np.int32]:
        """How many matches each environment has finished."""
        return self._metas[:, V.M_EPISODE].copy()

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release (no process, no file); after close() step() refuses."""
        self._started = False


_NONE = np.zeros(0, dtype=np.intp)


def _autoreset_mode(mode: AutoresetMode | str) -> AutoresetMode:
    """``AutoresetMode.SAME_STEP`` or ``NEXT_STEP`` (also by name, any case)."""
    if isinstance(mode, AutoresetMode):
        found = mode
    else:
        found = {m.name.lower(): m for m in AutoresetMode}.get(str(mode).lower(),
                                                               AutoresetMode.DISABLED)
    if found not in (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP):
        raise ConfigError(f"autoreset_mode is 'same_step' or 'next_step', not {mode!r}")
    return found


def _agent_seats(seat: int, seats: Sequence[int] | str | None, players: int) -> tuple[int, ...]:
    """The agent seats, sorted: ``seats`` ("all", or some seats), else ``seat`` alone."""
    if seats is None:
        if not 0 <= seat < players:
            raise ConfigError(f"seat {seat} is not a seat of a {players}-seat table")
        return (seat,)
    if seats == "all":
        return tuple(range(players))
    if isinstance(seats, str):
        raise ConfigError(f"seats is 'all' or a list of seats, not {seats!r}")
    chosen = tuple(sorted({int(p) for p in seats}))
    if not chosen or len(chosen) != len(seats) or not all(0 <= p < players for p in chosen):
        raise ConfigError(
            f"seats must be distinct seats of a {players}-seat table, not {list(seats)!r}"
        )
    return chosen


def make_vector(num_envs: int = 1, seed: int | None = None, opponents: str = "heuristic",
                **kwargs: Any) -> VectorEnv:
    """The ``vector_entry_point`` of ``"meio/Meio-v0"``: ``gym.make_vec`` gives this
    compiled :class:`VectorEnv`, with :class:`~meio.rl.MeioEnv`'s defaults
    (heuristic opponents; a seed from the OS when none is given)."""
    for option in ("strict", "illegal_reward", "render_mode"):
        if option in kwargs:
            raise ConfigError(
                f"VectorEnv has no {option!r}: it refuses illegal actions and does not render"
            )
    if seed is None:
        seed = int(str(np.random.SeedSequence().entropy)) & 0x7FFFFFFF
    return VectorEnv(num_envs, seed=seed, opponents=opponents, **kwargs)
