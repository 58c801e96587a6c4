"""``meio demo``: watch bots play a match, trick by trick."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated

import typer

from meio.cli.app import app, bot_table
from meio.cli.options import HideSpecialsOption, WildLeadOption, rules_text

if TYPE_CHECKING:
    from rich.console import Console

    from meio.engine.tricks import Trick


@app.command()
def demo(
    players: Annotated[int, typer.Option("--players", "-n", help="2 to 5")] = 4,
    edition: Annotated[str, typer.Option(help="meio or classic")] = "meio",
    partnership: Annotated[bool, typer.Option(help="4 players in two teams")] = False,
    seed: Annotated[int, typer.Option(help="random seed")] = 1,
    bot: Annotated[str, typer.Option(help="the bot that plays every seat")] = "random",
    delay: Annotated[float, typer.Option(help="seconds to pause after each trick")] = 0.0,
    wild_lead: WildLeadOption = "declare",
    hide_specials: HideSpecialsOption = False,
) -> None:
    """Bots play a whole match; every trick is shown as it is played."""
    from rich.console import Console

    from meio.bots import bot_turn
    from meio.engine import State
    from meio.engine import cards as C

    console = Console(highlight=False)
    config, bots = bot_table(edition, players, partnership, seed, bot, wild_lead,
                             not hide_specials)
    state = State.new(config)
    specials = " ".join(C.card_code(s) for s in config.special_cards) or "none"
    if not config.reveal_specials and config.special_cards:
        specials = f"{len(config.special_cards)}, not shown"
    console.print(
        f"[bold]MEIO[/] {config.edition} edition, {players} players"
        f"{' in partnership' if partnership else ''}; specials: {specials}; bots: {bot}"
    )
    console.print(f"table options: {rules_text(config.wild_lead, config.reveal_specials)}")
    round_seen = -1
    tricks_seen = 0
    while not state.is_over:
        if state.round_index != round_seen:
            round_seen = state.round_index
            tricks_seen = 0
            console.rule(f"Round {round_seen + 1} — seat {state.round_leader} leads")
        bot_turn(state, bots)
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
            console.print(f"  piles   {piles}")
            console.print("  scores  " + "  ".join(f"{s}:{v}" for s, v in enumerate(res.scores)))
            if res.team_scores is not None:
                console.print(
                    f"  teams   seats 0+2: {res.team_scores[0]}  seats 1+3: {res.team_scores[1]}"
                )
            if res.victory is not None:
                who = (
                    f"seats {res.victory} and {res.victory + 2}"
                    if config.partnership
                    else f"seat {res.victory}"
                )
                console.print(f"  [bold]victory[/] {who}")
            round_seen = len(state.rounds) - 1 if state.is_over else round_seen
    console.rule("Match over")
    console.print("totals  " + "  ".join(f"seat {s}: {v}" for s, v in enumerate(state.totals)))
    console.print("[bold green]winner[/] " + ", ".join(f"seat {w}" for w in state.winners))


def _show_trick(console: Console, k: int, trick: Trick) -> None:
    from meio.engine import cards as C

    texts = [C.card_code(c) for _, c in trick.plays]
    if trick.declared >= 0:
        texts[0] += "=" + C.SUITS[trick.declared]
    played = " ".join(f"{s}:{t:<5}" for (s, _), t in zip(trick.plays, texts, strict=True))
    console.print(f"  trick {k + 1:2d}  {played} → seat {trick.winner}, pile {trick.pile}")
