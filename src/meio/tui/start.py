"""The start screen of ``meio play``: choose the table (edition, players, seat, bots,
options, speed, special cards), then deal. At a variant's table (``meio play --variant
FILE``) the edition, the options and the special cards are the variant's: the screen
names the variant and offers its table sizes and the bots that play it."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Button, Footer, Input, Static

from meio.bots import bot_kinds
from meio.bots.variant_play import VARIANT_BOTS
from meio.engine import MeioError
from meio.engine import cards as C
from meio.i18n import N_, _
from meio.tui.bindings import translate_bindings
from meio.tui.screens import SizedScreen
from meio.tui.session import SPEED_ORDER, PlaySettings, SessionError, default_bot_kind, speed_name
from meio.tui.widgets import Choice


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
        variant = s.variant
        kinds = bot_kinds()
        if variant is not None:
            kinds = [k for k in kinds if k in VARIANT_BOTS]
        default = default_bot_kind()
        a = self.ascii
        yes_no = [_("no"), _("yes")]
        sizes = ["2", "3", "4", "5"] if variant is None else [str(n) for n in variant.players]
        yield Static(
            Text(_("MEIO — the game of balanced halves"), style="bold"),
            id="start-title",
            classes="body",
        )
        with Vertical(id="start-form", classes="body"):
            if variant is not None:
                yield Static(
                    Text(" " + _("Variant {name}: its own rules (? shows them at the table)")
                         .format(name=variant.name), "bold"),
                    id="start-variant",
                )
            yield Choice(
                _("Edition"),
                ["meio", "classic"],
                s.edition,
                id="edition",
                ascii=a,
                shown=["MEIO", _("classic")],
            )
            yield Choice(_("Players"), sizes, str(s.players), id="players", ascii=a)
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
                shown=[speed_name(k) for k in SPEED_ORDER],
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
        variant = self.settings.variant
        # a variant's edition, options and specials are its own
        own = variant is None and edition == "meio"
        self.query_one("#edition", Choice).display = variant is None
        self.query_one("#specials", Input).display = own
        self.query_one("#specials-label", Static).display = own
        self.query_one("#wild-lead", Choice).display = own
        self.query_one("#reveal", Choice).display = own and players < 5
        partnership = self.query_one("#partnership", Choice)
        partnership.display = players == 4 and (variant is None or variant.partnership)
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
            and self.settings.variant is None
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
        variant = self.settings.variant
        if variant is not None:
            return replace(
                self.settings,
                players=players,
                partnership=players == 4
                and variant.partnership
                and self.query_one("#partnership", Choice).value == "yes",
                specials=self.settings.specials if players == self.settings.players else None,
                seat=seat,
                bots=tuple(bots),
                speed=self.query_one("#speed", Choice).value,
            ).checked()
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
