"""The table options of RULES.md §10 and the edition names: values a match's config
(:mod:`meio.engine.config`) and a variant (:mod:`meio.engine.ruleset`) both hold.

The options' one JSON form is written here, beside the value, as a mapping of option
name to value in which a missing option takes its default: a record's ``rules``
(only the options that differ), a config and a view (every option), a variant
file's ``options``. :mod:`meio.engine.wire` offers it with the other values' forms;
it lives here because the variant files (:mod:`meio.engine.ruleset_file`, below the
wire module) write it too.

>>> options_json(TableOptions(wild_lead="next"))
{'wild_lead': 'next'}
>>> options_json(TableOptions(), full=True)
{'wild_lead': 'declare', 'reveal_specials': True}
>>> options_from_json({"wild_lead": "next"}) == TableOptions(wild_lead="next")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

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


#: the options' names in their JSON form, in its order
OPTION_NAMES: tuple[str, ...] = ("wild_lead", "reveal_specials")
_DEFAULTS = TableOptions()


def options_json(options: TableOptions, *, full: bool = False) -> dict[str, Any]:
    """The options' JSON form: with ``full``, every option (a config, a view, a
    variant file); without, only those that differ from their defaults, as a
    record's ``rules`` writes them (``{}`` for the standard table)."""
    out: dict[str, Any] = {}
    for name in OPTION_NAMES:
        value = getattr(options, name)
        if full or value != getattr(_DEFAULTS, name):
            out[name] = value
    return out


def options_from_json(data: object) -> TableOptions:
    """The options of a JSON mapping (a missing option, or ``None`` for the whole:
    the defaults); an unknown key or value is a :class:`ConfigError` naming it.

    >>> options_from_json({"wild": "next"})
    Traceback (most recent call last):
    ...
    meio.engine.errors.ConfigError: unknown table option 'wild' (known: wild_lead, reveal_specials)
    """
    if data is None:
        return _DEFAULTS
    if not isinstance(data, dict):
        raise ConfigError(f"the table options must be an object, not {data!r}", field="rules")
    unknown = sorted(str(k) for k in data if k not in OPTION_NAMES)
    if unknown:
        raise ConfigError(
            f"unknown table option {unknown[0]!r} (known: {', '.join(OPTION_NAMES)})",
            field="rules",
        )
    return TableOptions(**{name: data[name] for name in OPTION_NAMES if name in data})


def options_in(mapping: Mapping[str, Any]) -> TableOptions:
    """The options written flat among other keys (a config's JSON, a web table's
    options): the option names' keys read as :func:`options_from_json` reads them.

    >>> options_in({"players": 3, "reveal_specials": False}).reveal_specials
    False
    """
    return options_from_json({name: mapping[name] for name in OPTION_NAMES if name in mapping})
