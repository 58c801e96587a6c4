"""``meio play``: one human and bots at a MEIO table, full screen in the terminal.

The app is a thin drawing layer over :class:`~meio.tui.session.Session`: every
fact on the screen comes from the human seat's view or the session's public
log. The app opens the start screen and the table (:mod:`meio.tui.table`); the
bots play through :mod:`meio.tui.autoplay`, in a worker thread, so the screen
stays live while they think. Its style sheet is ``play.tcss``.
"""

from __future__ import annotations

import dataclasses
import gc
import random
import threading
from pathlib import Path
from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from meio.i18n import _
from meio.tui.ascii import AsciiFilter
from meio.tui.panels import table_rules_text
from meio.tui.saved import AUTOSAVE_NAME
from meio.tui.screens import HelpScreen, help_text, trick_line
from meio.tui.session import PlaySettings, Session
from meio.tui.start import StartScreen
from meio.tui.table import TableScreen
from meio.tui.words import describe_illegal, reason_text

#: the names other modules and the tests take from here, where they used to live
__all__ = [
    "AUTOSAVE_NAME",
    "PlayApp",
    "TableScreen",
    "describe_illegal",
    "reason_text",
    "trick_line",
]


class PlayApp(App[str | None]):
    """The ``meio play`` application.

    It returns (from :meth:`run`) a line to print once the screen is gone: where
    an unfinished match was saved, or None.
    """

    CSS_PATH = "play.tcss"
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

    def on_table_screen_new_match(self, message: TableScreen.NewMatch) -> None:
        """The match is over and saved: the next one gets a file of its own (it never
        overwrites this one's), chosen on the start screen."""
        self.save_path = None
        # a new match is new deals: a seed given on the command line dealt the last one
        fresh = dataclasses.replace(message.settings,
                                    seed=random.SystemRandom().randrange(1 << 31))
        self.open_start(fresh, note=message.note)

    def action_help_quit(self) -> None:
        """Ctrl+C (which does not quit a terminal app): how to quit, in the player's
        language, and that quitting saves an unfinished match."""
        self.notify(
            _("Press [b]q[/b] to quit: an unfinished match is saved first, to take up again "
              "with meio play --resume FILE."),
            title=_("Do you want to quit?"),
        )

    async def action_quit(self) -> None:
        """Quit (also Ctrl+Q): at a table, through the table, which saves an unfinished match."""
        if self.table is not None:
            self.table.action_quit_table()
            return
        await super().action_quit()

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        rules, config = "", None
        if self.table is not None:
            view = self.table.session.view()
            rules, config = table_rules_text(view, self.ascii), view.config
        self.push_screen(HelpScreen(help_text(self.ascii, rules, config)))


def _warm_core() -> None:
    from meio.warm import warm_up

    warm_up()
