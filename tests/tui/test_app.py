"""``meio play`` driven through Textual's headless pilot, asserting on what the screen shows."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import replace
from pathlib import Path

from meio.engine import Phase
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.record import Record
from meio.tui.app import PlayApp
from meio.tui.screens import DeclareScreen, HelpScreen, PileScreen, SaveScreen, SummaryScreen
from meio.tui.session import PlaySettings, Session
from meio.tui.table import TableScreen
from tests.tui.pilot import advance_to, press_card, screen_text, take_turn, wait_for

SIZE = (80, 24)


def fast(**kw: object) -> PlaySettings:
    base: dict[str, object] = {"seed": 1, "speed": "instant", "bots": ("random",)}
    base.update(kw)
    return PlaySettings(**base).checked()  # type: ignore[arg-type]


def table(app: PlayApp) -> TableScreen:
    assert app.table is not None
    return app.table


def test_enter_on_the_start_screen_deals_a_four_player_meio_game() -> None:
    async def run() -> None:
        app = PlayApp(fast())
        async with app.run_test(size=SIZE) as pilot:
            text = screen_text(app)
            assert "Players             ◀ 4 ▶" in text and "Edition             ◀ MEIO ▶" in text
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.table is not None)
            session = table(app).session
            assert session.settings.players == 4 and session.settings.edition == "meio"
            text = screen_text(app)
            assert "Pick 6 cards for the second half (0/6)" in text
            assert "Round 1/3" in text
            hand_rows = [line for line in text.splitlines() if line.count("│") >= 26]
            assert hand_rows, "the 13 dealt cards are drawn face up"

    asyncio.run(run())


def test_start_screen_choices_and_errors() -> None:
    async def run() -> None:
        app = PlayApp(fast())
        async with app.run_test(size=SIZE) as pilot:
            await pilot.click("#players")  # 4 -> 5
            await pilot.click("#specials")
            await pilot.press(*"-1 A+")
            await pilot.click("#start")
            await pilot.pause()
            assert "uses 5 special cards, not 2" in screen_text(app)
            await pilot.click("#specials")
            await pilot.press("end", *" Q+ +.5 -2H")
            await pilot.click("#start")
            await wait_for(pilot, lambda: app.table is not None)
            cfg = table(app).session.state.config
            assert cfg.players == 5
            assert sorted(C.card_code(c) for c in cfg.special_cards) == sorted(
                ["-1", "A+", "Q+", "+.5", "-2H"]
            )
            assert "Specials: -1 A+ -2♥ +.5 Q+" in screen_text(app)

    asyncio.run(run())


def _session_where(ready: object, **kw: object) -> Session:
    for seed in range(200):
        session = Session.new(fast(seed=seed, **kw))
        if advance_to(session, ready, random.Random(seed)):  # type: ignore[arg-type]
            return session
    raise AssertionError("no such position in 200 deals")


def test_leading_a_wild_asks_for_the_suit() -> None:
    def ready(s: Session) -> bool:
        v = s.view()
        return v.phase is Phase.PLAY and not v.current_trick and bool(v.hand & C.WILD_MASK)

    session = _session_where(ready)
    session.settings = replace(session.settings, speed="slow")  # time to read the trick

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.table is not None and not table(app).driving)
            wild = C.cards_of(session.view().hand & C.WILD_MASK)[0]
            before = len(session.state.history)
            await press_card(pilot, wild)
            await wait_for(pilot, lambda: isinstance(app.screen, DeclareScreen))
            assert "declare the led suit" in screen_text(app)
            await pilot.press("escape")  # nothing is lost: choose again
            assert len(session.state.history) == before
            await press_card(pilot, wild)
            await wait_for(pilot, lambda: isinstance(app.screen, DeclareScreen))
            await pilot.press("d")
            await wait_for(pilot, lambda: len(session.state.history) > before)
            assert session.state.history[before] == (session.seat, A.declare(wild, C.DIAMONDS))
            text = screen_text(app)
            assert "declared diamonds" in text and "You declared ♦ diamonds" in text

    asyncio.run(run())


def test_winning_with_plus_half_asks_for_the_pile() -> None:
    def ready(s: Session) -> bool:
        v = s.view()
        if v.phase is not Phase.PLAY or not v.hand >> C.PLUS_HALF & 1:
            return False
        trial = s.state.clone()
        trial.apply(C.PLUS_HALF if v.current_trick else A.declare(C.PLUS_HALF, 0), s.seat)
        while trial.phase is Phase.PLAY and trial.current_trick:
            trial.apply(trial.legal_actions()[0])
        return trial.phase is Phase.PILE and trial.pending_pile == s.seat

    session = _session_where(ready, specials=(C.PLUS_HALF, C.Q_PLUS, C.MINUS_ONE, C.A_PLUS))

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.table is not None and not table(app).driving)
            seen: set[str] = set()
            for _ in range(400):
                if isinstance(app.screen, PileScreen):
                    break
                if isinstance(app.screen, TableScreen) and session.human_to_act():
                    if not session.view().current_trick:
                        await press_card(pilot, C.PLUS_HALF)
                        await wait_for(pilot, lambda: isinstance(app.screen, DeclareScreen))
                        await pilot.press("s")
                    else:
                        await press_card(pilot, C.PLUS_HALF)
                await pilot.pause(0.01)
            assert isinstance(app.screen, PileScreen)
            assert "You won the trick with +.5: choose its pile." in screen_text(app)
            await take_turn(pilot, session, seen)  # presses 2
            assert seen == {"pile"}
            await wait_for(pilot, lambda: isinstance(app.screen, (TableScreen, SummaryScreen)))
            won = [e.trick for e in session.log if e.trick is not None][-1]
            assert won.winner == session.seat and won.pile == 2
            assert C.PLUS_HALF in won.cards
            assert "You won the trick → pile V (second half)." in screen_text(app)

    asyncio.run(run())


def test_illegal_card_is_explained_and_nothing_is_lost() -> None:
    def ready(s: Session) -> bool:
        v = s.view()
        if v.phase is not Phase.PLAY or not v.current_trick:
            return False
        follow = v.hand & C.SUIT_MASKS[v.led_suit]
        return bool(follow) and bool(v.hand & ~follow & ~C.WILD_MASK)

    session = _session_where(ready)

    async def run() -> None:
        app = PlayApp(session.settings, session=session)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.table is not None and not table(app).driving)
            v = session.view()
            follow = v.hand & C.SUIT_MASKS[v.led_suit]
            wrong = C.cards_of(v.hand & ~follow & ~C.WILD_MASK)[0]
            before = list(session.state.history)
            await press_card(pilot, wrong)
            symbol = C.SUIT_SYMBOLS[v.led_suit]
            assert f"You must follow {symbol}" in screen_text(app)
            assert session.state.history == before
            await press_card(pilot, C.cards_of(follow)[0])
            await wait_for(pilot, lambda: len(session.state.history) > len(before))

    asyncio.run(run())


def test_full_match_by_keys_then_save_resume_and_view(tmp_path: Path) -> None:
    """A 2-player match played by keystrokes; saved mid-way, resumed, finished, replayed."""
    save = tmp_path / "match.json"

    async def first_part() -> None:
        app = PlayApp(fast(players=2, seed=7), setup=False, save_path=save)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.table is not None)
            session = table(app).session
            seen: set[str] = set()
            while session.state.trick_number < 5:
                await take_turn(pilot, session, seen)
            assert "split" in seen
            await wait_for(pilot, lambda: not table(app).driving)
            await pilot.press("s")
            await wait_for(pilot, lambda: isinstance(app.screen, SaveScreen))
            await pilot.press("enter")
            await wait_for(pilot, lambda: "Saved match.json" in screen_text(app))
            assert "Resume: meio play --resume" in screen_text(app)

    asyncio.run(first_part())
    record = json.loads(save.read_text())
    assert record["format"] == "meio-record/1"
    Record.from_json(record).to_state()

    async def second_part() -> None:
        session = Session.load(save)
        app = PlayApp(session.settings, session=session, save_path=save)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.table is not None)
            assert "Resumed from match.json." in screen_text(app)
            seen: set[str] = set()
            for _ in range(5000):
                if "summary-final" in seen:
                    break
                if isinstance(app.screen, SummaryScreen) and app.screen.final:
                    text = screen_text(app)
                    assert "Match over:" in text and "Score" in text and "Total" in text
                await take_turn(pilot, session, seen)
            assert session.is_over and {"summary", "summary-final"} <= seen
            text = screen_text(app)
            assert "Match over —" in text
            assert session.winner_text() in text
            await pilot.press("s")
            await wait_for(pilot, lambda: isinstance(app.screen, SaveScreen))
            await pilot.press("enter")
            await wait_for(pilot, lambda: "Saved match.json" in screen_text(app))

    asyncio.run(second_part())
    final = Record.from_json(save.read_text()).to_state()
    assert final.is_over

    async def viewer() -> None:
        from meio.tui.replay import Replay, ReplayApp

        replay = Replay.load(save)
        app = ReplayApp(replay, title="match.json")
        async with app.run_test(size=SIZE) as pilot:
            assert "step 0/" in screen_text(app) and "split" in screen_text(app)
            await pilot.press("n")
            first_trick = app.index
            text = screen_text(app)
            assert "takes it →" in text and "trick 2/13" in text
            await pilot.press("n")
            assert app.index > first_trick
            await pilot.press("p")
            assert app.index == first_trick
            await pilot.press("left")
            assert app.index == first_trick - 1
            await pilot.press("right_square_bracket")
            assert "round 2" in screen_text(app)
            await pilot.press("left_square_bracket")
            assert "round 1" in screen_text(app)
            await pilot.press("end")
            text = screen_text(app)
            assert "match over" in text and "Winners:" in text
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)

    asyncio.run(viewer())


def test_help_speed_and_ascii() -> None:
    async def run() -> None:
        app = PlayApp(fast(seed=2), setup=False, ascii=True)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.table is not None)
            text = screen_text(app)
            assert not any(sym in text for sym in "♠♥♦♣")
            assert any(f"{r}S " in text for r in "3456789JQKA") or "10S" in text
            await pilot.press("minus")
            assert "bots fast" in screen_text(app)
            await pilot.press("plus", "plus")
            assert "bots instant" in screen_text(app)
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            assert "confirm the split" in screen_text(app)
            await pilot.press("escape")
            assert isinstance(app.screen, TableScreen)

    asyncio.run(run())


def test_a_new_match_after_a_seeded_one_deals_new_cards_and_ctrl_c_says_quitting_saves(
) -> None:
    from meio.i18n import set_language
    from meio.tui.start import StartScreen

    async def run() -> None:
        app = PlayApp(fast(seed=11), setup=False)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda: app.table is not None)
            await pilot.press("ctrl+c")
            await pilot.pause(0.1)
            assert [(n.title, n.message) for n in app._notifications] == [(
                "Quer sair?", "Tecle [b]q[/b] para sair: uma partida inacabada é salva antes, "
                "para retomar com meio play --resume ARQUIVO.")]
            assert app.table is not None
            # n asks for a new match (this one saved): it is chosen on the start screen
            app.table.post_message(TableScreen.NewMatch(app.table.session.settings, None))
            await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
            assert isinstance(app.screen, StartScreen)
            assert app.screen.settings.seed != 11

    set_language("pt")
    try:
        asyncio.run(run())
    finally:
        set_language("en")
