"""The bots' side of the terminal table: they play their turns at the session's speed
and stop where the human must answer (the summary of each round, the pile of a trick
won with ``+.5``).

:class:`AutoPlayer` runs in a worker of the table screen; bots think in a daemon
thread (:func:`thinking`), so the screen stays live while they do. It needs only
the few things of its screen that :class:`Host` names.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Coroutine
from typing import Any, Protocol, TypeVar

from rich.text import Text
from textual.app import App
from textual.worker import Worker

from meio.engine import Phase
from meio.engine import actions as A
from meio.i18n import _
from meio.tui.panels import pile_card
from meio.tui.screens import PileScreen, SummaryScreen, round_summary, trick_line
from meio.tui.session import Session

ResultT = TypeVar("ResultT")


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


class Host(Protocol):
    """What the auto-player needs of the screen where the human sits."""

    session: Session
    ascii: bool

    @property
    def app(self) -> App[Any]: ...

    def run_worker(
        self, work: Coroutine[Any, Any, None], *, group: str = ..., exclusive: bool = ...
    ) -> Worker[None]: ...

    def refresh_table(self, message: Text | None = None) -> None:
        """Show the match as it stands (``message`` in place of the prompt)."""

    def action_quit_table(self) -> None:
        """Save the match and quit."""

    def action_new_match(self) -> None:
        """Save the match and choose the next one."""

    def pile_note(self) -> Text | None:
        """What the pile dialog says besides the piles."""

    def allowed(self, action: int) -> str | None:
        """Why the human may not make this legal move here (None: they may)."""

    def moved(self, action: int) -> None:
        """Called after each of the human's moves."""


def summary_of(session: Session, index: int, ascii: bool) -> tuple[str, Text, bool]:
    """The summary of round ``index``: its title, its body, and whether it closes the match."""
    state, names = session.state, session.names
    result = state.rounds[index]
    cfg = state.config
    if cfg.partnership and result.team_scores is not None:
        totals = [
            sum(r.team_scores[t] for r in state.rounds[: index + 1] if r.team_scores)
            for t in (0, 1)
        ]
    else:
        totals = [sum(r.scores[i] for r in state.rounds[: index + 1]) for i in range(len(names))]
    body = round_summary(
        names,
        result,
        totals,
        cfg.partnership,
        trick_line(result.tricks[-1], names, ascii, session.seat, cfg.rules),
    )
    final = session.is_over and index + 1 == len(state.rounds)
    title = _("Round {n} is over.").format(n=index + 1)
    if result.victory is not None:
        if cfg.partnership:
            title += " " + _("Team {team} takes the round.").format(team="AB"[result.victory])
        else:
            title += " " + _("{name} takes the round.").format(name=names[result.victory])
    if final:
        title += "  " + _("Match over: {winners}!").format(winners=session.winner_text())
    return title, body, final


class AutoPlayer:
    """Plays the bots' turns at ``host``'s table until the human must act.

    Between two plays it waits the session's delay (read at each play, so the
    speed keys act at once); after each it redraws the table.
    """

    def __init__(self, host: Host) -> None:
        self.host = host
        #: whether the bots are playing now
        self.driving = False
        #: how many rounds have had their summary shown
        self.shown_rounds = len(host.session.state.rounds)
        #: the round whose end is on show (its last trick stays on the table until the summary)
        self.round_end: int | None = None

    @property
    def delay(self) -> float:
        """Seconds between two bots' plays, at the session's speed."""
        return self.host.session.settings.delay

    def kick(self) -> None:
        """Let the bots play until the human's turn (unless they already are)."""
        if not self.driving:
            self.driving = True
            self.host.run_worker(self.drive(), group="bots", exclusive=False)

    async def drive(self) -> None:
        """Play the bots' turns, the summaries and the human's pile question, until the
        human must play or the match is over."""
        host = self.host
        s = host.session
        try:
            while True:
                if await self.show_summaries():
                    return
                if s.is_over:
                    break
                if s.state.phase is Phase.PILE and s.human_to_act():
                    await self.ask_pile()
                    continue
                seat = s.bot_to_act()
                if seat is None:
                    break
                splitting = s.state.phase is Phase.SPLIT
                if not splitting and self.delay:
                    await asyncio.sleep(self.delay)
                bot, view, legal = s.bot_request(seat)
                action = await thinking(bot.choose, view, legal)
                hand = s.state.config.hand_size
                tricks = len(s.state.tricks) + hand * s.state.round_index
                s.play(action, seat)
                host.refresh_table()
                if len(s.state.tricks) + hand * s.state.round_index > tricks and self.delay:
                    await asyncio.sleep(self.delay)
        finally:
            self.driving = False
        host.refresh_table()

    async def show_summaries(self) -> bool:
        """Show the summary of each round that ended; True when the player quit or restarted."""
        host = self.host
        s = host.session
        while self.shown_rounds < len(s.state.rounds):
            index = self.shown_rounds
            self.shown_rounds += 1
            # the round's last trick stays on the table a moment, then heads the summary
            self.round_end = index
            host.refresh_table()
            if self.delay:
                await asyncio.sleep(self.delay)
            title, body, final = summary_of(s, index, host.ascii)
            choice = await host.app.push_screen_wait(SummaryScreen(title, body, final))
            self.round_end = None
            host.refresh_table()
            if choice == "quit":
                host.action_quit_table()
                return True
            if choice == "new":
                host.action_new_match()
                return True
        return False

    async def ask_pile(self) -> None:
        """Ask the human, who won a trick with ``+.5``, for its pile, and play the answer."""
        host = self.host
        view = host.session.view()
        cfg = view.config
        seat = host.session.seat
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
            note = host.pile_note()
            if refusal is not None:
                note = (note + "\n" if note else Text()).append(refusal, "bold red")
            card = pile_card(view, host.ascii)
            pile = await host.app.push_screen_wait(PileScreen(detail, note, card))
            action = A.PILE_1 if pile == 1 else A.PILE_2
            refusal = host.allowed(action)
            if refusal is None:
                break
            host.refresh_table(Text(refusal, "bold red"))
        host.session.play(action)
        host.moved(action)
        host.refresh_table()
