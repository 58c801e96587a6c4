"""``meio play``: one human and bots at a MEIO table, full screen in the terminal.

The app is a thin drawing layer over :class:`~meio.tui.session.Session`: every
fact on the screen comes from the human seat's view or the session's public
log. Bots think in a worker thread, so the screen stays live while they do.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Static

from meio.bots.advisor import Advice, PlayAdvice, advise_play, advise_view
from meio.engine import IllegalActionError, MeioError, Phase, Trick, View
from meio.engine import actions as A
from meio.engine import cards as C
from meio.i18n import N_, _, decimal
from meio.i18n.reasons import explain
from meio.tui.ascii import AsciiFilter
from meio.tui.bindings import translate_bindings
from meio.tui.cards import card_label, cards_text, sorted_cards, suit_symbol
from meio.tui.screens import (
    SUMMARY_WIDTH,
    DeclareScreen,
    HelpScreen,
    LastTrickScreen,
    PileScreen,
    SaveScreen,
    SizedScreen,
    StartScreen,
    SummaryScreen,
    help_text,
    round_summary,
    trick_body,
)
from meio.tui.session import SPEED_ORDER, PlaySettings, Session, SessionError
from meio.tui.widgets import HandView, balance_line, seats_table, taken_line, trick_panel

CSS = """
Screen { layout: vertical; }
#table-body { height: 1fr; }
#status { height: 1; background: $primary-background; color: $text; }
#rules { height: 1; color: $text-muted; }
#top { height: 7; }
#seats { width: auto; height: 100%; }
#trick { width: 1fr; min-width: 30; height: 100%; border-left: solid $primary; padding-left: 1; }
#balance { height: 1; }
#log { height: 1fr; color: $text-muted; }
#split { height: 1fr; }
#keep, #pack { height: 1; }
#hint { height: auto; }
#prompt { height: 2; color: $warning; }
#packline { height: 1; }
#too-small { height: 1fr; content-align: center middle; text-align: center; }
.dialog { width: 60; height: auto; border: thick $accent; background: $surface; padding: 0 1; }
.wide { width: 78; }
#help { max-height: 100%; }
ModalScreen { align: center middle; }
.dialog Button { width: 1fr; height: 3; margin: 0; }
#start-title { height: 1; text-align: center; background: $primary-background; }
#start-form { padding: 0 1; height: 1fr; }
#start-form Input { height: 3; }
#start-error { height: 1; }
App.-ascii .dialog { border: ascii $accent; }
App.-ascii #trick { border-left: ascii $primary; }
App.-ascii Button { border: none; height: 1; }
App.-ascii .dialog Button { height: 1; }
App.-ascii Input { border: ascii $primary; }
"""

ResultT = TypeVar("ResultT")

#: where ``q`` saves an unfinished match when no file was given
AUTOSAVE_NAME = "meio-autosave.json"
#: the split hint's budget (:func:`~meio.bots.advisor.budget_worlds`: a fixed number of
#: sampled deals, so ``h`` twice on the same hand gives the same answer)
HINT_BUDGET_S = 1.0


def score_text(mean: float, low: float, high: float) -> str:
    """An expected score with its 95% interval: ``0.30 (likely 0.10–0.50)``, or
    ``0.00 in every sampled deal`` when the deals all agreed (no "between 0 and 0")."""
    if high - low < 0.005:
        return _("{score} in every sampled deal").format(score=decimal(mean))
    return _("{score} (likely {low}–{high})").format(
        score=decimal(mean), low=decimal(low), high=decimal(high)
    )


async def thinking(work: Callable[..., ResultT], *args: object) -> ResultT:
    """``work(*args)`` in a daemon thread, awaited: the screen stays live while a bot or
    the advisor thinks, and quitting never waits for them to finish (a thread of
    ``asyncio.to_thread`` would hold the exit until its search was done)."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[ResultT] = loop.create_future()

    def settle(setter: Callable[[Any], None], value: object) -> None:
        if not done.done():  # not cancelled by a quit meanwhile
            setter(value)

    def run() -> None:
        setter: Callable[[Any], None]
        value: object
        try:
            setter, value = done.set_result, work(*args)
        except BaseException as exc:  # raised again in the awaiting task
            setter, value = done.set_exception, exc
        with contextlib.suppress(RuntimeError):  # the app, and its loop, closed meanwhile
            loop.call_soon_threadsafe(settle, setter, value)

    threading.Thread(target=run, name="meio-thinking", daemon=True).start()
    return await done


def reason_text(exc: IllegalActionError, ascii: bool) -> str:
    """The engine's reason in the current language, cards and suits drawn as on the table."""
    return explain(
        exc.code,
        exc.params,
        exc.reason,
        card=lambda code: card_label(C.parse_card(code), ascii),
        suit=lambda letter: suit_symbol(C.parse_suit(letter), ascii),
    )


def describe_illegal(exc: IllegalActionError, ascii: bool) -> str:
    """Why a move is refused, in a player's words (``you must follow ♠``), from the
    engine's reason code and parameters."""
    params = exc.params
    if exc.code == "must_follow":
        led = suit_symbol(C.parse_suit(str(params["suit"])), ascii)
        card = card_label(C.parse_card(str(params["card"])), ascii)
        return _(
            "You must follow {led}: you hold {led} cards, so play one of them (or a wild), "
            "not {card}."
        ).format(led=led, card=card)
    return _("Not allowed: {reason}.").format(reason=reason_text(exc, ascii))


def specials_text(view: View, ascii: bool) -> str:
    """The special cards in the deck as this seat knows them."""
    cfg = view.config
    known = " ".join(card_label(c, ascii) for c in view.specials)
    if cfg.options.reveal_specials:
        return _("Specials: {cards}").format(cards=known)
    if known:
        return _("Specials hidden: {n} in the deck; you know {cards}").format(
            n=view.special_count, cards=known
        )
    return _("Specials hidden: {n} in the deck").format(n=view.special_count)


def rules_line(view: View, ascii: bool) -> str:
    """The table's special cards and options, in one line."""
    cfg = view.config
    parts = []
    if cfg.edition == "meio":
        parts.append(specials_text(view, ascii))
    else:
        parts.append(_("Classic deck: the Ace counts 1"))
    if cfg.options.wild_lead == "next":
        parts.append(_("wild lead: next card"))
    elif cfg.edition == "meio":
        parts.append(_("wild lead: declare"))
    return " · ".join(parts)


def table_rules_text(view: View, ascii: bool) -> str:
    """The table's options and the rules players ask about, for the help screen."""
    cfg = view.config
    lines = [rules_line(view, ascii)]
    if cfg.edition == "meio":
        if cfg.options.wild_lead == "next":
            lines.append(
                _(
                    "A led wild names no suit: play anything until the first non-wild card "
                    "sets the suit; then every wild in the trick counts as that suit. An "
                    "all-wild trick goes to the highest value."
                )
            )
        else:
            lines.append(_("A led wild declares the led suit (the wild counts as that suit)."))
        if not cfg.options.reveal_specials:
            lines.append(
                _("Nobody is told which specials are in the deck: you see yours and those played.")
            )
        lines.append(
            _(
                "A wild may be played on any trick, even if you hold the led suit. "
                "+.5 leading is worth ½."
            )
        )
        lines.append(
            _(
                "Hearts led and -2♥ your only heart: play it or a wild. Holding wilds but "
                "none of the led suit, you may play any card."
            )
        )
    else:
        lines.append(_("Classic: the Ace is the card 1, the lowest; hearts are trumps."))
    if cfg.players == 2 and cfg.victories_to_win is None:
        lines.append(_("2-player classic: 3 rounds on totals, no round victories."))
    elif cfg.victories_to_win is not None:
        lines.append(_("The first to 2 round victories wins the match."))
    else:
        lines.append(_("3 rounds; the lowest total wins (a tie is shared)."))
    return "\n".join(lines)


class TableScreen(SizedScreen[None]):
    """The table: seats, trick, score sheet, log, your hand; the split before each round."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "confirm_split", N_("Confirm split")),
        Binding("h", "hint", N_("Hint")),
        Binding("b", "best", N_("Use hint"), show=False),
        Binding("u", "undo", N_("Undo")),
        Binding("l", "last_trick", N_("Last trick")),
        Binding("plus,equals_sign", "speed(1)", N_("Faster"), show=False),
        Binding("minus", "speed(-1)", N_("Slower"), show=False),
        Binding("s", "save", N_("Save"), show=False),
        Binding("n", "new_match", N_("New"), show=False),
        Binding("question_mark", "app.help", N_("Help")),
        Binding("q", "quit_table", N_("Quit")),
    ]

    def __init__(self, session: Session, *, ascii: bool, save_path: Path | None) -> None:
        super().__init__()
        self.session = session
        session.label = lambda card: card_label(card, ascii)
        self.ascii = ascii
        self.save_path = save_path
        #: the number of moves the match had when it was last saved (-1: never saved)
        #: the key and position at which saving failed (pressed again: leave unsaved)
        self.unsaved_leave: tuple[str, int] | None = None
        self.saved_moves = -1
        if save_path is not None and session.source == save_path:
            self.saved_moves = len(session.state.history)  # resumed from that very file
        self.picked: set[int] = set()
        self.speed = session.settings.speed
        self.shown_rounds = len(session.state.rounds)
        self.hint_text: Text = Text("")
        self.best_pack = 0
        self.driving = False
        #: which of the footer's optional keys are shown now
        self.footer_keys: tuple[bool | None, ...] = ()
        #: the round whose end is on show (its last trick stays on the table until the summary)
        self.round_end: int | None = None
        #: a message for the player (an error, a confirmation, a card hint), shown until
        #: the match moves on (anyone's move) or the player acts again
        self.notice: str | Text | None = None
        #: the number of moves the match had when the notice was given
        self.notice_step = 0
        #: the card hint's best play and the position it was given for
        self.hint_play: int | None = None
        translate_bindings(self)

    # -- layout --------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Vertical(id="table-body", classes="body"):
            yield Static(id="status")
            yield Static(id="rules")
            with Horizontal(id="top"):
                yield Static(id="seats")
                yield Static(id="trick")
            yield Static(id="balance")
            yield Static(id="log")
            with Vertical(id="split"):
                yield Static(id="keep")
                yield Static(id="pack")
                yield Static(id="hint")
            yield Static(id="prompt")
            yield HandView(ascii=self.ascii, id="hand")
            yield Static(id="packline")
        yield self.too_small_notice()
        yield Footer()

    def focus_default(self) -> None:
        self.query_one(HandView).focus()

    def on_mount(self) -> None:
        self.focus_default()
        self.fit()
        self.refresh_table()
        self.kick()
        self.mounted()

    def mounted(self) -> None:
        """Called once the table is drawn (the lesson opens its first notes here)."""

    @property
    def delay(self) -> float:
        return {"slow": 1.6, "normal": 0.8, "fast": 0.3, "instant": 0.0}[self.speed]

    def splitting(self, view: View) -> bool:
        return view.phase is Phase.SPLIT and not view.split_done[self.session.seat]

    def my_turn(self, view: View) -> bool:
        """Whether the player is to play a card now."""
        return view.phase is Phase.PLAY and view.to_move == self.session.seat

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keep the footer to the keys that do something now."""
        view = self.session.view()
        if action == "confirm_split":
            return self.splitting(view)
        if action in ("hint", "best"):
            return self.splitting(view) or self.my_turn(view)
        if action == "undo":
            return self.session.settings.undo and not view.is_over and view.phase is not Phase.SPLIT
        if action == "last_trick":
            return view.phase is not Phase.SPLIT or view.round_index > 0
        return True

    # -- drawing -------------------------------------------------------------------------
    def status_text(self, view: View) -> str:
        """The top line: edition, round, half, trick and the bots' speed (fits 80 columns)."""
        cfg = view.config
        edition = "MEIO" if cfg.edition == "meio" else _("Meio classic")
        if cfg.rounds:
            rnd = _("Round {n}/{total}").format(n=view.round_index + 1, total=cfg.rounds)
        else:
            rnd = _("Round {n} (to 2 wins)").format(n=view.round_index + 1)
        parts = [edition, rnd]
        if view.is_over:
            parts.append(_("match over"))
        elif view.phase is Phase.SPLIT:
            parts.append(_("split"))
        else:
            parts.append(_("1st half") if view.half == 1 else _("2nd half"))
            parts.append(_("trick {n}/13").format(n=view.trick_number))
        speed = {"slow": _("slow"), "normal": _("normal"), "fast": _("fast")}.get(
            self.speed, _("instant")
        )
        parts.append(_("bots {speed}").format(speed=speed))
        return " " + " · ".join(parts)

    def refresh_table(self, message: str | Text | None = None) -> None:
        """Redraw everything from the human seat's view; ``message`` replaces the prompt
        until the player's next action."""
        s = self.session
        moves = len(s.state.history)
        if message is not None:
            self.notice, self.notice_step = message, moves
        elif self.notice is not None and self.notice_step != moves:
            # the match moved on: "wait for Bot 1" or "put the trick in H" no longer holds
            self.notice = None
        if self.notice_step != moves:
            self.hint_play = None
        view = s.view()
        cfg = view.config
        ascii = self.ascii
        self.query_one("#status", Static).update(Text(self.status_text(view), style="bold"))
        self.query_one("#rules", Static).update(Text(" " + rules_line(view, ascii)))
        self.query_one("#seats", Static).update(
            seats_table(view, s.names, list(s.settings.bots), ascii)
        )
        if self.round_end is not None and s.last_trick_round == self.round_end:
            last, last_half = s.last_trick, s.last_trick_half
        else:
            last = s.last_trick if s.last_trick_round == view.round_index else None
            last_half = s.last_trick_half
        if view.phase is Phase.PILE and view.tricks:
            last, last_half = view.tricks[-1], view.half
        self.query_one("#trick", Static).update(
            trick_panel(view, s.short_names, last, last_half, ascii)
        )
        self.query_one("#balance", Static).update(balance_line(view, s.seat, ascii))
        log = self.query_one("#log", Static)
        rows = log.size.height or 6  # as many lines as the terminal leaves room for
        lines = [e.text for e in s.log if e.round_index == view.round_index][-rows:]
        log.update(Text("\n".join(lines)))
        splitting = self.splitting(view)
        self.query_one("#split").display = splitting
        self.query_one("#log").display = not splitting
        hand = self.query_one(HandView)
        if splitting:
            cards = sorted_cards(view.hand, cfg.edition)
            self.picked &= set(cards)
            hand.show(cards, mode="split", half=1, edition=cfg.edition, picked=self.picked)
            keep = [c for c in cards if c not in self.picked]
            pack = [c for c in cards if c in self.picked]
            self.query_one("#keep", Static).update(
                Text(_("First half — {n}/7:").format(n=len(keep)) + " ", "bold").append_text(
                    cards_text(keep, ascii, half=1, edition=cfg.edition)
                )
            )
            pack_label = (
                _("Pack for your partner — {n}/6:")
                if cfg.partnership
                else _("Second-half pack — {n}/6:")
            )
            self.query_one("#pack", Static).update(
                Text(pack_label.format(n=len(pack)) + " ", "bold").append_text(
                    cards_text(pack, ascii, half=2, edition=cfg.edition)
                )
            )
            self.query_one("#hint", Static).update(self.hint_text)
        else:
            legal = view.legal_actions() if view.phase is Phase.PLAY else []
            playable = {A.card_of(a) for a in legal}
            hand.show(
                sorted_cards(view.hand, cfg.edition),
                mode="play",
                half=view.half,
                edition=cfg.edition,
                playable=playable if legal else set(),
            )
        self.query_one("#packline", Static).update(self._pack_line(view))
        self.query_one("#prompt", Static).update(
            self.notice if self.notice is not None else self._prompt(view)
        )
        keys = tuple(
            self.check_action(action, ())
            for action in ("confirm_split", "hint", "undo", "last_trick")
        )
        if keys != self.footer_keys:
            # the footer redraws itself on this call: only when its keys change, or it flickers
            self.footer_keys = keys
            self.refresh_bindings()

    def _pack_line(self, view: View) -> Text:
        if view.half == 2 or not view.pack or view.is_over:
            return Text("")
        cfg = view.config
        if cfg.partnership:
            partner = self.session.names[(self.session.seat + 2) % 4]
            if not view.received:
                return Text(
                    _("{partner}'s pack reaches you once everyone has split.").format(
                        partner=partner
                    ),
                    "dim",
                )
            label = _("{partner}'s pack, yours for tricks 8–13:").format(partner=partner) + " "
            pack = view.received
        else:
            label, pack = _("Your pack for tricks 8–13:") + " ", view.pack
        return Text(label, style="dim").append_text(
            cards_text(sorted_cards(pack, cfg.edition), self.ascii, half=2, edition=cfg.edition)
        )

    def _prompt(self, view: View) -> Text:
        s = self.session
        if view.is_over:
            return Text(
                _("Match over — {winners}. n: new match · q: quit").format(winners=s.winner_text()),
                "bold green",
            )
        if self.splitting(view):
            if not self.check_action("hint", ()):
                return Text(
                    _("Pick 6 cards for the second half ({n}/6): ←/→ Space; c confirm").format(
                        n=len(self.picked)
                    ),
                    "bold",
                )
            return Text(
                _("Pick 6 cards for the second half ({n}/6): ←/→ Space; c confirm · h hint").format(
                    n=len(self.picked)
                ),
                "bold",
            )
        if view.phase is Phase.SPLIT:
            return Text(_("Waiting for the others to split…"), "dim")
        if view.phase is Phase.PILE:
            if view.pending_pile == s.seat:
                return Text(_("You won with +.5: choose the pile."), "bold")
            return Text(
                _("{name} won with +.5 and chooses the pile…").format(
                    name=s.names[view.pending_pile]
                ),
                "dim",
            )
        if view.to_move == s.seat:
            if view.current_trick and view.led_suit < 0:
                return Text(_("Your turn: no suit is set yet, play any card. ←/→ Enter."), "bold")
            if view.current_trick:
                led = suit_symbol(view.led_suit, self.ascii)
                return Text(
                    _("Your turn: follow {led} if you can. ←/→ and Enter to play.").format(led=led),
                    "bold",
                )
            if view.config.options.wild_lead == "next" or view.config.edition != "meio":
                return Text(_("Your lead: play any card. ←/→ and Enter to play."), "bold")
            return Text(_("Your lead: play any card (a wild asks for a suit). ←/→ Enter."), "bold")
        return Text(_("{name} is thinking…").format(name=s.names[view.to_move]), "dim")

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
                action = await thinking(bot.choose, view, legal)
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
            cfg = s.state.config
            # the round's last trick stays on the table a moment, then heads the summary
            self.round_end = index
            self.refresh_table()
            if self.delay:
                await asyncio.sleep(self.delay)
            if cfg.partnership and result.team_scores is not None:
                totals = [
                    sum(r.team_scores[t] for r in s.state.rounds[: index + 1] if r.team_scores)
                    for t in (0, 1)
                ]
            else:
                totals = [
                    sum(r.scores[i] for r in s.state.rounds[: index + 1])
                    for i in range(len(s.names))
                ]
            last = result.tricks[-1]
            body = round_summary(
                s.names,
                result,
                totals,
                cfg.partnership,
                trick_line(last, s.names, self.ascii, s.seat),
            )
            final = s.is_over and self.shown_rounds == len(s.state.rounds)
            title = _("Round {n} is over.").format(n=index + 1)
            if result.victory is not None:
                if cfg.partnership:
                    title += " " + _("Team {team} takes the round.").format(
                        team="AB"[result.victory]
                    )
                else:
                    title += " " + _("{name} takes the round.").format(name=s.names[result.victory])
            if final:
                title += "  " + _("Match over: {winners}!").format(winners=s.winner_text())
            choice = await self.app.push_screen_wait(SummaryScreen(title, body, final))
            self.round_end = None
            self.refresh_table()
            if choice == "quit":
                self.action_quit_table()
                return True
            if choice == "new":
                self.action_new_match()
                return True
        return False

    async def _ask_pile(self) -> None:
        view = self.session.view()
        cfg = view.config
        seat = self.session.seat
        if cfg.partnership:
            mates = (seat % 2, seat % 2 + 2)
            h = sum(view.piles[m][0] for m in mates)
            v = sum(view.piles[m][1] for m in mates)
            detail = _("Your team's piles now: H {h}, V {v}. Keys 1 or 2.").format(h=h, v=v)
        else:
            h, v = view.piles[seat]
            detail = _("Your piles now: H {h}, V {v}. Keys 1 or 2.").format(h=h, v=v)
        refusal: str | None = None
        while True:
            note = self.pile_note()
            if refusal is not None:
                note = (note + "\n" if note else Text()).append(refusal, "bold red")
            pile = await self.app.push_screen_wait(PileScreen(detail, note))
            action = A.PILE_1 if pile == 1 else A.PILE_2
            refusal = self.allowed(action)
            if refusal is None:
                break
            self.refresh_table(Text(refusal, "bold red"))
        self.session.play(action)
        self.moved(action)
        self.refresh_table()

    # -- the human's moves ---------------------------------------------------------------
    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.refresh_table)

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
                self.refresh_table(Text(_("You already picked 6 cards: unpick one first."), "red"))
            else:
                self.picked.add(card)
                self.refresh_table()
            return
        if view.is_over:
            self.refresh_table()
            return
        if view.phase is not Phase.PLAY or view.to_move != s.seat:
            if view.phase is Phase.SPLIT:
                wait = _("Wait: the others are still choosing their packs.")
            elif view.phase is Phase.PILE:
                wait = _("Wait: {name} is choosing the pile.").format(
                    name=s.names[view.pending_pile]
                )
            else:
                wait = _("Wait: it is {name}'s turn.").format(name=s.names[view.to_move])
            self.refresh_table(Text(wait, "red"))
            return
        if C.is_wild(card) and not view.current_trick and view.config.options.declares:
            refusals = [self.allowed(A.declare(card, suit)) for suit in range(4)]
            if None not in refusals:
                # no suit would do (the lesson wants another card): say so before asking one
                self.refresh_table(Text(str(refusals[0]), "bold red"))
                return

            def declared(suit: int | None) -> None:
                if suit is None:
                    self.refresh_table(Text(_("Choose a card to lead."), "bold"))
                else:
                    self._play(A.declare(card, suit))

            self.app.push_screen(DeclareScreen(card_label(card, self.ascii), self.ascii), declared)
            return
        self._play(card)

    def pile_note(self) -> Text | None:
        """What the pile dialog should say besides the piles (the lesson's advice)."""
        return None

    def allowed(self, action: int) -> str | None:
        """Why the player may not make this legal move here (None: they may).

        Every move is allowed at a game's table; the lesson narrows them.
        """
        return None

    def moved(self, action: int) -> None:
        """Called after each of the player's moves is applied."""

    def _play(self, action: int) -> None:
        s = self.session
        if s.state.is_legal(action, s.seat):
            refusal = self.allowed(action)
            if refusal is not None:
                self.refresh_table(Text(refusal, "bold red"))
                return
        try:
            s.play(action)
        except IllegalActionError as exc:
            text = describe_illegal(exc, self.ascii)
            self.refresh_table(Text(text, "bold red"))
            return
        self.notice = None
        self.moved(action)
        self.refresh_table()
        self.kick()

    def action_confirm_split(self) -> None:
        self.notice = None
        if not self.splitting(self.session.view()):
            self.refresh_table(Text(_("There is no split to confirm now."), "red"))
            return
        if len(self.picked) != 6:
            self.refresh_table(
                Text(
                    _("A pack is exactly 6 cards: you picked {n}.").format(n=len(self.picked)),
                    "bold red",
                )
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
        if self.my_turn(view):
            self.refresh_table(Text(_("The advisor is thinking…"), "dim"))
            self._advise_play(view)
            return
        if not self.splitting(view):
            self.refresh_table(
                Text(_("The hint is for your split and for your turn in a trick."), "red")
            )
            return
        chosen = C.mask_of(self.picked) if len(self.picked) == 6 else None
        self.hint_text = Text(_("The advisor is thinking…"), "dim")
        self.refresh_table()
        self._advise(view, chosen)

    @work(exclusive=True, group="hint")
    async def _advise(self, view: View, chosen: int | None) -> None:
        advice = await thinking(
            lambda: advise_view(view, chosen_pack=chosen, budget_s=HINT_BUDGET_S, seed=0)
        )
        self.hint_text = self._hint_body(advice, chosen)
        self.refresh_table()

    @work(exclusive=True, group="hint")
    async def _advise_play(self, view: View) -> None:
        moves = len(self.session.state.history)
        advice = await thinking(lambda: advise_play(view, seed=0))
        if len(self.session.state.history) != moves:
            return  # the player moved while the advisor thought: the hint is stale
        self.refresh_table(self._play_hint(advice))
        self.hint_play = advice.best.action

    def _play_hint(self, advice: PlayAdvice) -> Text:
        """The card hint in two lines: the best play with its interval, then the others."""
        best = advice.best
        out = Text(_("Hint:") + " ", "bold")
        out.append(
            _("play {card} · expected |H−V| {score} · b selects it").format(
                card=self._play_label(best.action),
                score=score_text(best.mean, best.low, best.high),
            )
        )
        others = [f"{self._play_label(o.action)} {decimal(o.mean)}" for o in advice.options[1:6]]
        if others:
            out.append("\n" + _("Others:") + " " + " · ".join(others), "dim")
        return out

    def _play_label(self, action: int) -> str:
        card = card_label(A.card_of(action), self.ascii)
        if A.is_declare(action):
            return f"{card}={suit_symbol(A.declared_suit(action), self.ascii)}"
        return card

    def _hint_body(self, advice: Advice, chosen: int | None) -> Text:
        """The advisor's answer in three lines (they fit 80 columns in both languages)."""
        view = self.session.view()
        ed = view.config.edition
        best, mine = advice.best, advice.chosen
        out = Text(_("Best pack:") + " ", "bold")
        out.append_text(cards_text(sorted_cards(best.pack, ed), self.ascii, half=2, edition=ed))
        out.append("  " + _("(b: use it)") + "\n", "dim")
        out.append(
            _("Expected |H−V| {score} · about {h} tricks in H, {v} in V").format(
                score=score_text(best.mean, best.low, best.high),
                h=decimal(best.first_half_tricks, 1),
                v=decimal(best.second_half_tricks, 1),
            )
            + "\n"
        )
        if mine is not None and chosen is not None:
            if mine.pack == best.pack:
                out.append(_("Your 6 cards are that pack: the best found."), "italic")
            else:
                out.append(
                    _("Your 6 cards: {score} (lower is better)").format(
                        score=score_text(mine.mean, mine.low, mine.high)
                    ),
                    "italic",
                )
        else:
            out.append(_("Pick 6 cards and press h again to score your own pack."), "italic")
        self.best_pack = int(best.pack)
        return out

    def action_best(self) -> None:
        view = self.session.view()
        if self.my_turn(view):
            if self.hint_play is None:
                self.refresh_table(
                    Text(_("Press h first: b selects the card the hint suggests."), "red")
                )
                return
            self.query_one(HandView).select(A.card_of(self.hint_play))
            return
        self.notice = None
        if not self.splitting(view):
            return
        if not self.best_pack:
            self.refresh_table(Text(_("Press h first: b takes the pack the hint suggests."), "red"))
            return
        self.picked = set(C.cards_of(self.best_pack))
        self.refresh_table()

    def action_undo(self) -> None:
        self.notice = None
        s = self.session
        if self.driving and not s.human_to_act():
            self.refresh_table(Text(_("Wait for your turn to take a card back."), "red"))
            return
        try:
            card = s.undo_last_card()
        except SessionError as exc:
            self.refresh_table(Text(str(exc), "red"))
            return
        self.refresh_table(
            Text(_("You took back {card}: play again.").format(card=s.label(card)), "bold")
        )

    def action_last_trick(self) -> None:
        self.notice = None
        s = self.session
        view = s.view()
        if view.tricks:
            trick, half = view.tricks[-1], (1 if len(view.tricks) <= 7 else 2)
        elif s.last_trick is not None:
            trick, half = s.last_trick, s.last_trick_half
        else:
            self.refresh_table(Text(_("No trick has been completed yet."), "red"))
            return
        if not trick.pile:
            self.refresh_table(Text(_("No trick has been completed yet."), "red"))
            return
        body = trick_body(
            trick,
            s.short_names,
            half=half,
            edition=view.config.edition,
            ascii=self.ascii,
            seat=s.seat,
        )
        self.app.push_screen(LastTrickScreen(body))

    def action_speed(self, step: int) -> None:
        self.notice = None
        index = SPEED_ORDER.index(self.speed) + step
        self.speed = SPEED_ORDER[max(0, min(len(SPEED_ORDER) - 1, index))]
        self.session.set_speed(self.speed)
        speed = {"slow": _("slow"), "normal": _("normal"), "fast": _("fast")}.get(
            self.speed, _("instant")
        )
        self.refresh_table(Text(_("Bot speed: {speed}.").format(speed=speed), "bold"))

    def action_save(self) -> None:
        self.notice = None
        default = str(self.save_path or "meio-game.json")

        def chosen(path: str | None) -> None:
            if path is None:
                self.refresh_table()
                return
            saved = self.save_to(Path(path))
            if saved is not None:
                self.refresh_table(Text(saved, "bold green"))

        self.app.push_screen(SaveScreen(default, own=self.save_path), chosen)

    def save_to(self, path: Path) -> str | None:
        """Save the match at ``path``; the line that says so, or None (the error is shown)."""
        try:
            self.session.save(path)
        except MeioError as exc:
            self.refresh_table(Text(_("Could not save: {error}").format(error=exc), "bold red"))
            return None
        self.save_path = path
        self.saved_moves = len(self.session.state.history)
        return _("Saved {file}. Resume: meio play --resume {path}").format(
            file=path.name, path=path
        )

    def keep_match(self, key: str) -> tuple[bool, str | None]:
        """Save the match before leaving it (with ``key``), unless it is saved as it stands.

        It goes to its own file (given with ``--save``, resumed from, or saved with
        ``s``), else to the first free ``meio-autosave*.json``: an earlier save is
        never overwritten. Returns whether the player may leave, and the line that
        says where the match went (None when nothing had to be written). When
        saving fails the error is on the table and the player stays; the same key
        pressed again, with the match as it stands, leaves without saving.
        """
        moves = len(self.session.state.history)
        if self.saved_moves == moves:
            return True, None
        if self.unsaved_leave == (key, moves):
            return True, None
        path = self.save_path or free_path(Path(AUTOSAVE_NAME))
        try:
            self.session.save(path)
        except MeioError as exc:
            self.unsaved_leave = (key, moves)
            self.refresh_table(
                Text(
                    _("Could not save: {error}").format(error=exc)
                    + " "
                    + _("Press {key} again to leave without saving.").format(key=key),
                    "bold red",
                )
            )
            return False, None
        self.save_path = path
        self.saved_moves = len(self.session.state.history)
        said = _("Match saved to {path}. Resume it with: meio play --resume {path}")
        if self.session.is_over:
            said = _("Match saved to {path}. Replay it with: meio view {path}")
        return True, said.format(path=path)

    def action_quit_table(self) -> None:
        """Save the match (finished or not) and quit, so that nothing is lost."""
        leave, said = self.keep_match("q")
        if leave:
            self.app.exit(said)

    def action_new_match(self) -> None:
        if not self.session.is_over:
            self.refresh_table(
                Text(_("n starts a new match once this one is over (q saves and quits)."), "red")
            )
            return
        leave, said = self.keep_match("n")
        if not leave:
            return
        app = self.app
        if isinstance(app, PlayApp):
            # the next match gets a file of its own: it never overwrites this one's
            app.save_path = None
            app.open_start(self.session.settings, note=said)


def free_path(path: Path) -> Path:
    """``path``, or ``NAME-2.json``, ``NAME-3.json``… if it exists: a file to write anew.

    >>> free_path(Path("/nonexistent/meio-autosave.json")).name
    'meio-autosave.json'
    """
    if not path.exists():
        return path
    number = 2
    while True:
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
        if not candidate.exists():
            return candidate
        number += 1


def trick_line(trick: Trick, names: Sequence[str], ascii: bool, seat: int = -1) -> Text:
    """A completed trick: the cards in play order, then who took it and its pile (``seat``
    is the player's, who "take" it rather than "takes").

    The two parts are kept apart by a line break when both do not fit one line of
    the summary, so that "takes it → H" never breaks in the middle.
    """
    plays = " ".join(f"{names[s]} {card_label(card, ascii)}" for s, card in trick.plays)
    taken = taken_line(names[trick.winner], trick.pile, you=trick.winner == seat)
    out = Text(plays)
    # the summary prints it after "Last trick: "
    room = SUMMARY_WIDTH - len(_("Last trick:")) - 1
    out.append("\n" if len(plays) + len(taken) + 3 > room else " — ")
    out.append(taken, "bold")
    return out


class PlayApp(App[str | None]):
    """The ``meio play`` application.

    It returns (from :meth:`run`) a line to print once the screen is gone: where
    an unfinished match was saved, or None.
    """

    CSS = CSS
    TITLE = "MEIO"
    # the palette's footer entry would crowd out the game's keys at 80 columns
    ENABLE_COMMAND_PALETTE = False
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
        if ascii:
            # the last word on every character that reaches the terminal
            self._filters.append(AsciiFilter())
            self.add_class("-ascii")

    def on_mount(self) -> None:
        self.open_first()

    def run(self, *args: Any, **kwargs: Any) -> str | None:
        """Run the app; once it is closed, spare the interpreter's teardown the garbage
        collector's passes over every object of the session (q used to take ~1-2 s)."""
        try:
            return super().run(*args, **kwargs)
        finally:
            gc.freeze()

    def open_first(self) -> None:
        """The first screen: the resumed table, the start screen, or a table at once."""
        if self.resumed is not None:
            self.start(self.resumed)
        elif self.setup:
            self.open_start(self.settings)
        else:
            self.start(Session.new(self.settings))

    def open_start(self, settings: PlaySettings, note: str | None = None) -> None:
        """Show the start screen (with ``note`` on it); Start deals a new match."""

        def begin(chosen: PlaySettings | None) -> None:
            if chosen is not None:
                self.start(Session.new(chosen))

        self.push_screen(StartScreen(settings, ascii=self.ascii, note=note), begin)

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

    async def action_quit(self) -> None:
        """Quit (also Ctrl+Q): at a table, through the table, which saves an unfinished match."""
        if self.table is not None:
            self.table.action_quit_table()
            return
        await super().action_quit()

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        rules = ""
        if self.table is not None:
            rules = table_rules_text(self.table.session.view(), self.ascii)
        self.push_screen(HelpScreen(help_text(self.ascii, rules)))


def _warm_core() -> None:
    from meio.warm import warm_up

    warm_up()
