"""The screens around the table: the sized screen both full screens build on, and the
small pop-ups (declare a suit, choose a pile, the round summary, the last trick,
saving, help). The start screen is in :mod:`meio.tui.start`."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar, Generic, TypeVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Static

from meio.engine import MatchConfig, RoundResult, Trick
from meio.engine.ruleset import CardRules
from meio.i18n import N_, _
from meio.tui.bindings import translate_bindings
from meio.tui.cards import BOX_RULES, card_label, suit_name, suit_symbol
from meio.tui.ruleset import chooser_codes, score_text
from meio.tui.widgets import taken_line, trick_faces

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


def help_text(ascii: bool = False, rules: str = "", config: MatchConfig | None = None) -> str:
    """The play keys, the goal and (given) the table's options, as console markup;
    ``config``, the table's, gives the pack size, the pile choosers and the scoring."""
    config = config or MatchConfig()
    choosers = chooser_codes(config)
    suits = " ".join(suit_symbol(s, ascii) for s in range(4))
    space = _("Space") + "/Enter"
    lines = [
        "[b]" + _("Keys") + "[/b]   " + _("(↑/↓ scroll this help, Escape closes it)"),
        "  ←/→ Home/End   " + _("move along your hand (or click a card)"),
        "  " + space.ljust(15) + _("split: pick or unpick a card · play: play the card"),
        "  c              "
        + _("confirm the split ({n} cards picked)").format(n=config.pack_size),
        *(
            ["  h / b          " + _("the advisor's hint (split or card) / take it")]
            if config.variant is None
            else []
        ),
        "  u              " + _("take back your last card (against bots)"),
        "  l              " + _("show the last trick"),
        "  + / -          " + _("bots play faster / slower"),
        "  s              " + _("save the match (resume with meio play --resume FILE)"),
        "  n              " + _("new match (once the match is over)"),
        "  q              " + _("save the match and quit"),
    ]
    variant = config.variant
    if variant is None or any(sp.suit < 0 for sp in variant.specials):
        lines.append(
            "  S H D C / 1-4  " + _("declare {suits} when you lead a wild").format(suits=suits)
        )
    if choosers:
        lines.append(
            "  1 / 2          "
            + _("put a {cards} trick in the H or V pile").format(cards=choosers)
        )
    lines += [
        "[b]"
        + _("Goal")
        + "[/b]: "
        + _("win as many tricks in the first half (H) as in the second (V)."),
        score_text(config),
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

    def __init__(self, detail: str, note: Text | None = None, card: str = "+.5") -> None:
        super().__init__()
        self.detail = detail
        self.note = note
        #: the card that won the trick (``+.5`` in the box)
        self.card = card
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(
                _("You won the trick with [b]{card}[/b]: choose its pile.").format(
                    card=self.card
                )
                + "\n"
                + self.detail,
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
    trick: Trick,
    names: Sequence[str],
    *,
    half: int,
    edition: str,
    ascii: bool,
    seat: int = -1,
    rules: CardRules = BOX_RULES,
) -> Text:
    """A completed trick drawn face up, with who took it and where it went (``rules``:
    a variant's cards)."""
    you = trick.winner == seat
    out = Text(taken_line(names[trick.winner], trick.pile, you=you) + "\n", "bold green")
    out.append_text(
        trick_faces(
            trick.plays, names, half=half, edition=edition, ascii=ascii, winner=trick.winner,
            rules=rules,
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


def trick_line(
    trick: Trick,
    names: Sequence[str],
    ascii: bool,
    seat: int = -1,
    rules: CardRules = BOX_RULES,
) -> Text:
    """A completed trick in one line of the round summary: the cards in play order, then
    who took it and its pile (``seat`` is the player's, who "take" it rather than "takes").

    The two parts are kept apart by a line break when both do not fit one line of
    the summary, so that "takes it → H" never breaks in the middle.
    """
    plays = " ".join(f"{names[s]} {card_label(card, ascii, rules)}" for s, card in trick.plays)
    taken = taken_line(names[trick.winner], trick.pile, you=trick.winner == seat)
    out = Text(plays)
    # the summary prints it after "Last trick: "
    room = SUMMARY_WIDTH - len(_("Last trick:")) - 1
    out.append("\n" if len(plays) + len(taken) + 3 > room else " — ")
    out.append(taken, "bold")
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
