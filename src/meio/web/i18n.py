"""The browser client's translations: gettext catalogues of the ``web`` domain.

Translators work on ordinary PO files, one per language, under
``meio/i18n/locale/<lang>/LC_MESSAGES/web.po``; the message ids are the client's
English texts, with ``{name}`` placeholders the page fills in. The server reads a
catalogue with Babel's PO reader and hands it to the page as JSON
(``GET /api/i18n/{lang}``: ``{"lang": ..., "messages": {msgid: msgstr}}``).
English is the source language: its catalogue is empty.

The engine's reasons for refusing a move are messages of this domain too: their
ids are the engine's English templates (:data:`meio.engine.reasons.REASONS`), a
``reject`` frame carries the code and parameters, and the page looks the code's
template up in the ``reasons`` the catalogue response also holds.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from meio.web.refusal import FAILED, MESSAGES, REFUSED, Refusal
from meio.web.schemas import Catalogue, Router

#: where the catalogues live (shared with the terminal's ``meio`` domain)
LOCALE = Path(__file__).resolve().parent.parent / "i18n" / "locale"
#: the gettext domain of the browser client
DOMAIN = "web"
#: the languages the browser client speaks; the first is the source language
LANGUAGES = ("en", "pt_BR")

router = Router(prefix="/api")

STATIC = Path(__file__).with_name("static")
#: the module that writes the server's refusals' messages
REFUSALS_SOURCE = Path(__file__).with_name("refusal.py")
#: the engine module that writes the reasons for refusing a move
REASONS_SOURCE = Path(__file__).resolve().parent.parent / "engine" / "reasons.py"
#: the bot levels the lobby offers
LEVELS_SOURCE = Path(__file__).resolve().parent.parent / "bots" / "levels.py"
_JS_CALL = re.compile(r'\bt\(\s*("(?:[^"\\]|\\.)*")')
_HTML_TEXT = re.compile(r"<\w+\b[^>]*?\sdata-i18n(?=[\s>])[^>]*>([^<]*)<")
_HTML_ATTR = re.compile(r'data-i18n-(?:title|placeholder|aria|doc)="([^"]*)"')


def po_path(lang: str) -> Path:
    """The PO file of ``lang`` in the ``web`` domain."""
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract(static: Path = STATIC) -> dict[str, list[str]]:
    """Every message the browser client shows, with where it is used.

    The client's messages are the literal first arguments of ``t("...")`` in its
    scripts and the texts (and ``data-i18n-*`` attributes) of its pages' elements
    marked ``data-i18n``, the bot levels' names and strengths, the server's refusals'
    messages (:data:`meio.web.refusal.MESSAGES`) and the engine's reasons for refusing
    a move; this is what
    a translator's template (``web.pot``) holds.
    """
    found: dict[str, list[str]] = {}

    def add(msgid: str, where: str) -> None:
        found.setdefault(msgid, []).append(where)

    for path in sorted(static.rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        for m in _JS_CALL.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            add(json.loads(m.group(1)), f"{path.relative_to(static)}:{line}")
    for path in sorted(static.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for pattern in (_HTML_TEXT, _HTML_ATTR):
            for m in pattern.finditer(text):
                msgid = " ".join(m.group(1).split())
                if msgid:
                    line = text.count("\n", 0, m.start()) + 1
                    add(msgid, f"{path.relative_to(static)}:{line}")
    # the bot levels' names and strengths: the lobby shows them as the server sends them
    from meio.bots.levels import LEVELS

    levels = LEVELS_SOURCE.read_text(encoding="utf-8")
    for level in LEVELS:
        for msgid in (level.name, level.strength):
            at = levels.find(f'"{msgid}"')
            line = levels.count("\n", 0, at) + 1 if at >= 0 else 1
            add(msgid, f"../../bots/levels.py:{line}")
    refusals = REFUSALS_SOURCE.read_text(encoding="utf-8")
    for code, msgid in [*MESSAGES.items(), ("FAILED", FAILED), ("REFUSED", REFUSED)]:
        at = refusals.find(f'"{code}":' if code.islower() else f"{code} = ")
        add(msgid, f"../refusal.py:{refusals.count(chr(10), 0, at) + 1 if at >= 0 else 1}")
    from meio.i18n.reasons import extract as extract_reasons

    with REASONS_SOURCE.open("rb") as fh:
        for line, _func, msgid, _comments in extract_reasons(fh, (), (), {}):
            add(msgid, f"../../engine/reasons.py:{line}")
    return found


def write_template(path: Path | None = None) -> Path:
    """Write the translators' template ``web.pot`` from :func:`extract` (next to the
    catalogues, by default); ``pybabel update -D web -i web.pot -d LOCALE -l pt_BR``
    then merges new messages into a language's PO file."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    path = path or LOCALE / f"{DOMAIN}.pot"
    cat = Catalog(domain=DOMAIN, project="meio", version="0.1",
                  copyright_holder="the meio authors", fuzzy=False)
    for msgid, where in extract().items():
        cat.add(msgid, locations=[(w.rsplit(":", 1)[0], int(w.rsplit(":", 1)[1])) for w in where])
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, cat, width=100, sort_output=False, include_lineno=False)
    return path


@lru_cache(maxsize=len(LANGUAGES))
def catalogue(lang: str) -> dict[str, str]:
    """The translated messages of ``lang`` (msgid → msgstr); empty for English.

    Entries without a translation and fuzzy ones are left out, so that the page
    falls back to English for them (and the tests notice).
    """
    if lang not in LANGUAGES:
        raise KeyError(lang)
    if lang == LANGUAGES[0]:
        return {}
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as f:
        cat = read_po(f, locale=lang, domain=DOMAIN)
    out: dict[str, str] = {}
    for msg in cat:
        if msg.id and isinstance(msg.id, str) and isinstance(msg.string, str) and msg.string \
                and not msg.fuzzy:
            out[msg.id] = msg.string
    return out


def visitor_language(headers: Mapping[str, str]) -> str:
    """The language to answer a visitor in: the first of its ``Accept-Language`` (by
    weight) that the site speaks (any ``pt`` is Brazilian Portuguese), else English.

    >>> visitor_language({"accept-language": "fr-FR, pt-PT;q=0.8, en;q=0.5"})
    'pt_BR'
    >>> visitor_language({"accept-language": "en-GB,pt-BR;q=0.9"}), visitor_language({})
    ('en', 'en')
    """
    wanted: list[tuple[float, int, str]] = []
    for i, part in enumerate(headers.get("accept-language", "")[:512].split(",")):
        tag, _, weight = part.strip().partition(";q=")
        try:
            q = float(weight) if weight else 1.0
        except ValueError:
            continue
        low = tag.strip().lower()
        lang = "pt_BR" if low.startswith("pt") else "en" if low.startswith("en") else None
        if lang is not None and q > 0:
            wanted.append((-q, i, lang))
    return min(wanted)[2] if wanted else LANGUAGES[0]


@router.get("/i18n/{lang}")
async def messages(lang: str) -> Catalogue:
    """The browser client's catalogue for ``lang`` (``en`` or ``pt_BR``), and the English
    template (message id) of each reason code a ``reject`` frame may carry."""
    from meio.engine.reasons import REASONS

    if lang not in LANGUAGES:
        raise Refusal(404, "no_language",
                      f"no translation for {lang!r}; there are {', '.join(LANGUAGES)}")
    return Catalogue(lang=lang, messages=catalogue(lang), reasons=REASONS)
