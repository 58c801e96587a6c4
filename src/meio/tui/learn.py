"""``meio learn``: the *Learn to play* lesson at the terminal's table, then a first game.

The lesson (:data:`meio.tutorial.LESSON`) runs on the ordinary table screen:
the learner uses the same keys as in a game, the bots play the lesson's
script, and a coach panel (in place of the log) says what to do and why. A
move other than the lesson's is refused with a reminder; an illegal one is
refused by the rules, as in a game. Notes open as pop-ups. After the round's
summary a real 4-player game against easy bots begins.
"""

from __future__ import annotations

import random
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from meio.bots import Bot
from meio.engine import actions as A
from meio.engine import cards as C
from meio.i18n import N_, _
from meio.tui.app import PlayApp
from meio.tui.autoplay import AutoPlayer
from meio.tui.bindings import translate_bindings
from meio.tui.cards import card_label, suit_name
from meio.tui.panels import LogPanel, PromptLine, RulesLine, SplitPanel, StatusLine
from meio.tui.screens import SummaryScreen, round_summary, trick_line
from meio.tui.session import PlaySettings, Session
from meio.tui.table import TableScreen
from meio.tui.widgets import HandView
from meio.tutorial import LESSON, Lesson, ScriptedBot, Step

#: the bots of the first real game: the level both the lesson's words and the web's
#: first game call "easy" (``random`` is the "beginner")
EASY_BOT = "heuristic"


class NoteScreen(ModalScreen[None]):
    """A note of the lesson: read, then Enter."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "close", N_("Continue")),
    ]

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static(Text(self.title_text, style="bold"), id="note-title")
            yield Static(Text(self.text), id="note-text")
            yield Static(Text(_("Enter: continue"), style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)


def lesson_session(lesson: Lesson, speed: str = "normal") -> Session:
    """A session of the lesson's deal: the learner's seat and the scripted bots."""
    cfg = lesson.config
    settings = PlaySettings(
        edition=cfg.edition,
        players=cfg.players,
        partnership=cfg.partnership,
        specials=cfg.specials,
        seat=lesson.seat,
        bots=tuple("human" if s == lesson.seat else "lesson" for s in range(cfg.players)),
        speed=speed,
        undo=False,
    )
    bots: list[Bot | None] = [
        None if s == lesson.seat else ScriptedBot(lesson.bot_script(s)) for s in range(cfg.players)
    ]
    return Session(settings, lesson.new_state(), bots)


class LearnScreen(TableScreen):
    """The table with a coach: only the lesson's moves are accepted."""

    OFFERS_HINT = False

    def __init__(self, lesson: Lesson, *, ascii: bool, speed: str = "normal") -> None:
        super().__init__(lesson_session(lesson, speed), ascii=ascii, save_path=None)
        self.lesson = lesson
        #: index of the step on show in ``lesson.steps``
        self.step = 0
        self.noting = False

    def auto_player(self) -> AutoPlayer:
        return LessonPlayer(self)

    def mounted(self) -> None:
        self.show_notes()

    # -- the steps -------------------------------------------------------------------------
    @property
    def current(self) -> Step | None:
        return self.lesson.steps[self.step] if self.step < len(self.lesson.steps) else None

    def expected(self) -> int | None:
        """The action the lesson waits for now, if any."""
        step = self.current
        if step is None or step.action is None:
            return None
        return A.parse_action(step.action)

    def show_notes(self) -> None:
        """Open the notes that come before the next move, one after the other."""
        step = self.current
        if step is None or step.action is not None or self.noting:
            return
        if self.step == len(self.lesson.steps) - 1:
            return  # the closing note comes after the round's summary (LessonPlayer.show_summaries)

        def closed(_result: None) -> None:
            self.noting = False
            self.step += 1
            self.refresh_table()
            self.show_notes()

        self.noting = True
        self.app.push_screen(NoteScreen(_(step.title), _(step.text)), closed)

    def coach_text(self) -> Text:
        """The coach's panel (in place of the log, and of the hint during the split)."""
        if self.over:
            return Text(_("The lesson's round is over."), "bold")
        step = self.current
        if step is None or step.action is None:
            return Text("")
        done = sum(1 for s in self.lesson.steps[: self.step] if s.action is not None)
        out = Text(
            _("Lesson — move {n} of {total}").format(n=done + 1, total=len(self.lesson.moves))
            + "\n",
            "bold",
        )
        if self.session.human_to_act():
            out.append(_(step.text), "cyan")
        else:
            # the step's text speaks of what the bots are about to play: wait for them
            out.append(_("Watch the bots play; your move comes next."), "dim")
        return out

    @property
    def over(self) -> bool:
        """Whether the lesson's round is over (the state has dealt a round it does not play)."""
        return bool(self.session.state.rounds)

    def refresh_table(self, message: Text | None = None) -> None:
        super().refresh_table(message)
        self.query_one(RulesLine).heading = _("Learn to play MEIO")
        over = self.over
        # the next round's cards are dealt, but the lesson ends with its one round
        round_over = "MEIO · " + _("Round {n} is over.").format(n=1)
        self.query_one(StatusLine).heading = round_over if over else ""
        if over:
            self.query_one(SplitPanel).display = False
            self.query_one(HandView).display = False
            self.query_one(LogPanel).display = True
        self.query_one(PromptLine).visible = not over

    def pile_note(self) -> Text | None:
        step = self.current
        if step is None or step.action is None:
            return None
        return Text(_(step.text), "cyan")

    def allowed(self, action: int) -> str | None:
        """None when ``action`` is the lesson's move now, else what to do instead."""
        expected = self.expected()
        if expected is None or action == expected:
            return None
        if A.is_pack(expected):
            cards = " ".join(card_label(c, self.ascii) for c in C.cards_of(A.pack_of(expected)))
            return _("In this lesson, pack exactly these 6 cards: {cards}.").format(cards=cards)
        if A.is_pile(expected):
            pile = "H (1)" if expected == A.PILE_1 else "V (2)"
            return _("In this lesson, put the trick in pile {pile}.").format(pile=pile)
        if A.is_declare(expected) and A.card_of(action) == A.card_of(expected):
            suit = C.SUITS[A.declared_suit(expected)]
            return _("In this lesson, declare {suit}: press {key}.").format(
                suit=suit_name(A.declared_suit(expected)), key=suit
            )
        return _("In this lesson, play {card}.").format(
            card=card_label(A.card_of(expected), self.ascii)
        )

    def moved(self, action: int) -> None:
        """The learner made the lesson's move: on to the next step."""
        self.step += 1
        self.refresh_table()
        self.show_notes()

    # -- the table's hooks -------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("save", "undo", "hint", "best", "new_match"):
            return False
        if self.over and action in ("confirm_split", "last_trick"):
            return False
        return super().check_action(action, parameters)

    def action_save(self) -> None:
        self.refresh_table(Text(_("The lesson is not saved: q leaves it."), "red"))

    def action_quit_table(self) -> None:
        self.app.exit()


class LessonPlayer(AutoPlayer):
    """The lesson's bots: after the round's summary, the closing note and the first real game."""

    def __init__(self, screen: LearnScreen) -> None:
        super().__init__(screen)
        self.screen = screen

    async def show_summaries(self) -> bool:
        screen = self.screen
        s = screen.session
        if self.shown_rounds >= len(s.state.rounds):
            return False
        self.shown_rounds = len(s.state.rounds)
        self.round_end = 0
        screen.refresh_table()
        result = s.state.rounds[0]
        body = round_summary(
            s.names,
            result,
            list(result.scores),
            False,
            trick_line(result.tricks[-1], s.names, screen.ascii, s.seat),
        )

        await screen.app.push_screen_wait(
            SummaryScreen(_("Round 1 is over."), body, final=False, hint=_("Enter: continue"))
        )
        step = screen.lesson.steps[-1]
        await screen.app.push_screen_wait(NoteScreen(_(step.title), _(step.text)))
        screen.step = len(screen.lesson.steps)
        app = screen.app
        if isinstance(app, PlayApp):
            settings = PlaySettings(
                players=4,
                seed=random.SystemRandom().randrange(1 << 31),
                bots=(EASY_BOT,),
                speed=s.settings.speed,
            ).checked()
            app.start(Session.new(settings))
        return True


class LearnApp(PlayApp):
    """The ``meio learn`` application: the lesson, then a real game."""

    def __init__(
        self, *, ascii: bool = False, lesson: Lesson = LESSON, speed: str = "normal"
    ) -> None:
        super().__init__(PlaySettings(), ascii=ascii, setup=False)
        self.lesson = lesson
        self.speed = speed

    def open_first(self) -> None:
        screen = LearnScreen(self.lesson, ascii=self.ascii, speed=self.speed)
        self.table = screen
        self.push_screen(screen)
