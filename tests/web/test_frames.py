"""The frames each seat is sent (meio.web.frames): built from its own view only.

``event_texts`` is a pure function from the state after an action and the
action's outcome to each recipient's encoded frame; these tests play whole matches
through it and read every frame for cards the recipient may not know.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from meio.engine import MatchConfig, State, TableOptions
from meio.engine import actions as A
from meio.engine import cards as C
from meio.web import frames as F
from meio.web.store import EventInfo

#: every card's code, as frames write them
CODES = {C.card_code(c) for c in range(65)}


def _cards_in(value: Any, skip: frozenset[str]) -> set[str]:
    """The card codes anywhere in a frame but under the keys in ``skip``."""
    found: set[str] = set()
    if isinstance(value, str):
        found |= {part for part in re.split(r"[:,=\s]", value) if part in CODES}
    elif isinstance(value, list):
        for item in value:
            found |= _cards_in(item, skip)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                found |= _cards_in(item, skip)
    return found


def _hidden_from(state: State, recipient: int | None) -> set[str]:
    """The cards held by the seats other than ``recipient`` that it may not know: the
    unplayed cards of their hands and set-aside packs (but for its own pack and, once
    received, its partner's), and the cards set aside from the deal."""
    cfg = state.config
    mask = getattr(state, "aside", 0) or 0
    for other in range(cfg.players):
        if other == recipient:
            continue
        held = state.deal[other] if state.packs[other] == 0 else state.hands[other]
        if state.half == 1:
            held |= state.packs[other]
        if recipient is not None:
            # its own pack (which a partner plays in the second half) and its partner's
            known = state.view(recipient)
            held &= ~(known.pack | known.received)
        mask |= held
    return {C.card_code(c) for c in C.cards_of(mask)}


@pytest.mark.parametrize(("players", "partnership", "reveal", "seed"), [
    (2, False, True, 3), (3, False, False, 8), (4, True, True, 5), (4, True, False, 6),
    (5, False, True, 9),
])
def test_no_frame_of_a_match_holds_another_seat_s_hidden_cards(
    players: int, partnership: bool, reveal: bool, seed: int
) -> None:
    config = MatchConfig(edition="meio", players=players, partnership=partnership, seed=seed,
                         options=TableOptions(reveal_specials=reveal))
    state = State.new(config)
    rng = random.Random(seed)
    # every seat twice (two pages), and spectators
    recipients: list[int | None] = [*range(players), None, *range(players), None]
    seq = 0
    checked_cards = 0
    # public whatever the deal: the configuration, the rounds played (their cards were
    # dealt afresh since), and which specials are in the deck (all of them at a table
    # that shows them; those seen so far at one that hides them), not who holds them
    skip = frozenset({"config", "rounds", "specials"})
    while not state.is_over:
        seat = rng.choice(list(state.seats_to_act()))
        legal = state.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        outcome = state.apply(action, seat)
        seq += 1
        ev = EventInfo(seq, seat, A.action_text(action), "human", None, float(seq))
        texts = F.event_texts("m", ev, state, outcome, recipients, None)
        assert set(texts) == set(recipients)  # one text per recipient, however many pages
        for recipient, text in texts.items():
            frame = json.loads(text)
            assert frame["type"] == "event" and frame["seq"] == seq
            assert frame["view"]["seat"] == recipient and "seed" not in frame["view"]["config"]
            # a split is shown to its maker only
            if A.is_pack(action):
                assert (frame["action"] == "pack") is (recipient != seat)
            hidden = _hidden_from(state, recipient)
            if frame["round_over"]:
                # the card that ended the round before this deal, and its trick
                del frame["trick"], frame["action"]
            for shown in (frame, F.snapshot("m", seq, state, recipient, None)):
                seen = _cards_in(shown, skip)
                assert not seen & hidden, (recipient, sorted(seen & hidden))
                checked_cards += len(seen)
    assert checked_cards > 1000  # the frames were full of cards, and none leaked


def test_a_seat_s_frame_shows_its_own_hand_and_a_spectator_s_none() -> None:
    config = MatchConfig(edition="meio", players=4, partnership=False, seed=11)
    state = State.new(config)
    pack = C.codes(state.view(2).hand)[:6]
    action = A.parse_action("pack:" + ",".join(pack))
    outcome = state.apply(action, 2)
    ev = EventInfo(1, 2, A.action_text(action), "human", None, 1.0)
    texts = F.event_texts("m", ev, state, outcome, [0, 1, 2, None], 12.5)
    frames = {r: json.loads(t) for r, t in texts.items()}
    for r in (0, 1, 2):
        assert frames[r]["view"]["hand"] == C.codes(state.view(r).hand)
        assert frames[r]["deadline"] == 12.5 and frames[r]["now"] == 1.0
    assert frames[None]["view"]["hand"] == []
    assert frames[2]["action"] == A.action_text(action)
    assert set(frames[2]["view"]["pack"]) == set(pack)
    assert frames[0]["view"]["pack"] == [] and frames[0]["action"] == "pack"
