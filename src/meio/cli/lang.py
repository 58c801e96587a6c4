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
line when Click adds that option to a command. Its usage errors are plain English
text; :func:`usage_error` reads the ones a player meets (a missing argument, an
unknown option or command, a bad number) back into the catalogue's words, and
leaves any other as it is. :mod:`meio.cli.errors` writes them, one line each.

Two of these words have no public hook in Typer 0.29, which vendors Click as its private
module ``typer._click``: the ``Usage:`` of a help page is written by the help formatter
of Click's ``Context`` (``Context.formatter_class``), and the ``--help`` option's line by
the ``help_option`` decorator Click applies when a command's help option is first asked
for. Neither is re-exported by ``typer``, ``typer.core`` or ``typer.rich_utils``, and
``typer.Context`` is a subclass Typer never makes, so setting a formatter on it changes
nothing. This module is therefore the one place in meio that imports ``typer._click``,
and only those two modules (and the formatter class it extends); everything else,
errors included, uses Typer's public names (``typer.TyperException``, the base of its
Click's errors) and the public ``typer.core`` and ``typer.rich_utils``. If a Typer
release moves them, ``tests/i18n/test_command.py`` (the Portuguese help pages) fails.

The catalogue is never compiled to a ``.mo`` file: :func:`meio.i18n.translator` reads
the ``.po`` file and compiles it in memory the first time a language is spoken.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from typer import TyperException
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

#: the usage errors of Typer's Click, as patterns, and the catalogue's words for them
USAGE_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"Missing argument (?P<name>.+)\."), N_("Missing argument {name}.")),
    (re.compile(r"Missing option (?P<name>.+)\."), N_("Missing option {name}.")),
    (
        re.compile(r"No such option: (?P<name>\S+) \(Possible options: (?P<options>.+)\)"),
        N_("No such option: {name} (Possible options: {options})"),
    ),
    (re.compile(r"No such option: (?P<name>\S+)"), N_("No such option: {name}")),
    (
        re.compile(r"Option (?P<name>\S+) requires an argument\."),
        N_("Option {name} requires an argument."),
    ),
    (
        re.compile(r"Option (?P<name>\S+) does not take a value\."),
        N_("Option {name} does not take a value."),
    ),
    (
        re.compile(r"Got unexpected extra argument\(s\) \((?P<args>.*)\)"),
        N_("Got unexpected extra argument(s) ({args})"),
    ),
    (
        re.compile(r"Invalid value for (?P<param>.+?): (?P<message>.*)", re.DOTALL),
        N_("Invalid value for {param}: {message}"),
    ),
)
#: what Typer says of a value of the wrong type, for the types of meio's options
VALUE_ERRORS = (
    N_("Input should be a valid integer, unable to parse string as an integer"),
    N_("Input should be a valid number, unable to parse string as a number"),
)
_SUGGESTION = re.compile(r"(?P<error>.*)\. Did you mean (?P<names>.+)\?", re.DOTALL)


def usage_error(text: str) -> str:
    """A usage error of Typer's Click in the current language (as it is when the catalogue
    has no words for it).

    >>> usage_error("Missing argument 'file'.")
    "Missing argument 'file'."
    """
    suggestion = _SUGGESTION.fullmatch(text)
    if suggestion:
        return usage_error(suggestion["error"] + ".").rstrip(".") + ". " + _(
            "Did you mean {names}?"
        ).format(names=suggestion["names"])
    for pattern, message in USAGE_ERRORS:
        found = pattern.fullmatch(text)
        if found:
            fields = found.groupdict()
            value = fields.get("message")
            if value is not None:
                fields.update(message=_(value))
            return _(message).format(**fields)
    return text


class _Formatter(HelpFormatter):
    """Click's help formatter with ``Usage:`` in the current language."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, args, _("Usage:") + " " if prefix is None else prefix)


_click_help_option = click_decorators.help_option
#: Typer's functions :func:`speak` replaces, once it has (English needs none of it)
_typer_originals: dict[str, Callable[..., Any]] = {}


def _format_error(error: TyperException) -> None:
    """Typer's error box, the message read by :func:`usage_error`."""
    text = usage_error(error.format_message())
    error.format_message = lambda: text  # type: ignore[method-assign]
    _typer_originals["rich_format_error"](error)


def _help_option(param_decls: list[str]) -> Callable[[Any], Any]:
    """Click's ``--help`` option, its help line in the current language."""
    add = _click_help_option(param_decls)

    def decorate(command: Any) -> Any:
        command = add(command)
        command.params[-1].help = _("Show this message and exit.")
        return command

    return decorate


def _typer_speaks() -> None:
    """Point Typer's words at the catalogue. Its functions look the language up each time
    they run; the constants of ``rich_utils`` are read again for the current language."""
    from typer import core, rich_utils

    if not _typer_originals:
        _typer_originals["rich_format_error"] = rich_utils.rich_format_error
        core._ = rich_utils._ = _  # type: ignore[attr-defined]
        rich_utils.rich_format_error = _format_error  # type: ignore[assignment]
        click_core.Context.formatter_class = _Formatter
        click_decorators.help_option = _help_option
    rich_utils.DEFAULT_STRING = _("[default: {}]")
    rich_utils.REQUIRED_LONG_STRING = _("[required]")
    rich_utils.ARGUMENTS_PANEL_TITLE = _("Arguments")
    rich_utils.OPTIONS_PANEL_TITLE = _("Options")
    rich_utils.COMMANDS_PANEL_TITLE = _("Commands")
    rich_utils.ERRORS_PANEL_TITLE = _("Error")
    rich_utils.ABORTED_TEXT = _("Aborted.")
    rich_utils.RICH_HELP = _("Try [blue]'{command_path} {help_option}'[/] for help.")


def speak(language: Language | str) -> Language:
    """Speak ``language`` (``en``, ``pt``, or a locale name such as ``pt_BR.UTF-8``):
    :func:`meio.i18n._` and Typer's own messages. Returns the language.

    Typer is left untouched while the command speaks English, its source language (so
    ``meio`` starts without loading Typer's help renderer).
    """
    chosen = set_language(language)
    if chosen != "en" or _typer_originals:
        _typer_speaks()
    return chosen


__all__ = ["TYPER_MESSAGES", "USAGE_ERRORS", "speak", "usage_error"]
