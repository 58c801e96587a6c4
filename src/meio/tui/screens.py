"""The start screen and the small pop-ups: declare a suit, choose a pile, summaries,
the last trick, saving, help."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import ClassVar, Generic, TypeVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Input, Static

from meio.bots import bot_kinds
from meio.engine import MeioError, RoundResult, Trick
from meio.engine import cards as C
from meio.i18n import N_, _
from meio.tui.bindings import translate_bindings
from meio.tui.cards import suit_name, suit_symbol
from meio.tui.session import SPEED_ORDER, PlaySettings, SessionError, default_bot_kind
from meio.tui.widgets import Choice, taken_line, trick_faces

#: the text width of a wide dialog (the round summary): 78 columns less border and padding
SUMMARY_WIDTH = 74
#: the smallest terminal the table fits in (13 cards of 6 columns; the table's rows)
MIN_WIDTH = 78
MIN_HEIGHT = 22


ResultT = TypeVar("ResultT")


class SizedScreen(Screen[ResultT], Generic[ResultT]):
    """A screen that says "terminal too small" instead of drawing a broken layout."""

    def too_small_notice(self) -> Static:
        """The message shown in place of the screen's body while the terminal is too small."""
        return Static(
            Text(
                _("Terminal too small: MEIO needs at least {w}×{h} characters.").format(
                    w=MIN_WIDTH, h=MIN_HEIGHT
                )
                + "\n"
                + _("Make the window larger (or the font smaller)."),
                style="bold",
            ),
            id="too-small",
        )

    def fit(self) -> None:
        """Show the body or the notice, whichever the terminal's size allows."""
        width, height = self.app.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        for node in self.query("#too-small"):
            node.display = small
        for node in self.query(".body"):
            node.display = not small
        if not small and self.focused is None:
            # hiding the body took the focus away; give it back where play goes on
            self.focus_default()

    def focus_default(self) -> None:
        """Focus the widget the player starts from (the first one that takes focus)."""
        self.focus_next()

    def on_resize(self, event: events.Resize) -> None:
        self.fit()


def help_text(ascii: bool = False, rules: str = "") -> str:
    """The play keys, the goal and (given) the table's options, as console markup."""
    suits = " ".join(suit_symbol(s, ascii) for s in range(4))
    space = _("Space") + "/Enter"
    lines = [
        "[b]" + _("Keys") + "[/b]   " + _("(↑/↓ scroll this help, Escape closes it)"),
        "  ←/→ Home/End   " + _("move along your hand (or click a card)"),
        "  " + space.ljust(15) + _("split: pick or unpick a card · play: play the card"),
        "  c              " + _("confirm the split (6 cards picked)"),
        "  h / b          " + _("the advisor's hint (split or card) / take it"),
        "  u              " + _("take back your last card (against bots)"),
        "  l              " + _("show the last trick"),
        "  + / -          " + _("bots play faster / slower"),
        "  s              " + _("save the match (resume with meio play --resume FILE)"),
        "  n              " + _("new match (once the match is over)"),
        "  q              " + _("save the match and quit"),
        "  S H D C / 1-4  " + _("declare {suits} when you lead a wild").format(suits=suits),
        "  1 / 2          " + _("put a +.5 trick in the H or V pile"),
        "[b]"
        + _("Goal")
        + "[/b]: "
        + _("win as many tricks in the first half (H) as in the second (V)."),
        _("Your score each round is |H - V|; the lowest total wins."),
    ]
    if rules:
        lines += ["[b]" + _("This table") + "[/b]", rules]
    lines.append(_("The full rules, every case explained: docs/rules.md."))
    return "\n".join(lines)


def viewer_help_text() -> str:
    """The replay viewer's keys, as console markup."""
    return "\n".join(
        [
            "[b]" + _("Replay viewer") + "[/b] (meio view FILE)",
            "  → / ←          " + _("next / previous card"),
            "  n / p          " + _("next / previous trick"),
            "  ] / \\[          " + _("next / previous round"),
            "  Home / End     " + _("start / end"),
            "  ? / q          " + _("this help / quit"),
        ]
    )


class HelpScreen(ModalScreen[None]):
    """The keys, the goal and the table's options, on one screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,enter", "dismiss_help", N_("Close"))
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog wide", id="help"):
            yield Static(self.text, id="help-text")

    def action_dismiss_help(self) -> None:
        self.dismiss(None)


class DeclareScreen(ModalScreen[int | None]):
    """Leading a wild: which suit does it declare?"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s,S,1", "pick(0)", "S", show=False),
        Binding("h,H,2", "pick(1)", "H", show=False),
        Binding("d,D,3", "pick(2)", "D", show=False),
        Binding("c,C,4", "pick(3)", "C", show=False),
        Binding("escape", "pick(-1)", N_("Cancel")),
    ]

    def __init__(self, card_label: str, ascii: bool) -> None:
        super().__init__()
        self.card_label = card_label
        self.ascii = ascii
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(
                _("You lead the wild [b]{card}[/b]: declare the led suit.").format(
                    card=self.card_label
                )
                + "\n"
                + _("Press S, H, D or C (Escape to choose another card)."),
                id="declare-text",
            )
            for suit in range(4):
                yield Button(
                    f"{suit_symbol(suit, self.ascii)} {suit_name(suit)}", id=f"suit-{suit}"
                )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id and event.button.id.startswith("suit-"):
            self.dismiss(int(event.button.id[5:]))

    def action_pick(self, suit: int) -> None:
        self.dismiss(None if suit < 0 else suit)


class PileScreen(ModalScreen[int]):
    """A trick won by ``+.5``: its winner chooses the pile.

    The dialog covers the middle of the table, so what the player must read
    while choosing (the lesson's advice, why a choice was refused) is in it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1,h,H", "pick(1)", N_("H pile")),
        Binding("2,v,V", "pick(2)", N_("V pile")),
    ]

    def __init__(self, detail: str, note: Text | None = None) -> None:
        super().__init__()
        self.detail = detail
        self.note = note
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(
                _("You won the trick with [b]+.5[/b]: choose its pile.") + "\n" + self.detail,
                id="pile-text",
            )
            if self.note is not None:
                yield Static(self.note, id="pile-note")
            yield Button("1  " + _("first-half pile (H)"), id="pile-1")
            yield Button("2  " + _("second-half pile (V)"), id="pile-2")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(1 if event.button.id == "pile-1" else 2)

    def action_pick(self, pile: int) -> None:
        self.dismiss(pile)


class LastTrickScreen(ModalScreen[None]):
    """The trick completed last (any key closes it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,space,l,q", "close", N_("Close")),
    ]

    def __init__(self, body: Text) -> None:
        super().__init__()
        self.body = body
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(_("The last trick"), style="bold"))
            yield Static(self.body, id="last-trick")
            yield Static(Text(_("Enter or Escape: back to the table"), style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)


def trick_body(
    trick: Trick, names: Sequence[str], *, half: int, edition: str, ascii: bool, seat: int = -1
) -> Text:
    """A completed trick drawn face up, with who took it and where it went."""
    you = trick.winner == seat
    out = Text(taken_line(names[trick.winner], trick.pile, you=you) + "\n", "bold green")
    out.append_text(
        trick_faces(
            trick.plays, names, half=half, edition=edition, ascii=ascii, winner=trick.winner
        )
    )
    return out


class SummaryScreen(ModalScreen[str]):
    """The end of a round (and of the match): piles, scores, totals, who won."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "close('continue')", N_("Continue")),
        Binding("n", "close('new')", N_("New match"), show=False),
        Binding("q", "close('quit')", N_("Quit"), show=False),
    ]

    #: seconds during which keys are ignored, so that a key meant for the table
    #: (Enter plays a card) does not skip the summary the moment it opens
    GUARD_S = 0.5

    def __init__(self, title: str, body: Text, final: bool, hint: str | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.final = final
        #: the keys line (default: the next round, or the match's end)
        self.hint = hint
        self.opened = time.monotonic()
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static(Text(self.title_text, style="bold"), id="summary-title")
            yield Static(self.body, id="summary-body")
            hint = self.hint or (
                _("n new match · q quit · Enter back to the table")
                if self.final
                else _("Enter: next round")
            )
            yield Static(Text(hint, style="dim"), id="summary-hint")

    def action_close(self, what: str) -> None:
        if time.monotonic() - self.opened < self.GUARD_S:
            return
        if what != "continue" and not self.final:
            return
        self.dismiss(what)


def round_summary(
    names: Sequence[str],
    result: RoundResult,
    totals: Sequence[int],
    partnership: bool,
    last_trick: Text | None = None,
) -> Text:
    """A round's piles and scores as a small table (by team in partnership), and its last trick.

    In partnership only the team scores count, so the seats' rows show their
    piles and the teams' rows the scores.
    """
    out = Text()
    seat, team, score, total = _("Seat"), _("Team"), _("Score"), _("Total")
    if last_trick is not None:
        out.append(_("Last trick:") + " ", style="bold")
        out.append_text(last_trick)
        out.append("\n")
    if partnership and result.team_scores is not None:
        out.append(f"{seat:<12}{team:>5}{'H':>4}{'V':>4}\n", style="bold underline")
        for s, name in enumerate(names):
            h, v = result.piles[s]
            out.append(f"{name:<12}{'AB'[s % 2]:>5}{h:>4}{v:>4}\n")
        out.append(
            f"{team:<24}{'H':>3}{'V':>3}{score:>8}{total:>8}\n",
            style="bold underline",
        )
        for t in (0, 1):
            h = sum(result.piles[s][0] for s in (t, t + 2))
            v = sum(result.piles[s][1] for s in (t, t + 2))
            label = f"{'AB'[t]} ({names[t]} + {names[t + 2]})"
            out.append(f"{label[:24]:<24}{h:>3}{v:>3}{result.team_scores[t]:>8}{totals[t]:>8}\n")
        return out
    out.append(f"{seat:<12}{'H':>3}{'V':>3}{score:>8}{total:>8}\n", style="bold underline")
    for s, name in enumerate(names):
        h, v = result.piles[s]
        out.append(f"{name:<12}{h:>3}{v:>3}{result.scores[s]:>8}{totals[s]:>8}\n")
    return out


class SaveScreen(ModalScreen[str | None]):
    """Ask where to save the match; a file that exists is overwritten only on a second Enter.

    ``own`` is the match's own file (saved to before, or resumed from): writing it
    again needs no warning.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, default: str, own: Path | None = None) -> None:
        super().__init__()
        self.default = default
        self.own = own
        #: the existing file the player was warned about
        self.warned: Path | None = None
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(_("Save the match as (Enter to save, Escape to cancel):"))
            yield Input(value=self.default, id="save-path")
            yield Static(
                Text(
                    _(
                        "The file holds every hand of the match, the bots' too: opening it "
                        "shows their cards."
                    ),
                    "dim",
                ),
                id="save-note",
            )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        if not value:
            self.dismiss(None)
            return
        path = Path(value)
        if path.is_dir():
            self.warn(_("{path} is a folder: give a file name.").format(path=value))
            return
        if path.exists() and path != self.own and path != self.warned:
            self.warned = path
            self.warn(
                _("{file} exists: Enter again replaces it, or type another name.").format(
                    file=path.name
                )
            )
            return
        self.dismiss(value)

    def warn(self, text: str) -> None:
        self.query_one("#save-note", Static).update(Text(text, "bold red"))

    def action_cancel(self) -> None:
        self.dismiss(None)


#: the bots' speeds as the start screen names them
SPEED_NAMES = {
    "slow": N_("slow"),
    "normal": N_("normal"),
    "fast": N_("fast"),
    "instant": N_("instant"),
}


class StartScreen(SizedScreen[PlaySettings]):
    """Choose the table; Enter deals (from any field: *Start* is focused at first)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "app.focus_previous", show=False),
        Binding("down", "app.focus_next", show=False),
        Binding("enter", "start", N_("Start")),
        Binding("question_mark", "app.help", N_("Help")),
        Binding("q", "app.quit", N_("Quit")),
    ]

    def __init__(
        self, settings: PlaySettings, *, ascii: bool = False, note: str | None = None
    ) -> None:
        super().__init__()
        self.settings = settings
        self.ascii = ascii
        #: a line about the match just left (where it was saved)
        self.note = note
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        s = self.settings
        kinds = bot_kinds()
        default = default_bot_kind()
        a = self.ascii
        yes_no = [_("no"), _("yes")]
        yield Static(
            Text(_("MEIO — the game of balanced halves"), style="bold"),
            id="start-title",
            classes="body",
        )
        with Vertical(id="start-form", classes="body"):
            yield Choice(
                _("Edition"),
                ["meio", "classic"],
                s.edition,
                id="edition",
                ascii=a,
                shown=["MEIO", _("classic")],
            )
            yield Choice(_("Players"), ["2", "3", "4", "5"], str(s.players), id="players", ascii=a)
            yield Choice(
                _("Partnership"),
                ["no", "yes"],
                "yes" if s.partnership else "no",
                id="partnership",
                ascii=a,
                shown=yes_no,
            )
            yield Choice(
                _("Your seat"), [str(i) for i in range(5)], str(s.seat), id="seat", ascii=a
            )
            for i in range(1, 5):
                level = s.bots[i] if len(s.bots) > i and s.bots[i] in kinds else default
                yield Choice(
                    _("Opponent {n}").format(n=i),
                    kinds,
                    level,
                    id=f"bot-{i}",
                    ascii=a,
                    shown=[_(k) if ":" not in k else k for k in kinds],
                )
            yield Choice(
                _("Wild lead"),
                ["declare", "next"],
                s.wild_lead,
                id="wild-lead",
                ascii=a,
                shown=[_("declare a suit"), _("next card sets it")],
            )
            yield Choice(
                _("Specials shown"),
                ["yes", "no"],
                "yes" if s.reveal_specials else "no",
                id="reveal",
                ascii=a,
                shown=[_("yes"), _("no: hidden")],
            )
            yield Choice(
                _("Bot speed"),
                list(SPEED_ORDER),
                s.speed,
                id="speed",
                ascii=a,
                shown=[_(SPEED_NAMES[k]) for k in SPEED_ORDER],
            )
            specials = " ".join(C.card_code(c) for c in s.specials or ())
            yield Static(
                " " + _("Special cards (codes, or empty for random):"), id="specials-label"
            )
            yield Input(
                value=specials,
                placeholder=_("random, e.g. -1 A+ +.5 Q+"),
                id="specials",
            )
            yield Static(Text(self.note or "", "green"), id="start-error")
            yield Button(_("Start"), id="start", variant="primary")
        yield self.too_small_notice()
        yield Footer()

    def on_mount(self) -> None:
        self._sync()
        self.fit()
        self.focus_default()

    def focus_default(self) -> None:
        self.query_one("#start", Button).focus()

    def on_choice_changed(self, event: Choice.Changed) -> None:
        self._sync()

    def _sync(self) -> None:
        players = int(self.query_one("#players", Choice).value)
        seat = self.query_one("#seat", Choice)
        seat.set_options([str(i) for i in range(players)])
        edition = self.query_one("#edition", Choice).value
        self.query_one("#specials", Input).display = edition == "meio"
        self.query_one("#specials-label", Static).display = edition == "meio"
        self.query_one("#wild-lead", Choice).display = edition == "meio"
        self.query_one("#reveal", Choice).display = edition == "meio" and players < 5
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
        if (
            edition == "meio"
            and specials_text
            and specials_text.lower()
            not in (
                "random",
                _("random").lower(),
            )
        ):
            try:
                specials = tuple(C.cards_of(C.parse_cards(specials_text)))
            except MeioError as exc:
                raise SessionError(_("special cards: {error}").format(error=exc)) from None
            if any(card not in C.SPECIALS for card in specials):
                raise SessionError(_("special cards are -1 A+ -2H +.5 Q+; no other card is one"))
            if len(specials) != players:
                raise SessionError(
                    _("a {n}-player table uses {n} special cards, not {k}").format(
                        n=players, k=len(specials)
                    )
                )
        bots = list(levels)
        bots.insert(seat, "human")
        meio = edition == "meio"
        return replace(
            self.settings,
            edition=edition,
            players=players,
            partnership=players == 4 and self.query_one("#partnership", Choice).value == "yes",
            specials=specials,
            seat=seat,
            bots=tuple(bots),
            speed=self.query_one("#speed", Choice).value,
            wild_lead=self.query_one("#wild-lead", Choice).value if meio else "declare",
            reveal_specials=not meio or self.query_one("#reveal", Choice).value == "yes",
        ).checked()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()

    def action_start(self) -> None:
        """Deal with the settings on the form, or say what is wrong with them."""
        try:
            settings = self.gather()
        except SessionError as exc:
            self.query_one("#start-error", Static).update(Text(str(exc), style="bold red"))
            return
        self.dismiss(settings)
