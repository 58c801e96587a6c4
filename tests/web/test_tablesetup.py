"""A web table's options are one typed value (``TableSetup``) from the request to the
database and back: one function writes the stored JSON, one reads it, and rows written
before the type read the same."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import meio.web
from meio.engine import ConfigError, TableOptions
from meio.engine import cards as C
from meio.web.tablesetup import TableSetup
from meio.web.variants import read_variant

VARIANT = 'preset = "meio"\nname = "Sixes"\n[hand]\nfirst_half = 6\npack = 7\n'

SETUPS = [
    TableSetup(),
    TableSetup(edition="classic", players=3, turn_timer_s=30.0, seed=7),
    TableSetup(players=4, partnership=True, specials=(C.parse_card("-1"), C.parse_card("Q+")),
               options=TableOptions("next", reveal_specials=False)),
    TableSetup(players=2, variant=read_variant(VARIANT, 16384), turn_timer_s=7200.0,
               turn_based=True),
    TableSetup(players=2, turn_timer_s=60.0, quick="meio-2p", fill_at=1.7e9),
]


@pytest.mark.parametrize("setup", SETUPS)
def test_a_setup_reads_back_from_its_stored_json_unchanged(setup: TableSetup) -> None:
    assert TableSetup.from_json(setup.to_json()) == setup


def test_rows_written_before_the_type_read_the_same() -> None:
    """The stored form did not change: the keys a row had before, the §10 options
    defaulted where a row predates them."""
    old = {"edition": "meio", "players": 2, "partnership": False, "specials": None,
           "turn_timer_s": None, "seed": 5}
    setup = TableSetup.from_json(old)
    assert setup == TableSetup(players=2, seed=5)
    assert setup.to_json() == {**old, "wild_lead": "declare", "reveal_specials": True}
    quick = {**old, "seed": None, "turn_timer_s": 60, "wild_lead": "declare",
             "reveal_specials": True, "quick": "meio-2p", "fill_at": 1.5e9}
    assert TableSetup.from_json(quick).to_json() == {**quick, "turn_timer_s": 60.0}


@pytest.mark.parametrize(("data", "field"), [
    ({"players": 2, "partnership": False}, "edition"),
    ({"edition": "meio", "players": "2", "partnership": False}, "players"),
    ({"edition": "meio", "players": 2, "partnership": "no"}, "partnership"),
    ({"edition": "meio", "players": 2, "partnership": False, "wild_lead": "first"},
     "wild_lead"),
    ({"edition": "meio", "players": 2, "partnership": False, "turn_timer_s": "1"},
     "turn_timer_s"),
    ({"edition": "meio", "players": 2, "partnership": False, "colour": "red"}, "colour"),
])
def test_a_stored_form_that_is_wrong_is_refused_by_its_field(data: dict[str, object],
                                                            field: str) -> None:
    with pytest.raises(ConfigError) as exc:
        TableSetup.from_json(data)
    assert exc.value.field == field


def test_the_public_facts_hide_the_seed_and_hidden_specials() -> None:
    hidden, shown = SETUPS[2], TableSetup(specials=(C.parse_card("-1"),))
    assert hidden.public_json()["specials"] is None
    assert shown.public_json()["specials"] == ["-1"]
    assert all("seed" not in s.public_json() for s in SETUPS)
    facts = SETUPS[3].public_json()["variant"]
    assert facts == {"name": "Sixes", "hand": 13, "first_half": 6, "pack": 7,
                     "trump": "H", "specials": 5}


def test_a_tables_options_go_from_the_request_to_the_database_typed(
        client: TestClient) -> None:
    r = client.post("/api/tables", json={"players": 3, "specials": ["Q+", "-1", "A+"],
                                         "wild_lead": "next", "reveal_specials": False,
                                         "turn_timer_s": 45.0, "seed": 11, "name": "Ana"})
    assert r.status_code == 201, r.text
    info = client.app.state.hub.store.table(r.json()["table_id"])  # type: ignore[attr-defined]
    assert info.options == TableSetup(
        players=3, specials=tuple(sorted(C.parse_card(c) for c in ("Q+", "-1", "A+"))),
        options=TableOptions("next", reveal_specials=False), turn_timer_s=45.0, seed=11)
    public = r.json()["table"]
    assert public["specials"] is None and public["wild_lead"] == "next"
    assert public["turn_timer_s"] == 45.0 and "seed" not in public


def test_no_web_module_reads_a_tables_options_as_a_dict() -> None:
    """``info.options["edition"]`` or ``.get("quick")``: the typed value's fields instead."""
    found = []
    for path in Path(meio.web.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            target = node.value if isinstance(node, ast.Subscript) else (
                node.func.value if isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute) and node.func.attr == "get" else None)
            if (isinstance(target, ast.Attribute) and target.attr == "options") or (
                    isinstance(target, ast.Name) and target.id in ("options", "opts")):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []
