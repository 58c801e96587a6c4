"""``meio demo``: watch bots play a match, trick by trick."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated

import typer

from meio.cli.app import app, bot_table
from meio.cli.options import (
    EditionOption,
    HideSpecialsOption,
    OldBotOption,
    PlayersOption,
    WildLeadOption,
    either,
    rules_text,
    seed_option,
)
from meio.i18n import _

if TYPE_CHECKING:
    from rich.console import Console

    from meio.engine.tricks import Trick


@app.command(help=_("Bots play a whole match; every trick is shown as it is played."))
def demo(
    players: PlayersOption = 4,
    edition: EditionOption = "meio",
    partnership: Annotated[bool, typer.Option(help=_("4 players in two teams"))] = False,
    seed: Annotated[int, seed_option(_("random seed"))] = 1,
    bots: Annotated[str, typer.Option(help=_("the bot that plays every seat"))] = "random",
    delay: Annotated[float, typer.Option(
        min=0, max=60, help=_("seconds to pause after each trick"))] = 0.0,
    wild_lead: WildLeadOption = "declare",
    hide_specials: HideSpecialsOption = False,
    old_bot: OldBotOption = None,
) -> None:
    from rich.console import Console

    from meio.bots import bot_turn
    from meio.engine import State
    from meio.engine import cards as C

    bot = either(bots, old_bot)
    console = Console(highlight=False)
    config, table_bots = bot_table(edition, players, partnership, seed, bot, wild_lead,
                                   not hide_specials)
    state = State.new(config)
    specials = " ".join(C.card_code(s) for s in config.special_cards) or _("none")
    if not config.options.reveal_specials and config.special_cards:
        specials = _("{n}, not shown").format(n=len(config.special_cards))
    table = (
        _("{edition} edition, {players} players in partnership")
        if partnership
        else _("{edition} edition, {players} players")
    ).format(edition=config.edition, players=players)
    console.print(
        "[bold]MEIO[/] "
        + _("{table}; specials: {specials}; bots: {bot}").format(
            table=table, specials=specials, bot=bot
        )
    )
    console.print(
        _("table options: {options}").format(
            options=rules_text(config.options.wild_lead, config.options.reveal_specials)
        )
    )
    round_seen = -1
    tricks_seen = 0
    while not state.is_over:
        if state.round_index != round_seen:
            round_seen = state.round_index
            tricks_seen = 0
            console.rule(
                _("Round {n} — seat {seat} leads").format(
                    n=round_seen + 1, seat=state.round_leader
                )
            )
        bot_turn(state, table_bots)
        finished = [t for t in state.tricks if t.pile]
        if state.round_index == round_seen and len(finished) > tricks_seen:
            for k in range(tricks_seen, len(finished)):
                _show_trick(console, k, finished[k])
            tricks_seen = len(finished)
            if delay:
                time.sleep(delay)
        if len(state.rounds) > round_seen:
            res = state.rounds[round_seen]
            for k in range(tricks_seen, len(res.tricks)):
                _show_trick(console, k, res.tricks[k])
            tricks_seen = len(res.tricks)
            piles = "  ".join(f"{s}:H{h}/V{v}" for s, (h, v) in enumerate(res.piles))
            console.print(_("  piles   {piles}").format(piles=piles))
            scores = "  ".join(f"{s}:{v}" for s, v in enumerate(res.scores))
            console.print(_("  scores  {scores}").format(scores=scores))
            if res.team_scores is not None:
                a, b = res.team_scores
                console.print(_("  teams   seats 0+2: {a}  seats 1+3: {b}").format(a=a, b=b))
            if res.victory is not None:
                who = (
                    _("seats {a} and {b}").format(a=res.victory, b=res.victory + 2)
                    if config.partnership
                    else _("seat {seat}").format(seat=res.victory)
                )
                console.print(_("  [bold]victory[/] {who}").format(who=who))
            round_seen = len(state.rounds) - 1 if state.is_over else round_seen
    console.rule(_("Match over"))
    totals = "  ".join(
        _("seat {seat}: {value}").format(seat=s, value=v) for s, v in enumerate(state.totals)
    )
    console.print(_("totals  {totals}").format(totals=totals))
    winners = ", ".join(_("seat {seat}").format(seat=w) for w in state.winners)
    console.print(_("[bold green]winner[/] {seats}").format(seats=winners))


def _show_trick(console: Console, k: int, trick: Trick) -> None:
    from meio.engine import cards as C

    texts = [C.card_code(c) for _seat, c in trick.plays]
    if trick.declared >= 0:
        texts[0] += "=" + C.SUITS[trick.declared]
    played = " ".join(f"{s}:{t:<5}" for (s, _card), t in zip(trick.plays, texts, strict=True))
    console.print(
        _("  trick {n:2d}  {plays} → seat {winner}, pile {pile}").format(
            n=k + 1, plays=played, winner=trick.winner, pile=trick.pile
        )
    )
