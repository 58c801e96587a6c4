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
that Typer bundles writes its words with no lookup at all: :func:`speak` has Typer's
commands write their ``Usage:`` and their ``--help`` line looked up. Its usage errors
are plain English text; :func:`usage_error` reads the ones a player meets (a missing argument, an
unknown option or command, a bad number) back into the catalogue's words, and
leaves any other as it is. :mod:`meio.cli.errors` writes them, one line each.

Only Typer's public names are used (Typer 0.29 vendors Click as its private module
``typer._click``): the words of ``typer.rich_utils`` and its error box are replaced
there; ``Usage:`` and the ``--help`` line, which its Click writes with no lookup, are
written by the public command classes of ``typer.core`` (``TyperCommand``,
``TyperGroup``), whose ``format_usage`` and ``get_help_option`` :func:`speak` replaces
(Click's ``Context`` and its help formatter, which Typer names only in the private
module, are typed ``Any``). If a Typer release moves them, ``tests/i18n/test_command.py``
(the Portuguese help pages) fails.

The catalogue is never compiled to a ``.mo`` file: :func:`meio.i18n.translator` reads
the ``.po`` file and compiles it in memory the first time a language is spoken.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from typer import TyperException
from typer.core import TyperCommand, TyperGroup

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


#: Typer's functions :func:`speak` replaces, once it has (English needs none of it)
_typer_originals: dict[str, Callable[..., Any]] = {}


def _format_error(error: TyperException) -> None:
    """Typer's error box, the message read by :func:`usage_error`."""
    text = usage_error(error.format_message())
    error.format_message = lambda: text  # type: ignore[method-assign]
    _typer_originals["rich_format_error"](error)


def _format_usage(command: Any, ctx: Any, formatter: Any) -> None:
    """A command's usage line (``meio play [OPTIONS]``), ``Usage:`` in the current
    language: Click's ``format_usage`` with the prefix given, for Typer's command and
    group classes."""
    pieces = command.collect_usage_pieces(ctx)
    formatter.write_usage(ctx.command_path, " ".join(pieces), _("Usage:") + " ")


def _get_help_option(command: Any, ctx: Any) -> Any:
    """A command's ``--help`` option, its help line in the current language."""
    option = _typer_originals["get_help_option"](command, ctx)
    if option is not None:
        option.help = _("Show this message and exit.")
    return option


def _typer_speaks() -> None:
    """Point Typer's words at the catalogue. Its functions look the language up each time
    they run; the constants of ``rich_utils`` are read again for the current language."""
    from typer import core, rich_utils

    if not _typer_originals:
        _typer_originals["rich_format_error"] = rich_utils.rich_format_error
        core._ = rich_utils._ = _  # type: ignore[attr-defined]
        rich_utils.rich_format_error = _format_error  # type: ignore[assignment]
        _typer_originals["get_help_option"] = TyperCommand.get_help_option
        for command in (TyperCommand, TyperGroup):
            command.format_usage = _format_usage  # type: ignore[method-assign,assignment]
            command.get_help_option = _get_help_option  # type: ignore[method-assign,assignment]
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
