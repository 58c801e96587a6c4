"""The language of the ``meio`` command: its own messages and Typer's.

The command speaks the language of ``LANG`` / ``LC_ALL`` (``meio play --lang``
overrides it for a game). Typer reads every help text when a command module is
imported, so :func:`speak` runs in :mod:`meio.cli.app`, before any command is
built.

Typer writes words of its own too (the ``Options``, ``Arguments`` and ``Commands``
panels, ``[default: …]``, ``[required]``, the ``Error`` box and its ``Try … for
help.`` line). It looks them up with gettext's global domain, which would need
compiled ``.mo`` files next to Python; :func:`speak` points those lookups at the
``meio`` catalogue instead, which carries them (:data:`TYPER_MESSAGES`). The Click
that Typer bundles writes its words with no lookup at all: :func:`speak` gives its
help pages a formatter whose ``Usage:`` is looked up, and looks up the ``--help``
line when Click adds that option to a command. Its usage errors (``Missing
argument 'FILE'.``, ``No such option``) stay English.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from typer._click import core as click_core
from typer._click import decorators as click_decorators
from typer._click.formatting import HelpFormatter

from meio.i18n import N_, Language, _, set_language

#: Typer's messages that a ``meio`` command can show, written exactly as Typer writes
#: them, so the catalogue carries a translation
TYPER_MESSAGES = (
    N_("Options"),
    N_("Arguments"),
    N_("Commands"),
    N_("[default: {}]"),
    N_("[required]"),
    N_("default: {default}"),
    N_("required"),
    N_("Error"),
    N_("Aborted."),
    N_("Aborted!"),
    N_("Try [blue]'{command_path} {help_option}'[/] for help."),
    N_("Missing command."),
    N_("No such command {name!r}."),
    N_("Usage:"),
    N_("Show this message and exit."),
)


class _Formatter(HelpFormatter):
    """Click's help formatter with ``Usage:`` in the current language."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, _("Usage:") + " " if prefix is None else prefix)


_click_help_option = click_decorators.help_option


def _help_option(param_decls: list[str]) -> Callable[[Any], Any]:
    """Click's ``--help`` option, its help line in the current language."""
    add = _click_help_option(param_decls)

    def decorate(command: Any) -> Any:
        command = add(command)
        command.params[-1].help = _("Show this message and exit.")
        return command

    return decorate


def speak(language: Language | str) -> Language:
    """Speak ``language`` (``en``, ``pt``, or a locale name such as ``pt_BR.UTF-8``):
    :func:`meio.i18n._` and Typer's own messages. Returns the language."""
    from typer import core, rich_utils

    chosen = set_language(language)
    core._ = rich_utils._ = _  # type: ignore[attr-defined]
    click_core.Context.formatter_class = _Formatter
    click_decorators.help_option = _help_option
    # rich_utils reads these once, when it is imported
    rich_utils.DEFAULT_STRING = _("[default: {}]")
    rich_utils.REQUIRED_LONG_STRING = _("[required]")
    rich_utils.ARGUMENTS_PANEL_TITLE = _("Arguments")
    rich_utils.OPTIONS_PANEL_TITLE = _("Options")
    rich_utils.COMMANDS_PANEL_TITLE = _("Commands")
    rich_utils.ERRORS_PANEL_TITLE = _("Error")
    rich_utils.ABORTED_TEXT = _("Aborted.")
    rich_utils.RICH_HELP = _("Try [blue]'{command_path} {help_option}'[/] for help.")
    return chosen


__all__ = ["TYPER_MESSAGES", "speak"]
