"""Translations: English and Brazilian Portuguese, as gettext catalogues.

The catalogues are ordinary ``.po`` files managed with Babel, one domain per
client, under ``locale/LANG/LC_MESSAGES/DOMAIN.po`` next to this module
(``meio`` for the terminal and the command line, ``web`` for the browser
client). They are read at run time, so there is no build step: editing a
``.po`` file is all a translator does.

English is the source language: a message is written in English in the code,
wrapped in :func:`_` (or marked with :func:`N_` where it must stay untranslated
until shown), and looked up in the chosen language's catalogue.

>>> translator("pt").gettext("Last trick")
'Última vaza'
>>> translator("en").gettext("Last trick")
'Last trick'
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Literal

from meio.engine.errors import MeioError

#: the languages the clients speak
Language = Literal["en", "pt"]
LANGUAGES: tuple[Language, ...] = ("en", "pt")
#: the gettext locale of each language's catalogues (English needs none)
LOCALES: dict[Language, str] = {"pt": "pt_BR"}
#: where the catalogues live
LOCALE_DIR = Path(__file__).parent / "locale"
#: the terminal's and the command line's catalogue
DOMAIN = "meio"

_current: Language = "en"


class LanguageError(MeioError, ValueError):
    """A language the clients do not speak."""


def parse_language(text: str) -> Language:
    """``en`` or ``pt`` from a language name as users write it (``pt_BR``, ``pt-BR.UTF-8``).

    >>> parse_language("pt_BR.UTF-8"), parse_language("EN")
    ('pt', 'en')
    """
    code = text.strip().lower().replace("-", "_").split(".")[0].split("@")[0].split("_")[0]
    if code == "pt":
        return "pt"
    if code == "en":
        return "en"
    raise LanguageError(f"unknown language {text!r}: use 'en' (English) or 'pt' (Português)")


def detect_language(environ: Mapping[str, str] | None = None) -> Language:
    """The language the environment asks for, as gettext reads it.

    ``LANGUAGE``, then ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``: the first one set
    decides; Portuguese if it names Portuguese, English otherwise.

    >>> detect_language({"LANG": "pt_BR.UTF-8"}), detect_language({"LC_ALL": "C"})
    ('pt', 'en')
    """
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            first = value.split(":")[0]
            try:
                return parse_language(first)
            except LanguageError:
                return "en"
    return "en"


@cache
def translator(language: Language, domain: str = DOMAIN) -> gettext.NullTranslations:
    """The catalogue of ``domain`` in ``language`` (English: the messages as written).

    The ``.po`` file is compiled in memory with Babel the first time it is asked
    for; later calls return the same object.
    """
    locale = LOCALES.get(language)
    if locale is None:
        return gettext.NullTranslations()
    path = LOCALE_DIR / locale / "LC_MESSAGES" / f"{domain}.po"
    if not path.exists():
        raise LanguageError(f"no {domain!r} catalogue for {language!r} at {path}")
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as fh:
        catalog = read_po(fh, locale=locale, domain=domain)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def set_language(language: Language | str) -> Language:
    """Choose the language of :func:`_` for this process; returns it."""
    global _current
    _current = parse_language(language)
    return _current


def language() -> Language:
    """The language :func:`_` translates into now."""
    return _current


def _(message: str) -> str:
    """``message`` in the current language."""
    if _current == "en":
        return message
    return translator(_current).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the current language."""
    return translator(_current).ngettext(singular, plural, n)


def decimal(value: float, digits: int = 2) -> str:
    """``value`` with ``digits`` decimals, as the current language writes it.

    >>> decimal(0.4237), decimal(1.25, 1)
    ('0.42', '1.2')
    """
    text = f"{value:.{digits}f}"
    # Brazilian Portuguese writes a decimal comma: 0,42
    return text.replace(".", ",") if _current == "pt" else text


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it yet (translate when shown)."""
    return message


__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALES",
    "LOCALE_DIR",
    "N_",
    "Language",
    "LanguageError",
    "_",
    "decimal",
    "detect_language",
    "language",
    "ngettext",
    "parse_language",
    "set_language",
    "translator",
]
