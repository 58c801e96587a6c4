"""Sequential stopping, resuming after an interruption, reproducibility, the CLI."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meio.analysis import AnalysisError, AnalysisSpec, LocalBackend, run_analysis
from meio.analysis.frame import Columns
from meio.analysis.plan import Chunk
from meio.analysis.studies import headline
from meio.cli import app

SEATS = AnalysisSpec(questions=("seats", "length"), players=(3,), editions=("classic",),
                     games=250, seed=4, policy="random")


def _worst(summary: dict[str, object]) -> float:
    return max(max(w) for w in headline(summary).values())  # type: ignore[arg-type]


def test_ci_keeps_playing_until_every_interval_is_narrow_enough(tmp_path: Path) -> None:
    spec = AnalysisSpec(**{**SEATS.to_json(), "ci": 0.12, "max_games": 64_000,
                           "skill_pairs": ()})  # type: ignore[arg-type]
    run = run_analysis(spec, tmp_path / "ci", LocalBackend(1))
    assert run.waves > 1
    assert _worst(run.summary) <= 0.12
    final = run.summary["targets"]["classic-3p"]
    # one wave fewer (the same first games: a run repeats a longer run's first games)
    # was still too wide, so stopping there would have been wrong
    before = AnalysisSpec(**{**SEATS.to_json(), "games": final // 2,
                             "skill_pairs": ()})  # type: ignore[arg-type]
    earlier = run_analysis(before, tmp_path / "half", LocalBackend(1))
    assert _worst(earlier.summary) > 0.12


def test_ci_that_is_already_met_plays_one_wave(tmp_path: Path) -> None:
    spec = AnalysisSpec(**{**SEATS.to_json(), "ci": 1.0,
                           "skill_pairs": ()})  # type: ignore[arg-type]
    run = run_analysis(spec, tmp_path, LocalBackend(1))
    assert run.waves == 1 and run.summary["targets"] == {"classic-3p": 250}


class Interrupting:
    """Plays chunks in this process, then acts like Ctrl-C after ``after`` of them."""

    def __init__(self, after: int) -> None:
        self.after = after
        self.played: list[str] = []

    def run(self, chunks: list[Chunk]) -> Iterator[tuple[Chunk, Columns]]:
        for c, rows in LocalBackend(1).run(chunks):
            if len(self.played) == self.after:
                raise KeyboardInterrupt
            self.played.append(c.key)
            yield c, rows


def test_an_interrupted_run_resumes_and_gives_the_same_summary(tmp_path: Path) -> None:
    spec = AnalysisSpec(questions=("seats",), players=(2,), editions=("meio",), games=400,
                        seed=9, chunk=20, policy="random")
    first = Interrupting(after=4)
    with pytest.raises(KeyboardInterrupt):
        run_analysis(spec, tmp_path / "resumed", first)
    second = Interrupting(after=10_000)
    resumed = run_analysis(spec, tmp_path / "resumed", second)
    assert not set(first.played) & set(second.played)  # nothing played twice
    assert len(first.played) == 4 and second.played
    fresh = run_analysis(spec, tmp_path / "fresh", LocalBackend(2))
    assert json.dumps(resumed.summary, sort_keys=True) == json.dumps(fresh.summary,
                                                                    sort_keys=True)


def test_a_folder_of_another_analysis_is_refused(tmp_path: Path) -> None:
    run_analysis(SEATS, tmp_path, LocalBackend(1))
    other = AnalysisSpec(**{**SEATS.to_json(), "seed": 5,
                            "skill_pairs": ()})  # type: ignore[arg-type]
    with pytest.raises(AnalysisError, match="other options"):
        run_analysis(other, tmp_path, LocalBackend(1))


def test_the_command_writes_its_outputs_and_refuses_bad_input(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "cli"
    res = runner.invoke(app, ["analyze", "seats", "--players", "3", "--edition", "classic",
                              "--policy", "random", "--games", "200", "--seed", "2",
                              "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert {p.name for p in out.iterdir()} >= {"summary.json", "report.html", "games.parquet"}
    again = runner.invoke(app, ["analyze", "seats", "--players", "3", "--edition", "classic",
                                "--policy", "random", "--games", "200", "--seed", "2",
                                "--jobs", "2", "--out", str(tmp_path / "cli2")])
    assert again.exit_code == 0
    assert (out / "summary.json").read_text() == (tmp_path / "cli2" / "summary.json").read_text()
    bad = runner.invoke(app, ["analyze", "luck", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "unknown study luck" in bad.output
    both = runner.invoke(app, ["analyze", "seats", "--games", "5", "--ci", "0.1", "--out",
                               str(tmp_path / "y")])
    assert both.exit_code == 2 and "not both" in both.output
    ray = runner.invoke(app, ["analyze", "seats", "--players", "3", "--ray",
                              "127.0.0.1:1", "--out", str(tmp_path / "z")])
    assert ray.exit_code == 2 and "Ray cluster" in ray.output


def test_ci_waits_on_skill_gaps_but_not_on_the_search_bot() -> None:
    summary = {"studies": {"skill": {"meio-2p": {"pairs": {
        "heuristic-vs-random": {"weaker_minus_stronger": {"value": 0.5, "ci95": [0.4, 0.6]}},
        "search-vs-heuristic": {"weaker_minus_stronger": {"value": 0.5, "ci95": [0.0, 1.0]}},
    }}}}}
    widths = headline(summary)
    assert set(widths) == {"meio-2p#heuristic-vs-random"}
    assert widths["meio-2p#heuristic-vs-random"] == pytest.approx([0.2])


def test_ci_waits_on_core_readings_and_their_skill_but_not_on_engine_readings() -> None:
    est = {"value": 0.5, "ci95": [0.4, 0.7]}
    summary = {"studies": {"rules": {"meio-4p": {
        "variants": {"meio-4p": {"engine": False, "mean_round_score": est},
                     "meio-4p-next": {"engine": False, "mean_round_score": est},
                     "meio-4p@engine": {"engine": True, "mean_round_score": est},
                     "meio-4p-hidden@engine": {"engine": True, "mean_round_score": est}},
        "skill": {"meio-4p-hidden": {"pair": "heuristic-vs-random",
                                     "weaker_minus_stronger": est}},
    }}}}
    widths = headline(summary)
    assert set(widths) == {"meio-4p", "meio-4p-next", "meio-4p-hidden#heuristic-vs-random"}
    assert widths["meio-4p-hidden#heuristic-vs-random"] == pytest.approx([0.3])
