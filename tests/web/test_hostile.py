"""Hostile and broken input: every bad message gets an answer, the socket stays up,
and no traceback reaches the server log."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient

from meio.engine import cards as C
from tests.web.conftest import create, join
from tests.web.helpers import Player


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


def ping_pong(p: Player) -> None:
    """The socket still answers."""
    p.ws.send_json({"type": "ping"})
    p.until(lambda f: f["type"] == "pong")


def test_deeply_nested_json_gets_an_error_not_a_dropped_socket(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    table = create(client, players=2, name="Ana")
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        p = Player(ws, token=table["token"])
        p.until(lambda f: f["type"] == "snapshot")
        for raw in ("[" * 1500 + "]" * 1500,
                    '{"type": "act", "id": "a", "seq": 0, "action": '
                    + "[" * 1800 + "]" * 1800 + "}",
                    '{"type": "advise", "id": "b", "pack": ' + "{\"a\":" * 600 + "1"
                    + "}" * 600 + "}"):
            ws.send_text(raw)
            err = p.until(lambda f: f["type"] in ("error", "reject"))
            assert err["type"] == "error" and err["code"] == "bad_message", err
            ping_pong(p)
    no_tracebacks(caplog)


def test_advice_for_a_pack_that_is_not_six_of_the_seats_own_cards_is_rejected(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    table = create(client, players=2, name="Ana", seed=4)
    bo = join(client, table, "Bo")
    tid = table["table_id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as wa, \
            client.websocket_connect(f"/ws/tables/{tid}") as wb:
        a, b = Player(wa, token=table["token"]), Player(wb, token=bo["token"])
        a.until(lambda f: f["type"] == "snapshot")
        b.until(lambda f: f["type"] == "snapshot")
        mine, theirs = a.seen["hand"], b.seen["hand"]
        reasons = []
        for n, pack in enumerate((
            [mine[0]] * 6,                       # six copies of one card
            mine,                                # all 13 cards
            theirs[:6],                          # another seat's cards
            [*mine[:5], theirs[0]],              # one card of another seat
            mine[:5],                            # too few
            ["ZZ", *mine[:5]],                   # not a card
        )):
            wa.send_json({"type": "advise", "id": f"adv{n}", "pack": pack})
            ans = a.until(lambda f, n=n: f.get("id") == f"adv{n}")
            assert ans["type"] == "reject" and ans["code"] in ("illegal", "bad_message"), ans
            reasons.append(ans["reason"])
            ping_pong(a)
        assert "6 different cards" in reasons[0] and "6 different cards" in reasons[1]
        assert "not in your hand" in reasons[2] and "not in your hand" in reasons[3]
        assert C.format_cards(C.mask_of([C.parse_card(theirs[0])])) in reasons[3]
    no_tracebacks(caplog)
