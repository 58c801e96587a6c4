"""The parts of the table that draw themselves: the status and rules lines, the seats,
the trick, the balance line, the log, the split, the pack line and the prompt.

Each panel holds reactive values (the human seat's :class:`~meio.engine.View` and a
few small values beside it) and draws them in its own ``render()``; the table screen
binds them to its own values once, in ``compose()``, and sets those when the match
moves on (Textual repaints a panel only when one of its values has changed). The
texts the panels show are the plain functions here, so the help screen and the
tests read the same words.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import reactive, var
from textual.widget import Widget

from meio.engine import Phase, Trick, View
from meio.engine import actions as A
from meio.i18n import _, ngettext
from meio.tui.cards import card_label, cards_text, sorted_cards, suit_symbol
from meio.tui.ruleset import NAME_WIDTH, match_text, variant_lines
from meio.tui.session import speed_name, winner_text
from meio.tui.widgets import balance_line, seats_table, trick_panel

#: a completed trick on show and the half it was played in
ShownTrick = tuple[Trick, int]


def status_text(view: View, speed: str) -> str:
    """The top line: edition, round, half, trick and the bots' speed (fits 80 columns)."""
    cfg = view.config
    edition = "MEIO" if cfg.edition == "meio" else _("Meio classic")
    if cfg.rounds and view.round_index >= cfg.rounds:
        # a variant whose ties are not shared plays on past its rounds
        rnd = _("Round {n} (to break a tie)").format(n=view.round_index + 1)
    elif cfg.rounds:
        rnd = _("Round {n}/{total}").format(n=view.round_index + 1, total=cfg.rounds)
    else:
        k = cfg.victories_to_win or 2
        rnd = ngettext("Round {n} (to {k} win)", "Round {n} (to {k} wins)", k).format(
            n=view.round_index + 1, k=k
        )
    parts = [edition, rnd]
    if view.is_over:
        parts.append(_("match over"))
    elif view.phase is Phase.SPLIT:
        parts.append(_("split"))
    else:
        parts.append(_("1st half") if view.half == 1 else _("2nd half"))
        parts.append(_("trick {n}/{total}").format(n=view.trick_number, total=cfg.hand_size))
    parts.append(_("bots {speed}").format(speed=speed_name(speed)))
    return " " + " · ".join(parts)


def specials_text(view: View, ascii: bool) -> str:
    """The special cards in the deck as this seat knows them."""
    cfg = view.config
    known = " ".join(card_label(c, ascii, cfg.rules) for c in view.specials)
    if cfg.options.reveal_specials:
        return _("Specials: {cards}").format(cards=known)
    if known:
        return _("Specials hidden: {n} in the deck; you know {cards}").format(
            n=view.special_count, cards=known
        )
    return _("Specials hidden: {n} in the deck").format(n=view.special_count)


def rules_line(view: View, ascii: bool) -> str:
    """The table's special cards and options, in one line."""
    cfg = view.config
    parts = []
    variant = cfg.variant
    if variant is not None:
        parts.append(_("Variant {name}").format(name=variant.name[:NAME_WIDTH]))
        if variant.trump < 0:
            parts.append(_("no trump"))
    if cfg.edition == "classic":
        parts.append(_("Classic deck: the Ace counts 1"))
    if variant.specials if variant is not None else cfg.edition == "meio":
        parts.append(specials_text(view, ascii))
    # a variant names its wild lead only where it has wilds
    wilds = any(s.suit < 0 for s in variant.specials) if variant is not None else None
    if cfg.options.wild_lead == "next" and wilds is not False:
        parts.append(_("wild lead: next card"))
    elif wilds or (wilds is None and cfg.edition == "meio"):
        parts.append(_("wild lead: declare"))
    return " · ".join(parts)


def table_rules_text(view: View, ascii: bool) -> str:
    """The table's options and the rules players ask about, for the help screen."""
    cfg = view.config
    lines = [rules_line(view, ascii)]
    if cfg.variant is not None:
        has_wilds = any(s.suit < 0 for s in cfg.variant.specials)
        return "\n".join(lines + _option_lines(view, has_wilds) + variant_lines(cfg, ascii))
    if cfg.edition == "meio":
        lines += _option_lines(view, True)
        lines.append(
            _(
                "A wild may be played on any trick, even if you hold the led suit. "
                "+.5 leading is worth ½."
            )
        )
        lines.append(
            _(
                "Hearts led and -2♥ your only heart: play it or a wild. Holding wilds but "
                "none of the led suit, you may play any card."
            )
        )
    else:
        lines.append(_("Classic: the Ace is the card 1, the lowest; hearts are trumps."))
    lines.append(match_text(cfg))
    return "\n".join(lines)


def _option_lines(view: View, wilds: bool) -> list[str]:
    """The table options' rules: how a led wild counts (at a table with wilds), and
    whether the specials in the deck are hidden."""
    cfg = view.config
    lines = []
    if wilds and cfg.options.wild_lead == "next":
        lines.append(
            _(
                "A led wild names no suit: play anything until the first non-wild card "
                "sets the suit; then every wild in the trick counts as that suit. An "
                "all-wild trick goes to the highest value."
            )
        )
    elif wilds:
        lines.append(_("A led wild declares the led suit (the wild counts as that suit)."))
    if not cfg.options.reveal_specials:
        lines.append(
            _("Nobody is told which specials are in the deck: you see yours and those played.")
        )
    return lines


def splitting(view: View, seat: int) -> bool:
    """Whether ``seat`` is still to choose its pack."""
    return view.phase is Phase.SPLIT and not view.split_done[seat]


def split_row(view: View, picked: frozenset[int], half: int, ascii: bool) -> Text:
    """A line of the split: the cards kept for the first half (``half`` 1), or the pack
    picked for the second (``half`` 2), with their count."""
    cfg = view.config
    cards = sorted_cards(view.hand, cfg.edition)
    if half == 1:
        shown = [c for c in cards if c not in picked]
        label = _("First half — {n}/{total}:")
        total = cfg.first_half_size
    else:
        shown = [c for c in cards if c in picked]
        label = (
            _("Pack for your partner — {n}/{total}:")
            if cfg.partnership
            else _("Second-half pack — {n}/{total}:")
        )
        total = cfg.pack_size
    out = Text(label.format(n=len(shown), total=total) + " ", "bold")
    return out.append_text(
        cards_text(shown, ascii, half=half, edition=cfg.edition, rules=cfg.rules)
    )


def pack_text(view: View, names: Sequence[str], seat: int, ascii: bool) -> Text:
    """The second half's cards, shown during the first: your pack, or your partner's."""
    if view.half == 2 or not view.pack or view.is_over:
        return Text("")
    cfg = view.config
    if cfg.partnership:
        partner = names[(seat + 2) % 4]
        if not view.received:
            return Text(
                _("{partner}'s pack reaches you once everyone has split.").format(partner=partner),
                "dim",
            )
        label = _("{partner}'s pack, yours for tricks {first}–{last}:").format(
            partner=partner, first=cfg.first_half_size + 1, last=cfg.hand_size
        ) + " "
        pack = view.received
    else:
        label = _("Your pack for tricks {first}–{last}:").format(
            first=cfg.first_half_size + 1, last=cfg.hand_size
        ) + " "
        pack = view.pack
    return Text(label, style="dim").append_text(
        cards_text(sorted_cards(pack, cfg.edition), ascii, half=2, edition=cfg.edition,
                   rules=cfg.rules)
    )


def prompt_text(
    view: View,
    names: Sequence[str],
    seat: int,
    *,
    picked: int,
    ascii: bool,
    offers_hint: bool = True,
) -> Text:
    """What the player may do now (``picked``: the cards picked for the pack so far;
    ``offers_hint``: whether the split's prompt names the ``h`` key)."""
    if view.is_over:
        return Text(
            _("Match over — {winners}. n: new match · q: quit").format(
                winners=winner_text(view.winners, names, seat)
            ),
            "bold green",
        )
    if splitting(view, seat):
        pack = view.config.pack_size
        if not offers_hint:
            return Text(
                _("Pick {pack} cards for the second half ({n}/{pack}): ←/→ Space; c confirm")
                .format(n=picked, pack=pack),
                "bold",
            )
        return Text(
            _(
                "Pick {pack} cards for the second half ({n}/{pack}): ←/→ Space; c confirm · "
                "h hint"
            ).format(n=picked, pack=pack),
            "bold",
        )
    if view.phase is Phase.SPLIT:
        return Text(_("Waiting for the others to split…"), "dim")
    if view.phase is Phase.PILE:
        card = pile_card(view, ascii)
        if view.pending_pile == seat:
            return Text(_("You won with {card}: choose the pile.").format(card=card), "bold")
        return Text(
            _("{name} won with {card} and chooses the pile…").format(
                name=names[view.pending_pile], card=card
            ),
            "dim",
        )
    if view.to_move == seat:
        if view.current_trick and view.led_suit < 0:
            return Text(_("Your turn: no suit is set yet, play any card. ←/→ Enter."), "bold")
        if view.current_trick:
            led = suit_symbol(view.led_suit, ascii)
            return Text(
                _("Your turn: follow {led} if you can. ←/→ and Enter to play.").format(led=led),
                "bold",
            )
        wilds = view.config.rules.wild
        if view.config.options.wild_lead == "next" or not wilds:
            return Text(_("Your lead: play any card. ←/→ and Enter to play."), "bold")
        return Text(_("Your lead: play any card (a wild asks for a suit). ←/→ Enter."), "bold")
    return Text(_("{name} is thinking…").format(name=names[view.to_move]), "dim")


def pile_card(view: View, ascii: bool) -> str:
    """The card that won the trick whose pile its winner is choosing (``+.5`` in the box)."""
    trick = view.tricks[-1]
    return card_label(dict(trick.plays)[trick.winner], ascii, view.config.rules)


def playable_cards(view: View) -> set[int]:
    """The cards that may be played now (none outside a trick)."""
    legal = view.legal_actions() if view.phase is Phase.PLAY else []
    return {A.card_of(a) for a in legal}


class Panel(Widget):
    """A part of the table drawn from the human seat's view (``view``, None before the
    table is set); ``ascii`` draws its own marks in ASCII."""

    DEFAULT_CSS = """
    Panel { height: auto; }
    """

    view: reactive[View | None] = reactive(None)

    def __init__(self, *, ascii: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii = ascii


class StatusLine(Panel):
    """The top line: edition, round, half, trick, the bots' speed; or ``heading``."""

    speed: reactive[str] = reactive("normal")
    #: a line shown in place of the status (the lesson's "round over")
    heading: reactive[str] = reactive("")

    def render(self) -> Text:
        if self.heading:
            return Text(" " + self.heading, "bold")
        if self.view is None:
            return Text("")
        return Text(status_text(self.view, self.speed), style="bold")


class RulesLine(Panel):
    """The table's special cards and options; or ``heading``."""

    #: a line shown in place of the rules (the lesson's title)
    heading: reactive[str] = reactive("")

    def render(self) -> Text:
        if self.heading:
            return Text(" " + self.heading, "bold")
        if self.view is None:
            return Text("")
        return Text(" " + rules_line(self.view, self.ascii))


class SeatsPanel(Panel):
    """Each seat: whose turn, name, level, piles, cards left and the score sheet."""

    # the panel is as wide as its columns, which grow with the names and the rounds
    view: reactive[View | None] = reactive(None, layout=True)

    def __init__(
        self, names: Sequence[str], levels: Sequence[str], *, ascii: bool = False, id: str
    ) -> None:
        super().__init__(ascii=ascii, id=id)
        self.names = list(names)
        self.levels = list(levels)

    def render(self) -> Text:
        if self.view is None:
            return Text("")
        return seats_table(self.view, self.names, self.levels, self.ascii)


class TrickPanel(Panel):
    """The trick in play, or ``shown``: the trick just completed, with its half."""

    shown: reactive[ShownTrick | None] = reactive(None)

    def __init__(self, names: Sequence[str], *, ascii: bool = False, id: str) -> None:
        super().__init__(ascii=ascii, id=id)
        #: the seats' names short enough to sit under a card
        self.names = list(names)

    def render(self) -> Text:
        if self.view is None:
            return Text("")
        last, half = self.shown if self.shown is not None else (None, 1)
        return trick_panel(self.view, self.names, last, half, self.ascii)


class BalanceLine(Panel):
    """Where ``seat`` (or its team) stands: H, V, the gap and the tricks left in the half."""

    def __init__(self, seat: int, *, ascii: bool = False, id: str) -> None:
        super().__init__(ascii=ascii, id=id)
        self.seat = seat

    def render(self) -> Text:
        if self.view is None:
            return Text("")
        return balance_line(self.view, self.seat, self.ascii)


class LogPanel(Panel):
    """The round's public log, its last lines as many as fit; or ``coach``."""

    lines: reactive[tuple[str, ...]] = reactive(tuple)
    #: what the lesson's coach says, shown in place of the log
    coach: reactive[Text | None] = reactive(None)

    def render(self) -> Text:
        if self.coach is not None:
            return self.coach
        rows = self.size.height or 6
        return Text("\n".join(self.lines[-rows:]))


class SplitRow(Panel):
    """One line of the split: the cards kept for the first half (``half`` 1) or the
    pack picked for the second (``half`` 2)."""

    picked: reactive[frozenset[int]] = reactive(frozenset)

    def __init__(self, half: int, *, ascii: bool = False, id: str) -> None:
        super().__init__(ascii=ascii, id=id)
        self.half = half

    def render(self) -> Text:
        if self.view is None or self.view.phase is not Phase.SPLIT:
            return Text("")
        return split_row(self.view, self.picked, self.half, self.ascii)


class HintPanel(Panel):
    """The advisor's ``hint`` on the split (or what the lesson's ``coach`` says)."""

    # the panel is as tall as its text (the split's rows above it keep theirs)
    hint: reactive[Text] = reactive(Text, layout=True)
    coach: reactive[Text | None] = reactive(None, layout=True)

    def render(self) -> Text:
        return self.coach if self.coach is not None else self.hint


class SplitPanel(Vertical):
    """The split: the cards kept for the first half and the pack picked, a line each
    (a hand of 13 may not fit one: it is cut, as the cards below show them all), and
    under them the advisor's ``hint`` (or the lesson's ``coach``)."""

    view: var[View | None] = var(None)
    picked: var[frozenset[int]] = var(frozenset)
    hint: var[Text] = var(Text)
    coach: var[Text | None] = var(None)

    def __init__(self, *, ascii: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        cls = SplitPanel
        yield SplitRow(1, ascii=self.ascii, id="keep").data_bind(cls.view, cls.picked)
        yield SplitRow(2, ascii=self.ascii, id="pack").data_bind(cls.view, cls.picked)
        yield HintPanel(ascii=self.ascii, id="hint").data_bind(cls.hint, cls.coach)


class PackLine(Panel):
    """During the first half: the pack that comes back for tricks 8–13."""

    def __init__(self, names: Sequence[str], seat: int, *, ascii: bool = False, id: str) -> None:
        super().__init__(ascii=ascii, id=id)
        self.names = list(names)
        self.seat = seat

    def render(self) -> Text:
        if self.view is None:
            return Text("")
        return pack_text(self.view, self.names, self.seat, self.ascii)


class PromptLine(Panel):
    """What the player may do now; or ``notice`` (an error, a confirmation, a hint)."""

    picked: reactive[frozenset[int]] = reactive(frozenset)
    notice: reactive[Text | None] = reactive(None)

    def __init__(
        self,
        names: Sequence[str],
        seat: int,
        *,
        offers_hint: bool = True,
        ascii: bool = False,
        id: str,
    ) -> None:
        super().__init__(ascii=ascii, id=id)
        self.names = list(names)
        self.seat = seat
        self.offers_hint = offers_hint

    def render(self) -> Text:
        if self.notice is not None:
            return self.notice
        if self.view is None:
            return Text("")
        return prompt_text(
            self.view,
            self.names,
            self.seat,
            picked=len(self.picked),
            ascii=self.ascii,
            offers_hint=self.offers_hint,
        )
