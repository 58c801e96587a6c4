"""The terminal's session: the match between the human seat and the bots."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from meio.engine import IllegalActionError, Phase
from meio.engine import cards as C
from meio.engine.record import Record, result_json
from meio.tui.saved import sidecar_path
from meio.tui.session import PlaySettings, Session, SessionError


def play_out(session: Session, rng: random.Random, stop_after: int | None = None) -> None:
    """Play the human seat at random, the bots as themselves, until the end (or n human moves)."""
    moves = 0
    while not session.is_over:
        session.run_bots()
        if session.is_over or (stop_after is not None and moves >= stop_after):
            return
        legal = session.view().legal_actions()
        session.play(legal[rng.randrange(len(legal))])
        moves += 1


@pytest.mark.parametrize(
    ("players", "partnership", "edition"),
    [(2, False, "meio"), (4, True, "meio"), (5, False, "meio"), (3, False, "classic")],
)
def test_log_tricks_match_the_engine(players: int, partnership: bool, edition: str) -> None:
    settings = PlaySettings(
        edition=edition, players=players, partnership=partnership, seed=11, bots=("random",)
    )
    session = Session.new(settings)
    play_out(session, random.Random(2))
    logged: dict[int, list[dict[str, object]]] = {}
    for entry in session.log:
        if entry.trick is not None:
            t = entry.trick
            logged.setdefault(entry.round_index, []).append(
                {
                    "leader": t.leader,
                    "cards": [C.card_code(c) for _, c in t.plays],
                    "winner": t.winner,
                    "pile": t.pile,
                }
            )
    expected = result_json(session.state)
    assert [logged[r] for r in range(len(expected["rounds"]))] == [
        r["tricks"] for r in expected["rounds"]
    ]
    assert session.log[-1].text.startswith("Match over:")
    assert session.winner_text()


def test_save_and_resume_mid_round(tmp_path: Path) -> None:
    settings = PlaySettings(players=4, seat=2, seed=5, bots=("random", "heuristic", "random"))
    session = Session.new(settings)
    play_out(session, random.Random(1), stop_after=10)
    path = tmp_path / "game.json"
    session.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "meio-record/1"
    assert set(data) == {"format", "edition", "players", "partnership", "specials", "rounds"}
    Record.from_json(data).to_state()  # the record on its own replays
    side = json.loads(sidecar_path(path).read_text())
    assert side["seat"] == 2 and side["bots"] == ["random", "heuristic", "human", "random"]

    resumed = Session.load(path)
    assert resumed.seat == 2
    assert resumed.settings.bots == ("random", "heuristic", "human", "random")
    assert Record.from_state(resumed.state).to_json() == data
    assert resumed.view() == session.view()
    # same config, seed included: the rounds still to come are dealt as they would have been
    assert resumed.state.config == session.state.config


def test_save_during_the_split_keeps_the_human_to_split(tmp_path: Path) -> None:
    session = Session.new(PlaySettings(players=3, seed=8, bots=("random",)))
    session.run_bots()
    assert session.state.phase is Phase.SPLIT and session.human_to_act()
    path = tmp_path / "split.json"
    session.save(path)
    resumed = Session.load(path)
    assert resumed.state.phase is Phase.SPLIT and resumed.human_to_act()
    assert resumed.bot_to_act() is None


def test_resume_without_sidecar_uses_defaults(tmp_path: Path) -> None:
    session = Session.new(PlaySettings(players=2, seed=3, bots=("random",)))
    play_out(session, random.Random(4), stop_after=3)
    path = tmp_path / "g.json"
    path.write_text(Record.from_state(session.state).to_text())
    resumed = Session.load(path, PlaySettings(bots=("random",)))
    assert resumed.seat == 0 and resumed.settings.players == 2
    assert resumed.view() == session.view()


def test_bad_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SessionError, match="cannot read"):
        Session.load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "meio-record/1", "edition": "meio", "players": 9, "rounds": []}')
    with pytest.raises(SessionError, match="not a game this terminal can resume"):
        Session.load(bad)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (PlaySettings(seat=4), "seat 4 is not a seat of a 4-player table"),
        (PlaySettings(bots=("genius",)), "unknown bot level 'genius'"),
        (PlaySettings(speed="warp"), "unknown speed 'warp'"),
        (PlaySettings(players=6), "2 to 5 players"),
        (PlaySettings(players=3, bots=("random", "random", "random", "random")), "one bot level"),
        (PlaySettings(edition="poker"), "unknown edition"),
    ],
)
def test_bad_settings_are_explained(settings: PlaySettings, message: str) -> None:
    with pytest.raises(SessionError, match=message):
        settings.checked()


def test_illegal_play_changes_nothing() -> None:
    rng = random.Random(0)
    for seed in range(40):
        session = Session.new(PlaySettings(players=4, seed=seed, bots=("random",)))
        play_out(session, rng, stop_after=1)
        session.run_bots()
        view = session.view()
        if view.phase is not Phase.PLAY or not view.current_trick:
            continue
        follow = view.hand & C.SUIT_MASKS[view.led_suit]
        other = view.hand & ~follow & ~C.WILD_MASK
        if follow and other:
            card = C.cards_of(other)[0]
            before = list(session.state.history)
            log = len(session.log)
            with pytest.raises(IllegalActionError, match="does not follow"):
                session.play(card)
            assert session.state.history == before and len(session.log) == log
            return
    pytest.fail("no position found where the human must follow")


def test_bots_only_see_their_own_view() -> None:
    session = Session.new(PlaySettings(players=4, seed=1, bots=("random",)))
    for seat in (1, 2, 3):
        _, view, _ = session.bot_request(seat)
        assert view.seat == seat and view.hand == session.state.hands[seat]
    with pytest.raises(SessionError, match="played by the human"):
        session.bot_request(0)


def test_undo_takes_back_the_humans_last_card_and_what_followed() -> None:
    session = Session.new(PlaySettings(players=3, seed=8, bots=("random",)))
    rng = random.Random(3)
    play_out(session, rng, stop_after=4)  # the split and three cards
    assert session.state.phase is Phase.PLAY and session.human_to_act()
    before = session.state.clone()
    log = [e.text for e in session.log]
    card = session.view().legal_actions()[0]
    session.play(card)
    session.run_bots()
    assert len(session.state.history) > len(before.history) + 1
    assert session.undo_last_card() == card
    assert session.state.history == before.history
    assert session.view() == before.view(session.seat)
    assert [e.text for e in session.log[:-1]] == log
    assert session.log[-1].text.startswith("You took back")


def test_undo_stops_at_the_round_and_can_be_switched_off() -> None:
    session = Session.new(PlaySettings(players=2, seed=2, bots=("random",)))
    with pytest.raises(SessionError, match="no card to take back"):
        session.undo_last_card()  # nothing played yet
    session.settings = replace(session.settings, undo=False)
    play_out(session, random.Random(1), stop_after=3)
    with pytest.raises(SessionError, match="not allowed at this table"):
        session.undo_last_card()


@pytest.mark.parametrize("bad", [{"seed": "x"}, {"seed": None}, {"seat": "zero"}, {"seat": 1.5}])
def test_a_sidecar_with_a_bad_number_is_refused_in_one_line(
    tmp_path: Path, bad: dict[str, object]
) -> None:
    session = Session.new(PlaySettings(seed=3, bots=("random",)).checked())
    path = tmp_path / "g.json"
    session.save(path)
    side = json.loads(sidecar_path(path).read_text())
    side.update(bad)
    sidecar_path(path).write_text(json.dumps(side))
    (key,) = bad
    with pytest.raises(SessionError, match=f"'{key}' must be a whole number"):
        Session.load(path)
