"""``meio view FILE``: step through a game record, card by card or trick by trick.

The record holds every hand, so the viewer shows them all, as a replay of a
finished deal does at a bridge club. Positions are rebuilt through the engine
(each a :class:`~meio.engine.State` snapshot), so the viewer checks the record
as it loads it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.reactive import reactive, var
from textual.widget import Widget
from textual.widgets import Footer

from meio.engine import MeioError, Phase, State, Trick, View
from meio.engine.record import Record
from meio.i18n import N_, _
from meio.i18n.reasons import error_line
from meio.tui.ascii import AsciiFilter
from meio.tui.bindings import translate_bindings
from meio.tui.cards import CARD_WIDTH, card_label, cards_text, sorted_cards
from meio.tui.panels import SeatsPanel, ShownTrick, TrickPanel
from meio.tui.review import ReviewPanel, Stopped, compute_review, read_review, review_path
from meio.tui.saved import read_sidecar, sidecar_path
from meio.tui.screens import HelpScreen, viewer_help_text
from meio.tui.session import PlaySettings, Session, SessionError, seat_names


@dataclass(frozen=True, slots=True)
class Position:
    """The match after ``step`` actions of the record."""

    step: int
    state: State
    last_trick: Trick | None
    last_trick_half: int
    log: tuple[str, ...]
    #: whether the action that led here completed a trick
    trick_done: bool


class Replay:
    """Every position of a recorded match, from the deal to the last action.

    >>> from meio.engine import MatchConfig, State
    >>> st = State.new(MatchConfig(players=2, seed=1))
    >>> for _step in range(3): done = st.apply(st.legal_actions()[0])
    >>> len(Replay(st).positions)
    4
    """

    def __init__(
        self,
        final: State,
        *,
        ascii: bool = False,
        seat: int | None = None,
        levels: Sequence[str] = (),
    ) -> None:
        """``seat`` (the human's, from the ``.play.json`` of a terminal game) names the
        seats "You" and "Bot N" as at the table, and ``levels`` gives their bot levels;
        without them the seats are "Player 1", "Player 2"…"""
        cfg = final.config
        deals = [(s.deal, s.aside, s.leader) for s in final.round_starts()]
        fresh = State.new(cfg, deals=deals)
        if seat is not None and 0 <= seat < cfg.players:
            names = seat_names(cfg.players, seat)
            short = [name[: CARD_WIDTH - 1] for name in names]
        else:
            names = [_("Player {n}").format(n=s + 1) for s in range(cfg.players)]
            short = [f"P{s + 1}" for s in range(cfg.players)]
        self.levels = list(levels) if len(levels) == cfg.players else [""] * cfg.players
        settings = PlaySettings(
            edition=cfg.edition, players=cfg.players, partnership=cfg.partnership, seat=-1,
            variant=cfg.variant,
        )
        session = Session(settings, fresh, [None] * cfg.players, titles=names, short_titles=short)
        session.label = lambda card: card_label(card, ascii, cfg.rules)
        self.names = names
        self.short_names = short
        #: the record's file, when it was read from one (its review is kept beside it)
        self.path: Path | None = None
        self.record = Record.from_state(final)
        self.positions: list[Position] = [self._snapshot(session, 0, False)]
        for step, (seat, action) in enumerate(final.history, start=1):
            before = session.last_trick, session.last_trick_round
            session.play(action, seat)
            done = (session.last_trick, session.last_trick_round) != before
            self.positions.append(self._snapshot(session, step, done))

    @staticmethod
    def _snapshot(session: Session, step: int, done: bool) -> Position:
        st = session.state
        last = session.last_trick if session.last_trick_round == st.round_index else None
        if st.is_over:
            last = session.last_trick
        return Position(
            step,
            st.clone(),
            last,
            session.last_trick_half,
            tuple(e.text for e in session.log),
            done,
        )

    @classmethod
    def load(cls, path: Path, *, ascii: bool = False) -> Replay:
        """Read and check the record at ``path``; raises :class:`SessionError`."""
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise SessionError(
                _("cannot read {path}: {error}").format(path=path, error=exc.strerror)
            ) from None
        try:
            state = Record.from_json(text).to_state()
        except MeioError as exc:
            raise SessionError(f"{path}: {error_line(exc)}") from None
        side = read_sidecar(sidecar_path(path))
        seat, bots = side.get("seat"), side.get("bots")
        replay = cls(
            state,
            ascii=ascii,
            seat=seat if isinstance(seat, int) else None,
            levels=[str(b) for b in bots] if isinstance(bots, list) else (),
        )
        replay.path = path
        return replay

    def next_trick(self, index: int, step: int) -> int:
        """The position of the next (``step`` 1) or previous (-1) completed trick."""
        i = index + step
        while 0 < i < len(self.positions) - 1 and not self.positions[i].trick_done:
            i += step
        return max(0, min(len(self.positions) - 1, i))

    def next_round(self, index: int, step: int) -> int:
        """The first position of the next (``step`` 1) or previous (-1) round."""
        starts = [
            i
            for i, pos in enumerate(self.positions)
            if i == 0 or pos.state.round_index != self.positions[i - 1].state.round_index
        ]
        if step > 0:
            return next((i for i in starts if i > index), len(self.positions) - 1)
        return next((i for i in reversed(starts) if i < index), 0)


class PositionPanel(Widget):
    """A part of the viewer drawn from the position on show (``position``)."""

    DEFAULT_CSS = """
    PositionPanel { height: auto; }
    """

    # the hands' panel is as tall as the hands left (a line each, none at the end)
    position: reactive[Position | None] = reactive(None, layout=True)

    def __init__(self, replay: Replay, *, ascii: bool = False, id: str) -> None:
        super().__init__(id=id)
        self.replay = replay
        self.ascii = ascii


class ReplayStatus(PositionPanel):
    """The top line: the record, the round, the trick and the step."""

    def __init__(self, replay: Replay, title: str, *, id: str) -> None:
        super().__init__(replay, id=id)
        self.title_text = title

    def render(self) -> Text:
        pos = self.position
        if pos is None:
            return Text("")
        st = pos.state
        total = len(self.replay.positions) - 1
        if st.is_over:
            where = _("match over")
        elif st.phase is Phase.SPLIT:
            where = _("split")
        else:
            where = _("trick {n}/{total}").format(n=st.trick_number, total=st.config.hand_size)
        title = self.title_text
        if st.config.variant is not None:
            # a variant's record says which rules it was played by
            title = _("{title} (variant {name})").format(title=title, name=st.config.variant.name)
        status = " " + _("Replay {title} · round {n} · {where} · step {step}/{total}").format(
            title=title, n=st.round_index + 1, where=where, step=pos.step, total=total
        )
        return Text(status, style="bold")


class HandsPanel(PositionPanel):
    """Every seat's cards in play (and, in the first half, its pack); the winners at the end."""

    def render(self) -> Text:
        pos = self.position
        if pos is None:
            return Text("")
        st, names = pos.state, self.replay.names
        cfg = st.config
        hands = Text()
        if st.is_over:
            winners = ", ".join(names[s] for s in st.winners)
            hands.append(_("Winners: {names}").format(names=winners), style="bold green")
            return hands
        for s in range(cfg.players):
            if s:
                hands.append("\n")
            hands.append(f"{names[s]}: ", style="bold")
            cards = sorted_cards(st.hands[s], cfg.edition)
            hands.append_text(
                cards_text(cards, self.ascii, half=st.half, edition=cfg.edition, rules=cfg.rules)
            )
            if st.half == 1 and st.packs[s]:
                hands.append(" | " + _("pack") + " ", style="dim")
                pack = sorted_cards(st.packs[s], cfg.edition)
                hands.append_text(
                    cards_text(pack, self.ascii, half=2, edition=cfg.edition, rules=cfg.rules)
                )
        return hands


class ReplayLog(PositionPanel):
    """The log of the round so far, its last lines."""

    def render(self) -> Text:
        return Text("" if self.position is None else "\n".join(self.position.log[-8:]))


class ReplayApp(App[None]):
    """The ``meio view`` application: the panels are bound to the position on show, and
    the keys move ``index``."""

    CSS_PATH = "replay.tcss"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", N_("Next card")),
        # the way back is in the help (?): the footer keeps to what fits 80 columns
        Binding("left", "step(-1)", N_("Back"), show=False),
        Binding("n", "trick(1)", N_("Next trick")),
        Binding("p", "trick(-1)", N_("Prev trick"), show=False),
        Binding("right_square_bracket", "round(1)", N_("Next round")),
        Binding("left_square_bracket", "round(-1)", N_("Prev round"), show=False),
        Binding("home", "jump(0)", N_("Start"), show=False),
        Binding("end", "jump(-1)", N_("End"), show=False),
        Binding("question_mark", "help", N_("Help")),
        Binding("v", "review", N_("Review"), show=False),
        Binding("q", "quit", N_("Quit")),
    ]

    #: the position on show, by its number in the replay
    index: var[int] = var(0, init=False)
    position: var[Position | None] = var(None)
    #: the position as a spectator sees it (the seats and the trick)
    view: var[View | None] = var(None)
    #: the completed trick on show, with its half
    shown_trick: var[ShownTrick | None] = var(None)

    def __init__(self, replay: Replay, *, title: str = "", ascii: bool = False) -> None:
        super().__init__()
        translate_bindings(self)
        if ascii:
            self._filters.append(AsciiFilter())
            self.add_class("-ascii")
        self.replay = replay
        self.ascii = ascii
        self.record_title = title

    def compose(self) -> ComposeResult:
        replay, a, cls = self.replay, self.ascii, ReplayApp
        yield ReplayStatus(replay, self.record_title, id="status").data_bind(cls.position)
        with Horizontal(id="top"):
            seats = SeatsPanel(replay.names, replay.levels, ascii=a, id="seats")
            yield seats.data_bind(cls.view)
            trick = TrickPanel(replay.short_names, ascii=a, id="trick")
            yield trick.data_bind(cls.view, shown=cls.shown_trick)
        yield HandsPanel(replay, ascii=a, id="hands").data_bind(cls.position)
        yield ReplayLog(replay, id="log").data_bind(cls.position)
        yield ReviewPanel(id="review").data_bind(step=cls.index)
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def watch_index(self) -> None:
        self.show()

    def show(self) -> None:
        """Put the position ``index`` on show."""
        pos = self.replay.positions[self.index]
        self.position = pos
        self.view = pos.state.spectator_view()
        last = pos.last_trick
        self.shown_trick = None if last is None else (last, pos.last_trick_half)

    def action_step(self, step: int) -> None:
        self.index = max(0, min(len(self.replay.positions) - 1, self.index + step))

    def action_trick(self, step: int) -> None:
        self.index = self.replay.next_trick(self.index, step)

    def action_round(self, step: int) -> None:
        self.index = self.replay.next_round(self.index, step)

    def action_jump(self, where: int) -> None:
        self.index = 0 if where == 0 else len(self.replay.positions) - 1

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(viewer_help_text()))

    def action_help_quit(self) -> None:
        """Ctrl+C: say, in the player's language, how to leave the viewer."""
        self.notify(_("Press [b]q[/b] to quit the viewer."), title=_("Do you want to quit?"))

    def action_review(self) -> None:
        """Show or hide the review beside the table; the first time, read the kept
        review or start computing it (quick pass, then deep) in a thread."""
        panel = self.query_one(ReviewPanel)
        panel.display = not panel.display
        if not panel.display or panel.review is not None or panel.status:
            return
        kept = read_review(self.replay.path) if self.replay.path else None
        if kept is not None:
            panel.review, panel.status = kept, _("kept beside the record")
            return
        if not self.replay.positions[-1].state.is_over:
            panel.status = _("only a finished match can be reviewed")
            return
        panel.status = _("reviewing (quick pass)…")
        self.run_worker(self._review_in_thread, thread=True, exclusive=True)

    def _review_in_thread(self) -> None:
        from textual.worker import get_current_worker

        panel = self.query_one(ReviewPanel)
        worker = get_current_worker()

        def show(data: dict[str, object], status: str) -> None:
            panel.review, panel.status = data, status

        try:
            # a viewer closed mid-review stops it at the next decision
            quick = compute_review(self.replay.record, "quick", lambda: worker.is_cancelled)
            self.call_from_thread(show, quick, _("deep pass under way…"))
            deep = compute_review(self.replay.record, "deep", lambda: worker.is_cancelled)
        except Stopped:
            return
        note = _("done")
        if self.replay.path is not None:
            try:
                review_path(self.replay.path).write_text(json.dumps(deep), encoding="utf-8")
                note = _("kept beside the record")
            except OSError:
                note = _("done (could not be kept beside the record)")
        self.call_from_thread(show, deep, note)
