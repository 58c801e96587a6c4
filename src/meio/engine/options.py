"""The table options of RULES.md §10 and the edition names: values a match's config
(:mod:`meio.engine.config`) and a variant (:mod:`meio.engine.ruleset`) both hold."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from meio.engine.errors import ConfigError

Edition = Literal["meio", "classic"]
WildLead = Literal["declare", "next"]


@dataclass(frozen=True, slots=True)
class TableOptions:
    """The table options of RULES.md §10, each checked.

    ``wild_lead``: ``"declare"`` (the leader of a wild names the led suit) or
    ``"next"`` (the first non-wild card sets it); ``reveal_specials``: whether the N
    specials in the deck are public.

    >>> TableOptions(wild_lead="next").declares
    False
    >>> TableOptions(wild_lead="first")
    Traceback (most recent call last):
    ...
    meio.engine.errors.ConfigError: unknown wild_lead 'first' (use 'declare' or 'next')
    """

    wild_lead: WildLead = "declare"
    reveal_specials: bool = True
    #: whether the leader of a wild declares the led suit (``wild_lead`` declare): a
    #: field, not a property, as every legal-action list reads it
    declares: bool = field(default=True, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.wild_lead not in ("declare", "next"):
            raise ConfigError(
                f"unknown wild_lead {self.wild_lead!r} (use 'declare' or 'next')",
                field="wild_lead",
            )
        if not isinstance(self.reveal_specials, bool):
            raise ConfigError(
                f"reveal_specials must be true or false, not {self.reveal_specials!r}",
                field="reveal_specials",
            )
        object.__setattr__(self, "declares", self.wild_lead == "declare")
