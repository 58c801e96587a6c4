"""Each fix of the terminal table (issue 11), in an 80×24 and a 100×30 terminal."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from meio.engine import Phase
from meio.engine import actions as A
from meio.engine import cards as C
from meio.tui.app import PlayApp, TableScreen
from meio.tui.replay import Replay, ReplayApp
from meio.tui.screens import (
    DeclareScreen,
    HelpScreen,
    LastTrickScreen,
    PileScreen,
    SaveScreen,
    SummaryScreen,
)
from meio.tui.session import Session, sidecar_path
from tests.tui.pilot import (
    SIZES,
    ascii_screen,
    fast_settings,
    press_card,
    screen_text,
    session_where,
    take_turn,
    wait_for,
)


def table(app: PlayApp) -> TableScreen:
    assert app.table is not None
    return app.table


async def ready_table(pilot: object, app: PlayApp) -> TableScreen:
    await wait_for(pilot, lambda: app.table is not None and not table(app).driving)  # type: ignore[arg-type]
    return table(app)


def footer_line(app: PlayApp) -> str:
    return [line for line in screen_text(app).splitlines() if line.strip()][-1]


@pytest.mark.parametrize("size", SIZES)
def test_start_screen_arrows_move_and_ascii_draws_no_unicode(size: tuple[int, int]) -> None:
    async def run() -> None:
        app = PlayApp(fast_settings(), ascii=True)
        async with app.run_test(size=size) as pilot:
            assert app.focused is not None and app.focused.id == "start"
            await pilot.press("up", "up")
            assert app.focused is not None and app.focused.id == "speed"
            await pilot.press("down")
            assert app.focused is not None and app.focused.id == "specials"
            text = screen_text(app)
            assert "Players             < 4 >" in text
            assert not any(ch in text for ch in "◀▶")
            await pilot.press("down")
            assert app.focused is not None and app.focused.id == "start"
            await pilot.pause(0.1)
            assert ascii_screen(app).isascii()
            assert "? Help" in footer_line(app) and "q Quit" in footer_line(app)

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_ascii_table_sends_only_ascii(size: tuple[int, int]) -> None:
    def ready(s: Session) -> bool:
        v = s.view()
        return v.phase is Phase.PLAY and v.trick_number > 2 and len(v.current_trick) >= 2

    session = session_where(ready)

    async def run() -> None:
        app = PlayApp(session.settings, session=session, ascii=True)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            text = screen_text(app)
            assert not any(mark in text for mark in "✓▶…♠♥♦♣╭╮")
            assert ascii_screen(app).isascii()
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            assert ascii_screen(app).isascii()

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_footer_keeps_help_quit_and_speed_and_drops_split_keys_in_play(
    size: tuple[int, int],
) -> None:
    async def run() -> None:
        app = PlayApp(fast_settings(seed=3), setup=False)
        async with app.run_test(size=size) as pilot:
            screen = await ready_table(pilot, app)
            await wait_for(pilot, lambda: "c Confirm split" in footer_line(app))
            footer = footer_line(app)
            assert "h Hint" in footer
            assert "? Help" in footer and "q Quit" in footer
            assert "bots instant" in screen_text(app).splitlines()[0]
            await pilot.press("home", *(["space", "right"] * 6), "c")
            session = screen.session
            await wait_for(pilot, lambda: session.state.phase is not Phase.SPLIT)
            await wait_for(
                pilot, lambda: "l Last trick" in footer_line(app) or "u Undo" in footer_line(app)
            )
            footer = footer_line(app)
            assert "Confirm split" not in footer and "Hint" not in footer
            assert "? Help" in footer and "q Quit" in footer
            assert "bots instant" in screen_text(app).splitlines()[0]

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_too_small_terminal_says_so_and_recovers(size: tuple[int, int]) -> None:
    async def run() -> None:
        app = PlayApp(fast_settings(seed=3))
        async with app.run_test(size=size) as pilot:
            await pilot.resize_terminal(60, 18)
            await pilot.pause(0.05)
            assert "Terminal too small" in screen_text(app)
            assert "Players" not in screen_text(app)
            await pilot.resize_terminal(*size)
            await pilot.pause(0.05)
            assert "Terminal too small" not in screen_text(app)
            await pilot.press("enter")
            await ready_table(pilot, app)
            await pilot.resize_terminal(70, 24)
            await pilot.pause(0.05)
            assert "Terminal too small" in screen_text(app)
            assert "Pick 6 cards" not in screen_text(app)
            await pilot.resize_terminal(*size)
            await pilot.pause(0.05)
            assert "Pick 6 cards" in screen_text(app)

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_declare_keys_work_in_capitals(size: tuple[int, int]) -> None:
    def ready(s: Session) -> bool:
        v = s.view()
        return v.phase is Phase.PLAY and not v.current_trick and bool(v.hand & C.WILD_MASK)

    session = session_where(ready)

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            wild = C.cards_of(session.view().hand & C.WILD_MASK)[0]
            before = len(session.state.history)
            await press_card(pilot, wild)
            await wait_for(pilot, lambda: isinstance(app.screen, DeclareScreen))
            await pilot.press("C")
            await wait_for(pilot, lambda: len(session.state.history) > before)
            assert session.state.history[before] == (session.seat, A.declare(wild, C.CLUBS))

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_partnership_says_where_packs_go_and_asks_the_pile_with_team_piles(
    size: tuple[int, int],
) -> None:
    def ready(s: Session) -> bool:
        return s.state.phase is Phase.PILE and s.state.pending_pile == s.seat

    session = session_where(ready, partnership=True, specials=(60, 61, 63, 64))

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=size) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, PileScreen))
            view = session.view()
            h = view.piles[0][0] + view.piles[2][0]
            v = view.piles[0][1] + view.piles[2][1]
            assert f"Your team's piles now: H {h}, V {v}." in screen_text(app)
            assert table(app)._prompt(view).plain == "You won with +.5: choose the pile."
            texts = [e.text for e in session.log]
            assert any(t.startswith("You pass ") and "to Bot 2 for the second" in t for t in texts)
            assert any(t.startswith("You receive Bot 2's pack: ") for t in texts)
            assert not any("You keep" in t for t in texts)

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_partnership_summary_scores_teams_not_seats(size: tuple[int, int]) -> None:
    def ready(s: Session) -> bool:
        v = s.view()
        return not v.rounds and v.phase is Phase.PLAY and v.trick_number == 13

    session = session_where(ready, partnership=True)

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            seen: set[str] = set()
            for _ in range(300):
                if isinstance(app.screen, SummaryScreen):
                    break
                await take_turn(pilot, session, seen)
            assert isinstance(app.screen, SummaryScreen)
            result = session.state.rounds[0]
            assert result.team_scores is not None
            assert "Last trick:" in screen_text(app)
            lines = str(app.screen.query_one("#summary-body").render()).splitlines()
            seat_rows = [line for line in lines if line.startswith(("You ", "Bot "))]
            assert len(seat_rows) == 4 and all(len(row.split()) <= 5 for row in seat_rows)
            team_a = next(line for line in lines if line.startswith("A (You + Bot 2)"))
            assert team_a.split()[-2:] == [str(result.team_scores[0])] * 2
            header = next(line for line in lines if line.startswith("Seat"))
            assert "Score" not in header and "Team" in header

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_classic_hand_sorts_the_ace_low(size: tuple[int, int]) -> None:
    async def run() -> None:
        for seed in range(20):
            app = PlayApp(fast_settings(edition="classic", players=4, seed=seed), setup=False)
            async with app.run_test(size=size) as pilot:
                await ready_table(pilot, app)
                cards = table(app).query_one("#hand").cards  # type: ignore[attr-defined]
                aces = [c for c in cards if c % 15 == 14]
                if not aces:
                    continue
                for ace in aces:
                    same_suit = [c for c in cards if c // 15 == ace // 15]
                    assert same_suit[0] == ace
                return
        raise AssertionError("no ace dealt in 20 deals")

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_speed_is_saved_with_the_match(size: tuple[int, int], tmp_path: Path) -> None:
    save = tmp_path / "g.json"

    async def run() -> None:
        app = PlayApp(fast_settings(speed="normal"), setup=False, save_path=save)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            await pilot.press("plus")
            assert "bots fast" in screen_text(app)
            await pilot.press("s")
            await wait_for(pilot, lambda: isinstance(app.screen, SaveScreen))
            await pilot.press("enter")
            await wait_for(pilot, lambda: save.exists())

    asyncio.run(run())
    assert json.loads(sidecar_path(save).read_text())["speed"] == "fast"
    assert Session.load(save).settings.speed == "fast"


@pytest.mark.parametrize("size", SIZES)
def test_split_hint_lines_fit_and_b_before_h_explains(size: tuple[int, int]) -> None:
    async def run() -> None:
        app = PlayApp(fast_settings(seed=4), setup=False)
        async with app.run_test(size=size) as pilot:
            screen = await ready_table(pilot, app)
            await pilot.press("b")
            assert "Press h first: b takes the pack the hint suggests." in screen_text(app)
            await pilot.press("c")
            assert "A pack is exactly 6 cards: you picked 0." in screen_text(app)
            await pilot.press("home", *(["space", "right"] * 7))
            assert "You already picked 6 cards: unpick one first." in screen_text(app)
            assert "First half — 7/7:" in screen_text(app)
            await pilot.press("h")
            await wait_for(pilot, lambda: "Best pack" in screen_text(app), tries=2000)
            text = screen_text(app)
            best = next(line for line in text.splitlines() if "Best pack:" in line)
            assert best.rstrip().endswith("(b: use it)")
            assert re.search(r"yours \d\.\d\d · best found \d\.\d\d", text)
            assert re.search(r"About \d\.\d tricks in H and \d\.\d in V with that pack\.", text)
            assert "Second-half pack — 6/6:" in text
            await pilot.press("b")
            best = screen.best_pack
            assert screen.picked == set(C.cards_of(best))
            await pilot.press("c")
            session = screen.session
            await wait_for(pilot, lambda: session.state.phase is not Phase.SPLIT)
            assert session.view().pack == best
            assert "Your pack for tricks 8–13:" in screen_text(app)

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_help_lists_every_key_and_the_table(size: tuple[int, int]) -> None:
    async def run() -> None:
        app = PlayApp(fast_settings(seed=2), setup=False)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            text = app.screen.query_one("#help-text").render()
            plain = str(text)
            for key, what in [
                ("h / b", "use its pack"),
                ("u ", "take back your last card"),
                ("l ", "show the last trick"),
                ("n ", "new match"),
                ("q ", "save and quit"),
            ]:
                assert any(key in line and what in line for line in plain.splitlines()), what
            assert "This table" in plain and "declares the led suit" in plain
            assert "docs/rules.md" in plain

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_q_mid_game_saves_and_resumes(size: tuple[int, int], tmp_path: Path) -> None:
    save = tmp_path / "auto.json"

    def ready(s: Session) -> bool:
        return s.view().phase is Phase.PLAY and s.view().trick_number > 3

    session = session_where(ready)
    where = session.view()

    async def run() -> str | None:
        app = PlayApp(session.settings, session=session, save_path=save)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            await pilot.press("q" if size == SIZES[0] else "ctrl+q")  # both save first
            await pilot.pause(0.05)
        return app.return_value

    farewell = asyncio.run(run())
    assert farewell is not None and f"meio play --resume {save}" in farewell
    resumed = Session.load(save)
    assert resumed.view() == where and resumed.settings.bots == session.settings.bots


@pytest.mark.parametrize("size", SIZES)
def test_undo_takes_back_the_last_card_and_last_trick_key(size: tuple[int, int]) -> None:
    def ready(s: Session) -> bool:
        v = s.view()
        return v.phase is Phase.PLAY and 2 <= v.trick_number <= 6 and not v.current_trick

    session = session_where(ready)

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            await pilot.press("l")
            await wait_for(pilot, lambda: isinstance(app.screen, LastTrickScreen))
            last = session.view().tricks[-1]
            shown = screen_text(app)
            taker = (
                "You take" if last.winner == session.seat else f"{session.names[last.winner]} takes"
            )
            assert f"{taker} it →" in shown
            await pilot.press("escape")
            before = list(session.state.history)
            hand = session.view().hand
            card = A.card_of(session.view().legal_actions()[0])
            await press_card(pilot, card)
            await wait_for(
                pilot,
                lambda: session.human_to_act() and not table(app).driving,
            )
            assert len(session.state.history) > len(before)
            await pilot.press("u")
            assert session.state.history == before
            assert session.view().hand == hand
            assert f"You took back {session.label(card)}" in screen_text(app)
            await pilot.press("u")
            assert session.state.history == before or len(session.state.history) < len(before)

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_round_summary_shows_the_rounds_last_trick(size: tuple[int, int]) -> None:
    def ready(s: Session) -> bool:
        v = s.view()
        return not v.rounds and v.phase is Phase.PLAY and v.trick_number == 13

    session = session_where(ready, players=2)

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=size) as pilot:
            await ready_table(pilot, app)
            seen: set[str] = set()
            for _ in range(300):
                if isinstance(app.screen, SummaryScreen):
                    break
                await take_turn(pilot, session, seen)
            assert isinstance(app.screen, SummaryScreen)
            last = session.state.rounds[0].tricks[-1]
            text = screen_text(app)
            assert "Last trick:" in text
            cards = " ".join(
                f"{session.names[seat]} {session.label(card)}" for seat, card in last.plays
            )
            assert cards in text
            taker = (
                "You take" if last.winner == session.seat else f"{session.names[last.winner]} takes"
            )
            assert f"{taker} it →" in text

    asyncio.run(run())


@pytest.mark.parametrize("size", SIZES)
def test_viewer_names_players_apart_and_has_its_own_help(
    size: tuple[int, int], tmp_path: Path
) -> None:
    def ready(s: Session) -> bool:
        return s.view().trick_number > 3

    session = session_where(ready, players=4)
    path = tmp_path / "r.json"
    session.save(path)

    async def run() -> None:
        app = ReplayApp(Replay.load(path), title="r.json")
        async with app.run_test(size=size) as pilot:
            await pilot.press("n")
            text = screen_text(app)
            assert "Seat 0" not in text and "Player 1" in text
            assert re.search(r"P\d +P\d +P\d +P\d", text)
            await pilot.press("question_mark")
            await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
            help_text = screen_text(app)
            assert "next / previous trick" in help_text
            assert "confirm the split" not in help_text

    asyncio.run(run())
