"""``meio view``: the replay viewer names the seats as the game did, in both languages."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from meio.i18n import set_language
from meio.tui.replay import Replay, ReplayApp
from meio.tui.saved import sidecar_path
from meio.tui.screens import HelpScreen
from meio.tui.session import Session
from tests.tui.pilot import SIZES, footer_line, screen_text, session_where, wait_for


def saved_game(tmp_path: Path) -> Path:
    session = session_where(lambda s: s.view().trick_number > 3, players=4)
    path = tmp_path / "r.json"
    session.save(path)
    return path


@pytest.mark.parametrize("size", SIZES)
def test_viewer_names_seats_as_the_game_did_and_has_its_own_help(
    size: tuple[int, int], tmp_path: Path
) -> None:
    path = saved_game(tmp_path)

    async def run() -> None:
        app = ReplayApp(Replay.load(path), title="r.json")
        async with app.run_test(size=size) as pilot:
            await pilot.press("n")
            text = screen_text(app)
            # the .play.json beside the record says who sat where and at what level
            assert re.search(r"▶? +You +human", text) and re.search(r"Bot 1 +random", text)
            assert "Player 1" not in text
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            help_text = screen_text(app)
            assert "next / previous trick" in help_text
            assert "confirm the split" not in help_text

    asyncio.run(run())


def test_viewer_in_portuguese_at_80_columns(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    sidecar_path(path).unlink()  # a record from elsewhere: players by number
    set_language("pt")

    async def run() -> None:
        app = ReplayApp(Replay.load(path), title="r.json")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("n")
            text = screen_text(app)
            # every seat keeps its number (the names were cut to "Jogador" alike)
            for n in range(1, 5):
                assert f"Jogador {n}" in text
            assert "Replay" not in text.splitlines()[0]
            footer = footer_line(app)
            assert "q Sair" in footer and "? Ajuda" in footer

    asyncio.run(run())


def test_a_record_without_its_sidecar_names_players_by_number(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    sidecar_path(path).unlink()
    replay = Replay.load(path)
    assert replay.names == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert Session.load(path).names[0] == "You"


def test_the_seat_named_you_takes_a_trick_in_the_second_person_in_both_languages() -> None:
    from meio.tui.widgets import taken_line

    # the viewer watches as a spectator, but the game's "You" keeps its verb
    assert taken_line("You", 2) == "You take it → V"
    assert taken_line("Bot 1", 1) == "Bot 1 takes it → H"
    set_language("pt")
    try:
        assert taken_line("Você", 2) == taken_line("", 2, you=True)
    finally:
        set_language("en")


def test_ctrl_c_in_the_viewer_says_how_to_quit_in_portuguese(tmp_path: Path) -> None:
    path = saved_game(tmp_path)
    set_language("pt")

    async def run() -> None:
        app = ReplayApp(Replay.load(path), title="r.json")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("ctrl+c")
            await pilot.pause(0.1)
            notes = [(n.title, n.message) for n in app._notifications]
            assert notes == [("Quer sair?", "Tecle [b]q[/b] para sair do visualizador.")]

    try:
        asyncio.run(run())
    finally:
        set_language("en")


def test_the_viewers_words_are_portuguese_at_the_matchs_end() -> None:
    """Issue 40 §4: "(no cards)" and the levels "learned" and "expert" stayed English."""
    from meio.tui.widgets import HandView, seats_table

    view = session_where(lambda s: s.view().trick_number > 3, players=4).view()
    set_language("pt")
    try:
        hand = HandView()
        assert hand.render().plain == "(sem cartas)"
        text = seats_table(view, ["Você", "Bot 1", "Bot 2", "Bot 3"],
                           ["human", "learned", "expert", "random"]).plain
        assert "aprendido" in text and "especialista" in text  # whole: the column fits it
        assert "learned" not in text and "expert" not in text
    finally:
        set_language("en")
