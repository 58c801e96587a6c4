"""``meio simulate``: play many rounds or matches with the compiled core."""

from __future__ import annotations

import json
import sys
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import numpy.typing as npt
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
from meio.i18n import _, decimal

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
    from meio.analysis.stats import cluster_mean, mean_ci
    from meio.engine import MatchConfig, TableOptions
    from meio.engine import cards as C
    from meio.engine.errors import MeioError

    policy = either(bots, old_policy)
    to_stdout = is_dash(records)
    if policy.startswith("learned") or policy in ("ppo", "search", "expert") or \
            policy.startswith("search:"):
        typer.echo(_("the {bot} bot does not play in meio simulate, which plays the compiled "
                     "core's random and heuristic bots; play it with meio analyze --bots "
                     "{bot} (the network in the core) or meio tournament --bots "
                     "{bot},heuristic").format(bot=policy), err=True)
        raise typer.Exit(2)

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
    played_mask = res.rounds_played[:, None] > np.arange(scores.shape[1])
    per_round = scores[played_mask]
    sides = 2 if partnership else players
    offsets = _offsets(res.leaders, sides)[played_mask]  # [rounds, sides]
    match_of = np.broadcast_to(np.arange(scores.shape[0])[:, None],
                               played_mask.shape)[played_mask]
    rows = np.arange(len(per_round))
    names = _offset_names(sides, partnership)
    form = "|H-V|" if variant is None or variant.scoring == "difference" else variant.scoring
    report(_("mean round score {form} by seat after the round's leader, 95% CI over "
             "matches: {means}").format(form=form, means=" · ".join(
                 f"{name} {_shown(cluster_mean(per_round[rows, offsets[:, k]], match_of))}"
                 for k, name in enumerate(names))))
    values = per_round.ravel()
    dist = {int(v): int((values == v).sum()) for v in sorted(set(values.tolist()))}
    report(_("score distribution: {shares}").format(shares=", ".join(
        f"{v}: {100 * c / values.size:.1f}%" for v, c in dist.items())))
    if rounds is None:
        won = res.winners()
        first = _offsets(res.leaders[:, :1], players)[:, 0]  # [games, seats]
        by_first = won[np.arange(won.shape[0])[:, None], first]
        report(_("match wins by seat after the first round's leader (shared wins count for "
                 "each), 95% CI: {shares}").format(shares=" · ".join(
                     f"{name} {_shown(mean_ci(100 * by_first[:, k].astype(float)), 1)}%"
                     for k, name in enumerate(_offset_names(players, False)))))
    if records is not None:
        with (nullcontext(sys.stdout) if to_stdout else records.open("w")) as fh:
            for g in range(res.games):
                fh.write(json.dumps(res.record(g)) + "\n")
        if not to_stdout:
            report(_("wrote {n} records to {file}").format(n=res.games, file=records))


def _offsets(leaders: npt.NDArray[Any], sides: int) -> npt.NDArray[np.int64]:
    """Per game and round, the seat (the team in partnership: seat mod 2) at each offset
    from the round's leader: ``out[g, r, k]`` is the side ``k`` places after it."""
    lead = leaders.astype(np.int64) % sides
    return np.asarray((lead[..., None] + np.arange(sides)) % sides, dtype=np.int64)


def _offset_names(sides: int, partnership: bool) -> list[str]:
    if partnership:
        return [_("leader's team"), _("other team")]
    return [_("leader")] + [_("+{k}").format(k=k) for k in range(1, sides)]


def _shown(est: Any, digits: int = 3) -> str:
    return f"{decimal(est.value, digits)} [{decimal(est.low, digits)}, {decimal(est.high, digits)}]"
