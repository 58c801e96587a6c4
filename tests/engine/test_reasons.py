"""The engine's reasons: a stable code and JSON-friendly params beside each English sentence."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from meio.engine import IllegalActionError, MatchConfig, Phase, RecordError, State
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.reasons import REASONS, Reason, placeholders, reason
from meio.engine.record import Record

SRC = Path(__file__).resolve().parents[2] / "src" / "meio"
RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"


def codes_used() -> set[str]:
    """Every code a ``reason("...")`` call in the package names."""
    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "reason" and node.args
                    and isinstance(node.args[0], ast.Constant)):
                found.add(str(node.args[0].value))
    return found


def test_every_code_is_used_and_every_used_code_is_known() -> None:
    assert codes_used() == set(REASONS)


def test_the_params_must_match_the_template() -> None:
    assert reason("must_follow", card="8D", suit="H").text == "8D does not follow the led suit H"
    with pytest.raises(KeyError, match="takes"):
        reason("must_follow", card="8D")
    with pytest.raises(KeyError):
        reason("no_such_reason")
    assert placeholders(REASONS["wild_needs_suit"]) == {"card"}


def test_the_english_sentences_are_the_engines_as_before() -> None:
    assert reason("pack_not_in_hand", cards=["QS", "JS"], seat=2).text == (
        "the pack holds QS JS, not in seat 2's hand"
    )
    assert reason("waiting_for_packs", seats=[1, 3]).text == (
        "every player must choose a pack first (waiting for seat 1, 3)"
    )
    assert reason("not_an_action", action=repr("x")).text == "'x' is not an action"
    assert reason("wild_needs_suit", card="Q+").text == (
        "leading the wild Q+ needs a declared suit (Q+=S, =H, =D or =C)"
    )


def _apply_error(state: State, action: int, seat: int | None = None) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as info:
        state.apply(action, seat)
    return info.value


def test_an_illegal_action_carries_its_code_and_params() -> None:
    st = State.new(MatchConfig(players=4, seed=5))
    theirs = C.cards_of(st.hands[1])[:6]  # six cards of seat 1's hand, offered by seat 0
    err = _apply_error(st, A.pack_action(C.mask_of(theirs)), 0)
    assert err.code == "pack_not_in_hand"
    assert err.params == {"cards": C.codes(C.mask_of(theirs)), "seat": 0}
    err = _apply_error(st, 3)  # a card before the split
    assert (err.code, err.params) == ("waiting_for_packs", {"seats": [0, 1, 2, 3]})
    assert err.reason == Reason(err.code, err.params).text
    json.dumps(err.params)
    while st.phase is Phase.SPLIT:
        st.apply(st.legal_actions()[0])
    mover = st.current_seat()
    other = (mover + 1) % 4
    err = _apply_error(st, st.legal_actions()[0], other)
    assert err.code == "not_your_turn" and err.params == {"mover": mover, "seat": other}
    assert err.reason == f"it is seat {mover}'s turn, not seat {other}'s"
    assert str(err) == f"seat {other}: {err.reason}"


def test_a_record_error_carries_the_reason_it_wraps() -> None:
    with pytest.raises(RecordError) as info:
        Record.from_json((RECORDS / "illegal-not-following.json").read_text()).to_state()
    err = info.value
    assert (err.code, err.params) == ("must_follow", {"card": "8D", "suit": "H"})
    assert str(err) == "round 2, play 48 (seat 2): 8D does not follow the led suit H"
    with pytest.raises(RecordError) as info:
        Record.from_json((RECORDS / "illegal-not-json.json").read_text())
    assert info.value.code is None and info.value.params == {}
