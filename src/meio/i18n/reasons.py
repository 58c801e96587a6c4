"""The engine's reasons for refusing an action, in the current language.

The engine gives each reason a code and parameters (:mod:`meio.engine.reasons`) and
writes it in English; the English template is the message id in both catalogues
(``meio`` here, ``web`` in the browser), so a translator sees the sentence, not
the code. :func:`extract` hands those templates to ``pybabel extract`` (see
``babel.cfg``), so the template files list them without the engine marking
anything for translation.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from typing import IO, Any

from meio.engine.errors import RecordError
from meio.engine.reasons import REASONS, Param, english_param, fill
from meio.i18n import _


def explain(
    code: str | None,
    params: Mapping[str, Param],
    english: str,
    *,
    card: Callable[[str], str] = str,
    suit: Callable[[str], str] = str,
) -> str:
    """The reason ``code`` with ``params`` in the current language.

    ``card`` and ``suit`` show a card code and a suit letter the way the client
    shows them (the command line keeps the codes). Without a known code the
    engine's ``english`` sentence is all there is.

    >>> explain("must_follow", {"card": "8D", "suit": "H"}, "")
    '8D does not follow the led suit H'
    """
    template = REASONS.get(code or "")
    if template is None:
        return english

    def show(name: str, value: Param) -> str:
        if name == "card" and isinstance(value, str):
            return card(value)
        if name == "cards" and isinstance(value, list):
            return " ".join(card(str(v)) for v in value)
        if name == "suit" and isinstance(value, str):
            return suit(value)
        return english_param(name, value)

    try:
        return fill(_(template), params, show)
    except (KeyError, IndexError, ValueError):
        return english


def error_line(exc: Exception) -> str:
    """An error's one line in the current language.

    A record that breaks a rule of play names where (round, play or field, seat) and
    why, the why from the engine's reason code and parameters (cards stay codes, as
    the command writes them); in English the line is the engine's message word for
    word. Other errors are the engine's English.
    """
    if not isinstance(exc, RecordError) or exc.code is None:
        return str(exc)
    parts: list[str] = []
    if exc.round is not None:
        parts.append(_("round {n}").format(n=exc.round))
    if exc.play is not None:
        parts.append(_("play {n}").format(n=exc.play))
    elif exc.field is not None:
        parts.append(_("field {name}").format(name=exc.field))
    where = ", ".join(parts)
    if exc.seat is not None:
        seat = _("seat {seat}").format(seat=exc.seat)
        where = f"{where} ({seat})" if where else seat
    why = explain(exc.code, exc.params, exc.reason)
    return f"{where}: {why}" if where else why


def extract(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """A Babel extraction method: the English template of every reason code, with the
    line of ``meio/engine/reasons.py`` that holds it and its code as a comment."""
    lines = fileobj.read().decode("utf-8").splitlines()
    for code, template in REASONS.items():
        lineno = next((i + 1 for i, line in enumerate(lines) if f'"{code}":' in line), 1)
        yield lineno, None, template, [f"reason code: {code}"]
