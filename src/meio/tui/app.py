"""``meio play``: one human and bots at a MEIO table, full screen in the terminal.

The app is a thin drawing layer over :class:`~meio.tui.session.Session`: every
fact on the screen comes from the human seat's view or the session's public
log. Bots think in a worker thread, so the screen stays live while they do.
"""

from __future__ import annotations

import asyncio
import importlib
import threading
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from meio.engine import IllegalActionError, MeioError, Phase, View
from meio.engine import actions as A
from meio.engine import cards as C
from meio.tui.cards import card_label, cards_text, sorted_cards, suit_symbol
from meio.tui.screens import (
    DeclareScreen,
    HelpScreen,
    PileScreen,
    SaveScreen,
    StartScreen,
    SummaryScreen,
    round_summary,
)
from meio.tui.session import SPEED_ORDER, SPEEDS, PlaySettings, Session
from meio.tui.widgets import HandView, balance_line, seats_table, trick_panel

CSS = """
Screen { layout: vertical; }
#status { height: 1; background: $primary-background; color: $text; }
#top { height: 7; }
#seats { width: 1fr; }
#trick { width: 32; border-left: solid $primary; padding-left: 1; }
#balance { height: 1; }
#log { height: 1fr; color: $text-muted; }
#split { height: 7; }
#split-sides { height: 3; }
#keep, #pack { width: 1fr; border: round $primary; height: 3; }
#hint { height: 4; }
#prompt { height: 2; color: $warning; }
#packline { height: 1; }
.dialog { width: 60; height: auto; border: thick $accent; background: $surface; padding: 0 1; }
.wide { width: 76; }
ModalScreen { align: center middle; }
.dialog Button { width: 1fr; height: 3; margin: 0; }
#start-title { height: 1; text-align: center; background: $primary-background; }
#start-form { padding: 0 1; }
#start-form Input { height: 3; }
#start-error { height: 1; }
"""


def describe_illegal(view: View, card: int, ascii: bool, reason: str) -> str:
    """Why a card may not be played, in a player's words (``you must follow ♠``)."""
    if view.current_trick and view.led_suit >= 0 and view.hand & C.SUIT_MASKS[view.led_suit]:
        led = suit_symbol(view.led_suit, ascii)
        return (
            f"You must follow {led}: you hold {led} cards, so play one of them "
            f"(or a wild), not {card_label(card, ascii)}."
        )
    return reason[:1].upper() + reason[1:] + "."


class TableScreen(Screen[None]):
    """The table: seats, trick, score sheet, log, your hand; the split before each round."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "confirm_split", "Confirm split"),
        Binding("h", "hint", "Hint"),
        Binding("b", "best", "Use hint", show=False),
        Binding("plus,equals_sign", "speed(1)", "Faster"),
        Binding("minus", "speed(-1)", "Slower"),
        Binding("s", "save", "Save"),
        Binding("n", "new_match", "New", show=False),
        Binding("question_mark", "app.help", "Help"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, session: Session, *, ascii: bool, save_path: Path | None) -> None:
        super().__init__()
        self.session = session
        session.label = lambda card: card_label(card, ascii)
        self.ascii = ascii
        self.save_path = save_path
        self.picked: set[int] = set()
        self.speed = session.settings.speed
        self.shown_rounds = len(session.state.rounds)
        self.hint_text: Text = Text("")
        self.best_pack = 0
        self.driving = False
        #: a message for the player (an error, a confirmation) kept until their next action
        self.notice: str | Text | None = None

    # -- layout --------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="top"):
            yield Static(id="seats")
            yield Static(id="trick")
        yield Static(id="balance")
        yield Static(id="log")
        with Vertical(id="split"):
            with Horizontal(id="split-sides"):
                yield Static(id="keep")
                yield Static(id="pack")
            yield Static(id="hint")
        yield Static(id="prompt")
        yield HandView(ascii=self.ascii, id="hand")
        yield Static(id="packline")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(HandView).focus()
        self.refresh_table()
        self.kick()

    @property
    def delay(self) -> float:
        return SPEEDS[self.speed]

    def splitting(self, view: View) -> bool:
        return view.phase is Phase.SPLIT and not view.split_done[self.session.seat]

    # -- drawing -------------------------------------------------------------------------
    def refresh_table(self, message: str | Text | None = None) -> None:
        """Redraw everything from the human seat's view; ``message`` replaces the prompt
        until the player's next action."""
        if message is not None:
            self.notice = message
        s = self.session
        view = s.view()
        cfg = view.config
        names = s.names
        levels = list(s.settings.bots)
        ascii = self.ascii
        specials = " ".join(card_label(c, ascii) for c in cfg.special_cards) or "none"
        rounds = f"/{cfg.rounds}" if cfg.rounds else " (first to 2)"
        edition = "MEIO" if cfg.edition == "meio" else "Meio classic"
        status = f" {edition} · Round {view.round_index + 1}{rounds} · "
        if view.is_over:
            status += "match over"
        elif view.phase is Phase.SPLIT:
            status += "split"
        else:
            half = "first half" if view.half == 1 else "second half"
            status += f"{half} · trick {view.trick_number}/13"
        status += f" · specials {specials} · speed {self.speed}"
        self.query_one("#status", Static).update(Text(status, style="bold"))
        self.query_one("#seats", Static).update(seats_table(view, names, levels))
        last = s.last_trick if s.last_trick_round == view.round_index else None
        last_half = s.last_trick_half
        if view.phase is Phase.PILE and view.tricks:
            last, last_half = view.tricks[-1], view.half
        self.query_one("#trick", Static).update(trick_panel(view, names, last, last_half, ascii))
        self.query_one("#balance", Static).update(balance_line(view, s.seat))
        lines = [e.text for e in s.log if e.round_index == view.round_index][-6:]
        self.query_one("#log", Static).update(Text("\n".join(lines)))
        splitting = self.splitting(view)
        self.query_one("#split").display = splitting
        self.query_one("#log").display = not splitting
        hand = self.query_one(HandView)
        if splitting:
            cards = sorted_cards(view.hand)
            self.picked &= set(cards)
            hand.show(cards, mode="split", half=1, edition=cfg.edition, picked=self.picked)
            keep = [c for c in cards if c not in self.picked]
            pack = [c for c in cards if c in self.picked]
            self.query_one("#keep", Static).update(
                Text(f"First half — {len(keep)}/7: ").append_text(
                    cards_text(keep, ascii, half=1, edition=cfg.edition)
                )
            )
            self.query_one("#pack", Static).update(
                Text(f"Second-half pack — {len(pack)}/6: ").append_text(
                    cards_text(pack, ascii, half=2, edition=cfg.edition)
                )
            )
            self.query_one("#hint", Static).update(self.hint_text)
        else:
            legal = view.legal_actions() if view.phase is Phase.PLAY else []
            playable = {A.card_of(a) for a in legal}
            hand.show(
                sorted_cards(view.hand),
                mode="play",
                half=view.half,
                edition=cfg.edition,
                playable=playable if legal else set(),
            )
        self.query_one("#packline", Static).update(self._pack_line(view))
        self.query_one("#prompt", Static).update(
            self.notice if self.notice is not None else self._prompt(view)
        )

    def _pack_line(self, view: View) -> Text:
        if view.half == 2 or not view.pack or view.is_over:
            return Text("")
        cfg = view.config
        if cfg.partnership:
            if not view.received:
                return Text("Your partner's pack reaches you once everyone has split.", "dim")
            label, pack = "Partner's pack for tricks 8–13: ", view.received
        else:
            label, pack = "Your pack for tricks 8–13: ", view.pack
        return Text(label, style="dim").append_text(
            cards_text(sorted_cards(pack), self.ascii, half=2, edition=cfg.edition)
        )

    def _prompt(self, view: View) -> Text:
        s = self.session
        if view.is_over:
            return Text(f"Match over — {s.winner_text()}. n: new match · q: quit", "bold green")
        if self.splitting(view):
            return Text(
                f"Pick 6 cards for the second half ({len(self.picked)}/6): ←/→ Space; "
                "c confirm · h hint",
                "bold",
            )
        if view.phase is Phase.SPLIT:
            return Text("Waiting for the others to split…", "dim")
        if view.phase is Phase.PILE:
            who = s.names[view.pending_pile]
            return Text(f"{who} won with +.5 and chooses the pile…", "dim")
        if view.to_move == s.seat:
            if view.current_trick:
                led = suit_symbol(view.led_suit, self.ascii)
                return Text(f"Your turn: follow {led} if you can. ←/→ and Enter to play.", "bold")
            return Text("Your lead: play any card (a wild asks for a suit). ←/→ Enter.", "bold")
        return Text(f"{s.names[view.to_move]} is thinking…", "dim")

    # -- driving the bots ----------------------------------------------------------------
    def kick(self) -> None:
        """Let the bots play until the human's turn (unless they already are)."""
        if not self.driving:
            self.driving = True
            self.drive()

    @work(exclusive=False, group="bots")
    async def drive(self) -> None:
        s = self.session
        try:
            while True:
                if await self._show_summaries():
                    return
                if s.is_over:
                    break
                if s.state.phase is Phase.PILE and s.human_to_act():
                    await self._ask_pile()
                    continue
                seat = s.bot_to_act()
                if seat is None:
                    break
                splitting = s.state.phase is Phase.SPLIT
                if not splitting and self.delay:
                    await asyncio.sleep(self.delay)
                bot, view, legal = s.bot_request(seat)
                action = await asyncio.to_thread(bot.choose, view, legal)
                tricks = len(s.state.tricks) + 13 * s.state.round_index
                s.play(action, seat)
                self.refresh_table()
                if len(s.state.tricks) + 13 * s.state.round_index > tricks and self.delay:
                    await asyncio.sleep(self.delay)
        finally:
            self.driving = False
        self.refresh_table()

    async def _show_summaries(self) -> bool:
        """Show the summary of each round that ended; True when the player quit or restarted."""
        s = self.session
        while self.shown_rounds < len(s.state.rounds):
            index = self.shown_rounds
            self.shown_rounds += 1
            result = s.state.rounds[index]
            totals = [
                sum(r.scores[i] for r in s.state.rounds[: index + 1]) for i in range(len(s.names))
            ]
            body = round_summary(s.names, result, totals, s.settings.partnership)
            final = s.is_over and self.shown_rounds == len(s.state.rounds)
            title = f"Round {index + 1} is over."
            if result.victory is not None:
                won = (
                    f"Team {'AB'[result.victory]}"
                    if s.settings.partnership
                    else s.names[result.victory]
                )
                title += f" {won} takes the round."
            if final:
                title += f"  Match over: {s.winner_text()}!"
            self.refresh_table()
            choice = await self.app.push_screen_wait(SummaryScreen(title, body, final))
            if choice == "quit":
                self.app.exit()
                return True
            if choice == "new":
                self.action_new_match()
                return True
        return False

    async def _ask_pile(self) -> None:
        view = self.session.view()
        h, v = view.piles[self.session.seat]
        detail = f"Your piles now: H {h}, V {v}. Keys 1 or 2."
        pile = await self.app.push_screen_wait(PileScreen(detail))
        self.session.play(A.PILE_1 if pile == 1 else A.PILE_2)
        self.refresh_table()

    # -- the human's moves ---------------------------------------------------------------
    def on_hand_view_activated(self, event: HandView.Activated) -> None:
        self.notice = None
        s = self.session
        view = s.view()
        card = event.card
        if self.splitting(view):
            if card in self.picked:
                self.picked.discard(card)
                self.refresh_table()
            elif len(self.picked) >= 6:
                self.refresh_table(Text("You already picked 6 cards: unpick one first.", "red"))
            else:
                self.picked.add(card)
                self.refresh_table()
            return
        if view.is_over:
            self.refresh_table()
            return
        if view.phase is not Phase.PLAY or view.to_move != s.seat:
            if view.phase is Phase.SPLIT:
                wait = "Wait: the others are still choosing their packs."
            elif view.phase is Phase.PILE:
                wait = f"Wait: {s.names[view.pending_pile]} is choosing the pile."
            else:
                wait = f"Wait: it is {s.names[view.to_move]}'s turn."
            self.refresh_table(Text(wait, "red"))
            return
        if C.is_wild(card) and not view.current_trick:

            def declared(suit: int | None) -> None:
                if suit is None:
                    self.refresh_table(Text("Choose a card to lead.", "bold"))
                else:
                    self._play(A.declare(card, suit))

            self.app.push_screen(DeclareScreen(card_label(card, self.ascii), self.ascii), declared)
            return
        self._play(card)

    def _play(self, action: int) -> None:
        s = self.session
        view = s.view()
        try:
            s.play(action)
        except IllegalActionError as exc:
            card = A.card_of(action)
            text = describe_illegal(view, card, self.ascii, exc.reason)
            self.refresh_table(Text(text, "bold red"))
            return
        self.notice = None
        self.refresh_table()
        self.kick()

    def action_confirm_split(self) -> None:
        self.notice = None
        s = self.session
        view = s.view()
        if not self.splitting(view):
            self.refresh_table(Text("There is no split to confirm now.", "red"))
            return
        if len(self.picked) != 6:
            self.refresh_table(
                Text(f"A pack is exactly 6 cards: you picked {len(self.picked)}.", "bold red")
            )
            return
        pack = C.mask_of(self.picked)
        self.picked = set()
        self.hint_text = Text("")
        self.best_pack = 0
        self._play(A.pack_action(pack))

    def action_hint(self) -> None:
        self.notice = None
        view = self.session.view()
        if not self.splitting(view):
            self.refresh_table(Text("The hint is for the split, before each round.", "red"))
            return
        try:
            advise_view = importlib.import_module("meio.bots.advisor").advise_view
        except ImportError:
            self.hint_text = Text("The split advisor (meio.bots.advisor) is not installed.", "red")
            self.refresh_table()
            return
        chosen = C.mask_of(self.picked) if len(self.picked) == 6 else None
        self.hint_text = Text("The advisor is thinking…", "dim")
        self.refresh_table()
        self._advise(advise_view, view, chosen)

    @work(exclusive=True, group="hint")
    async def _advise(self, advise_view: object, view: View, chosen: int | None) -> None:
        def ask() -> object:
            return advise_view(view, chosen_pack=chosen, budget_s=1.0, seed=0)  # type: ignore[operator]

        advice = await asyncio.to_thread(ask)
        self.hint_text = self._hint_body(advice, chosen)
        self.refresh_table()

    def _hint_body(self, advice: object, chosen: int | None) -> Text:
        ed = self.session.view().config.edition
        best = advice.best  # type: ignore[attr-defined]
        mine = advice.chosen  # type: ignore[attr-defined]
        out = Text("Advisor (expected |H−V| this round, lower is better)\n", "bold")
        if mine is not None and chosen is not None:
            out.append(f"Your split: {mine.mean:.2f} ({mine.low:.2f}–{mine.high:.2f})\n")
        elif chosen is None:
            out.append("Pick 6 cards to have your own split scored too.\n", "dim")
        out.append(f"Best found: {best.mean:.2f} ({best.low:.2f}–{best.high:.2f}) with pack ")
        out.append_text(cards_text(sorted_cards(best.pack), self.ascii, half=2, edition=ed))
        out.append("  (b: use it)\n", "dim")
        reason = str(getattr(best, "reason", "") or getattr(advice, "explanation", ""))
        out.append(reason.splitlines()[0] if reason else "", "italic")
        self.best_pack = int(best.pack)
        return out

    def action_best(self) -> None:
        self.notice = None
        if self.best_pack and self.splitting(self.session.view()):
            self.picked = set(C.cards_of(self.best_pack))
            self.refresh_table()

    def action_speed(self, step: int) -> None:
        self.notice = None
        index = SPEED_ORDER.index(self.speed) + step
        self.speed = SPEED_ORDER[max(0, min(len(SPEED_ORDER) - 1, index))]
        self.refresh_table(Text(f"Bot speed: {self.speed}.", "bold"))

    def action_save(self) -> None:
        self.notice = None
        default = str(self.save_path or "meio-game.json")

        def chosen(path: str | None) -> None:
            if path is None:
                self.refresh_table()
                return
            try:
                self.session.save(Path(path))
            except (MeioError, ImportError) as exc:
                self.refresh_table(Text(f"Could not save: {exc}", "bold red"))
                return
            self.save_path = Path(path)
            self.refresh_table(
                Text(f"Saved {Path(path).name}. Resume: meio play --resume {path}", "bold green")
            )

        self.app.push_screen(SaveScreen(default), chosen)

    def action_new_match(self) -> None:
        if not self.session.is_over:
            self.refresh_table(Text("n starts a new match once this one is over (q quits).", "red"))
            return
        app = self.app
        if isinstance(app, PlayApp):
            app.open_start(self.session.settings)


class PlayApp(App[None]):
    """The ``meio play`` application."""

    CSS = CSS
    TITLE = "MEIO"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("question_mark", "help", "Help", show=False)]

    def __init__(
        self,
        settings: PlaySettings,
        *,
        ascii: bool = False,
        session: Session | None = None,
        save_path: Path | None = None,
        setup: bool = True,
    ) -> None:
        super().__init__()
        self.settings = settings
        self.ascii = ascii
        self.resumed = session
        self.save_path = save_path
        self.setup = setup
        self.table: TableScreen | None = None

    def on_mount(self) -> None:
        if self.resumed is not None:
            self.start(self.resumed)
        elif self.setup:
            self.open_start(self.settings)
        else:
            self.start(Session.new(self.settings))

    def open_start(self, settings: PlaySettings) -> None:
        """Show the start screen; Start deals a new match."""

        def begin(chosen: PlaySettings | None) -> None:
            if chosen is not None:
                self.start(Session.new(chosen))

        self.push_screen(StartScreen(settings), begin)

    def start(self, session: Session) -> None:
        """Sit down at the table of ``session``."""
        self.settings = session.settings
        if any(kind.startswith("search") for kind in session.settings.bots):
            # search bots play out with the compiled core: load it now, not on their move
            threading.Thread(target=_warm_core, name="meio-warm", daemon=True).start()
        table = TableScreen(session, ascii=self.ascii, save_path=self.save_path)
        if self.table is not None:
            self.switch_screen(table)
        else:
            self.push_screen(table)
        self.table = table

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())


def _warm_core() -> None:
    try:
        from meio.sim import warm_up
    except ImportError:  # the compiled core is optional for the terminal
        return
    warm_up()
