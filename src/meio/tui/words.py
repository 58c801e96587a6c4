"""What the table says beyond its panels: why a move is refused, and the advisor's hints.

The engine refuses a move with a reason code and its parameters; these functions
turn them, and the advisor's answers, into the player's words, cards and suits
drawn as on the table.
"""

from __future__ import annotations

from rich.text import Text

from meio.bots.advisor import Advice, PlayAdvice
from meio.engine import IllegalActionError
from meio.engine import actions as A
from meio.engine import cards as C
from meio.i18n import _, decimal
from meio.i18n.reasons import explain
from meio.tui.cards import card_label, cards_text, sorted_cards, suit_symbol

#: the split hint's budget (:func:`~meio.bots.advisor.budget_worlds`: a fixed number of
#: sampled deals, so ``h`` twice on the same hand gives the same answer)
HINT_BUDGET_S = 1.0


def score_text(mean: float, low: float, high: float) -> str:
    """An expected score with its 95% interval: ``0.30 (likely 0.10–0.50)``, or
    ``0.00 in every sampled deal`` when the deals all agreed (no "between 0 and 0")."""
    if high - low < 0.005:
        return _("{score} in every sampled deal").format(score=decimal(mean))
    return _("{score} (likely {low}–{high})").format(
        score=decimal(mean), low=decimal(low), high=decimal(high)
    )


def reason_text(exc: IllegalActionError, ascii: bool) -> str:
    """The engine's reason in the current language, cards and suits drawn as on the table."""
    return explain(
        exc.code,
        exc.params,
        exc.reason,
        card=lambda code: card_label(C.parse_card(code), ascii),
        suit=lambda letter: suit_symbol(C.parse_suit(letter), ascii),
    )


def describe_illegal(exc: IllegalActionError, ascii: bool) -> str:
    """Why a move is refused, in a player's words (``you must follow ♠``), from the
    engine's reason code and parameters."""
    params = exc.params
    if exc.code == "must_follow":
        led = suit_symbol(C.parse_suit(str(params["suit"])), ascii)
        card = card_label(C.parse_card(str(params["card"])), ascii)
        return _(
            "You must follow {led}: you hold {led} cards, so play one of them (or a wild), "
            "not {card}."
        ).format(led=led, card=card)
    return _("Not allowed: {reason}.").format(reason=reason_text(exc, ascii))


def play_label(action: int, ascii: bool) -> str:
    """A card to play as the hint names it: ``Q♠``, or ``A+=♥`` for a wild that declares."""
    card = card_label(A.card_of(action), ascii)
    if A.is_declare(action):
        return f"{card}={suit_symbol(A.declared_suit(action), ascii)}"
    return card


def play_hint(advice: PlayAdvice, ascii: bool) -> Text:
    """The card hint in two lines: the best play with its interval, then the others."""
    best = advice.best
    out = Text(_("Hint:") + " ", "bold")
    out.append(
        _("play {card} · expected |H−V| {score} · b selects it").format(
            card=play_label(best.action, ascii),
            score=score_text(best.mean, best.low, best.high),
        )
    )
    others = [f"{play_label(o.action, ascii)} {decimal(o.mean)}" for o in advice.options[1:6]]
    if others:
        out.append("\n" + _("Others:") + " " + " · ".join(others), "dim")
    return out


def pack_hint(advice: Advice, chosen: int | None, edition: str, ascii: bool) -> Text:
    """The split advisor's answer in three lines (they fit 80 columns in both languages)."""
    best, mine = advice.best, advice.chosen
    out = Text(_("Best pack:") + " ", "bold")
    out.append_text(cards_text(sorted_cards(best.pack, edition), ascii, half=2, edition=edition))
    out.append("  " + _("(b: use it)") + "\n", "dim")
    out.append(
        _("Expected |H−V| {score} · about {h} tricks in H, {v} in V").format(
            score=score_text(best.mean, best.low, best.high),
            h=decimal(best.first_half_tricks, 1),
            v=decimal(best.second_half_tricks, 1),
        )
        + "\n"
    )
    if mine is not None and chosen is not None:
        if mine.pack == best.pack:
            out.append(_("Your 6 cards are that pack: the best found."), "italic")
        else:
            out.append(
                _("Your 6 cards: {score} (lower is better)").format(
                    score=score_text(mine.mean, mine.low, mine.high)
                ),
                "italic",
            )
    else:
        out.append(_("Pick 6 cards and press h again to score your own pack."), "italic")
    return out
