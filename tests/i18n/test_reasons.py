"""The engine's reasons in both catalogues: every code the engine can give has its English
template translated, in the ``meio`` and the ``web`` domain, with the same placeholders."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from meio.engine import IllegalActionError
from meio.engine.reasons import REASONS, placeholders, reason
from meio.i18n import LOCALE_DIR, set_language
from meio.i18n.reasons import explain
from meio.tui.app import describe_illegal, reason_text


def translations(domain: str) -> dict[str, str]:
    path = LOCALE_DIR / "pt_BR" / "LC_MESSAGES" / f"{domain}.po"
    with Path(path).open("rb") as fh:
        cat = read_po(fh, locale="pt_BR")
    return {str(m.id): str(m.string) for m in cat if m.id and not m.fuzzy and m.string}


@pytest.fixture
def portuguese() -> Iterator[None]:
    set_language("pt")
    yield
    set_language("en")


@pytest.mark.parametrize("domain", ["meio", "web"])
@pytest.mark.parametrize("code", sorted(REASONS))
def test_every_reason_code_is_translated(domain: str, code: str) -> None:
    template = REASONS[code]
    pt = translations(domain).get(template)
    assert pt, f"{code}: no Portuguese for {template!r} in {domain}.po"
    assert placeholders(pt) == placeholders(template), code
    assert pt != template


def error(code: str, **params: object) -> IllegalActionError:
    why = reason(code, **params)  # type: ignore[arg-type]
    return IllegalActionError(0, None, why.text, code=why.code, params=why.params)


def test_the_terminal_shows_reasons_in_english_with_its_cards() -> None:
    exc = error("wild_needs_suit", card="-1")
    assert reason_text(exc, ascii=False) == (
        "leading the wild -1 needs a declared suit (-1=S, =H, =D or =C)"
    )
    exc = error("not_in_hand", card="TD", seat=2)
    assert reason_text(exc, ascii=False) == "10♦ is not in seat 2's hand"
    assert reason_text(exc, ascii=True) == "10D is not in seat 2's hand"
    assert describe_illegal(error("must_follow", card="8D", suit="H"), ascii=False) == (
        "You must follow ♥: you hold ♥ cards, so play one of them (or a wild), not 8♦."
    )


def test_the_terminal_shows_reasons_in_portuguese(portuguese: None) -> None:
    exc = error("in_pack", card="QS", seat=1)
    assert describe_illegal(exc, ascii=False) == (
        "Jogada não permitida: Q♠ não está na mão do lugar 1 "
        "(está na pilha de 6 cartas da segunda parte)."
    )
    exc = error("pack_not_in_hand", cards=["QS", "2H"], seat=0)
    assert reason_text(exc, ascii=True) == "a pilha de 6 tem QS 2H, que não estão na mão do lugar 0"


def test_without_a_code_the_english_is_all_there_is(portuguese: None) -> None:
    assert explain(None, {}, "call reset() first") == "call reset() first"
    assert explain("unknown_code", {}, "as written") == "as written"
    # a translation whose placeholders do not fit falls back to the English
    assert explain("must_follow", {"card": "8D"}, "8D does not follow") == "8D does not follow"
