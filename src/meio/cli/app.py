"""The Typer application every ``meio`` sub-command registers on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from meio.cli.errors import MeioGroup, meio_error_text
from meio.cli.lang import speak
from meio.i18n import _, detect_language

if TYPE_CHECKING:
    from meio.bots import Bot
    from meio.engine import MatchConfig
    from meio.engine.ruleset import Variant

# The command speaks the language of LANG / LC_ALL (``meio play --lang`` overrides it for a
# game). Typer reads every help text when a command module is imported, so the language is
# chosen here, before any of them is built.
speak(detect_language())


def _flags_show_no_type() -> None:
    """Typer shows ``<bool>`` beside every flag in a help page (``--partnership``,
    ``--help``), where a flag takes no value: show nothing there."""
    from typer.core import TyperOption

    shown = TyperOption.display_type_rich

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:
        return None if self.is_flag and not self.count else shown(self, ctx)

    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_flags_show_no_type()

app = typer.Typer(
    name="meio",
    cls=MeioGroup,
    help=_("MEIO, the trick-taking game of balanced halves."),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from meio import __version__

        typer.echo(f"meio {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help=_("Print the version and exit.")
    ),
) -> None:
    """MEIO, the trick-taking game of balanced halves."""


def bot_table(
    edition: str, players: int, partnership: bool, seed: int, bot: str,
    wild_lead: str = "declare", reveal_specials: bool = True,
    variant: Variant | None = None,
) -> tuple[MatchConfig, list[Bot]]:
    """A match configuration (with the table options of docs/rules.md, "Table options";
    or a ``variant``'s edition and options) and one ``bot`` per seat, or exit 2 with
    the reason."""
    from meio.bots import bot_kinds, make_bot
    from meio.bots.variant_play import check_variant_bot
    from meio.cli.options import check_table
    from meio.engine import MatchConfig, TableOptions
    from meio.engine.errors import MeioError

    if variant is None:
        check_table(edition, players, partnership)
    known = bot_kinds()
    if bot not in known and not bot.startswith("learned:"):
        typer.echo(_("unknown bot {names}; choose from {known}").format(
            names=repr(bot), known=", ".join(known)), err=True)
        raise typer.Exit(2)
    try:
        config = MatchConfig(
            edition=edition if variant is None else variant.edition,  # type: ignore[arg-type]
            players=players,
            partnership=partnership,
            seed=seed,
            options=TableOptions(wild_lead, reveal_specials)  # type: ignore[arg-type]
            if variant is None
            else variant.options,
            variant=variant,
        )
        check_variant_bot(bot, config)
        bots = [make_bot(bot, seed * 10 + s) for s in range(players)]
    except (MeioError, ValueError) as exc:
        typer.echo(meio_error_text(exc), err=True)
        raise typer.Exit(2) from None
    return config, bots
