"""The table screen of ``meio play``: the human's seat at a match against bots.

The screen holds a few values (the human seat's view, the cards picked for the
pack, the advisor's hint, a notice, the log) and its panels
(:mod:`meio.tui.panels`) are bound to them once, in :meth:`TableScreen.compose`;
:meth:`TableScreen.refresh_table` sets them from the session and each panel
redraws itself. The bots play through :class:`~meio.tui.autoplay.AutoPlayer`.
The keys are the screen's actions.

Over 500 lines on purpose: every key of the table is one of its actions, and a key's
action must read and set the screen's values; split across files they would share
the screen's state through a second object.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import var
from textual.widgets import Footer

from meio.bots.advisor import advise_play, advise_view
from meio.engine import IllegalActionError, MeioError, Phase, View
from meio.engine import actions as A
from meio.engine import cards as C
from meio.i18n import N_, _
from meio.tui.autoplay import AutoPlayer, thinking
from meio.tui.bindings import translate_bindings
from meio.tui.cards import card_label, is_wild, sorted_cards
from meio.tui.panels import (
    BalanceLine,
    LogPanel,
    PackLine,
    PromptLine,
    RulesLine,
    SeatsPanel,
    ShownTrick,
    SplitPanel,
    StatusLine,
    TrickPanel,
    playable_cards,
    splitting,
)
from meio.tui.saved import MatchKeeper
from meio.tui.screens import DeclareScreen, LastTrickScreen, SaveScreen, SizedScreen, trick_body
from meio.tui.session import SPEED_ORDER, PlaySettings, Session, SessionError, speed_name
from meio.tui.widgets import HandView
from meio.tui.words import HINT_BUDGET_S, describe_illegal, pack_hint, play_hint


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

    #: whether the split's prompt offers the advisor's hint (the lesson has none)
    OFFERS_HINT = True

    # what the panels show; each panel is bound to the values it draws
    #: the human seat's view (None until the table is first drawn)
    view: var[View | None] = var(None)
    #: the bots' speed
    speed: var[str] = var("normal")
    #: the completed trick on show, with its half
    shown_trick: var[ShownTrick | None] = var(None)
    #: this round's public log
    log_lines: var[tuple[str, ...]] = var(tuple)
    #: the cards picked for the second-half pack
    picked: var[frozenset[int]] = var(frozenset)
    #: the split advisor's answer (or that it is thinking)
    hint_text: var[Text] = var(Text)
    #: a message for the player (an error, a confirmation, a card hint), shown in place
    #: of the prompt until the match moves on (anyone's move) or the player acts again
    notice: var[Text | None] = var(None)
    #: what the lesson's coach says (None at a game's table)
    coach: var[Text | None] = var(None)

    class NewMatch(Message):
        """The player asked for a new match (this one is saved): choose it from ``settings``."""

        def __init__(self, settings: PlaySettings, note: str | None) -> None:
            super().__init__()
            self.settings = settings
            #: where the match just left was saved
            self.note = note

    def __init__(self, session: Session, *, ascii: bool, save_path: Path | None) -> None:
        super().__init__()
        self.session = session
        rules = session.state.config.rules
        session.label = lambda card: card_label(card, ascii, rules)
        self.ascii = ascii
        #: the match's file
        self.keeper = MatchKeeper(session, save_path)
        self.best_pack = 0
        #: which of the footer's optional keys are shown now
        self.footer_keys: tuple[bool | None, ...] = ()
        #: the number of moves the match had when the notice was given
        self.notice_step = 0
        #: the card hint's best play and the position it was given for
        self.hint_play: int | None = None
        #: whether the advisor gives hints here (it plays the standard editions only)
        self.offers_hint = self.OFFERS_HINT  # the advisor advises on any ruleset
        self.autoplay = self.auto_player()
        translate_bindings(self)

    def auto_player(self) -> AutoPlayer:
        """The bots' driver at this table (the lesson's shows its own summary)."""
        return AutoPlayer(self)

    @property
    def driving(self) -> bool:
        """Whether the bots are playing now."""
        return self.autoplay.driving

    # -- layout --------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        s, a = self.session, self.ascii
        cls = TableScreen
        with Vertical(id="table-body", classes="body"):
            yield StatusLine(ascii=a, id="status").data_bind(cls.view, cls.speed)
            yield RulesLine(ascii=a, id="rules").data_bind(cls.view)
            with Horizontal(id="top"):
                seats = SeatsPanel(s.names, s.settings.bots, ascii=a, id="seats")
                yield seats.data_bind(cls.view)
                trick = TrickPanel(s.short_names, ascii=a, id="trick")
                yield trick.data_bind(cls.view, shown=cls.shown_trick)
            yield BalanceLine(s.seat, ascii=a, id="balance").data_bind(cls.view)
            yield LogPanel(ascii=a, id="log").data_bind(lines=cls.log_lines, coach=cls.coach)
            split = SplitPanel(ascii=a, id="split")
            yield split.data_bind(cls.view, cls.picked, cls.coach, hint=cls.hint_text)
            prompt = PromptLine(s.names, s.seat, offers_hint=self.offers_hint, ascii=a, id="prompt")
            yield prompt.data_bind(cls.view, cls.picked, cls.notice)
            yield HandView(ascii=a, id="hand")
            yield PackLine(s.names, s.seat, ascii=a, id="packline").data_bind(cls.view)
        yield self.too_small_notice()
        yield Footer()

    def focus_default(self) -> None:
        self.query_one(HandView).focus()

    def on_mount(self) -> None:
        self.focus_default()
        self.fit()
        self.refresh_table()
        self.autoplay.kick()
        self.mounted()

    def mounted(self) -> None:
        """Called once the table is drawn (the lesson opens its first notes here)."""

    def splitting(self, view: View) -> bool:
        return splitting(view, self.session.seat)

    def my_turn(self, view: View) -> bool:
        """Whether the player is to play a card now."""
        return view.phase is Phase.PLAY and view.to_move == self.session.seat

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keep the footer to the keys that do something now."""
        view = self.session.view()
        if action == "confirm_split":
            return self.splitting(view)
        if action in ("hint", "best"):
            return self.offers_hint and (self.splitting(view) or self.my_turn(view))
        if action == "undo":
            return self.session.settings.undo and not view.is_over and view.phase is not Phase.SPLIT
        if action == "last_trick":
            return view.phase is not Phase.SPLIT or view.round_index > 0
        return True

    # -- drawing -------------------------------------------------------------------------
    def coach_text(self) -> Text | None:
        """What the lesson's coach says now, in place of the log (None: the log)."""
        return None

    def trick_on_show(self, view: View) -> ShownTrick | None:
        """The completed trick the table shows while no card of the next one is down."""
        s = self.session
        round_end = self.autoplay.round_end
        if round_end is not None and s.last_trick_round == round_end:
            last = s.last_trick
        else:
            last = s.last_trick if s.last_trick_round == view.round_index else None
        half = s.last_trick_half
        if view.phase is Phase.PILE and view.tricks:
            last, half = view.tricks[-1], view.half
        return None if last is None else (last, half)

    def refresh_table(self, message: Text | None = None) -> None:
        """Show the match as it stands, from the human seat's view; ``message`` replaces
        the prompt until the player's next action."""
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
        edition, rules = view.config.edition, view.config.rules
        cards = sorted_cards(view.hand, edition)
        split = self.splitting(view)
        if split:
            self.picked &= frozenset(cards)
        self.view = view
        self.speed = s.settings.speed
        self.shown_trick = self.trick_on_show(view)
        self.log_lines = tuple(e.text for e in s.log if e.round_index == view.round_index)
        self.coach = self.coach_text()
        self.query_one(SplitPanel).display = split
        self.query_one(LogPanel).display = not split
        hand = self.query_one(HandView)
        if split:
            hand.show(cards, mode="split", half=1, edition=edition, picked=set(self.picked),
                      rules=rules)
        else:
            playable = playable_cards(view)
            hand.show(cards, mode="play", half=view.half, edition=edition, playable=playable,
                      rules=rules)
        keys = tuple(
            self.check_action(action, ())
            for action in ("confirm_split", "hint", "undo", "last_trick")
        )
        if keys != self.footer_keys:
            # the footer redraws itself on this call: only when its keys change, or it flickers
            self.footer_keys = keys
            self.refresh_bindings()

    # -- the human's moves ---------------------------------------------------------------
    def on_hand_view_activated(self, event: HandView.Activated) -> None:
        self.notice = None
        s = self.session
        view = s.view()
        card = event.card
        if self.splitting(view):
            if card in self.picked:
                self.picked -= {card}
                self.refresh_table()
            elif len(self.picked) >= view.config.pack_size:
                self.refresh_table(Text(
                    _("You already picked {n} cards: unpick one first.").format(
                        n=view.config.pack_size), "red"))
            else:
                self.picked |= {card}
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
        if (is_wild(card, view.config.rules) and not view.current_trick
                and view.config.options.declares):
            refusals = [self.allowed(A.declare(card, suit)) for suit in range(4)]
            if None not in refusals:
                # no suit would do (the lesson wants another card): say so before asking one
                self.refresh_table(Text(str(refusals[0]), "bold red"))
                return

            label = card_label(card, self.ascii, view.config.rules)

            def declared(suit: int | None) -> None:
                if suit is None:
                    self.refresh_table(Text(_("Choose a card to lead."), "bold"))
                    return
                refusal = refusals[suit]
                if refusal is not None:
                    # the lesson wants another suit: ask again, saying which, in the
                    # dialog whose keys its advice names
                    self.app.push_screen(DeclareScreen(label, self.ascii, refusal), declared)
                    return
                self._play(A.declare(card, suit))

            self.app.push_screen(DeclareScreen(label, self.ascii), declared)
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
        self.autoplay.kick()

    def action_confirm_split(self) -> None:
        self.notice = None
        view = self.session.view()
        if not self.splitting(view):
            self.refresh_table(Text(_("There is no split to confirm now."), "red"))
            return
        if len(self.picked) != view.config.pack_size:
            self.refresh_table(
                Text(
                    _("A pack is exactly {pack} cards: you picked {n}.").format(
                        pack=view.config.pack_size, n=len(self.picked)
                    ),
                    "bold red",
                )
            )
            return
        pack = C.mask_of(self.picked)
        self.picked = frozenset()
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
        self.best_pack = int(advice.best.pack)
        self.hint_text = pack_hint(advice, chosen, view.config.edition, self.ascii)
        self.refresh_table()

    @work(exclusive=True, group="hint")
    async def _advise_play(self, view: View) -> None:
        moves = len(self.session.state.history)
        advice = await thinking(lambda: advise_play(view, seed=0))
        if len(self.session.state.history) != moves:
            return  # the player moved while the advisor thought: the hint is stale
        self.refresh_table(play_hint(advice, self.ascii))
        self.hint_play = advice.best.action

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
        self.picked = frozenset(C.cards_of(self.best_pack))
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
            half = 1 if len(view.tricks) <= view.config.first_half_size else 2
            trick = view.tricks[-1]
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
            rules=view.config.rules,
        )
        self.app.push_screen(LastTrickScreen(body))

    def action_speed(self, step: int) -> None:
        self.notice = None
        index = SPEED_ORDER.index(self.session.settings.speed) + step
        speed = SPEED_ORDER[max(0, min(len(SPEED_ORDER) - 1, index))]
        self.session.set_speed(speed)
        self.refresh_table(Text(_("Bot speed: {speed}.").format(speed=speed_name(speed)), "bold"))

    # -- saving and leaving --------------------------------------------------------------
    def action_save(self) -> None:
        self.notice = None
        keeper = self.keeper
        default = str(keeper.path or "meio-game.json")

        def chosen(path: str | None) -> None:
            if path is None:
                self.refresh_table()
                return
            try:
                said = keeper.save(Path(path))
            except MeioError as exc:
                self.refresh_table(Text(_("Could not save: {error}").format(error=exc), "bold red"))
                return
            self.refresh_table(Text(said, "bold green"))

        self.app.push_screen(SaveScreen(default, own=keeper.path), chosen)

    def keep_match(self, key: str) -> tuple[bool, str | None]:
        """Save the match before leaving it with ``key`` (see :meth:`MatchKeeper.keep`).

        Returns whether the player may leave, and the line that says where the match
        went. When saving fails the error is on the table and the player stays.
        """
        try:
            return True, self.keeper.keep(key)
        except MeioError as exc:
            self.refresh_table(
                Text(
                    _("Could not save: {error}").format(error=exc)
                    + " "
                    + _("Press {key} again to leave without saving.").format(key=key),
                    "bold red",
                )
            )
            return False, None

    def action_quit_table(self) -> None:
        """Save the match (finished or not) and quit, so that nothing is lost."""
        leave, said = self.keep_match("q")
        if leave:
            self.app.exit(said)

    def action_new_match(self) -> None:
        """Once the match is over: save it, and ask the app for the next one."""
        if not self.session.is_over:
            self.refresh_table(
                Text(_("n starts a new match once this one is over (q saves and quits)."), "red")
            )
            return
        leave, said = self.keep_match("n")
        if leave:
            self.post_message(self.NewMatch(self.session.settings, said))
