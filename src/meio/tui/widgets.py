"""The widgets of the table: the hand, the trick, the seats and score sheet, choosers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from meio.engine import Trick, View
from meio.engine.ruleset import CardRules
from meio.i18n import N_, _, ngettext
from meio.tui.bindings import translate_bindings
from meio.tui.cards import (
    BOX_RULES,
    CARD_WIDTH,
    blank_rows,
    card_face,
    is_wild,
    join_rows,
    suit_name,
    suit_symbol,
)


class HandView(Widget, can_focus=True):
    """The human's cards, face up and sorted; a cursor moves with ←/→ or the mouse.

    In *split* mode the picked cards (the second-half pack) stand raised; in
    *play* mode the card under the cursor stands raised and cards that may not be
    played now are greyed. Space, Enter or a click posts :class:`HandView.Activated`.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("home", "move(-99)", show=False),
        Binding("end", "move(99)", show=False),
        Binding("space,enter", "activate", N_("Pick/Play"), key_display=N_("Space")),
    ]

    DEFAULT_CSS = """
    HandView { height: 4; width: 1fr; }
    HandView:focus { background: $boost; }
    """

    class Activated(Message):
        """The player chose ``card`` (by key or click)."""

        def __init__(self, card: int) -> None:
            self.card = card
            super().__init__()

    def __init__(self, *, ascii: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii = ascii
        self.cards: list[int] = []
        self.picked: set[int] = set()
        self.playable: set[int] | None = None
        self.mode = "play"
        self.cursor = 0
        self.half = 1
        self.edition = "meio"
        self.rules: CardRules = BOX_RULES
        translate_bindings(self)

    def show(
        self,
        cards: Sequence[int],
        *,
        mode: str,
        half: int,
        edition: str,
        picked: set[int] | None = None,
        playable: set[int] | None = None,
        rules: CardRules = BOX_RULES,
    ) -> None:
        """Draw ``cards`` (already in hand order), keeping the cursor on the same card
        (``rules``: a variant's cards)."""
        current = self.current_card
        self.cards = list(cards)
        self.mode = mode
        self.half = half
        self.edition = edition
        self.picked = set(picked or ())
        self.playable = playable
        self.rules = rules
        if current in self.cards:
            self.cursor = self.cards.index(current)
        self.cursor = max(0, min(self.cursor, len(self.cards) - 1))
        self.refresh()

    @property
    def current_card(self) -> int | None:
        return self.cards[self.cursor] if 0 <= self.cursor < len(self.cards) else None

    def render(self) -> Text:
        faces: list[list[Text]] = []
        for i, card in enumerate(self.cards):
            at_cursor = i == self.cursor and self.has_focus
            dim = self.mode == "play" and self.playable is not None and card not in self.playable
            face = card_face(
                card,
                half=self.half,
                edition=self.edition,
                ascii=self.ascii,
                highlight="bold yellow" if at_cursor else "",
                dim=dim,
                rules=self.rules,
            )
            raised = card in self.picked if self.mode == "split" else at_cursor
            blank = Text(" " * CARD_WIDTH)
            faces.append([*face, blank] if raised else [blank, *face])
        if not faces:
            return Text(_("(no cards)"), style="dim")
        return join_rows(faces)

    def select(self, card: int) -> None:
        """Put the cursor on ``card`` (if it is in the hand)."""
        if card in self.cards:
            self.cursor = self.cards.index(card)
            self.refresh()

    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = max(0, min(len(self.cards) - 1, self.cursor + step))
            self.refresh()

    def action_activate(self) -> None:
        card = self.current_card
        if card is not None:
            self.post_message(self.Activated(card))

    def on_click(self, event: events.Click) -> None:
        index = event.x // CARD_WIDTH
        if 0 <= index < len(self.cards):
            self.cursor = index
            self.focus()
            self.post_message(self.Activated(self.cards[index]))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


def trick_faces(
    plays: Sequence[tuple[int, int]],
    names: Sequence[str],
    *,
    half: int,
    edition: str,
    ascii: bool,
    winner: int | None = None,
    rules: CardRules = BOX_RULES,
) -> Text:
    """The cards of a trick drawn face up, each with its player's name below it."""
    faces: list[list[Text]] = []
    for seat, card in plays:
        face = card_face(
            card,
            half=half,
            edition=edition,
            ascii=ascii,
            highlight="bold green" if seat == winner else "",
            rules=rules,
        )
        # one column is kept free so that neighbouring names never run together
        label = names[seat][: CARD_WIDTH - 1].center(CARD_WIDTH - 1) + " "
        faces.append([*face, Text(label, style="bold green" if seat == winner else "")])
    if not faces:
        faces.append([*blank_rows(), Text(" " * CARD_WIDTH)])
    return join_rows(faces)


def trick_panel(
    view: View, names: Sequence[str], last: Trick | None, last_half: int, ascii: bool
) -> Text:
    """The middle of the table: the trick in play, or the one just won."""
    cfg = view.config
    out = Text()
    if view.current_trick:
        led = view.led_suit
        leader = names[view.trick_leader]
        if led < 0:
            out.append(_("{name} led a wild: no suit yet").format(name=leader) + "\n", "bold")
        else:
            symbol = f"{suit_symbol(led, ascii)} {suit_name(led)}"
            if is_wild(view.current_trick[0][1], cfg.rules):
                line = _("{name} declared {suit}").format(name=leader, suit=symbol)
            else:
                line = _("{name} led {suit}").format(name=leader, suit=symbol)
            out.append(line + "\n", style="bold")
        out.append_text(
            trick_faces(view.current_trick, names, half=view.half, edition=cfg.edition,
                        ascii=ascii, rules=cfg.rules)
        )
    elif last is not None:
        you = last.winner == view.seat
        out.append(taken_line(names[last.winner], last.pile, you=you) + "\n", style="bold green")
        out.append_text(
            trick_faces(
                last.plays,
                names,
                half=last_half,
                edition=cfg.edition,
                ascii=ascii,
                winner=last.winner,
                rules=cfg.rules,
            )
        )
    else:
        out.append(_("No card played yet.") + "\n", style="dim")
        out.append_text(trick_faces((), names, half=view.half, edition=cfg.edition, ascii=ascii))
    return out


def taken_line(name: str, pile: int, *, you: bool = False) -> str:
    """``Bot 1 takes it → V`` (``You take it → V``): who won a trick and its pile.

    The arrow is the log's (``--ascii`` draws both as ``>``).
    """
    arrow = "→"
    # the replay of a terminal game names the human's seat "You" though it watches
    # as a spectator: the verb follows the name
    you = you or name == _("You")
    if pile not in (1, 2):  # a +.5 trick whose winner is choosing
        return (
            _("You take it: which pile?")
            if you
            else _("{name} takes it: which pile?").format(name=name)
        )
    where = "H" if pile == 1 else "V"
    if you:
        return _("You take it {arrow} {pile}").format(arrow=arrow, pile=where)
    return _("{name} takes it {arrow} {pile}").format(name=name, arrow=arrow, pile=where)


def seats_table(
    view: View, names: Sequence[str], levels: Sequence[str], ascii: bool = False
) -> Text:
    """Each seat: whose turn, name, bot level, H and V piles, cards left, the score sheet.

    In partnership only the team scores count, so each seat's score columns show
    its team's score (both partners' rows read the same).
    """
    cfg = view.config
    # the columns of the rounds to come: a match on totals shows them all (up to 5)
    rounds_shown = max(len(view.rounds), min(cfg.rounds or 1, 5))
    scores = [_score_row(view, s) for s in range(cfg.players)]
    unplayed = "." if ascii else "·"
    out = Text()
    seat, level, cards, total = _("Seat"), _("Level"), _("Cards"), _("Tot")
    labels = [names[s] + (f" {'AB'[s % 2]}" if cfg.partnership else "") for s in range(cfg.players)]
    shown = [_(lv) if lv in LEVEL_NAMES else lv for lv in levels]
    # columns as wide as their words (within reason), so no two names are cut alike
    # ("Jogador 1" and "Jogador 2") and no level loses its last letter ("heurístico")
    name_w = max(8, min(NAME_WIDTH, max(len(t) for t in labels)))
    level_w = max(len(level), min(LEVEL_WIDTH, max((len(t) for t in shown), default=0)))
    cards_w = max(3, len(cards))
    head = f"   {seat:<{name_w}} {level:<{level_w}}  H  V {cards:>{cards_w}} "
    head += "".join(f" R{r + 1}" for r in range(rounds_shown)) + f" {total:>4}"
    out.append(head + "\n", style="bold underline")
    acting = set(view.seats_to_act)
    turn, waiting, done = (">", ".", "+") if ascii else ("▶", "…", "✓")
    for s in range(cfg.players):
        mark = turn if s in acting and view.phase.name != "SPLIT" else " "
        if view.phase.name == "SPLIT":
            mark = waiting if not view.split_done[s] else done
        name = labels[s][:name_w]
        line = f" {mark} {name:<{name_w}} {shown[s][:level_w]:<{level_w}}"
        line += f" {view.piles[s][0]:>2} {view.piles[s][1]:>2} {view.hand_sizes[s]:>{cards_w}} "
        for r in range(rounds_shown):
            line += f" {scores[s][r]:>2}" if r < len(view.rounds) else f"  {unplayed}"
        line += f" {sum(scores[s]):>4}"
        style = "bold yellow" if s in acting else ("bold" if levels[s] == "human" else "")
        out.append(line + "\n", style=style)
    return out


#: the widest a seat's name and level may grow in the seats table
NAME_WIDTH = 10
LEVEL_WIDTH = 12  # "especialista", the longest level in either language


def _score_row(view: View, seat: int) -> list[int]:
    """The scores that count for ``seat``, round by round: its team's in partnership."""
    out = []
    for result in view.rounds:
        teams = result.team_scores
        out.append(teams[seat % 2] if teams is not None else result.scores[seat])
    return out


#: bot levels and the human, as the seats table names them
LEVEL_NAMES = (N_("human"), N_("random"), N_("heuristic"), N_("search"), N_("lesson"),
               N_("learned"), N_("expert"))


def balance_line(view: View, seat: int, ascii: bool = False) -> Text:
    """Where the player (or their team) stands: H and V, the gap, tricks left in this half."""
    cfg = view.config
    if cfg.partnership:
        mates = (seat % 2, seat % 2 + 2)
        h = sum(view.piles[s][0] for s in mates)
        v = sum(view.piles[s][1] for s in mates)
        out = Text(_("Team: H {h} · V {v}").format(h=h, v=v) + " — ")
    else:
        h, v = view.piles[seat]
        out = Text(_("You: H {h} · V {v}").format(h=h, v=v) + " — ")
    if h == v:
        out.append(_("balanced") + ("" if ascii else " ✓"), style="bold green")
    elif h > v:
        out.append(_("H ahead by {n}").format(n=h - v), style="bold red")
    else:
        out.append(_("V ahead by {n}").format(n=v - h), style="bold red")
    if view.phase.name in ("PLAY", "PILE"):
        left = (cfg.first_half_size if view.half == 1 else cfg.hand_size) - len(view.tricks)
        left_text = ngettext("{n} left in this half", "{n} left in this half", left)
        out.append(" · " + left_text.format(n=left), style="dim")
    if view.victories is not None:
        wins = " ".join(str(w) for w in view.victories)
        label = _("victories A B") if cfg.partnership else _("victories")
        out.append(f"  {label}: {wins}")
    return out


class Choice(Static, can_focus=True):
    """A one-line chooser: ``Label  ◀ value ▶``; ←/→, Space or a click change it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", show=False),
        Binding("right,space", "step(1)", show=False),
    ]

    DEFAULT_CSS = """
    Choice { height: 1; width: 1fr; }
    Choice:focus { background: $accent 40%; }
    """

    class Changed(Message):
        def __init__(self, choice: Choice) -> None:
            self.choice = choice
            super().__init__()

    def __init__(
        self,
        label: str,
        options: Sequence[str],
        value: str,
        *,
        id: str,
        ascii: bool = False,
        shown: Sequence[str] | None = None,
    ) -> None:
        super().__init__(id=id)
        self.label = label
        self.options = list(options)
        self.index = self.options.index(value) if value in self.options else 0
        self.ascii = ascii
        translate_bindings(self)
        #: how each option is shown (translated), by option
        self.shown = dict(zip(options, shown, strict=True)) if shown is not None else {}

    @property
    def value(self) -> str:
        return self.options[self.index]

    def set_options(self, options: Sequence[str], value: str | None = None) -> None:
        keep = self.value if value is None else value
        self.options = list(options)
        self.index = self.options.index(keep) if keep in self.options else 0
        self.refresh()

    def render(self) -> Text:
        out = Text(f" {self.label:<20}", style="bold")
        left, right = ("<", ">") if self.ascii else ("◀", "▶")
        value = self.shown.get(self.value, self.value)
        out.append(f"{left} {value} {right}", style="reverse" if self.has_focus else "")
        return out

    def action_step(self, step: int) -> None:
        self.index = (self.index + step) % len(self.options)
        self.refresh()
        self.post_message(self.Changed(self))

    def on_click(self) -> None:
        self.action_step(1)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

