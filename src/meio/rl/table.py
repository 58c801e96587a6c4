"""The table an RL environment plays at, and how each of its matches is drawn.

Both :class:`meio.rl.MeioEnv` and :class:`meio.rl.VectorEnv` draw a match from
one splitmix64 stream per ``(seed, episode)`` (the compiled core's generator),
in this order: the set of specials (when not fixed), the first leader, the deal
of round 1; then for each later round the next leader's tie-break and the deal.
The opponents' compiled policies draw from the same stream, so a vector
environment and a :class:`~meio.rl.MeioEnv` with the same seed play the same
games.

**Any ruleset.** Every environment takes ``ruleset``: a preset's name (``"meio"``,
``"classic"``, ``"mini"``), a variant file's path or a
:class:`~meio.engine.ruleset.Variant` (:func:`resolve_ruleset`). An edition's preset
(whatever its table options) is played as the standard game, with the standard
observation; any other ruleset is a *variant table*: its own deck, hand and pack sizes,
specials, scoring, match format and leader rule, the variant heuristic
(:mod:`meio.bots.variant_play`) as the ``"heuristic"`` opponent, and the attribute
observation (:func:`observation_size`, :mod:`meio.bots.attributes`).
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from meio.bots.attributes import ANY_SIZE, card_attributes, observe_any, table_numbers
from meio.bots.observation import F32, OBS_SIZE, observe
from meio.engine import MatchConfig, TableOptions, View
from meio.engine import cards as C
from meio.engine.errors import ConfigError
from meio.engine.presets import PRESETS, is_standard, preset
from meio.engine.ruleset import Variant
from meio.engine.ruleset_file import load_variant
from meio.rl.layout import ActionLayout, action_layout
from meio.sim import core as K
from meio.sim.tables import plays_variant, tables_for

I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]
U64 = npt.NDArray[np.uint64]

WildLead = Literal["declare", "next"]
#: the compiled opponents (``"heuristic"`` is a variant table's variant heuristic:
#: :meth:`TableArrays.policy`)
OPPONENT_POLICIES = {"random": K.POLICY_RANDOM, "heuristic": K.POLICY_HEURISTIC}
#: what an environment's ``ruleset`` may be: a preset's name, a variant file, a Variant
RulesetLike: TypeAlias = "str | os.PathLike[str] | Variant"


def resolve_ruleset(ruleset: RulesetLike | None) -> Variant | None:
    """The ruleset an environment's ``ruleset`` names: a preset (``"meio"``,
    ``"classic"``, ``"mini"``), a ``.toml`` variant file (read and checked:
    :class:`~meio.engine.ruleset_file.VariantError` lists its problems) or a
    :class:`~meio.engine.ruleset.Variant`; None for None.

    >>> resolve_ruleset("mini").hand, resolve_ruleset(None)
    (3, None)
    """
    if ruleset is None or isinstance(ruleset, Variant):
        return ruleset
    if isinstance(ruleset, str) and ruleset in PRESETS:
        return preset(ruleset)
    if isinstance(ruleset, (str, os.PathLike)):
        path = Path(ruleset)
        if path.suffix == ".toml" or path.exists():
            return load_variant(path)
    raise ConfigError(f"ruleset is a preset ({', '.join(PRESETS)}), a .toml variant file or "
                      f"a Variant, not {ruleset!r}", field="variant")


def observation_size(variant: Variant | None) -> int:
    """The observation's length at a table of ``variant`` (None: an edition): the
    standard observation's 716 (:data:`~meio.bots.observation.OBS_SIZE`) on an edition,
    the attribute encoding's 1,941 (:data:`~meio.bots.attributes.ANY_SIZE`) on any
    other ruleset."""
    return OBS_SIZE if variant is None else ANY_SIZE


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
    #: the variant of a variant table (None: an edition, played as the standard game)
    variant: Variant | None = None
    #: the core's policy that ``"heuristic"`` names here (the variant heuristic on a variant)
    heuristic: int = K.POLICY_HEURISTIC

    @property
    def hand(self) -> int:
        """Cards dealt to each seat."""
        return 13 if self.variant is None else self.variant.hand

    @property
    def first_half(self) -> int:
        """Cards kept in hand for the first half (its tricks)."""
        return 7 if self.variant is None else self.variant.first_half

    @property
    def pack(self) -> int:
        """Cards in the second-half pack."""
        return self.hand - self.first_half

    @property
    def layout(self) -> ActionLayout:
        """The table's flat action space (:mod:`meio.rl.layout`)."""
        return action_layout(self.hand, self.pack)

    @property
    def observation_size(self) -> int:
        """The observation's length here (:func:`observation_size`)."""
        return observation_size(self.variant)

    def policy(self, name: str) -> int:
        """The core's policy of the compiled opponent ``name`` at this table."""
        code = OPPONENT_POLICIES[name]
        return self.heuristic if code == K.POLICY_HEURISTIC else code

    def attribute_data(self) -> npt.NDArray[np.float32]:
        """The attribute encoding's table data the compiled observation reads (the
        ``A_*`` layout of :mod:`meio.rl.envcore`): each card's attribute row as if in the
        deck, the ruleset's numbers at this table, and which cards are the deck's
        ordinary cards (1) and the ruleset's specials (2). Zeros on an edition's table."""
        from meio.rl import envcore as V

        out = np.zeros(V.A_LEN, dtype=np.float32)
        if self.variant is None:
            return out
        config = self.config(0, 0)
        pool = config.ruleset.special_pool
        every = C.mask_of(int(c) for c in self.base_deck) | C.mask_of(pool)
        rows = card_attributes(config.rules, every)
        out[V.A_ROWS:V.A_NUMBERS] = rows.reshape(-1)
        out[V.A_NUMBERS:V.A_KIND] = table_numbers(config)
        out[V.A_KIND + self.base_deck] = 1.0
        for card in pool:
            out[V.A_KIND + card] = 2.0
        return out

    def config(self, combo: int, leader: int) -> MatchConfig:
        """The match config of a match with specials ``combos[combo]`` led by ``leader``."""
        return _config(
            self.edition, self.players, self.partnership,
            tuple(int(c) for c in self.combos[combo]), leader, self.wild_lead,
            self.reveal_specials, self.variant,
        )

    def deck(self, combo: int) -> I32:
        """The deck's card ids (sorted) with specials ``combos[combo]``."""
        return np.concatenate([self.base_deck, self.combos[combo]]).astype(np.int32)

    def start_match(self, seed: int, episode: int) -> tuple[U64, int, int]:
        """The stream of match ``episode`` of ``seed`` after drawing its specials and
        first leader: ``(rng, combo, leader)``."""
        from meio.rl import envcore as V

        rng = np.zeros(1, dtype=np.uint64)
        K.seed_stream(rng, seed, episode, 0)
        combo = V.below(rng, len(self.combos)) if len(self.combos) > 1 else 0
        leader = V.below(rng, self.players)
        return rng, combo, leader


def _config(
    edition: str, players: int, partnership: bool, specials: tuple[int, ...] | None,
    leader: int | None, wild_lead: str, reveal_specials: bool, variant: Variant | None = None,
) -> MatchConfig:
    return MatchConfig(
        edition="classic" if edition == "classic" else "meio",
        players=players,
        partnership=partnership,
        specials=specials,
        first_leader=leader,
        options=TableOptions("next" if wild_lead == "next" else "declare", reveal_specials),
        variant=variant,
    )


#: the bounds of the attribute encoding's entries: a card's value / 15 lies in -20/15 ..
#: 40/15 and a plane's pooled sum of attribute rows (divided by 13) holds at most the 65
#: cards, so every entry lies in -2 .. 14 (the standard observation's lie in 0 .. 1)
ANY_BOUNDS = (-2.0, 14.0)


def observation_box(variant: Variant | None) -> Any:
    """The Gymnasium ``Box`` of one observation at a table of ``variant`` (None: an
    edition): ``Box(0, 1, (716,))``, or the attribute encoding's ``Box(-2, 14, (1941,))``."""
    import gymnasium

    low, high = (0.0, 1.0) if variant is None else ANY_BOUNDS
    return gymnasium.spaces.Box(low, high, (observation_size(variant),), np.float32)


def observe_table(view: View, *, picked: int = 0) -> F32:
    """A seat's observation at its table: :func:`~meio.bots.observation.observe` on an
    edition, :func:`~meio.bots.attributes.observe_any` (the attribute encoding) on any
    other ruleset. ``picked``: the cards chosen so far in a sequential split."""
    if plays_variant(view.config):
        return observe_any(view, picked=picked)
    return observe(view, picked=picked)


_DEFAULTS = {"edition": "meio", "wild_lead": "declare", "reveal_specials": True}


def make_table(
    *,
    players: int = 4,
    edition: str = "meio",
    partnership: bool = False,
    specials: tuple[int, ...] | list[str] | None = None,
    wild_lead: str = "declare",
    reveal_specials: bool = True,
    ruleset: RulesetLike | None = None,
) -> TableArrays:
    """Check a table's options and build its arrays; raises :class:`ConfigError`.

    With ``ruleset`` (:func:`resolve_ruleset`) the edition and the table options are the
    ruleset's own: one of them given otherwise than its default and the ruleset's is
    refused. An edition's preset is the standard game; any other ruleset a variant table
    (the module docstring)."""
    variant = resolve_ruleset(ruleset)
    if variant is not None:
        own = {"edition": variant.edition, "wild_lead": variant.options.wild_lead,
               "reveal_specials": variant.options.reveal_specials}
        given = {"edition": edition, "wild_lead": wild_lead,
                 "reveal_specials": reveal_specials}
        for key, value in own.items():
            if given[key] != value and given[key] != _DEFAULTS[key]:
                raise ConfigError(f"{key} is the ruleset's own: {variant.name!r} plays "
                                  f"{key} {value!r}, not {given[key]!r}", field=key)
        edition, wild_lead = variant.edition, variant.options.wild_lead
        reveal_specials = variant.options.reveal_specials
        if is_standard(variant):
            variant = None  # an edition's preset: the standard game
    if wild_lead not in ("declare", "next"):
        raise ConfigError(f"wild_lead is 'declare' or 'next', not {wild_lead!r}")
    if not isinstance(reveal_specials, bool):
        raise ConfigError(f"reveal_specials must be true or false, not {reveal_specials!r}")
    fixed: tuple[int, ...] | None = None
    if specials is not None:
        fixed = tuple(C.parse_card(s) if isinstance(s, str) else int(s) for s in specials)
    probe = _config(edition, players, partnership, fixed, 0, wild_lead, reveal_specials,
                    variant)
    if probe.special_count == 0:
        combos_list: list[tuple[int, ...]] = [()]
    elif fixed is not None:
        combos_list = [probe.special_cards]
    else:
        combos_list = list(itertools.combinations(probe.ruleset.special_pool,
                                                  probe.special_count))
    strengths = np.zeros((len(combos_list), 2, 65))
    for k, combo in enumerate(combos_list):
        cfg_k = _config(edition, players, partnership, combo or None, 0, wild_lead,
                        reveal_specials, variant)
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
        variant=variant,
        heuristic=t.heuristic,
    )


def next_leader(seats: tuple[int, ...], most_points: bool, rng: U64) -> int:
    """The next round's leader among ``seats``, those the ruleset's leader rule allows
    (:func:`meio.engine.eligible_leaders`), drawn as the core draws it: under
    ``most_points`` one draw from the stream, however many they are; under the other
    rules (which name one seat) none."""
    from meio.rl import envcore as V

    if not most_points:
        return seats[0]
    return seats[V.below(rng, len(seats))]
