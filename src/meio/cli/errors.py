"""Every error of the ``meio`` command as one line in its language, with exit status 2.

Typer draws its usage errors (a missing argument, a bad number, an unknown option) in a
box of several lines, in English; an error of the system about a file (a folder that
vanished, a full disk) would end the command with a Python traceback. :class:`MeioGroup`,
the class of the ``meio`` application, catches both where a command is parsed and run and
writes one line instead:

    Error: Invalid value for '--delay': -1 is not from 0 to 60. Help: meio demo --help
"""

from __future__ import annotations

import errno
from typing import Any

import typer
from typer import BadParameter, TyperException
from typer.core import TyperGroup

from meio.cli.files import os_error_line
from meio.i18n import N_, _

#: the help of the options Typer adds for shell completion, in the catalogue
COMPLETION_HELP = {
    "install_completion": N_("Install completion for the current shell."),
    "show_completion": N_(
        "Show completion for the current shell, to copy it or customize the installation."
    ),
}


def _usage_context(error: TyperException) -> Any:
    """The context of a usage error (None for any other error, or a usage error raised
    outside a command)."""
    return getattr(error, "ctx", None)


def _is_help_request(error: TyperException) -> bool:
    """Click's ``NoArgsIsHelpError``: a command called with no arguments, whose help
    page Typer shows (known by name, as Typer's ``rich_utils`` knows it)."""
    return type(error).__name__ == "NoArgsIsHelpError"


def _number_range(error: BadParameter) -> str | None:
    """A number out of its option's range, said with the range (Typer's number check says
    only "Input should be greater than or equal to 2", and of ``nan`` that it should be
    less than the maximum)."""
    cause = error.__cause__
    param = error.param
    errors = getattr(cause, "errors", None)
    if param is None or errors is None:
        return None
    found = errors()
    if not found or found[0].get("type") not in ("greater_than_equal", "less_than_equal"):
        return None
    value = found[0].get("input")
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is not None and high is not None:
        return _("{value} is not from {min} to {max}").format(value=value, min=low, max=high)
    if low is not None:
        return _("{value} is less than {min}").format(value=value, min=low)
    return _("{value} is more than {max}").format(value=value, max=high)


def error_text(error: TyperException) -> str:
    """The message of a usage error of Typer's Click, in the current language."""
    from meio.cli.lang import usage_error

    # a missing parameter is a BadParameter too, with no message of its own: it passes
    # through unchanged (no number range, nothing to remove)
    if isinstance(error, BadParameter):
        ranged = _number_range(error)
        message = ranged if ranged is not None else error.message.removeprefix("Value error, ")
        error.message = message
    return usage_error(error.format_message())


def error_line(error: TyperException) -> str:
    """The one line ``meio`` writes for ``error``: the message, and where to find help."""
    message = error_text(error).strip()
    if not message.endswith((".", "?", "!")):
        message += "."
    line = _("Error: {message}").format(message=message)
    ctx = _usage_context(error)
    if ctx is not None:
        line += " " + _("Help: {command} --help").format(command=ctx.command_path)
    return line


def _refuse(error: TyperException) -> typer.Exit:
    typer.echo(error_line(error), err=True)
    return typer.Exit(error.exit_code)


def _refuse_os_error(error: OSError) -> typer.Exit:
    typer.echo(os_error_line(error), err=True)
    return typer.Exit(2)


class MeioGroup(TyperGroup):
    """Typer's group of commands, writing each usage error and each error of the system
    about a file as one line (see the module), and the help of the completion options in
    the current language."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        for param in params:
            if param.name in COMPLETION_HELP:
                param.help = _(COMPLETION_HELP[param.name])  # type: ignore[attr-defined]
        return params

    def make_context(
        self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any,
    ) -> Any:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except TyperException as exc:
            if _is_help_request(exc):
                raise
            raise _refuse(exc) from None

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except TyperException as exc:
            if _is_help_request(exc):
                raise
            raise _refuse(exc) from None
        except OSError as exc:
            if exc.errno == errno.EPIPE:  # the reader of a pipe went away: Typer handles it
                raise
            raise _refuse_os_error(exc) from None


__all__ = ["MeioGroup", "error_line", "error_text"]


#: the messages of the engine's and the bots' errors that a command line meets, in the
#: catalogue (the engine writes English and knows nothing of languages): a
#: :class:`~meio.engine.errors.MeioError` with one of these templates is shown translated
ERROR_TEMPLATES = (
    N_("{card} is not a card id"),
    N_("{text} is not a card code"),
    N_("{card} is listed twice"),
    N_("{text} is not a suit (use S, H, D or C)"),
    N_("{action} is not an action"),
    N_("{text}: the pile is 1 (first half) or 2 (second half)"),
    N_("{text}: only a wild card (-1, A+, +.5, Q+) declares a suit"),
    N_("{path}: not a meio-policy/1 file"),
    N_("no policy file at {path}"),
)


def meio_error_text(exc: Exception) -> str:
    """``exc``'s message in the current language where the catalogue has its template,
    else as it was raised."""
    template = getattr(exc, "message_template", None)
    if template in ERROR_TEMPLATES:
        return _(template).format(**getattr(exc, "message_params", {}))
    return str(exc)
