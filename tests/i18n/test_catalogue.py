"""The ``meio`` catalogue: every message the code can show has a Portuguese translation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from meio.i18n import (
    LOCALE_DIR,
    LanguageError,
    _,
    detect_language,
    parse_language,
    set_language,
    translator,
)

ROOT = Path(__file__).resolve().parents[2]
PO = LOCALE_DIR / "pt_BR" / "LC_MESSAGES" / "meio.po"
POT = LOCALE_DIR / "meio.pot"
# what `pybabel extract` reads, as babel.cfg (the file docs/terminal.md's command uses) says
with (LOCALE_DIR.parent / "babel.cfg").open() as _cfg:
    METHODS = parse_mapping_cfg(_cfg)[0]
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


def extracted() -> set[str]:
    """Every message the code marks for translation, as Babel extracts it."""
    out: set[str] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        ROOT, method_map=METHODS, keywords=KEYWORDS
    ):
        out.update([message] if isinstance(message, str) else message)
    return out


def catalogue() -> dict[str, str]:
    with PO.open("rb") as fh:
        cat = read_po(fh, locale="pt_BR")
    out: dict[str, str] = {}
    for m in cat:
        if not m.id or m.fuzzy:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for msgid in ids:
            out[msgid] = " | ".join(strings) if all(strings) else ""
    return out


def test_every_extracted_message_is_translated() -> None:
    messages = extracted()
    assert len(messages) > 150
    pt = catalogue()
    missing = sorted(m for m in messages if not pt.get(m))
    assert not missing, f"no Portuguese for {len(missing)} messages: {missing[:5]}"


def test_the_template_is_current() -> None:
    with POT.open("rb") as fh:
        template: set[str] = set()
        for m in read_po(fh):
            if m.id:
                template.update(m.id if isinstance(m.id, tuple) else (m.id,))
    assert template == extracted(), "run pybabel extract (see docs/terminal.md)"


def test_translations_keep_placeholders_and_markup() -> None:
    field = re.compile(r"\{[^}]*\}|\[/?b\]|\[(?:bold|bold green|blue|/)\]")
    for msgid, msgstr in catalogue().items():
        for form in msgstr.split(" | "):
            assert sorted(field.findall(msgid)) == sorted(field.findall(form)), msgid


def test_the_game_words_of_the_portuguese_seed() -> None:
    t = translator("pt")
    assert t.gettext("hearts") == "copas"
    assert "vaza" in t.gettext("trick {n}/{total}")
    assert "rodada" in t.gettext("Round {n}/{total}").lower()
    assert "primeira parte" in t.gettext("{name} won the trick → pile H (first half).")
    assert "segunda parte" in t.gettext("{name} won the trick → pile V (second half).")
    assert "trunfo" in t.gettext("Classic: the Ace is the card 1, the lowest; hearts are trumps.")
    assert "naipe" in t.gettext(
        "Press S, H, D or C (Escape to choose another card)."
    ) or "naipe" in (t.gettext("You lead the wild [b]{card}[/b]: declare the led suit."))


def test_language_choice() -> None:
    assert detect_language({"LANG": "pt_BR.UTF-8"}) == "pt"
    assert detect_language({"LC_ALL": "en_US.UTF-8", "LANG": "pt_BR.UTF-8"}) == "en"
    assert detect_language({"LANGUAGE": "pt_BR:en", "LANG": "C"}) == "pt"
    assert detect_language({"LANG": "fr_FR.UTF-8"}) == "en"
    assert detect_language({}) == "en"
    assert parse_language("pt-BR") == "pt"
    with pytest.raises(LanguageError, match="use 'en'"):
        parse_language("fr")
    try:
        set_language("pt")
        assert _("Quit") == "Sair"
    finally:
        set_language("en")
    assert _("Quit") == "Quit"
