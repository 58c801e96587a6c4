"""One error family for the server: every error it raises on purpose is a
``ServerError`` with a code, every code an HTTP route answers has a message in both
languages, and the one handler answers in the visitor's language."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import meio.web
from meio.web import i18n
from meio.web.refusal import FAILED, MESSAGES, REFUSED, Refusal, ServerError, message
from tests.web.helpers import Player

WEB = Path(meio.web.__file__).parent


def _modules() -> list[str]:
    return [f"meio.web.{m.name}" for m in pkgutil.iter_modules([str(WEB)])
            if m.name != "migrations"]


def test_every_error_class_of_the_server_is_a_server_error() -> None:
    found = []
    for name in _modules():
        for cls_name, cls in inspect.getmembers(importlib.import_module(name), inspect.isclass):
            if (cls.__module__ == name and issubclass(cls, BaseException)
                    and not cls_name.startswith("_")):
                found.append(cls)
    assert len(found) >= 8  # ProtocolError, ChatError, JoinError, StoreError, BotError...
    # (a setting that cannot be read stops the process before any request)
    assert [c.__name__ for c in found if not issubclass(c, ServerError)] == ["SettingsError"]


def test_no_route_raises_fastapis_http_exception() -> None:
    """Codes, not ``HTTPException("rate_limited: ...")`` strings."""
    used = [p.name for p in WEB.glob("*.py") if "HTTPException(" in p.read_text()]
    assert used == []


def _raised_codes() -> dict[str, int]:
    """Every code a route module raises with a literal status and code:
    ``Refusal(409, "full", ...)`` and its subclasses called the same way."""
    codes: dict[str, int] = {}
    for path in WEB.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("Refusal", "JoinError") and len(node.args) >= 2
                    and isinstance(node.args[0], ast.Constant)):
                code = node.args[1]
                if isinstance(code, ast.Constant) and isinstance(code.value, str):
                    codes[code.value] = int(node.args[0].value)
                elif isinstance(code, ast.IfExp):  # "bad_invite" if key else "private"
                    for branch in (code.body, code.orelse):
                        assert isinstance(branch, ast.Constant)
                        codes[str(branch.value)] = int(node.args[0].value)
    return codes


def test_every_code_a_route_answers_has_its_message_and_every_message_a_code() -> None:
    raised = _raised_codes()
    assert len(raised) > 40 and "seat_taken" in raised and "too_many_tables" in raised
    # a code without a message of its own is a plain refusal (its English detail)
    plain = {"no_language"}
    assert sorted(set(raised) - set(MESSAGES) - plain) == []
    # the codes raised elsewhere than in a literal call (variants, a bad variant)
    elsewhere = {"bad_variant", "cross_site"}
    assert sorted({c.split("+")[0] for c in MESSAGES} - set(raised) - elsewhere) == []


def test_every_message_is_translated_with_its_placeholders() -> None:
    pt = i18n.catalogue("pt_BR")
    for template in [*MESSAGES.values(), FAILED, REFUSED]:
        assert pt.get(template), template
        assert set(re.findall(r"\{(\w+)\}", pt[template])) == set(
            re.findall(r"\{(\w+)\}", template)), template


def test_a_message_fills_its_parameters_and_falls_back_by_status() -> None:
    pt = i18n.catalogue("pt_BR")
    taken = Refusal(409, "seat_taken", "seat 2 is not free", seat=2)
    assert message(taken, {}) == "Seat 2 is not free any more: pick another."
    assert message(taken, pt) == "O lugar 2 não está mais livre: escolha outro."
    wait = Refusal(429, "rate_limited", "too many wrong passwords", seconds=4)
    assert message(wait, pt) == "Senhas erradas demais do seu endereço: tente de novo em 4 s."
    assert message(Refusal(429, "rate_limited", "slow down"), {}) == MESSAGES["rate_limited"]
    assert message(ServerError("the disk is full", status=503), {}) == FAILED
    assert message(Refusal(404, "no_language", "no 'xx'"), {}) == "The server refused: no 'xx'"


def test_the_handler_answers_in_the_visitors_language(client: TestClient) -> None:
    table = client.post("/api/tables", json={"players": 2, "name": "Ana"}).json()
    url = f"/api/tables/{table['table_id']}/join"
    assert client.post(url, json={"invite": table["invite"], "name": "Bo"}).is_success
    for lang, expected in [("pt-BR,pt;q=0.9", "Todos os lugares desta mesa estão ocupados."),
                           ("fr, en;q=0.5", "Every seat of this table is taken."),
                           (None, "Every seat of this table is taken.")]:
        headers = {} if lang is None else {"Accept-Language": lang}
        r = client.post(url, json={"invite": table["invite"], "name": "Cy"}, headers=headers)
        assert r.status_code == 409, r.text
        assert r.json() == {"detail": "every seat of this table is taken", "code": "full",
                            "params": {}, "message": expected}
    r = client.post(url, json={"invite": "wrong", "name": "Cy"},
                    headers={"Accept-Language": "pt-BR"})
    assert r.status_code == 403 and r.json()["code"] == "bad_invite"
    assert r.json()["message"] == "Este link de convite não vale para esta mesa."
    r = client.post("/api/tables", json={"players": 2, "turn_timer_s": 1e9})
    assert r.status_code == 422 and r.json()["code"] == "bad_table"
    assert "turn timer" in r.json()["detail"]


def test_a_server_error_while_handling_a_message_is_the_clients_error_frame(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Refused on purpose by whoever handled the message (here a store conflict): its
    code goes back in an ``error`` frame, not ``internal``, and the socket stays."""
    from meio.web.seating import Seating
    from meio.web.store import StoreError

    async def conflict(self: Seating, msg_id: str, seat: int | None) -> None:
        raise StoreError("conflict", "match 2 of this table already exists")

    monkeypatch.setattr(Seating, "rematch", conflict)
    table = client.post("/api/tables", json={"players": 2, "name": "Ana"}).json()
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        p = Player(ws, token=table["token"])
        ws.send_json({"type": "rematch", "id": "r1"})
        frame = p.until(lambda f: f["type"] == "error")
        assert frame == {"type": "error", "code": "conflict",
                         "reason": "match 2 of this table already exists"}
        ws.send_json({"type": "ping"})
        assert p.until(lambda f: f["type"] == "pong")
