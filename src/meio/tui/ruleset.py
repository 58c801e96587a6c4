"""The rules of a table in words: the split, the trump, the scoring, the match format,
the leader rule and, at a variant's table, each special card by its attributes.

A standard table says what the box says (the words the help has always shown); a
variant's table (docs/variants.md) says what its file sets, so the help, the rules
line and the split never speak of 13 cards, packs of 6 or hearts as trumps where the
variant has others.
"""

from __future__ import annotations

from meio.engine import MatchConfig
from meio.engine import cards as C
from meio.engine.ruleset import CardRules, SpecialCard, Variant
from meio.i18n import _, ngettext
from meio.tui.cards import BOX_RULES, card_label, half_value, suit_name

#: the longest variant name the rules line shows (the rest is cut)
NAME_WIDTH = 16


def split_text(cfg: MatchConfig) -> str:
    """How a hand is split: ``13 cards: 7 for the first half, a pack of 6 for the second.``"""
    return _("{hand} cards: {first} for the first half, a pack of {pack} for the second.").format(
        hand=cfg.hand_size, first=cfg.first_half_size, pack=cfg.pack_size
    )


def trump_text(cfg: MatchConfig) -> str:
    """The trump suit in a sentence, or that there is none."""
    trump = C.HEARTS if cfg.variant is None else cfg.variant.trump
    if trump < 0:
        return _("No trump: only the led suit wins a trick.")
    return _("Trumps: {suit}.").format(suit=suit_name(trump))


def score_text(cfg: MatchConfig) -> str:
    """A round's score as the table's scoring form gives it (lower is better)."""
    variant = cfg.variant
    if variant is None or variant.scoring == "difference":
        return _("Your score each round is |H - V|; the lowest total wins.")
    if variant.scoring == "squared":
        return _("Your score each round is (H - V)²; lower is better.")
    return _(
        "Your score each round is |H - V|, and -{bonus} for a perfect balance (H = V); "
        "lower is better."
    ).format(bonus=variant.bonus)


def match_text(cfg: MatchConfig) -> str:
    """The match format in a sentence: rounds on totals, or the first to K victories."""
    to_win = cfg.victories_to_win
    if cfg.variant is None and cfg.players == 2 and to_win is None:
        return _("2-player classic: 3 rounds on totals, no round victories.")
    if to_win is not None:
        return ngettext(
            "The first to {k} round victory wins the match.",
            "The first to {k} round victories wins the match.",
            to_win,
        ).format(k=to_win)
    rounds = cfg.rounds or 1
    shared = cfg.variant is None or cfg.variant.format_for(cfg.players, cfg.partnership).shared
    if shared:
        text = ngettext(
            "{n} round; the lowest total wins (a tie is shared).",
            "{n} rounds; the lowest total wins (a tie is shared).",
            rounds,
        )
    else:
        text = ngettext(
            "{n} round; the lowest total wins (a tie plays on until it breaks).",
            "{n} rounds; the lowest total wins (a tie plays on until it breaks).",
            rounds,
        )
    return text.format(n=rounds)


def leader_text(variant: Variant) -> str:
    """Who leads the next round, under the variant's leader rule."""
    if variant.leader == "last_trick":
        return _("The winner of a round's last trick leads the next round.")
    if variant.leader == "rotate":
        return _("The lead of each round passes to the next seat.")
    return _("The highest score of a round leads the next round (a tie is drawn).")


def _value_words(special: SpecialCard, ascii: bool) -> str:
    one, two = special.values
    if one is None and two is None:
        return _("worth ½ more than the card played before it (½ when it leads)")
    words = [
        _("½ more than the card before it") if v is None else half_value(v, ascii)
        for v in (one, two)
    ]
    if words[0] == words[1]:
        return _("worth {value}").format(value=words[0])
    return _("worth {one} in the first half, {two} in the second").format(
        one=words[0], two=words[1]
    )


def _suit_words(special: SpecialCard, declares: bool) -> str:
    if special.suit < 0:
        if declares:
            return _("wild: it follows any suit, and led it declares one")
        return _("wild: it follows any suit")
    suit = suit_name(special.suit)
    if special.follows:
        return _("a card of {suit}: it follows as one").format(suit=suit)
    return _("a card of {suit} that may be played on any trick").format(suit=suit)


def special_text(
    special: SpecialCard, declares: bool, ascii: bool = False, rules: CardRules = BOX_RULES
) -> str:
    """One special card of a variant by its attributes, e.g. ``Q+: worth 12½; wild: it
    follows any suit; a trick it wins goes to the other half's pile.``"""
    parts = [_value_words(special, ascii), _suit_words(special, declares)]
    if special.pile == "winner_chooses":
        parts.append(_("the winner of a trick it wins chooses the pile"))
    elif special.pile == "other_half":
        parts.append(_("a trick it wins goes to the other half's pile"))
    label = card_label(special.card, ascii, rules)
    if special.name and special.name not in (special.code, label):
        label += f" ({special.name})"
    return f"{label}: " + "; ".join(parts) + "."


def variant_lines(cfg: MatchConfig, ascii: bool = False) -> list[str]:
    """A variant table's rules for the help screen, a sentence each (none for a standard
    table, whose rules the help gives in its own words)."""
    variant = cfg.variant
    if variant is None:
        return []
    lines = [
        _("Variant {name}: rules from its file (docs/variants.md).").format(name=variant.name),
        split_text(cfg),
        trump_text(cfg),
    ]
    specials = [s for s in variant.specials if s.card in cfg.special_cards]
    if not cfg.options.reveal_specials:
        specials = list(variant.specials)  # the variant's cards, not the ones dealt in
    if specials:
        lines.append(ngettext("Its special card:", "Its special cards:", len(specials)))
        lines += ["  " + special_text(s, cfg.options.declares, ascii, cfg.rules) for s in specials]
    lines += [match_text(cfg), leader_text(variant)]
    return lines


def chooser_codes(cfg: MatchConfig) -> str:
    """The special cards whose winner chooses the trick's pile (``+.5`` in the box)."""
    if cfg.variant is None:
        return "+.5" if cfg.edition == "meio" else ""
    return "/".join(s.code for s in cfg.variant.specials if s.pile == "winner_chooses")
