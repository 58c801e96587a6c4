"""The browser client's catalogue: every string it shows has a Brazilian Portuguese
translation with the same placeholders, the template is current, and the server hands
the catalogue to the page."""

from __future__ import annotations

import re

from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from meio.web import i18n

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def po_ids(path: str) -> dict[str, str]:
    with open(path, "rb") as f:
        cat = read_po(f)
    return {m.id: m.string for m in cat if m.id and isinstance(m.id, str)}


def test_every_client_string_has_a_portuguese_translation() -> None:
    shown = i18n.extract()
    assert len(shown) > 150  # the extractor reads the scripts and the pages
    pt = i18n.catalogue("pt_BR")
    missing = sorted(m for m in shown if not pt.get(m))
    assert not missing, f"strings shown to players without a pt_BR translation: {missing}"
    unused = sorted(set(po_ids(str(i18n.po_path("pt_BR")))) - set(shown))
    assert not unused, f"translations of strings the client no longer shows: {unused}"


def test_translations_keep_the_placeholders() -> None:
    for msgid, msgstr in i18n.catalogue("pt_BR").items():
        assert set(PLACEHOLDER.findall(msgid)) == set(PLACEHOLDER.findall(msgstr)), msgid


def test_the_template_lists_exactly_the_client_strings() -> None:
    pot = set(po_ids(str(i18n.LOCALE / "web.pot")))
    assert pot == set(i18n.extract())


def test_the_game_words_follow_the_portuguese_rule_book() -> None:
    pt = i18n.catalogue("pt_BR")
    assert pt["Last trick"] == "Última vaza"
    assert "trunfo" in pt["Trumps"].lower()
    assert "naipe" in pt["Following suit"]
    assert pt["Round {n}"] == "Rodada {n}"
    assert pt["first half"] == "primeira parte" and pt["second half"] == "segunda parte"
    # the pile of 6 cards the rule book sets aside; no "metade", no "monte" anywhere
    assert pt["Your second-half pack:"] == "Sua pilha de 6 da segunda parte:"
    assert not [m for m in pt.values() if "metade" in m or "monte" in m.lower()]


def test_no_english_text_is_written_into_the_page_without_t() -> None:
    # a literal assigned to textContent must go through t() (card symbols are fine)
    literal = re.compile(r"""textContent(?:\s*:\s*|\s*=\s*)(["'`])([^"'`]*)\1""")
    found = []
    for path in sorted(i18n.STATIC.rglob("*.js")):
        for m in literal.finditer(path.read_text(encoding="utf-8")):
            # placeholders and link parts (/t/, ?invite=) are not words shown to people
            words = re.sub(r"\$\{[^}]*\}|[/?&]\w+=?", "", m.group(2))
            if re.search("[A-Za-z]{3,}", words):
                found.append(f"{path.name}: {m.group(2)}")
    assert not found, found


def test_the_server_serves_the_catalogue(client: TestClient) -> None:
    r = client.get("/api/i18n/pt_BR")
    assert r.status_code == 200
    body = r.json()
    assert body["lang"] == "pt_BR" and body["messages"]["Lobby"] == "Salão"
    assert client.get("/api/i18n/en").json()["messages"] == {}
    bad = client.get("/api/i18n/xx")
    assert bad.status_code == 404 and "pt_BR" in bad.json()["detail"]
