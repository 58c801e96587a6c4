"""``meio simulate``: play many rounds or matches with the compiled core."""

from __future__ import annotations

import json
import sys
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated

import typer

from meio.cli.app import app
from meio.cli.errors import meio_error_text
from meio.cli.files import OutputFile, is_dash
from meio.cli.options import (
    EditionOption,
    HideSpecialsOption,
    OldPolicyOption,
    PlayersOption,
    VariantOption,
    WildLeadOption,
    check_table,
    either,
    read_variant,
    rules_text,
    seed_option,
)
from meio.i18n import _

#: the most rounds or matches one run plays
MAX_GAMES = 50_000_000


@app.command(
    help=_("Play many seeded rounds or matches; print throughput and score statistics.")
)
def simulate(
    players: PlayersOption = 4,
    edition: EditionOption = "meio",
    partnership: Annotated[bool, typer.Option(help=_("4 players in two teams"))] = False,
    specials: Annotated[
        str | None,
        typer.Option(help=_("the special cards, e.g. '-1,A+,+.5,Q+' (default: drawn)")),
    ] = None,
    rounds: Annotated[
        int | None, typer.Option(min=1, max=MAX_GAMES,
                                 help=_("play this many single rounds (instead of matches)"))
    ] = None,
    matches: Annotated[
        int | None, typer.Option(min=1, max=MAX_GAMES, help=_("play this many whole matches"))
    ] = None,
    bots: Annotated[
        str, typer.Option(help=_("the compiled bot for every seat: random or heuristic"))
    ] = "heuristic",
    jobs: Annotated[int, typer.Option(min=1, max=1024, help=_("worker processes"))] = 1,
    seed: Annotated[int, seed_option(_("random seed"))] = 1,
    records: Annotated[
        Path | None,
        typer.Option(
            parser=OutputFile(dash=True), metavar=_("FILE"),
            help=_("write the games as meio-record/1 lines (JSON Lines) to this file ('-': "
                   "to standard output, and the report to standard error)"),
        ),
    ] = None,
    wild_lead: WildLeadOption = "declare",
    hide_specials: HideSpecialsOption = False,
    old_policy: OldPolicyOption = None,
    variant_file: VariantOption = None,
) -> None:
    variant = read_variant(variant_file, wild_lead, not hide_specials)
    from meio.engine import MatchConfig, TableOptions
    from meio.engine import cards as C
    from meio.engine.errors import MeioError

    policy = either(bots, old_policy)
    to_stdout = is_dash(records)

    def report(line: str) -> None:
        typer.echo(line, err=to_stdout)

    if rounds is not None and matches is not None:
        typer.echo(_("give either --rounds or --matches, not both"), err=True)
        raise typer.Exit(2)
    if variant is not None:
        edition = variant.edition
    else:
        check_table(edition, players, partnership)
    count = rounds if rounds is not None else (matches if matches is not None else 1000)
    try:
        config = MatchConfig(
            edition=edition,  # type: ignore[arg-type]
            players=players,
            partnership=partnership,
            specials=None if specials is None else tuple(
                C.parse_card(x) for x in specials.replace(",", " ").split()
            ),
            seed=seed,
            options=TableOptions(wild_lead, not hide_specials)  # type: ignore[arg-type]
            if variant is None else variant.options,
            variant=variant,
        )
        started = time.perf_counter()
        from meio.sim import simulate as run

        run(config, 1, seed, policy)  # load the compiled kernels before timing
        loaded = time.perf_counter()
        res = run(config, count, seed, policy, record=records is not None,
                  rounds=rounds is not None, jobs=jobs)
    except (MeioError, ValueError) as exc:
        typer.echo(meio_error_text(exc), err=True)
        raise typer.Exit(2) from None
    elapsed = time.perf_counter() - loaded
    played = int(res.rounds_played.sum())
    games = (
        _("{count} rounds").format(count=count)
        if rounds is not None
        else _("{count} matches ({rounds} rounds)").format(count=count, rounds=played)
    )
    table = (
        _("{edition} edition, {players} players in partnership")
        if partnership
        else _("{edition} edition, {players} players")
    ).format(edition=config.edition, players=players)
    if variant is not None:
        table = _("variant {name}, {table}").format(name=variant.name, table=table)
    specials_text = " ".join(C.card_code(s) for s in config.special_cards) or _("none")
    report(
        _("{games}, {table}, specials {specials}, {options}, policy {policy}, "
          "{jobs} job(s), seed {seed}").format(
            games=games, table=table, specials=specials_text,
            options=rules_text(config.options.wild_lead, config.options.reveal_specials),
            policy=policy, jobs=jobs, seed=seed,
        )
    )
    report(
        _("time {elapsed:.3f} s (+ {loading:.2f} s loading the core): "
          "{cards:,.0f} cards/s, {rounds:,.0f} rounds/s").format(
            elapsed=elapsed, loading=loaded - started,
            cards=res.cards_played / elapsed, rounds=played / elapsed,
        )
    )
    scores = res.team_scores if partnership else res.scores
    if scores is None:
        raise typer.BadParameter(_("the simulation kept no per-round scores to summarise"))
    played_mask = res.rounds_played[:, None] > range(scores.shape[1])
    per_round = scores[played_mask]
    columns = (
        [_("team 0+2"), _("team 1+3")]
        if partnership
        else [_("seat {seat}").format(seat=p) for p in range(players)]
    )
    means = " ".join(f"{c} {per_round[:, i].mean():.3f}" for i, c in enumerate(columns))
    if variant is None or variant.scoring == "difference":
        report(_("mean round score |H-V|: {means}").format(means=means))
    else:
        report(_("mean round score ({form}): {means}").format(form=variant.scoring, means=means))
    values = per_round.ravel()
    dist = {int(v): int((values == v).sum()) for v in sorted(set(values.tolist()))}
    report(_("score distribution: {shares}").format(shares=", ".join(
        f"{v}: {100 * c / values.size:.1f}%" for v, c in dist.items())))
    if rounds is None:
        wins = res.winners().mean(axis=0)
        report(_("match wins (shared wins count for each): {shares}").format(
            shares=" ".join(
                _("seat {seat}").format(seat=p) + f" {100 * w:.1f}%" for p, w in enumerate(wins)
            )
        ))
    if records is not None:
        with (nullcontext(sys.stdout) if to_stdout else records.open("w")) as fh:
            for g in range(res.games):
                fh.write(json.dumps(res.record(g)) + "\n")
        if not to_stdout:
            report(_("wrote {n} records to {file}").format(n=res.games, file=records))
