"""The start screen and the small pop-ups: declare a suit, choose a pile, summaries,
saving, help."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, Static

from meio.bots import bot_kinds
from meio.engine import MeioError, RoundResult
from meio.engine import cards as C
from meio.tui.cards import suit_symbol
from meio.tui.session import SPEED_ORDER, PlaySettings, SessionError, default_bot_kind
from meio.tui.widgets import Choice

HELP_TEXT = """\
[b]Keys[/b]
  ←/→  Home/End   move along your hand (or click a card)
  Space or Enter   split: pick/unpick a card for the pack · play: play the card
  c                confirm the split (6 cards picked)
  h                split hint from the advisor
  + / -            bots play faster / slower
  s                save the match (resume with meio play --resume FILE)
  ?                this help            q   quit
[b]Pop-ups[/b]
  S H D C (or 1-4) declare ♠ ♥ ♦ ♣ when leading a wild
  1 / 2            put a +.5 trick in the first-half (H) or second-half (V) pile
  Enter            continue after a summary · Escape   cancel
[b]Replay viewer[/b] (meio view FILE)
  → / ←  next / previous card    n / p  next / previous trick
  ] / \\[  next / previous round   Home / End  start / end    q  quit
[b]Goal[/b]: keep your first-half pile (H) and second-half pile (V) level.
Your score each round is |H - V|; the lowest total wins."""


class HelpScreen(ModalScreen[None]):
    """The keys, on one screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,enter", "dismiss_help", "Close")
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static(HELP_TEXT, id="help-text")

    def action_dismiss_help(self) -> None:
        self.dismiss(None)


class DeclareScreen(ModalScreen[int | None]):
    """Leading a wild: which suit does it declare?"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s,1", "pick(0)", "♠"),
        Binding("h,2", "pick(1)", "♥"),
        Binding("d,3", "pick(2)", "♦"),
        Binding("c,4", "pick(3)", "♣"),
        Binding("escape", "pick(-1)", "Cancel"),
    ]

    def __init__(self, card_label: str, ascii: bool) -> None:
        super().__init__()
        self.card_label = card_label
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(
                f"You lead the wild [b]{self.card_label}[/b]: declare the led suit.\n"
                "Press S, H, D or C (Escape to choose another card).",
                id="declare-text",
            )
            for suit in range(4):
                yield Button(
                    f"{suit_symbol(suit, self.ascii)} {C.SUIT_NAMES[suit]}", id=f"suit-{suit}"
                )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id and event.button.id.startswith("suit-"):
            self.dismiss(int(event.button.id[5:]))

    def action_pick(self, suit: int) -> None:
        self.dismiss(None if suit < 0 else suit)


class PileScreen(ModalScreen[int]):
    """A trick won by ``+.5``: its winner chooses the pile."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1,h", "pick(1)", "H pile"),
        Binding("2,v", "pick(2)", "V pile"),
    ]

    def __init__(self, detail: str) -> None:
        super().__init__()
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(
                "You won the trick with [b]+.5[/b]: choose its pile.\n" + self.detail,
                id="pile-text",
            )
            yield Button("1  first-half pile (H)", id="pile-1")
            yield Button("2  second-half pile (V)", id="pile-2")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(1 if event.button.id == "pile-1" else 2)

    def action_pick(self, pile: int) -> None:
        self.dismiss(pile)


class SummaryScreen(ModalScreen[str]):
    """The end of a round (and of the match): piles, scores, totals, who won."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "close('continue')", "Continue"),
        Binding("n", "close('new')", "New match", show=False),
        Binding("q", "close('quit')", "Quit", show=False),
    ]

    def __init__(self, title: str, body: Text, final: bool) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.final = final

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static(Text(self.title_text, style="bold"), id="summary-title")
            yield Static(self.body, id="summary-body")
            hint = (
                "n new match · q quit · Enter back to the table"
                if self.final
                else "Enter: next round"
            )
            yield Static(Text(hint, style="dim"), id="summary-hint")

    def action_close(self, what: str) -> None:
        if what != "continue" and not self.final:
            return
        self.dismiss(what)


def round_summary(
    names: Sequence[str], result: RoundResult, totals: Sequence[int], partnership: bool
) -> Text:
    """A round's piles and scores as a small table."""
    out = Text()
    out.append(f"{'Seat':<10}{'H':>3}{'V':>3}{'Score':>7}{'Total':>7}\n", style="bold underline")
    for s, name in enumerate(names):
        h, v = result.piles[s]
        out.append(f"{name:<10}{h:>3}{v:>3}{result.scores[s]:>7}{totals[s]:>7}\n")
    if partnership and result.team_scores is not None:
        a, b = result.team_scores
        out.append(f"Team A ({names[0]} + {names[2]}): {a}   ")
        out.append(f"Team B ({names[1]} + {names[3]}): {b}\n")
    return out


class SaveScreen(ModalScreen[str | None]):
    """Ask where to save the match."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, default: str) -> None:
        super().__init__()
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Save the match as (Enter to save, Escape to cancel):")
            yield Input(value=self.default, id="save-path")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        self.dismiss(value or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class StartScreen(Screen[PlaySettings]):
    """Choose the table; Enter on *Start* (focused at first) deals with the defaults."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "app.help", "Help"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, settings: PlaySettings) -> None:
        super().__init__()
        self.settings = settings

    def compose(self) -> ComposeResult:
        s = self.settings
        kinds = bot_kinds()
        default = default_bot_kind()
        yield Static(Text("MEIO — the game of balanced halves", style="bold"), id="start-title")
        with Vertical(id="start-form"):
            yield Choice("Edition", ["meio", "classic"], s.edition, id="edition")
            yield Choice("Players", ["2", "3", "4", "5"], str(s.players), id="players")
            yield Choice(
                "Partnership", ["no", "yes"], "yes" if s.partnership else "no", id="partnership"
            )
            yield Choice("Your seat", [str(i) for i in range(5)], str(s.seat), id="seat")
            for i in range(1, 5):
                level = s.bots[i] if len(s.bots) > i and s.bots[i] in kinds else default
                yield Choice(f"Opponent {i}", kinds, level, id=f"bot-{i}")
            yield Choice("Bot speed", list(SPEED_ORDER), s.speed, id="speed")
            specials = " ".join(C.card_code(c) for c in s.specials or ())
            yield Static(" Special cards (codes, or empty for random):")
            yield Input(value=specials, placeholder="random, e.g. -1 A+ +.5 Q+", id="specials")
            yield Static("", id="start-error")
            yield Button("Start", id="start", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self._sync()
        self.query_one("#start", Button).focus()

    def on_choice_changed(self, event: Choice.Changed) -> None:
        self._sync()

    def _sync(self) -> None:
        players = int(self.query_one("#players", Choice).value)
        seat = self.query_one("#seat", Choice)
        seat.set_options([str(i) for i in range(players)])
        edition = self.query_one("#edition", Choice).value
        self.query_one("#specials", Input).display = edition == "meio"
        partnership = self.query_one("#partnership", Choice)
        partnership.display = players == 4
        for i in range(1, 5):
            self.query_one(f"#bot-{i}", Choice).display = i < players

    def gather(self) -> PlaySettings:
        """The settings the form shows; raises :class:`SessionError` when they don't fit."""
        players = int(self.query_one("#players", Choice).value)
        seat = int(self.query_one("#seat", Choice).value)
        edition = self.query_one("#edition", Choice).value
        levels = [self.query_one(f"#bot-{i}", Choice).value for i in range(1, players)]
        specials_text = self.query_one("#specials", Input).value.strip()
        specials: tuple[int, ...] | None = None
        if edition == "meio" and specials_text and specials_text.lower() != "random":
            try:
                specials = tuple(C.cards_of(C.parse_cards(specials_text)))
            except MeioError as exc:
                raise SessionError(f"special cards: {exc}") from None
        bots = list(levels)
        bots.insert(seat, "human")
        return replace(
            self.settings,
            edition=edition,
            players=players,
            partnership=players == 4 and self.query_one("#partnership", Choice).value == "yes",
            specials=specials,
            seat=seat,
            bots=tuple(bots),
            speed=self.query_one("#speed", Choice).value,
        ).checked()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            try:
                settings = self.gather()
            except SessionError as exc:
                self.query_one("#start-error", Static).update(Text(str(exc), style="bold red"))
                return
            self.dismiss(settings)
