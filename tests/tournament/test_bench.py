"""The benchmark protocol: deal sets, play on their cards, the leaderboard, ``meio bench``."""

from __future__ import annotations

import hashlib
import json
import statistics
from collections import defaultdict
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meio.cli import app
from meio.engine import eligible_leaders
from meio.engine.record import Record
from meio.tournament import (
    DEAL_SETS,
    DealSetError,
    TournamentError,
    TournamentSpec,
    leaderboard,
    load_deal_set,
    run_tournament,
)
from meio.tournament import dealset as D

runner = CliRunner()


def test_the_shipped_set_is_what_its_recipe_makes_and_matches_its_checksum() -> None:
    data = D.deal_set_bytes("meio-bench-v1")
    assert hashlib.sha256(data).hexdigest() == DEAL_SETS["meio-bench-v1"]
    assert D.dump_deal_set(D.make_deal_set("meio-bench-v1", D.V1_DEALS)) == data
    ds = load_deal_set("meio-bench-v1")
    assert set(ds.tables) == set(D.TABLES)
    assert all(len(t.deals) == D.V1_DEALS for t in ds.tables.values())
    # the deals differ: no table repeats a deal
    for t in ds.tables.values():
        assert len({d.hands for d in t.deals}) == len(t.deals)


def test_an_altered_set_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    data = D.deal_set_bytes("meio-bench-v1")
    first = data.index(b'"leader":0')
    altered = data[:first] + b'"leader":1' + data[first + 10:]
    monkeypatch.setattr(D, "deal_set_bytes", lambda name: altered)
    with pytest.raises(DealSetError, match="checksum"):
        load_deal_set("meio-bench-v1")
    with pytest.raises(DealSetError, match="unknown deal set"):
        load_deal_set("meio-bench-v0")


def test_a_deal_with_a_card_twice_or_a_short_hand_is_refused() -> None:
    doc = D.make_deal_set("x", 1, ["meio-2"])
    deal = doc["tables"]["meio-2"]["deals"][0]  # type: ignore[index]
    hands = deal["rounds"][0]["hands"]
    good = json.loads(json.dumps(doc))
    D.parse_deal_set(good)
    hands[1] = hands[0]
    with pytest.raises(DealSetError, match="meio-2 deal 0: a card is dealt twice"):
        D.parse_deal_set(doc)
    hands[1] = " ".join(hands[0].split()[:12])
    with pytest.raises(DealSetError, match="13 cards"):
        D.parse_deal_set(doc)


@pytest.mark.parametrize("key", ["meio-2", "meio-4p", "classic-3"])
def test_matches_are_played_on_the_sets_cards_with_lawful_leaders(key: str,
                                                                  tmp_path: Path) -> None:
    table = load_deal_set("meio-bench-v1").tables[key]
    spec = TournamentSpec(("heuristic", "random"), table.players, table.edition,
                          table.partnership, matches=4, seed=3, deal_table=table)
    results = run_tournament(spec, record_dir=tmp_path)
    later = 0
    for path in sorted(tmp_path.glob("*.json")):
        record = Record.from_json(path.read_text())
        state = record.to_state()  # a legal, complete match (leaders checked)
        assert state.is_over
        deal = table.deals[int(path.name[4:8])]
        assert record.rounds[0].leader == deal.leader
        for k, rnd in enumerate(record.rounds):
            assert tuple(rnd.hands) == deal.hands[k]
            if k:
                allowed = eligible_leaders(state.config, state.rounds[k - 1])
                assert rnd.leader == next(s for s in deal.ties[k - 1] if s in allowed)
                later += 1
    assert later and len(results) == 4 * 2


def test_a_spec_refuses_more_deals_than_the_table_has_or_another_table() -> None:
    table = load_deal_set("meio-bench-v1").tables["meio-3"]
    with pytest.raises(TournamentError, match="has 100 deals"):
        TournamentSpec(("random",), 3, "meio", matches=101, deal_table=table)
    with pytest.raises(TournamentError, match="not this tournament's table"):
        TournamentSpec(("random",), 4, "meio", matches=1, deal_table=table)


def test_paired_differences_are_per_deal_means_of_the_same_cards() -> None:
    table = load_deal_set("meio-bench-v1").tables["meio-4"]
    spec = TournamentSpec(("heuristic", "random"), 4, matches=6, seed=0, deal_table=table)
    results = run_tournament(spec)
    board = leaderboard(results, reference="random", bootstrap=200, seed=1)
    by_deal: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for r in results:
        for scores in r.round_scores:
            for seat, bot in enumerate(r.lineup):
                by_deal[r.deal][bot].append(scores[seat])
    diffs = [statistics.fmean(d["heuristic"]) - statistics.fmean(d["random"])
             for d in by_deal.values()]
    diff, low, high = board.paired["heuristic"]["random"]
    assert diff == pytest.approx(statistics.fmean(diffs))
    assert low <= diff <= high and low >= min(diffs) and high <= max(diffs)
    assert board.paired["random"]["heuristic"][0] == pytest.approx(-diff)
    entry = {e.bot: e for e in board.entries}
    assert entry["heuristic"].vs_reference == pytest.approx(diff)
    assert entry["random"].vs_reference == 0.0
    rate, low, high = board.pairwise["heuristic"]["random"]
    assert low <= rate <= high
    assert rate + board.pairwise["random"]["heuristic"][0] == pytest.approx(1.0)
    for e in board.entries:
        assert e.rating_ci95[0] <= e.rating <= e.rating_ci95[1]
        assert e.mean_round_score_ci95[0] <= e.mean_round_score <= e.mean_round_score_ci95[1]
        assert e.seats == 6 * 2 * 2  # 6 deals, 2 lineups, 2 seats each


def _bench(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["bench", "--bots", "heuristic,random", "--players", "3",
                                 "--deals", "4", "--bootstrap", "100", "--json", *args])
    assert result.exit_code == 0, result.output
    doc: dict[str, object] = json.loads(result.stdout)
    return doc


def test_bench_json_is_reproducible_and_seeded() -> None:
    one = _bench("--seed", "5")
    assert one["format"] == "meio-bench/1" and one["set"] == "meio-bench-v1"
    assert one["sha256"] == DEAL_SETS["meio-bench-v1"] and one["table"] == "meio-3"
    assert one["lineups"] == [["heuristic", "random", "heuristic"],
                              ["random", "heuristic", "random"]]
    assert one["games"] == 8 and one["deals"] == 4 and one["reference"] == "heuristic"
    assert {e["bot"] for e in one["leaderboard"]} == {"heuristic", "random"}  # type: ignore[index]
    assert "--seed 5" in str(one["command"]) and "--deals 4" in str(one["command"])
    again = _bench("--seed", "5", "--jobs", "2")
    other = _bench("--seed", "6")
    assert again["leaderboard"] == one["leaderboard"]
    assert other["leaderboard"] != one["leaderboard"]  # the random bot plays otherwise


def test_bench_writes_its_records_and_result(tmp_path: Path) -> None:
    out = tmp_path / "b"
    doc = _bench("--out", str(out))
    assert json.loads((out / "bench.json").read_text())["leaderboard"] == doc["leaderboard"]
    assert len(list((out / "records").glob("*.json"))) == 8


def test_bench_lists_its_sets() -> None:
    result = runner.invoke(app, ["bench", "--list"])
    assert result.exit_code == 0
    assert DEAL_SETS["meio-bench-v1"] in result.output and "meio-4p (100)" in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "heuristic,nobody"], "unknown bot nobody"),
    (["--bots", "random,random"], "listed twice"),
    (["--deals", "0"], "'--deals': 0 is not from 1"),
    (["--deals", "101"], "--deals must be between 1 and 100"),
    (["--set", "meio-bench-v9"], "unknown deal set"),
    (["--players", "5", "--edition", "classic"], "no table classic-5"),
    (["--jobs", "0"], "'--jobs': 0 is not from 1"),
    (["--seed", "-1"], "'--seed': -1 is not from 0"),
    (["--bootstrap", "3"], "'--bootstrap': 3 is not from 10"),
    (["--reference", "search"], "not one of --bots"),
])
def test_bench_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["bench", "--deals", "1", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_bench_refuses_a_file_as_its_folder(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_text("")
    result = runner.invoke(app, ["bench", "--deals", "1", "--out", str(path)])
    assert result.exit_code == 2 and "not a folder" in result.output


def test_bench_seats_openspiels_ismcts_and_its_seed_replays_the_run() -> None:
    pytest.importorskip("pyspiel")
    args = ["--bots", "ismcts:2,random", "--players", "2", "--deals", "1", "--bootstrap", "10"]
    one = _bench(*args, "--seed", "3")
    assert one["lineups"] == [["ismcts:2", "random"], ["random", "ismcts:2"]]
    board = {e["bot"]: e for e in one["leaderboard"]}  # type: ignore[union-attr]
    assert set(board) == {"ismcts:2", "random"} and board["ismcts:2"]["seats"] == 2
    assert "--bots ismcts:2,random" in str(one["command"])
    assert _bench(*args, "--seed", "3")["leaderboard"] == one["leaderboard"]
    assert _bench(*args, "--seed", "4")["leaderboard"] != one["leaderboard"]


@pytest.mark.parametrize("bots", ["ismcts:1,random", "ismcts:lots,random"])
def test_bench_refuses_an_ismcts_without_simulations_in_one_line(bots: str) -> None:
    pytest.importorskip("pyspiel")
    result = runner.invoke(app, ["bench", "--deals", "1", "--bots", bots])
    assert result.exit_code == 2, result.output
    assert "'ismcts' or 'ismcts:N'" in result.output
    assert len(result.output.strip().splitlines()) == 1
