"""The table an RL environment plays at, and how each of its matches is drawn.

Both :class:`meio.rl.MeioEnv` and :class:`meio.rl.VectorEnv` draw a match from
one splitmix64 stream per ``(seed, episode)`` (the compiled core's generator),
in this order: the set of specials (when not fixed), the first leader, the deal
of round 1; then for each later round the next leader's tie-break and the deal.
The opponents' compiled policies draw from the same stream, so a vector
environment and a :class:`~meio.rl.MeioEnv` with the same seed play the same
games.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from meio.engine import MatchConfig, TableOptions
from meio.engine import cards as C
from meio.engine.errors import ConfigError
from meio.sim import kernels as K
from meio.sim.tables import tables_for

I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]
U64 = npt.NDArray[np.uint64]

WildLead = Literal["declare", "next"]
OPPONENT_POLICIES = {"random": K.POLICY_RANDOM, "heuristic": K.POLICY_HEURISTIC}


@dataclass(frozen=True, slots=True, eq=False)
class TableArrays:
    """A table's fixed facts and the core arrays for each set of specials it may use.

    ``combos[k]`` is the k-th possible set of specials (all ``C(5, N)`` sets when
    the specials are drawn per match, else the one given), ``strengths[k]`` the
    heuristic's trick strengths for the deck with that set.
    """

    edition: str
    players: int
    partnership: bool
    wild_lead: str
    reveal_specials: bool
    combos: I32
    strengths: F64
    ruleset: I32
    cfg: I32
    base_deck: I32
    rounds: int
    to_win: int

    def config(self, combo: int, leader: int) -> MatchConfig:
        """The match config of a match with specials ``combos[combo]`` led by ``leader``."""
        return _config(
            self.edition, self.players, self.partnership,
            tuple(int(c) for c in self.combos[combo]), leader, self.wild_lead,
            self.reveal_specials,
        )

    def deck(self, combo: int) -> I32:
        """The deck's card ids (sorted) with specials ``combos[combo]``."""
        return np.concatenate([self.base_deck, self.combos[combo]]).astype(np.int32)

    def start_match(self, seed: int, episode: int) -> tuple[U64, int, int]:
        """The stream of match ``episode`` of ``seed`` after drawing its specials and
        first leader: ``(rng, combo, leader)``."""
        from meio.rl import kernels as V

        rng = np.zeros(1, dtype=np.uint64)
        K.seed_stream(rng, seed, episode, 0)
        combo = V.below(rng, len(self.combos)) if len(self.combos) > 1 else 0
        leader = V.below(rng, self.players)
        return rng, combo, leader


def _config(
    edition: str, players: int, partnership: bool, specials: tuple[int, ...] | None,
    leader: int | None, wild_lead: str, reveal_specials: bool,
) -> MatchConfig:
    return MatchConfig(
        edition="classic" if edition == "classic" else "meio",
        players=players,
        partnership=partnership,
        specials=specials,
        first_leader=leader,
        options=TableOptions("next" if wild_lead == "next" else "declare", reveal_specials),
    )


def make_table(
    *,
    players: int = 4,
    edition: str = "meio",
    partnership: bool = False,
    specials: tuple[int, ...] | list[str] | None = None,
    wild_lead: str = "declare",
    reveal_specials: bool = True,
) -> TableArrays:
    """Check a table's options and build its arrays; raises :class:`ConfigError`."""
    if wild_lead not in ("declare", "next"):
        raise ConfigError(f"wild_lead is 'declare' or 'next', not {wild_lead!r}")
    if not isinstance(reveal_specials, bool):
        raise ConfigError(f"reveal_specials must be true or false, not {reveal_specials!r}")
    fixed: tuple[int, ...] | None = None
    if specials is not None:
        fixed = tuple(C.parse_card(s) if isinstance(s, str) else int(s) for s in specials)
    probe = _config(edition, players, partnership, fixed, 0, wild_lead, reveal_specials)
    if probe.edition == "classic":
        combos_list: list[tuple[int, ...]] = [()]
    elif fixed is not None:
        combos_list = [probe.special_cards]
    else:
        combos_list = list(itertools.combinations(C.SPECIALS, players))
    strengths = np.zeros((len(combos_list), 2, 65))
    for k, combo in enumerate(combos_list):
        cfg_k = _config(edition, players, partnership, combo or None, 0, wild_lead,
                        reveal_specials)
        strengths[k] = tables_for(cfg_k).strength
    t = tables_for(probe)
    base = np.array([c for c in t.deck if c < 60], dtype=np.int32)
    width = len(combos_list[0])
    combos = np.array(combos_list, dtype=np.int32).reshape(len(combos_list), width)
    return TableArrays(
        edition=probe.edition,
        players=players,
        partnership=partnership,
        wild_lead=wild_lead,
        reveal_specials=reveal_specials,
        combos=combos,
        strengths=strengths,
        ruleset=np.array(t.ruleset),
        cfg=np.array(t.cfg),
        base_deck=base,
        rounds=probe.rounds or 0,
        to_win=probe.victories_to_win or 0,
    )


def next_leader(side_scores: list[int], rng: U64) -> int:
    """The next round's leader: a seat of the top score (its side's, in
    partnership), drawn as the core draws it."""
    from meio.rl import kernels as V

    top = max(side_scores)
    seats = [p for p, v in enumerate(side_scores) if v == top]
    return seats[V.below(rng, len(seats))]
