"""Many MEIO matches stepped in one call of the compiled core.

:class:`VectorEnv` holds ``num_envs`` matches, each with the agent in one seat
(``seat``, 0 by default) against compiled ``"random"`` or ``"heuristic"``
opponents. ``step(actions)`` applies one flat action per environment, plays the
opponents up to the agent's next decision and returns NumPy arrays: observation
``[N, 716]`` float32, reward ``[N]`` float32, terminated and truncated ``[N]``
bool, and ``info["action_mask"]`` ``[N, 1812]`` bool. A finished match is replaced
by the next one in the same step (the observation returned is the new match's
first). Environment ``i`` plays the matches of ``MeioEnv(seed=seed + i)``.

The returned observation and mask arrays are reused by the next step: copy them
to keep them.

>>> venv = VectorEnv(num_envs=8, players=4, opponents="random", seed=1)
>>> obs, info = venv.reset()
>>> obs.shape, info["action_mask"].shape
((8, 716), (8, 1812))
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> for _ in range(200):
...     actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
...     obs, reward, terminated, truncated, info = venv.step(actions)
>>> bool((reward <= 0).all()), venv.episodes_done > 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from meio.engine import IllegalActionError
from meio.engine import cards as C
from meio.engine.errors import ConfigError
from meio.rl import _vector as V
from meio.rl import spaces as S
from meio.rl.observation import OBS_SIZE
from meio.rl.table import OPPONENT_POLICIES, make_table
from meio.sim import _core as K

_MAX_ENVS = 1 << 20


class VectorEnv:
    """``num_envs`` MEIO matches, one agent seat each, stepped by compiled code."""

    def __init__(
        self,
        num_envs: int,
        players: int = 4,
        edition: str = "meio",
        partnership: bool = False,
        opponents: str = "random",
        seed: int = 0,
        *,
        seat: int = 0,
        specials: Sequence[int | str] | None = None,
        wild_lead: str = "declare",
        reveal_specials: bool = True,
        split_mode: S.SplitMode = "pack",
    ) -> None:
        if not isinstance(num_envs, int) or not 0 < num_envs <= _MAX_ENVS:
            raise ConfigError(f"num_envs must be 1 to {_MAX_ENVS}, not {num_envs!r}")
        if opponents not in OPPONENT_POLICIES:
            raise ConfigError(
                f"VectorEnv opponents are 'random' or 'heuristic' (compiled), not {opponents!r}"
            )
        if split_mode not in ("pack", "sequential"):
            raise ConfigError(f"split_mode is 'pack' or 'sequential', not {split_mode!r}")
        if not 0 <= seat < players:
            raise ConfigError(f"seat {seat} is not a seat of a {players}-seat table")
        if wild_lead == "next" and not hasattr(K, "WILD_NEXT"):
            raise ConfigError("the compiled core here does not play wild_lead 'next'")
        table = make_table(
            players=players, edition=edition, partnership=partnership,
            specials=None if specials is None else tuple(
                C.parse_card(s) if isinstance(s, str) else int(s) for s in specials
            ),
            wild_lead=wild_lead, reveal_specials=reveal_specials,
        )
        self.table = table
        self.num_envs = num_envs
        self.seat = seat
        self.seed = int(seed) & 0x3FFFFFFFFFFFFFFF
        self.split_mode = split_mode
        cfg = np.zeros(V.C_LEN, dtype=np.int32)
        cfg[V.C_PLAYERS] = players
        cfg[V.C_PART] = int(partnership)
        cfg[V.C_EDITION] = int(table.cfg[2])
        cfg[V.C_ME] = seat
        cfg[V.C_POLICY] = OPPONENT_POLICIES[opponents]
        cfg[V.C_SEQUENTIAL] = int(split_mode == "sequential")
        cfg[V.C_WILD_NEXT] = int(wild_lead == "next")
        cfg[V.C_REVEAL] = int(reveal_specials)
        cfg[V.C_ROUNDS] = table.rounds
        cfg[V.C_TO_WIN] = table.to_win
        cfg[V.C_NCOMBO] = len(table.combos)
        self._cfg = cfg
        n = num_envs
        self._states = np.zeros((n, K.STATE_LEN), dtype=np.int32)
        self._decks = np.zeros((n, 65), dtype=np.int32)
        self._decks[:, : len(table.base_deck)] = table.base_deck
        self._rngs = np.zeros(n, dtype=np.uint64)
        self._metas = np.zeros((n, V.M_LEN), dtype=np.int32)
        self.observations = np.zeros((n, OBS_SIZE), dtype=np.float32)
        self.masks = np.zeros((n, S.NUM_ACTIONS), dtype=np.bool_)
        self._rewards = np.zeros(n, dtype=np.float32)
        self._terminated = np.zeros(n, dtype=np.bool_)
        self._truncated = np.zeros(n, dtype=np.bool_)
        self._started = False
        self.episodes_done = 0
        self._sample_rng: npt.NDArray[np.uint64] | None = None
        # scratch of the compiled step (it allocates nothing itself)
        self._hands = np.zeros((5, 13), dtype=np.int32)
        self._pack = np.zeros(6, dtype=np.int32)
        self._legal = np.zeros(32, dtype=np.int32)
        self._rng = np.zeros(1, dtype=np.uint64)
        self._scores = np.zeros(5, dtype=np.int32)
        self._work = np.zeros(V.WORK_LEN, dtype=np.int32)
        self._found = np.zeros(S.PACK_BASE, dtype=np.int64)  # scratch of sample_actions

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.masks}

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Start match 0 of every environment (of ``seed`` when given)."""
        if seed is not None:
            self.seed = int(seed) & 0x3FFFFFFFFFFFFFFF
        t = self.table
        V.reset_all(
            self._states, self._cfg, t.val2, t.strengths, self._decks, len(t.base_deck),
            t.combos, self.seed, self._rngs, self._metas, self.observations, self.masks,
        )
        self._started = True
        self.episodes_done = 0
        return self.observations, self._info()

    def step(self, actions: npt.ArrayLike) -> tuple[
        npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_],
        npt.NDArray[np.bool_], dict[str, Any]
    ]:
        """Apply one flat action per environment; see the module docstring."""
        if not self._started:
            raise IllegalActionError(None, None, "call reset() before step()")
        acts = np.ascontiguousarray(actions, dtype=np.int64)
        if acts.shape != (self.num_envs,):
            raise IllegalActionError(
                None, None, f"step needs {self.num_envs} actions, not an array of {acts.shape}"
            )
        t = self.table
        bad = V.step_all(
            self._states, self._cfg, t.val2, t.strengths, self._decks, len(t.base_deck),
            t.combos, self.seed, self._rngs, self._metas, self.observations, self.masks,
            acts, self._rewards, self._terminated, S.PACK_POSITIONS, self._hands, self._pack,
            self._legal, self._rng, self._scores, self._work,
        )
        if bad >= 0:
            raise IllegalActionError(
                self.seat, int(acts[bad]),
                f"environment {bad}: flat action {int(acts[bad])} is not legal now "
                "(no environment has moved)",
            )
        self.episodes_done += int(self._terminated.sum())
        return self.observations, self._rewards, self._terminated, self._truncated, self._info()

    def sample_actions(self, seed: int = 0) -> npt.NDArray[np.int64]:
        """A uniformly random legal action for every environment (compiled: for
        baselines and benchmarks). Successive calls draw new actions."""
        if not self._started:
            raise IllegalActionError(None, None, "call reset() before sample_actions()")
        if self._sample_rng is None:
            self._sample_rng = np.zeros(1, dtype=np.uint64)
            K.seed_stream(self._sample_rng, int(seed), 1 << 40, 1)
        out = np.zeros(self.num_envs, dtype=np.int64)
        V.sample_legal(self._metas, self.masks, self._sample_rng, out, self._found)
        return out

    def episodes(self) -> npt.NDArray[np.int32]:
        """How many matches each environment has finished."""
        return self._metas[:, V.M_EPISODE].copy()
