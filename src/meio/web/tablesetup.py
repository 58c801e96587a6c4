"""A web table's options as one typed value, from the request to the database and back.

:class:`TableSetup` holds what a table was created with: the engine's own values
(the edition, the players, the partnership, the chosen specials, the §10
:class:`~meio.engine.TableOptions`, a designer's :class:`~meio.engine.ruleset.Variant`)
and the server's (the turn timer, turn-based play, a fixed deal seed, a quick-play
pool and when its bots fill the free seats). The request's schema
(:class:`meio.web.newtable.CreateTable`) is checked into one; the store writes it with
:meth:`TableSetup.to_json` and reads it with :meth:`TableSetup.from_json` (the column
``meio_tables.options``; rows written before this type read the same); each match's
config comes from :meth:`TableSetup.match_config`, and what anyone may know of it from
:meth:`TableSetup.public_json`.

>>> setup = TableSetup(players=3, options=TableOptions(wild_lead="next"), turn_timer_s=30.0)
>>> TableSetup.from_json(setup.to_json()) == setup
True
>>> setup.to_json()["wild_lead"], setup.public_json()["turn_timer_s"]
('next', 30.0)
>>> TableSetup.from_json({"edition": "poker", "players": 4, "partnership": False})
Traceback (most recent call last):
...
meio.engine.errors.ConfigError: unknown edition 'poker': use 'meio' or 'classic'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from meio.engine import ConfigError, MatchConfig, TableOptions
from meio.engine import cards as C
from meio.engine.options import Edition
from meio.engine.ruleset import Variant
from meio.engine.ruleset_file import variant_from_json, variant_json
from meio.engine.wire import OPTION_NAMES, options_in, options_json


@dataclass(frozen=True, slots=True)
class TableSetup:
    """What a web table was created with (every match of it plays these)."""

    edition: Edition = "meio"
    players: int = 4
    partnership: bool = False
    #: the chosen special cards (ids), the same every match; None: drawn each match
    specials: tuple[int, ...] | None = None
    #: the table options of RULES.md §10 (a variant's own, at a variant table)
    options: TableOptions = field(default_factory=TableOptions)
    #: a designer's ruleset (docs/variants.md); None: the edition's
    variant: Variant | None = None
    #: seconds a seat has for each turn (None: no timer)
    turn_timer_s: float | None = None
    #: played over hours or days (its timer is a long one)
    turn_based: bool = False
    #: a fixed deal seed (tests and demos: ``MEIO_ALLOW_SEEDS``); None: a fresh one a match
    seed: int | None = None
    #: quick play: the rating pool of the table, and when bots take its free seats
    quick: str | None = None
    fill_at: float | None = None

    def match_config(self, seed: int) -> MatchConfig:
        """The configuration of a match of this table dealt from ``seed``."""
        return MatchConfig(edition=self.edition, players=self.players,
                           partnership=self.partnership, specials=self.specials, seed=seed,
                           options=self.options, variant=self.variant)

    def to_json(self) -> dict[str, Any]:
        """The stored form (the column ``meio_tables.options``): never for a client, as it
        holds the seed."""
        out: dict[str, Any] = {
            "edition": self.edition,
            "players": self.players,
            "partnership": self.partnership,
            "specials": None if self.specials is None else [C.card_code(s) for s in self.specials],
            "turn_timer_s": self.turn_timer_s,
            "seed": self.seed,
            **options_json(self.options, full=True),
        }
        if self.turn_based:
            out["turn_based"] = True
        if self.variant is not None:
            out["variant"] = variant_json(self.variant)
        if self.quick is not None:
            out["quick"] = self.quick
        if self.fill_at is not None:
            out["fill_at"] = self.fill_at
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSetup:
        """The setup of a stored form; raises :class:`~meio.engine.ConfigError` naming
        the field that is wrong (missing §10 options: their defaults, as rows written
        before them have none)."""
        unknown = sorted(set(data) - _KEYS)
        if unknown:
            raise ConfigError(f"unknown table option {unknown[0]!r}", field=unknown[0])
        for name in ("edition", "players", "partnership"):
            if name not in data:
                raise ConfigError(f"a table's options need {name!r}", field=name)
        edition = data["edition"]
        if edition not in ("meio", "classic"):
            raise ConfigError(f"unknown edition {edition!r}: use 'meio' or 'classic'",
                              field="edition")
        raw = data.get("specials")
        variant = data.get("variant")
        return cls(
            edition=edition,
            players=_whole(data, "players"),
            partnership=_flag(data, "partnership", False),
            specials=None if raw is None else tuple(C.parse_card(str(c)) for c in raw),
            options=options_in(data),
            variant=None if variant is None else variant_from_json(variant),
            turn_timer_s=_number(data, "turn_timer_s"),
            turn_based=_flag(data, "turn_based", False),
            seed=None if data.get("seed") is None else _whole(data, "seed"),
            quick=None if data.get("quick") is None else str(data["quick"]),
            fill_at=_number(data, "fill_at"),
        )

    def public_json(self) -> dict[str, Any]:
        """What anyone at the table may know of its options (a public table's fields):
        no seed, and the chosen specials only at a table that reveals them."""
        shown = self.options.reveal_specials and self.specials is not None
        return {
            "edition": self.edition,
            "players": self.players,
            "partnership": self.partnership,
            "specials": [C.card_code(s) for s in self.specials or ()] if shown else None,
            **options_json(self.options, full=True),
            "turn_timer_s": self.turn_timer_s,
            "turn_based": self.turn_based,
            # a variant table: its name and sizes (the whole ruleset is in each view's config)
            "variant": self.variant_facts(),
            # quick play: its pool, and when bots take the seats still free
            "quick": self.quick,
            "fill_at": self.fill_at,
        }

    def variant_facts(self) -> dict[str, Any] | None:
        """What a lobby row shows of the table's variant: its name and sizes (None for a
        standard table). The whole ruleset is public: a seat's view carries it."""
        if self.variant is None:
            return None
        data = variant_json(self.variant)
        hand = data["hand"]
        return {"name": data["name"], "hand": hand["size"], "first_half": hand["first_half"],
                "pack": hand["pack"], "trump": data["trump"], "specials": len(data["special"])}


_KEYS = {"edition", "players", "partnership", "specials", "turn_timer_s", "seed", *OPTION_NAMES,
         "turn_based", "variant", "quick", "fill_at"}


def _whole(data: dict[str, Any], name: str) -> int:
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{name} must be a whole number, not {value!r}", field=name)
    return value


def _flag(data: dict[str, Any], name: str, default: bool) -> bool:
    value = data.get(name, default)
    if not isinstance(value, bool):
        raise ConfigError(f"{name} must be true or false, not {value!r}", field=name)
    return value


def _number(data: dict[str, Any], name: str) -> float | None:
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{name} must be a number, not {value!r}", field=name)
    return float(value)
