"""The options every ``meio`` command spells the same way.

* The table options (docs/rules.md, "Table options"): every command that creates a game
  (``meio deal``, ``demo``, ``simulate``, ``tournament``, ``advise``, ``analyze``, ``play``)
  takes ``--wild-lead declare|next`` and ``--hide-specials`` in the same words;
  :func:`rules_text` says which options a table plays, for the commands that print a
  header.
* The table size is ``--players`` / ``-n`` (``-p``, the old spelling of ``advise`` and
  ``tournament``, still works, hidden); the bots are ``--bots`` (``--bot`` and
  ``--policy``, the old spellings, still work, hidden): :func:`either` takes whichever was
  given.
* Every number has its range (a seed is 0 to :data:`SEED_MAX`), which Typer checks and
  shows in the help.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from meio.cli.files import InputFile
from meio.i18n import N_, _

if TYPE_CHECKING:
    from meio.engine.ruleset import Variant


def _either_word(first: str, second: str) -> Callable[[str | None], str | None]:
    """A check that an option's value is ``first`` or ``second``."""

    def check(value: str | None) -> str | None:
        if value is not None and value not in (first, second):
            raise typer.BadParameter(_("'{value}' is neither {first} nor {second}").format(
                value=value, first=first, second=second))
        return value

    return check


#: the check of an ``--edition``
check_edition = _either_word("meio", "classic")
EditionOption = Annotated[str, typer.Option(callback=check_edition, help=_("meio or classic"))]
WildLeadOption = Annotated[
    str,
    typer.Option(
        "--wild-lead",
        callback=_either_word("declare", "next"),
        help=_(
            "how a led wild plays: 'declare' (the leader names the led suit) or 'next' (no "
            "suit; the first non-wild card sets it); see 'Table options' in docs/rules.md"
        ),
    ),
]
HideSpecialsOption = Annotated[
    bool,
    typer.Option(
        "--hide-specials",
        help=_(
            "do not tell the players which special cards are in the deck; see 'Table "
            "options' in docs/rules.md"
        ),
    ),
]

VariantOption = Annotated[
    Path | None,
    typer.Option(
        "--variant", metavar="FILE", parser=InputFile(),
        help=_("play a variant: a ruleset in a TOML file (docs/variants.md); the edition "
               "and the table options are then the variant's"),
    ),
]


def read_variant(path: Path | None, wild_lead: str = "declare",
                 reveal_specials: bool = True) -> Variant | None:
    """The variant of ``--variant FILE`` (None without one), or exit 2 printing each of
    its problems on a line; the table options belong to the variant, so
    ``--wild-lead``/``--hide-specials`` beside it are refused."""
    if path is None:
        return None
    from meio.engine.ruleset_file import VariantError, load_variant

    if wild_lead != "declare" or not reveal_specials:
        typer.echo(_("with --variant the table options are the variant's: set them in its "
                     "[options] table"), err=True)
        raise typer.Exit(2)
    try:
        return load_variant(path)
    except VariantError as exc:
        for line in exc.problems:
            typer.echo(line, err=True)
        raise typer.Exit(2) from None


T = TypeVar("T")

#: the largest seed a command takes (the commands draw theirs below it)
SEED_MAX = 2**31 - 1
#: the most seats at a table
MAX_PLAYERS = 5

PlayersOption = Annotated[
    int,
    typer.Option("--players", "-n", min=2, max=MAX_PLAYERS,
                 help=_("table size: 2 to 5 (classic: 2 to 4)")),
]
#: ``-p``, the table size as ``meio advise`` and ``meio tournament`` once spelled it
OldPlayersOption = Annotated[int | None, typer.Option(
    "-p", min=2, max=MAX_PLAYERS, hidden=True, help=_("the old spelling of --players"))]
#: ``--bot``, the bots as ``meio demo`` and ``meio deal`` once spelled it
OldBotOption = Annotated[str | None, typer.Option(
    "--bot", hidden=True, help=_("the old spelling of --bots"))]
#: ``--policy``, the bots as ``meio simulate`` and ``meio analyze`` once spelled it
OldPolicyOption = Annotated[str | None, typer.Option(
    "--policy", hidden=True, help=_("the old spelling of --bots"))]
#: ``--opponents``, the bots as ``meio train`` once spelled it
OldOpponentsOption = Annotated[str | None, typer.Option(
    "--opponents", hidden=True, help=_("the old spelling of --bots"))]


def seed_option(help: str) -> Any:
    """A ``--seed`` option, 0 to :data:`SEED_MAX`, with its help."""
    return typer.Option("--seed", min=0, max=SEED_MAX, help=help)


def check_table(edition: str, players: int, partnership: bool) -> None:
    """Exit 2 with one line when no table has this edition, size and partnership."""
    if edition == "classic" and players > 4:
        typer.echo(_("the classic edition is for 2 to 4 players, not {n}").format(n=players),
                   err=True)
        raise typer.Exit(2)
    if partnership and players != 4:
        typer.echo(_("a partnership table is exactly 4 players, not {n}").format(n=players),
                   err=True)
        raise typer.Exit(2)


def either(value: T, old: T | None) -> T:
    """The value of an option, or of its old spelling where that was given instead.

    >>> either(4, None), either(4, 3)
    (4, 3)
    """
    return value if old is None else old


#: the values of the table options, as words in the current language
OPTION_WORDS = {
    "declare": N_("declare"),
    "next": N_("next"),
    "true": N_("true"),
    "false": N_("false"),
}


def option_word(value: object) -> str:
    """A table option's value as a word in the current language (``next``, ``false``...)."""
    raw = str(value).lower()
    return _(OPTION_WORDS[raw]) if raw in OPTION_WORDS else raw


def rules_text(wild_lead: str, reveal_specials: bool) -> str:
    """The table options in a few words, in the current language, e.g.
    ``"wild lead: next, specials hidden"``."""
    shown = _("specials shown") if reveal_specials else _("specials hidden")
    return _("wild lead: {wild_lead}, {specials}").format(
        wild_lead=option_word(wild_lead), specials=shown
    )
