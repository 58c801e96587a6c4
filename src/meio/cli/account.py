"""The readable account ``meio replay`` prints, in the language of the command.

The engine's :func:`meio.engine.record.describe` writes the same account in English
only (the engine knows nothing of translations); this module writes it from the
same ``meio-result/1`` document with every phrase looked up in the catalogue, so
the English account is word for word the engine's and the Portuguese one uses the
game's own words (rodada, vaza, primeira/segunda metade, pilha).
"""

from __future__ import annotations

from collections.abc import Sequence

from meio.cli.options import option_word
from meio.engine import cards as C
from meio.engine.record import result_json
from meio.engine.state import State
from meio.engine.wire import options_json
from meio.i18n import N_, _

#: how each table option of RULES.md §10 reads in the header
OPTION_TEXT = {
    "wild_lead": N_("wild_lead {value}"),
    "reveal_specials": N_("reveal_specials {value}"),
}


def _seat(seat: int) -> str:
    return _("seat {seat}").format(seat=seat)


def _seats(values: Sequence[object]) -> str:
    return "  ".join(
        _("seat {seat}: {value}").format(seat=s, value=v) for s, v in enumerate(values)
    )


def _option(name: str, value: object) -> str:
    word = option_word(value)
    return _(OPTION_TEXT[name]).format(value=word) if name in OPTION_TEXT else f"{name} {word}"


def header(state: State) -> str:
    """The first line: edition, table, specials and the table options that differ."""
    cfg = state.config
    text = _("MEIO ({edition} edition), {players} players").format(
        edition=cfg.edition, players=cfg.players
    )
    if cfg.variant is not None:
        text += f"; variant {cfg.variant.name}"
    if cfg.partnership:
        text += _(", partnership")
    specials = " ".join(C.card_code(s) for s in cfg.special_cards)
    if specials:
        text += _("; specials {cards}").format(cards=specials)
    options = ", ".join(_option(k, v) for k, v in options_json(cfg.options).items())
    if options:
        text += _("; table options: {options}").format(options=options)
    return text


def account(state: State, rounds: int | None = None) -> list[str]:
    """A readable account of a match in the current language: each trick, the piles,
    the scores and the result (``rounds`` limits it to the first rounds, as
    :func:`meio.engine.record.result_json` does)."""
    cfg = state.config
    res = result_json(state, rounds)
    lines = [header(state)]
    for r, rnd in enumerate(res["rounds"]):
        lines.append("")
        lines.append(_("Round {n}").format(n=r + 1))
        for k, t in enumerate(rnd["tricks"]):
            half = _("first half") if k < cfg.first_half_size else _("second half")
            cards = " ".join(f"{c}" for c in t["cards"])
            lines.append(
                _(
                    "  trick {n:2d} ({half}), seat {leader} leads: {cards:<24} "
                    "-> seat {winner}, pile {pile}"
                ).format(
                    n=k + 1,
                    half=half,
                    leader=t["leader"],
                    cards=cards,
                    winner=t["winner"],
                    pile=t["pile"],
                )
            )
        piles = "  ".join(
            _("seat {seat}: H {h} V {v}").format(seat=s, h=h, v=v)
            for s, (h, v) in enumerate(rnd["piles"])
        )
        lines.append(_("  piles  {piles}").format(piles=piles))
        if rnd["scores"] is None:
            lines.append(_("  (round in progress)"))
            continue
        lines.append(_("  scores {scores}").format(scores=_seats(rnd["scores"])))
        if rnd["team_scores"] is not None:
            a, b = rnd["team_scores"]
            lines.append(_("  teams  seats 0+2: {a}  seats 1+3: {b}").format(a=a, b=b))
        if rnd["victory"] is not None:
            v = rnd["victory"]
            who = (
                _("team of seats {a} and {b}").format(a=v, b=v + 2)
                if cfg.partnership
                else _seat(v)
            )
            lines.append(_("  victory: {who}").format(who=who))
    lines.append("")
    lines.append(_("Totals: {totals}").format(totals=_seats(res["totals"])))
    if res["victories"] is not None:
        victories = "  ".join(str(v) for v in res["victories"])
        lines.append(_("Victories: {counts}").format(counts=victories))
    if res["finished"]:
        winners: Sequence[int] = res["winners"]
        names = ", ".join(_seat(w) for w in winners)
        if len(winners) > 1 and not cfg.partnership:
            lines.append(_("Winner: {seats} (shared)").format(seats=names))
        else:
            lines.append(_("Winner: {seats}").format(seats=names))
    else:
        lines.append(_("The match is in progress."))
    return lines
