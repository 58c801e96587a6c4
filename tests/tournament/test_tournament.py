"""Duplicate tournaments: identical deals across lineups, fair statistics, the CLI."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meio.cli import app
from meio.engine.record import Record
from meio.tournament import (
    TournamentError,
    TournamentSpec,
    check_duplicates,
    lineups,
    run_tournament,
    summarize,
)


def _seat_counts(schedule: list[tuple[str, ...]]) -> Counter[tuple[str, int]]:
    return Counter((bot, seat) for lineup in schedule for seat, bot in enumerate(lineup))


def test_lineups_seat_every_bot_equally_often_in_every_seat() -> None:
    for players in range(2, 6):
        for k in range(1, 7):
            bots = [f"b{i}" for i in range(k)]
            schedule = lineups(bots, players)
            counts = _seat_counts(schedule)
            assert {b for b, _ in counts} == set(bots), (k, players)  # nobody dropped
            assert len(set(counts.values())) == 1, (k, players)  # every bot, every seat
            assert len(counts) == k * players
            if k <= players:
                assert len(schedule) == k  # each bot in each seat exactly once per deal
            else:  # no bot twice at a table; every two bots meet equally often
                assert all(len(set(lineup)) == players for lineup in schedule)
                meets = Counter(p for lineup in schedule for p in combinations(sorted(lineup), 2))
                assert len(meets) == k * (k - 1) // 2 and len(set(meets.values())) == 1


def test_three_bots_at_four_seats_share_the_doubled_seat() -> None:
    schedule = lineups(["s", "h", "r"], 4)
    seats = Counter(bot for lineup in schedule for bot in lineup)
    assert seats == {"s": 4, "h": 4, "r": 4}
    # the doubled bot changes from lineup to lineup: the first-listed is not always it
    doubled = [next(b for b in lineup if lineup.count(b) == 2) for lineup in schedule]
    assert sorted(doubled) == ["h", "r", "s"]


def test_three_bots_at_two_seats_all_play() -> None:
    schedule = lineups(["a", "b", "c"], 2)
    assert sorted(schedule) == [("a", "b"), ("a", "c"), ("b", "a"), ("b", "c"), ("c", "a"),
                                ("c", "b")]


def test_partnership_teams_are_one_bot_each() -> None:
    for k in (1, 2, 3, 4):
        schedule = lineups([f"b{i}" for i in range(k)], 4, partnership=True)
        assert all(lineup[0] == lineup[2] and lineup[1] == lineup[3] for lineup in schedule)
        assert len(set(_seat_counts(schedule).values())) == 1


def test_a_bot_listed_twice_no_bot_or_a_negative_seed_is_refused() -> None:
    for bots in ((), ("heuristic", "random", "heuristic")):
        with pytest.raises(TournamentError):
            TournamentSpec(bots)
    with pytest.raises(TournamentError, match="seed"):
        TournamentSpec(("random",), seed=-1)


def test_duplicate_rotation_replays_identical_deals(tmp_path: Path) -> None:
    spec = TournamentSpec(("heuristic", "random"), players=3, matches=3, seed=5)
    results = run_tournament(spec, jobs=2, record_dir=tmp_path)
    assert len(results) == 3 * 2
    # from the saved records: every lineup of a deal got the same hands every round
    files = sorted(tmp_path.glob("deal*-lineup*.json"))
    assert len(files) == 6
    by_deal: dict[str, list[Record]] = {}
    for f in files:
        by_deal.setdefault(f.name[:8], []).append(Record.from_json(f.read_text()))
    for records in by_deal.values():
        assert len(records) == 2
        for k in range(3):
            assert len({tuple(r.rounds[k].hands) for r in records}) == 1
        assert len({r.rounds[0].leader for r in records}) == 1
        assert records[0].to_state().is_over  # a legal, complete record
    counts = check_duplicates(tmp_path)
    assert counts["deals"] == 3 and counts["round1_identical"] == 3
    assert counts["rounds_identical"] == counts["rounds_compared"] == 6
    # and the bots really did sit in different seats
    assert {r.lineup for r in results} == set(lineups(spec.bots, 3))


def test_summary_counts_shared_wins_fairly() -> None:
    spec = TournamentSpec(("heuristic", "random"), players=4, matches=4, seed=2)
    results = run_tournament(spec)
    summary = summarize(results)
    assert summary.games == 8 and summary.deals == 4
    assert abs(sum(b.wins for b in summary.bots) - 8) < 1e-9  # one victory per match
    for b in summary.bots:
        assert b.matches == 8 and b.seats == 16
        assert b.ci_low <= b.mean_score <= b.ci_high
        assert b.rounds == 16 * 3
    h = summary.pairwise["heuristic"]["random"]
    assert abs(h + summary.pairwise["random"]["heuristic"] - 1) < 1e-9
    ratings = {b.bot: b.rating for b in summary.bots}
    assert (ratings["heuristic"] > ratings["random"]) == (h > 0.5)


def test_tournament_cli(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "t"
    result = runner.invoke(app, ["tournament", "--bots", "heuristic,random", "--players", "2",
                                 "--matches", "2", "--seed", "1", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert {b["bot"] for b in summary["bots"]} == {"heuristic", "random"}
    assert (out / "summary.csv").read_text().startswith("bot,matches")
    assert len(list((out / "records").glob("*.json"))) == 4
    bad = runner.invoke(app, ["tournament", "--bots", "heuristic,nobody", "--out", str(out)])
    assert bad.exit_code == 2 and "unknown bot nobody" in bad.output


def test_tournament_cli_plays_every_bot_and_labels_per_seat_figures(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "t"
    result = runner.invoke(app, ["tournament", "--bots", "heuristic,random,learned",
                                 "--players", "2", "--matches", "1", "--out", str(out)],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert {b["bot"]: b["seats"] for b in summary["bots"]} == {
        "heuristic": 4, "random": 4, "learned": 4}
    assert summary["games"] == 6
    header = next(line for line in result.output.splitlines() if "bot" in line)
    assert "rating [95% CI]" in header and "wins a seat" in header
    twice = runner.invoke(app, ["tournament", "--bots", "random,random", "--out", str(out)])
    assert twice.exit_code == 2 and "listed twice" in twice.output
    assert len(twice.output.strip().splitlines()) == 1


def test_the_tournament_table_names_the_variant_gives_intervals_and_fits_80_columns(
        tmp_path: Path) -> None:
    path = tmp_path / "six-seven.toml"
    path.write_text('preset = "meio"\nname = "six-seven"\n[hand]\nfirst_half = 6\n'
                    'pack = 7\n')
    result = CliRunner().invoke(app, [
        "tournament", "--bots", "heuristic,random", "--players", "2", "--matches", "4",
        "--variant", str(path), "--out", str(tmp_path / "t")], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80 and "…" not in result.output
    flat = " ".join(result.output.split())  # a long title wraps
    assert "variant six-seven, 2-player meio" in flat
    board = json.loads((tmp_path / "t" / "summary.json").read_text())["leaderboard"]
    random_row = next(e for e in board["leaderboard"] if e["bot"] == "random")
    low, high = random_row["rating_ci95"]
    # the rating's interval and the paired difference's, as printed
    assert f"[{low:.0f}, {high:.0f}]" in result.output
    low, high = random_row["vs_reference_ci95"]
    assert f"{random_row['vs_reference']:.3f} [{low:.3f}, {high:.3f}]" in result.output
    assert "paired difference of the mean round score with heuristic" in flat


def test_advise_cli() -> None:
    runner = CliRunner()
    hand = "AS KS 7S 3S QH 9H 4H TD 8D 5D JC 6C -1"
    result = runner.invoke(app, ["advise", hand, "--players", "4", "--budget", "0.3",
                                 "--specials=-1,A+,+.5,Q+", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert len(data["best"]["pack"]) == 6 and data["explanation"]
    bad = runner.invoke(app, ["advise", "AS KS", "--players", "4"])
    assert bad.exit_code == 2 and "13 cards" in bad.output


def test_two_player_classic_is_won_on_totals_over_three_rounds() -> None:
    spec = TournamentSpec(("heuristic", "random"), players=2, edition="classic", matches=6,
                          seed=3)
    results = run_tournament(spec)
    for r in results:
        assert len(r.round_scores) == 3 and r.victories is None
        assert sum(r.totals) % 2 == 1  # two totals of odd round sums never tie
        assert r.winners == (r.totals.index(min(r.totals)),)
    summary = summarize(results)
    assert abs(sum(b.wins for b in summary.bots) - len(results)) < 1e-9
    for a, b in (("heuristic", "random"), ("random", "heuristic")):
        # the pairwise rate is the share of matches won on totals, with no ties
        won = sum(1 for r in results if r.lineup[r.winners[0]] == a)
        assert summary.pairwise[a][b] == won / len(results)


def test_the_table_options_reach_every_match_and_record(tmp_path: Path) -> None:
    spec = TournamentSpec(("heuristic", "random"), players=3, matches=2, seed=4,
                          wild_lead="next", reveal_specials=False)
    run_tournament(spec, record_dir=tmp_path)
    files = sorted(tmp_path.glob("deal*-lineup*.json"))
    assert len(files) == 4  # 2 deals x 2 lineups
    for f in files:
        record = json.loads(f.read_text())
        assert record["rules"] == {"wild_lead": "next", "reveal_specials": False}
        assert not any("=" in p and not p.startswith("pile") for rnd in record["rounds"]
                       for p in rnd["plays"])  # no declared suit under next
        state = Record.from_json(f.read_text()).to_state()
        assert state.is_over and state.config.options.wild_lead == "next"


def test_tournament_cli_takes_the_table_options(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "t"
    result = runner.invoke(app, ["tournament", "--bots", "heuristic,random", "--players", "2",
                                 "--edition", "classic", "--matches", "2", "--out", str(out),
                                 "--wild-lead", "next", "--hide-specials"])
    assert result.exit_code == 0, result.output
    assert "wild lead: next, specials hidden" in result.output
    for f in (out / "records").glob("*.json"):
        record = Record.from_json(f.read_text())
        assert len(record.rounds) == 3  # 2-player classic: three rounds on totals
    bad = runner.invoke(app, ["tournament", "--bots", "heuristic", "--wild-lead", "sideways",
                              "--out", str(out)])
    assert bad.exit_code == 2 and "sideways" in bad.output
    assert len(bad.output.strip().splitlines()) == 1


def test_advise_cli_takes_the_table_options() -> None:
    runner = CliRunner()
    hand = "AS KS 7S 3S QH 9H 4H TD 8D 5D JC 6C -1"
    for options in (["--wild-lead", "next"], ["--hide-specials"]):
        result = runner.invoke(app, ["advise", hand, "--players", "4", "--budget", "0.2",
                                     "--seed", "2", "--json", *options])
        assert result.exit_code == 0, result.output
        assert len(json.loads(result.output)["best"]["pack"]) == 6
    bad = runner.invoke(app, ["advise", hand, "--wild-lead", "random"])
    assert bad.exit_code == 2 and "random" in bad.output


def test_a_bot_registered_as_ismcts_comes_before_openspiels() -> None:
    from meio.bots import register, unregister
    from meio.bots.random_bot import RandomBot
    from meio.tournament import make_player

    register("ismcts", RandomBot)  # as bench/rl_strength.py seats its tuned peer
    try:
        assert isinstance(make_player("ismcts", 3), RandomBot)
    finally:
        unregister("ismcts")
    pytest.importorskip("pyspiel")
    assert type(make_player("ismcts", 3)).__name__ == "IsmctsPlayer"
