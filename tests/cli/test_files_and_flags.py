"""The command line's files and flags: ``-`` as a pipe, JSON Lines for ``meio replay``, the
side file of a saved game, one spelling per option, help pages and shell completion."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from meio.cli import app
from meio.engine.record import Record

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "tests" / "data" / "records"
runner = CliRunner()


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


# -- '-' ---------------------------------------------------------------------------------------


def test_deal_dash_o_prints_the_record_and_makes_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    dashed = runner.invoke(app, ["deal", "--seed", "6", "-o", "-"])
    assert dashed.exit_code == 0, dashed.output
    assert dashed.stdout == runner.invoke(app, ["deal", "--seed", "6"]).stdout
    assert not (tmp_path / "-").exists()
    replayed = runner.invoke(app, ["replay", "-"], input=dashed.stdout)
    assert replayed.exit_code == 0, replayed.output
    assert replayed.stdout.splitlines()[-1].startswith("Winner: seat")


# -- JSON Lines --------------------------------------------------------------------------------


def compact(name: str) -> str:
    return json.dumps(json.loads((RECORDS / f"{name}.json").read_text()))


def test_replay_reads_json_lines_one_record_a_line(tmp_path: Path) -> None:
    names = ["meio-partnership", "meio-2p-wild-next", "classic-2p-three-rounds"]
    games = tmp_path / "games.jsonl"
    games.write_text(compact(names[0]) + "\n\n" + "\n".join(compact(n) for n in names[1:]) + "\n")
    result = runner.invoke(app, ["replay", str(games)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Record 1 (line 1)" in out and "Record 2 (line 3)" in out and "Record 3 (line 4)" in out
    for name in names:  # each account is the one the record alone gives
        alone = runner.invoke(app, ["replay", str(RECORDS / f"{name}.json")]).stdout
        assert alone in out
    as_json = runner.invoke(app, ["replay", "--json", str(games)])
    lines = as_json.stdout.splitlines()
    assert len(lines) == 3 and all(json.loads(x)["format"] == "meio-result/1" for x in lines)


def test_replay_names_the_line_of_a_bad_record(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    games.write_text("\n".join([compact("meio-partnership"), compact("meio-2p-wild-next"),
                                compact("illegal-not-following")]) + "\n")
    result = runner.invoke(app, ["replay", str(games)])
    assert result.exit_code == 2
    assert one_line(result.stderr) == (
        "line 3: round 2, play 48 (seat 2): 8D does not follow the led suit H")
    games.write_text(compact("meio-partnership") + "\n{not json\n")
    result = runner.invoke(app, ["replay", str(games)])
    assert result.exit_code == 2 and one_line(result.stderr).startswith("line 2: not valid JSON")


def test_replay_reads_what_simulate_records_writes() -> None:
    simulated = runner.invoke(app, ["simulate", "--matches", "3", "--bots", "random",
                                    "--seed", "2", "--records", "-"])
    assert simulated.exit_code == 0, simulated.output
    lines = simulated.stdout.splitlines()
    assert len(lines) == 3 and "wrote" not in simulated.stderr
    assert "3 matches" in simulated.stderr  # the report goes to standard error
    result = runner.invoke(app, ["replay", "-"], input=simulated.stdout)
    assert result.exit_code == 0, result.output
    assert result.stdout.count("Winner: seat") == 3 and "Record 3 (line 3)" in result.stdout


def test_an_empty_record_is_one_line(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text("\n\n")
    result = runner.invoke(app, ["replay", str(empty)])
    assert result.exit_code == 2
    assert one_line(result.stderr) == f"{empty}: empty; a record is a JSON object"


# -- the side file of a saved game -------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "wanted"),
    [
        ("seed", "x", "a whole number from 0 to 2147483647"),
        ("seed", None, "a whole number from 0 to 2147483647"),
        ("seed", 1.5, "a whole number from 0 to 2147483647"),
        ("seat", "zero", "a seat from 0 to 4"),
        ("seat", True, "a seat from 0 to 4"),
        ("seat", -1, "a seat from 0 to 4"),
        ("bots", "heuristic", "a list of bot names"),
        ("bots", [1, 2], "a list of bot names"),
        ("speed", 3, "one of slow, normal, fast, instant"),
    ],
)
def test_resume_refuses_a_side_file_with_a_bad_field(
    tmp_path: Path, field: str, value: object, wanted: str
) -> None:
    saved = tmp_path / "game.json"
    saved.write_text((RECORDS / "meio-4p-in-progress.json").read_text())
    side = tmp_path / "game.json.play.json"
    fields = {"format": "meio-play/1", "seat": 0, "seed": 3, "bots": [], "speed": "fast"}
    side.write_text(json.dumps({**fields, field: value}))
    result = runner.invoke(app, ["play", "--resume", str(saved)])
    assert result.exit_code == 2, result.output
    assert one_line(result.stderr) == f"{side}: {field} is {json.dumps(value)}, not {wanted}"


@pytest.mark.parametrize("text", ["{", "[1]", '{"format": "meio-play/9"}'])
def test_resume_refuses_a_side_file_that_is_not_one(tmp_path: Path, text: str) -> None:
    saved = tmp_path / "game.json"
    saved.write_text((RECORDS / "meio-4p-in-progress.json").read_text())
    (tmp_path / "game.json.play.json").write_text(text)
    result = runner.invoke(app, ["play", "--resume", str(saved)])
    assert result.exit_code == 2
    assert "meio-play/1 file" in one_line(result.stderr)


# -- one spelling per option -------------------------------------------------------------------


def test_players_is_dash_n_everywhere_and_the_old_spellings_still_work(tmp_path: Path) -> None:
    hand = "AS KS 7S 3S QH 9H 4H TD 8D 5D JC 6C -1"
    for players in ("-n", "-p"):  # seat 4 is a seat of a 5-player table only
        five = runner.invoke(app, ["advise", hand, players, "5", "--seat", "4", "--budget",
                                   "0.05", "--json"])
        assert five.exit_code == 0, five.output
    four = runner.invoke(app, ["advise", hand, "--seat", "4", "--budget", "0.05"])
    assert four.exit_code == 2 and "4-player table" in four.stderr
    record = runner.invoke(app, ["deal", "--seed", "9", "--bots", "heuristic"]).stdout
    assert runner.invoke(app, ["deal", "--seed", "9", "--bot", "heuristic"]).stdout == record
    assert Record.from_json(record).players == 4


@pytest.mark.parametrize(
    ("command", "hidden"),
    [("demo", "--bot"), ("deal", "--bot"), ("simulate", "--policy"), ("analyze", "--policy"),
     ("advise", "-p"), ("tournament", "-p"), ("train", "--opponents")],
)
def test_help_shows_one_spelling(command: str, hidden: str) -> None:
    page = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).stdout
    assert "--players" in page and " -n " in page
    assert command == "advise" or "--bots" in page
    assert f" {hidden} " not in page and f" {hidden}," not in page


# -- help pages --------------------------------------------------------------------------------


def test_no_help_page_shows_bool_or_points_to_the_spec() -> None:
    pages = [runner.invoke(app, ["--help"], env={"COLUMNS": "200"}).stdout]
    commands = list(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    assert len(commands) > 10
    for command in commands:
        pages.append(runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).stdout)
    for page in pages:
        assert "Show this message and exit." in page
        assert "<bool>" not in page
        assert "RULES.md" not in page and "§" not in page and "the seeds" not in page


def test_play_help_names_the_file_q_writes() -> None:
    from meio.tui.app import AUTOSAVE_NAME

    page = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "300"}).stdout
    assert AUTOSAVE_NAME in page and "q writes" in page


# -- shell completion --------------------------------------------------------------------------


def test_completion_is_shown_installed_and_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Typer finds the shell from the processes above it; name it, so the test does not
    # depend on what runs pytest
    monkeypatch.setenv("_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION", "1")
    shown = runner.invoke(app, ["--show-completion", "bash"])
    assert shown.exit_code == 0, shown.output
    assert "_MEIO_COMPLETE=complete_bash" in shown.stdout
    installed = runner.invoke(app, ["--install-completion", "bash"], env={"HOME": str(tmp_path)})
    assert installed.exit_code == 0, installed.output
    assert "meio.sh" in (tmp_path / ".bashrc").read_text()
    done = runner.invoke(app, [], prog_name="meio", env={
        "_MEIO_COMPLETE": "complete_bash", "COMP_WORDS": "meio rep", "COMP_CWORD": "1"})
    assert done.stdout.split() == ["replay"]


# -- the database of meio serve ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "env", "line"),
    [
        (["--db", "/proc/meio.db"], {}, "--db / DATABASE_URL: /proc/meio.db: no file can be "
                                        "made in /proc"),
        (["--db", "nosuch://x/y"], {}, "--db / DATABASE_URL: no driver for nosuch databases "
                                       "is installed"),
        ([], {"DATABASE_URL": "/proc/meio.db"}, "--db / DATABASE_URL: /proc/meio.db: no file "
                                                "can be made in /proc"),
        ([], {"MEIO_BOT_DELAY": "soon"}, "a setting in the environment is not a number: "
                                         "could not convert string to float: 'soon'"),
        ([], {"MEIO_SWITCH_INTERVAL_MS": "0"}, "a setting in the environment is not a number: "
                                               "MEIO_SWITCH_INTERVAL_MS must be a finite number "
                                               "above 0, not 0"),
        ([], {"MEIO_GC_FREEZE_EVERY": "-1"}, "a setting in the environment is not a number: "
                                             "MEIO_GC_FREEZE_EVERY must be a finite number "
                                             "above 0, not -1"),
        ([], {"MEIO_GC_FREEZE_EVERY": "inf"}, "a setting in the environment is not a number: "
                                              "MEIO_GC_FREEZE_EVERY must be a finite number "
                                              "above 0, not inf"),
        ([], {"MEIO_GC_SWEEP_EVERY": "-5"}, "a setting in the environment is not a number: "
                                            "MEIO_GC_SWEEP_EVERY must be a finite number, "
                                            "0 or more, not -5"),
    ],
)
def test_serve_refuses_a_database_it_cannot_open(
    args: list[str], env: dict[str, str], line: str
) -> None:
    result = runner.invoke(app, ["serve", "--port", "8799", *args], env=env)
    assert result.exit_code == 2, result.output
    assert one_line(result.stderr) == line


def test_the_server_shortens_the_interpreters_switch_interval() -> None:
    """The writer's commits run in a thread that must win the interpreter lock back from
    the event loop at every step; the server sets the interval it may wait."""
    import gc
    import sys

    from meio.cli.serve import tune_interpreter

    before, thresholds = sys.getswitchinterval(), gc.get_threshold()
    try:
        tune_interpreter(0.5)
        assert sys.getswitchinterval() == pytest.approx(0.0005)
        assert gc.get_threshold()[0] == 50_000
    finally:
        sys.setswitchinterval(before)
        gc.set_threshold(*thresholds)
        gc.unfreeze()


# -- a table that cannot be --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "english", "portuguese"),
    [
        (["deal", "--edition", "classic", "-n", "5"],
         "the classic edition is for 2 to 4 players, not 5",
         "a edição clássica é para 2 a 4 jogadores, não 5"),
        (["simulate", "-n", "3", "--partnership"],
         "a partnership table is exactly 4 players, not 3",
         "uma mesa em duplas tem exatamente 4 jogadores, não 3"),
        (["tournament", "--bots", "random", "--edition", "x"],
         "Error: Invalid value for '--edition': 'x' is neither meio nor classic. "
         "Help: meio tournament --help",
         "Erro: Valor inválido para '--edition': 'x' não é nem meio nem classic. "
         "Ajuda: meio tournament --help"),
        (["demo", "--bots", "nobody"],
         "unknown bot 'nobody'; choose from ",
         "bot desconhecido 'nobody'; escolha entre "),
    ],
)
def test_a_table_that_cannot_be_is_one_translated_line(
    args: list[str], english: str, portuguese: str
) -> None:
    from meio.cli.lang import speak

    result = runner.invoke(app, args)
    assert result.exit_code == 2 and one_line(result.stderr).startswith(english)
    speak("pt")
    try:
        result = runner.invoke(app, args)
    finally:
        speak("en")
    assert result.exit_code == 2 and one_line(result.stderr).startswith(portuguese)


# -- an error of the system while a command runs -----------------------------------------------


def test_a_system_error_while_a_command_runs_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import meio.bots

    def full_disk(*_args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", "/data/meio.tmp")

    monkeypatch.setattr(meio.bots, "play_match", full_disk)
    result = runner.invoke(app, ["deal", "--seed", "1"])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert one_line(result.stderr) == "/data/meio.tmp: the disk is full"


def test_resume_names_what_breaks_a_saved_game_in_the_commands_language() -> None:
    from meio.cli.lang import speak

    broken = RECORDS / "illegal-not-following.json"
    result = runner.invoke(app, ["play", "--resume", str(broken)])
    assert result.exit_code == 2
    assert one_line(result.stderr) == (
        f"{broken} is not a game that can be resumed: round 2, play 48 (seat 2): 8D does "
        "not follow the led suit H")
    speak("pt")
    try:
        result = runner.invoke(app, ["play", "--resume", str(broken)])
    finally:
        speak("en")
    assert one_line(result.stderr) == (
        f"{broken} não é uma partida que possa ser retomada: rodada 2, jogada 48 (lugar 2): "
        "8D não segue o naipe da vaza, H")
