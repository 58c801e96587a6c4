"""A match between one human seat and bots, without any screen.

:class:`Session` owns the true :class:`~meio.engine.State` the way a server
does; everything the terminal draws comes from :meth:`Session.view` (the human
seat's :class:`~meio.engine.View`) and from the public log it keeps. Bots are
asked through the same one-seat view. Keeping this apart from Textual lets the
tests drive whole matches quickly and lets the app stay a thin drawing layer.

Over 500 lines on purpose: the match, the bots' turns, the public log and saving
change the same true state together, and each step of the log is written where the
state changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from meio.bots import Bot, bot_kinds, make_bot
from meio.bots.variant_play import VARIANT_BOTS
from meio.engine import MatchConfig, MeioError, Phase, State, TableOptions, Trick, View
from meio.engine import actions as A
from meio.engine.reasons import illegal, reason
from meio.engine.ruleset import Variant
from meio.i18n import N_, _
from meio.tui.cards import card_label, sorted_cards, suit_name
from meio.tui.errors import SessionError as SessionError
from meio.tui.saved import read_sidecar, sidecar_path, whole_number, write_sidecar

#: the bots' speeds: the delay in seconds between two plays, by speed name
SPEEDS: dict[str, float] = {"slow": 1.6, "normal": 0.8, "fast": 0.3, "instant": 0.0}
SPEED_ORDER = ("slow", "normal", "fast", "instant")
#: the speeds as the table and the start screen name them (translated when shown)
SPEED_NAMES = {
    "slow": N_("slow"),
    "normal": N_("normal"),
    "fast": N_("fast"),
    "instant": N_("instant"),
}


def speed_name(speed: str) -> str:
    """A speed's name in the current language (``normal``, ``rápido``)."""
    return _(SPEED_NAMES[speed])


def default_bot_kind() -> str:
    """The opponents' level when none is given: ``heuristic`` if installed, else ``random``."""
    return "heuristic" if "heuristic" in bot_kinds() else "random"


def seat_names(players: int, seat: int) -> list[str]:
    """Names for the seats as the human sees them: "You", then bots by seat number."""
    return [_("You") if s == seat else _("Bot {n}").format(n=s) for s in range(players)]


@dataclass(frozen=True, slots=True)
class PlaySettings:
    """How a terminal match is set up: the table, the human seat and the bots.

    ``bots`` gives one level per seat; the human seat's entry is ignored (write
    ``"human"`` there). An empty ``bots`` means the default level everywhere.
    With a ``variant`` (docs/variants.md) the edition and the table options are the
    variant's, and only the bots that play variants may sit at the table.
    """

    edition: str = "meio"
    players: int = 4
    partnership: bool = False
    specials: tuple[int, ...] | None = None
    seat: int = 0
    seed: int = 0
    bots: tuple[str, ...] = ()
    speed: str = "normal"
    #: whether the human may take back their last card (a game against bots only)
    undo: bool = True
    #: the table options of RULES.md §10
    wild_lead: str = "declare"
    reveal_specials: bool = True
    #: the ruleset of a variant table (None: the standard edition)
    variant: Variant | None = None

    def checked(self) -> PlaySettings:
        """These settings with bots filled in; raises :class:`SessionError` if invalid."""
        if self.speed not in SPEEDS:
            raise SessionError(f"unknown speed {self.speed!r}; choose one of: {', '.join(SPEEDS)}")
        try:
            self.config()
        except MeioError as exc:
            raise SessionError(str(exc)) from None
        if not 0 <= self.seat < self.players:
            raise SessionError(
                f"seat {self.seat} is not a seat of a {self.players}-player table "
                f"(use 0 to {self.players - 1})"
            )
        bots = list(self.bots) or [default_bot_kind()] * self.players
        if len(bots) == 1:
            bots = bots * self.players
        if len(bots) == self.players - 1:
            bots.insert(self.seat, "human")
        if len(bots) != self.players:
            raise SessionError(
                f"give one bot level, or one for each of the {self.players - 1} other seats, "
                f"not {len(self.bots)}"
            )
        known = bot_kinds()
        for s, kind in enumerate(bots):
            if s == self.seat:
                bots[s] = "human"
            elif kind not in known:
                raise SessionError(f"unknown bot level {kind!r}; choose one of: {', '.join(known)}")
            elif self.variant is not None and kind not in VARIANT_BOTS:
                raise SessionError(
                    _(
                        "the {bot} bot does not play variants (its network reads the "
                        "editions' cards); a variant table takes {bots}"
                    ).format(bot=kind, bots=", ".join(VARIANT_BOTS))
                )
        return replace(self, bots=tuple(bots))

    def config(self) -> MatchConfig:
        """The engine configuration of these settings."""
        if self.variant is not None:
            return MatchConfig(
                edition=self.variant.edition,
                players=self.players,
                partnership=self.partnership,
                specials=self.specials,
                seed=self.seed,
                options=self.variant.options,
                variant=self.variant,
            )
        if self.edition not in ("meio", "classic"):
            raise SessionError(f"unknown edition {self.edition!r}: use 'meio' or 'classic'")
        if self.wild_lead not in ("declare", "next"):
            raise SessionError(f"unknown wild lead {self.wild_lead!r}: use 'declare' or 'next'")
        return MatchConfig(
            edition="meio" if self.edition == "meio" else "classic",
            players=self.players,
            partnership=self.partnership,
            specials=self.specials,
            seed=self.seed,
            options=TableOptions(
                "next" if self.wild_lead == "next" else "declare", self.reveal_specials
            ),
        )

    @property
    def delay(self) -> float:
        return SPEEDS[self.speed]


@dataclass(slots=True)
class LogEntry:
    """One public line of the round log, and the trick it closed, if any."""

    round_index: int
    text: str
    trick: Trick | None = None
    #: the half the trick was played in
    half: int = 1
    #: how many actions the match had when this line was written (undo drops later lines)
    step: int = 0


@dataclass(slots=True)
class Session:
    """The human seat, the bots, and the match they play."""

    settings: PlaySettings
    state: State
    bots: list[Bot | None]
    log: list[LogEntry] = field(default_factory=list)
    #: the last completed trick (kept after the round moves on, for the table display)
    last_trick: Trick | None = None
    last_trick_round: int = -1
    last_trick_half: int = 1
    #: how the log names a card (the terminal sets suit symbols here)
    label: Callable[[int], str] = card_label
    #: seat names to use instead of "You" / "Bot N" (the replay viewer's "Player N")
    titles: list[str] | None = None
    #: names short enough to sit under a card (default: :attr:`names`)
    short_titles: list[str] | None = None
    #: the file the match was resumed from (it holds the match as it stood then)
    source: Path | None = None

    # -- construction ------------------------------------------------------------------
    @classmethod
    def new(cls, settings: PlaySettings) -> Session:
        """A fresh match from ``settings`` (checked)."""
        settings = settings.checked()
        return cls(settings, State.new(settings.config()), _make_bots(settings))

    @classmethod
    def load(cls, path: Path, overrides: PlaySettings | None = None) -> Session:
        """Resume the match saved at ``path`` (a ``meio-record/1`` file).

        The human seat, seed and bot levels come from the sidecar written by
        :meth:`save` (``FILE.play.json``); without one, from ``overrides`` or the
        defaults.
        """
        from meio.engine.record import Record

        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise SessionError(f"cannot read {path}: {exc.strerror}") from None
        side_path = sidecar_path(path)
        side = read_sidecar(side_path)
        base = overrides or PlaySettings()
        seed = whole_number(side, "seed", base.seed, side_path)
        try:
            state = Record.from_json(text).to_state(seed=seed)
        except MeioError as exc:
            raise SessionError(f"{path} is not a game this terminal can resume: {exc}") from None
        cfg = state.config
        bots_raw = side.get("bots", base.bots)
        settings = replace(
            base,
            edition=cfg.edition,
            players=cfg.players,
            partnership=cfg.partnership,
            specials=cfg.specials,
            wild_lead=cfg.options.wild_lead,
            reveal_specials=cfg.options.reveal_specials,
            variant=cfg.variant,
            seat=whole_number(side, "seat", base.seat, side_path),
            seed=seed,
            bots=tuple(str(b) for b in bots_raw) if isinstance(bots_raw, list | tuple) else (),
            speed=str(side.get("speed", base.speed)),
        ).checked()
        session = cls(settings, state, _make_bots(settings), source=path)
        session.retell()
        session.log.append(
            LogEntry(
                state.round_index,
                _("Resumed from {file}.").format(file=path.name),
                step=len(state.history),
            )
        )
        return session

    def retell(self) -> None:
        """Write the log (and the last trick) of the match so far, as the human saw it.

        A resumed match starts with the log it had: the moves are replayed on a
        copy of the deal, each logged as at the table (the bots' packs unnamed).
        """
        starts = self.state.round_starts()
        fresh = State.new(self.state.config, deals=[(r.deal, r.aside, r.leader) for r in starts])
        told = Session(
            self.settings,
            fresh,
            [None] * len(self.bots),
            label=self.label,
            titles=self.titles,
            short_titles=self.short_titles,
        )
        for seat, action in self.state.history:
            told.play(action, seat)
        self.log = told.log
        self.last_trick = told.last_trick
        self.last_trick_round = told.last_trick_round
        self.last_trick_half = told.last_trick_half

    def save(self, path: Path) -> None:
        """Write the match as a ``meio-record/1`` record, and the sidecar next to it.

        The record is the whole match, every seat's hands included (so that it can
        be resumed and replayed): a player who opens the file sees the bots' cards.
        The terminal says so where it saves.
        """
        from meio.engine.record import Record

        text = Record.from_state(self.state).to_text()
        try:
            path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
            write_sidecar(
                path,
                seat=self.settings.seat,
                seed=self.settings.seed,
                bots=self.settings.bots,
                speed=self.settings.speed,
            )
        except OSError as exc:
            raise SessionError(f"cannot write {path}: {exc.strerror}") from None

    # -- what the human may see ----------------------------------------------------------
    @property
    def seat(self) -> int:
        return self.settings.seat

    @property
    def names(self) -> list[str]:
        """The seats' names as the log and the table show them."""
        return self.titles or seat_names(self.settings.players, self.seat)

    @property
    def short_names(self) -> list[str]:
        """The seats' names as they fit under a card in the trick (5 characters)."""
        return self.short_titles or self.names

    def set_speed(self, speed: str) -> None:
        """Change the bots' speed; it is saved with the match."""
        if speed not in SPEEDS:
            raise SessionError(f"unknown speed {speed!r}; choose one of: {', '.join(SPEEDS)}")
        self.settings = replace(self.settings, speed=speed)

    def view(self) -> View:
        """The human seat's view: the only source of what the screen shows."""
        return self.state.view(self.seat)

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def human_to_act(self) -> bool:
        """Whether the match waits for the human (their split, card or pile choice)."""
        return self.seat in self.state.seats_to_act()

    def bot_to_act(self) -> int | None:
        """The bot seat that acts next, or None when it is the human's turn or the match is over."""
        for s in self.state.seats_to_act():
            if s != self.seat:
                return s
        return None

    # -- acting --------------------------------------------------------------------------
    def bot_request(self, seat: int) -> tuple[Bot, View, Sequence[int]]:
        """The bot of ``seat``, that seat's view and its legal actions.

        Build this where the state lives (the UI thread); ``bot.choose(view, legal)``
        may then run in a worker thread, as it touches neither the state nor the screen.
        """
        bot = self.bots[seat]
        if bot is None:
            raise SessionError(f"seat {seat} is played by the human, not a bot")
        view = self.state.view(seat)
        return bot, view, view.legal_actions()

    def bot_choice(self, seat: int) -> int:
        """Ask seat's bot for its action (in the calling thread)."""
        bot, view, legal = self.bot_request(seat)
        return bot.choose(view, legal)

    def run_bots(self) -> None:
        """Let the bots act until the human must act or the match ends (no delays)."""
        seat = self.bot_to_act()
        while seat is not None:
            self.play(self.bot_choice(seat), seat)
            seat = self.bot_to_act()

    def play(self, action: int, seat: int | None = None) -> None:
        """Apply ``action`` for ``seat`` (default: the human), logging what everyone saw.

        Raises :class:`IllegalActionError` (with a reason for the player) and changes
        nothing when the rules do not allow it.
        """
        who = self.seat if seat is None else seat
        st = self.state
        if st.is_over:
            raise illegal(who, action, reason("match_over"))
        before_round = st.round_index
        outcome = st.apply(action, who)
        self._log_action(who, action, before_round)
        trick = outcome.trick
        if trick is not None and trick.pile:
            # the trick is the round's last one when the round ended with it
            cfg = st.config
            done = cfg.hand_size if outcome.round_over is not None else len(st.tricks)
            self._log_trick(before_round, trick, 1 if done <= cfg.first_half_size else 2)
        if outcome.round_over is not None:
            self._log_round_end(before_round)

    # -- taking a card back ----------------------------------------------------------------
    def undo_point(self) -> int | None:
        """How many actions stay if the human takes back their last card (None: nothing to undo).

        Only a card of this round can be taken back, and only while the match
        goes on; everything played after it (the bots' cards, a pile choice) goes too.
        """
        st = self.state
        if not self.settings.undo or st.is_over:
            return None
        start = st.round_starts()[-1].history_len
        for index in range(len(st.history) - 1, start - 1, -1):
            seat, action = st.history[index]
            if seat == self.seat and not A.is_pack(action) and not A.is_pile(action):
                return index
        return None

    def undo_last_card(self) -> int:
        """Take back the human's last card of this round; returns that card.

        Raises :class:`SessionError` when there is none (or undo is off).
        """
        point = self.undo_point()
        if point is None:
            if not self.settings.undo:
                raise SessionError(_("Taking a card back is not allowed at this table."))
            raise SessionError(_("You have no card to take back in this round."))
        card = A.card_of(self.state.history[point][1])
        while len(self.state.history) > point:
            self.state.undo()
        self.log = [e for e in self.log if e.step <= point]
        done = [e for e in self.log if e.trick is not None]
        if done:
            last = done[-1]
            self.last_trick, self.last_trick_round, self.last_trick_half = (
                last.trick,
                last.round_index,
                last.half,
            )
        else:
            self.last_trick, self.last_trick_round, self.last_trick_half = None, -1, 1
        self.log.append(
            LogEntry(
                self.state.round_index,
                _("You took back {card}.").format(card=self.label(card)),
                step=point,
            )
        )
        return card

    def _entry(
        self, round_index: int, text: str, trick: Trick | None = None, half: int = 1
    ) -> None:
        self.log.append(LogEntry(round_index, text, trick, half, len(self.state.history)))

    def _log_action(self, seat: int, action: int, r: int) -> None:
        name = self.names[seat]
        cfg = self.state.config
        if A.is_pack(action):
            if seat != self.seat:
                text = _("{name} chose a pack.").format(name=name)
            elif cfg.partnership:
                partner = self.names[(seat + 2) % 4]
                text = _("You pass {cards} to {partner} for the second half.").format(
                    cards=self._labels(A.pack_of(action)), partner=partner
                )
            else:
                text = _("You keep {cards} for the second half.").format(
                    cards=self._labels(A.pack_of(action))
                )
        elif A.is_pile(action):
            if action == A.PILE_1:
                text = _("{name} put the trick in the first-half pile (H).").format(name=name)
            else:
                text = _("{name} put the trick in the second-half pile (V).").format(name=name)
        elif A.is_declare(action):
            text = _("{name} led {card} and declared {suit}.").format(
                name=name,
                card=self.label(A.card_of(action)),
                suit=suit_name(A.declared_suit(action)),
            )
        else:
            text = _("{name} played {card}.").format(name=name, card=self.label(action))
        self._entry(r, text)
        human = 0 <= self.seat < cfg.players
        if A.is_pack(action) and cfg.partnership and human and self.state.phase is not Phase.SPLIT:
            mate = (self.seat + 2) % 4
            self._entry(
                r,
                _("You receive {partner}'s pack: {cards}.").format(
                    partner=self.names[mate], cards=self._labels(self.view().received)
                ),
            )

    def _labels(self, mask: int) -> str:
        # in the order of the hand on the screen (classic: the Ace first)
        return " ".join(self.label(c) for c in sorted_cards(mask, self.state.config.edition))

    def _log_trick(self, round_index: int, trick: Trick, half: int) -> None:
        self.last_trick = trick
        self.last_trick_round = round_index
        self.last_trick_half = half
        name = self.names[trick.winner]
        if trick.pile == 1:
            text = _("{name} won the trick → pile H (first half).").format(name=name)
        else:
            text = _("{name} won the trick → pile V (second half).").format(name=name)
        self._entry(round_index, text, trick, half)

    def _log_round_end(self, round_index: int) -> None:
        result = self.state.rounds[round_index]
        scores = ", ".join(f"{n} {v}" for n, v in zip(self.names, result.scores, strict=True))
        self._entry(
            round_index, _("Round {n} over: {scores}.").format(n=round_index + 1, scores=scores)
        )
        if self.state.is_over:
            self._entry(round_index, _("Match over: {winners}.").format(winners=self.winner_text()))

    def winner_text(self) -> str:
        """Who won the match, in words (empty while it goes on)."""
        return winner_text(self.state.winners, self.names, self.seat)


def winner_text(winners: Sequence[int], names: Sequence[str], seat: int) -> str:
    """Who won a match, in words, as ``seat`` (the human's) hears it: ``you win``,
    ``Bot 1 wins``, ``You and Bot 2 win (you share the victory)``; empty when nobody has."""
    if not winners:
        return ""
    won = [names[s] for s in winners]
    you = seat in winners
    if len(won) == 1:
        return _("you win") if you else _("{name} wins").format(name=won[0])
    joined = _(" and ").join(won)
    if you:
        return _("{names} win (you share the victory)").format(names=joined)
    return _("{names} win").format(names=joined)


def _make_bots(settings: PlaySettings) -> list[Bot | None]:
    return [
        None if s == settings.seat else make_bot(kind, settings.seed * 31 + s + 1)
        for s, kind in enumerate(settings.bots)
    ]
