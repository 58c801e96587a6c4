"""Every ``meio`` command, given a bad path or a bad number, says so in one translated line
and exits 2: never a traceback.

The commands and their options are read from the Typer application itself, so a new
command, or a new option, is covered without a change here: each path option must say
what it is (:mod:`meio.cli.files`) and each number must have a range, or the test fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from meio.cli import app
from meio.cli.files import InputFile, OutputFile, OutputFolder
from meio.cli.lang import speak

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "tests" / "data" / "records" / "meio-partnership.json"
HAND = "AS KS 7S 3S QH 9H 4H TD 8D 5D JC 6C -1"

runner = CliRunner()
GROUP: Any = typer.main.get_command(app)


def leaves(group: Any, prefix: tuple[str, ...] = ()) -> dict[str, Any]:
    """Every command by its words (``design report``): a sub-app's commands too."""
    out: dict[str, Any] = {}
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            out.update(leaves(command, (*prefix, name)))
        else:
            out[" ".join((*prefix, name))] = command
    return out


LEAVES = leaves(GROUP)
COMMANDS = sorted(LEAVES)


def required_values(tmp: Path) -> dict[tuple[str, str], str]:
    """A good value for each required parameter, by (command, parameter)."""
    return {
        ("replay", "file"): str(RECORD),
        ("view", "file"): str(RECORD),
        ("advise", "hand"): HAND,
        ("analyze", "questions"): "seats",
        ("analyze", "out"): str(tmp / "lab"),
        ("tournament", "bots"): "random",
        ("train", "out"): str(tmp / "policy.npz"),
        ("review", "file"): str(ROOT / "tests" / "data" / "review" / "blunder-4p.json"),
        ("mine-puzzles", "out"): str(tmp / "puzzles.json.gz"),
        ("design report", "rulesets"): "mini",
        ("design report", "out"): str(tmp / "card"),
        ("design tune", "base"): "mini",
        ("design tune", "out"): str(tmp / "tune"),
        ("design tune", "vary"): "hand.first_half=1..2",
        ("design tune", "goal"): "max depth",
    }


@dataclass(frozen=True)
class Case:
    command: str
    args: tuple[str, ...]
    kind: str

    def __str__(self) -> str:
        return f"meio {self.command} {' '.join(self.args)} ({self.kind})"


def _flag(param: Any) -> str:
    longs = [o for o in param.opts if o.startswith("--")]
    return (longs or param.opts)[0]


def _place(param: Any, value: str) -> list[str]:
    """``value`` given to ``param``: after its flag, or in place for an argument."""
    return [value] if param.param_type_name == "argument" else [_flag(param), value]


def bad_paths(parser: object, tmp: Path) -> Iterator[tuple[str, str]]:
    """(kind, value): the bad paths for a path option of this kind."""
    a_file = tmp / "plain.txt"
    if isinstance(parser, InputFile):
        yield "a missing file", str(tmp / "absent.json")
        yield "a folder", str(tmp)
        yield "a path through a file", str(a_file / "x.json")
        yield "'-'", "-"  # refused, or standard input that is empty
    elif isinstance(parser, OutputFile):
        yield "a missing folder", str(tmp / "nowhere" / "x.json")
        yield "a folder", str(tmp)
        yield "a path through a file", str(a_file / "x.json")
        yield "an unwritable place", "/proc/meio-test.json"
        yield "a read-only place", "/sys/meio-test.json"
        if not parser.dash:
            yield "'-'", "-"
    elif isinstance(parser, OutputFolder):
        yield "a file", str(a_file)
        yield "a folder under a file", str(a_file / "x")
        yield "an unwritable place", "/proc/meio-test"
        yield "a read-only place", "/sys/meio-test"
        yield "'-'", "-"
    else:
        raise AssertionError(f"unknown kind of path {parser!r}")


def bad_numbers(param: Any) -> Iterator[tuple[str, str]]:
    """(kind, value): the bad numbers for a number option, from its range."""
    low, high = param.min, param.max
    is_float = param.type_descriptor.annotation is float or (
        getattr(param.type_descriptor, "is_list", False) and "float" in str(
            param.type_descriptor.annotation)
    )
    step = 0.5 if is_float else 1
    yield "below the range", str(low - step)
    yield "above the range", str(high + step)
    yield "not a number", "x"
    yield "a huge number", "1" + "0" * 30
    if is_float:
        yield "nan", "nan"
        yield "infinity", "inf"
        yield "minus infinity", "-inf"
    else:
        yield "a fraction", f"{low + 0.5}"


def _is_number(param: Any) -> bool:
    annotation = param.type_descriptor.annotation
    return annotation in (int, float) or str(annotation) in ("list[int]", "list[float]")


def cases(tmp: Path) -> Iterator[Case]:
    """Every command with each bad path and each bad number, one parameter at a time."""
    good = required_values(tmp)
    for name in COMMANDS:
        command = LEAVES[name]
        params = [p for p in command.params if p.expose_value]
        missing = [p.name for p in params if p.required and (name, p.name) not in good]
        assert not missing, f"meio {name}: give a good value for {missing} in required_values"
        for param in params:
            rest = [
                arg
                for other in params
                if other is not param and other.required
                for arg in _place(other, good[(name, other.name)])
            ]
            parser = param.type_descriptor.parameter_info.parser
            if parser is not None or param.type_descriptor.is_path:
                assert parser is not None, (
                    f"meio {name} {_flag(param)}: a path option says what it is with "
                    "parser=InputFile(), OutputFile() or OutputFolder() (meio.cli.files)"
                )
                for kind, value in bad_paths(parser, tmp):
                    yield Case(name, (*rest, *_place(param, value)), f"{_flag(param)}: {kind}")
            elif _is_number(param):
                assert param.min is not None and param.max is not None, (
                    f"meio {name} {_flag(param)}: a number option needs min= and max="
                )
                for kind, value in bad_numbers(param):
                    yield Case(name, (*rest, *_place(param, value)), f"{_flag(param)}: {kind}")


@pytest.fixture(autouse=True)
def _built_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Typer builds the command of the app again on every ``invoke`` (most of the time of
    a run that fails while reading its options): build it once for these hundreds."""
    import typer.testing

    monkeypatch.setattr(typer.testing, "_get_command", lambda _app: GROUP)


@pytest.fixture
def tmp(tmp_path: Path) -> Path:
    (tmp_path / "plain.txt").write_text("not a folder\n")
    return tmp_path


def _check(case: Case) -> str:
    """Run ``case``; return its one error line (failing on anything else)."""
    result = runner.invoke(app, [*case.command.split(), *case.args], input="")
    error = result.exception
    assert error is None or isinstance(error, SystemExit), (
        f"{case}: a traceback ({error!r})"
    )
    assert result.exit_code == 2, f"{case}: exit {result.exit_code}: {result.output}"
    assert result.stdout == "", f"{case}: wrote {result.stdout!r}"
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, f"{case}: {len(lines)} lines: {result.stderr}"
    return lines[0]


def test_every_command_has_bad_paths_and_numbers_to_try(tmp: Path) -> None:
    tried = {case.command for case in cases(tmp)}
    for command in ("replay", "deal", "demo", "simulate", "tournament", "analyze", "advise",
                    "play", "view", "train", "serve"):
        assert command in tried, command
    assert {"learn"} >= set(COMMANDS) - tried  # the lesson takes no path and no number


def test_bad_paths_and_numbers_are_one_line_and_exit_2(tmp: Path) -> None:
    checked = 0
    for case in cases(tmp):
        line = _check(case)
        assert "Traceback" not in line
        checked += 1
    assert checked > 150
    assert not (tmp / "absent.json").exists() and not (tmp / "nowhere").exists()


def test_bad_paths_and_numbers_are_portuguese(tmp: Path) -> None:
    speak("pt")
    try:
        for case in cases(tmp):
            line = _check(case)
            if case.args[-1] != "-":  # '-' may reach the command, which words its own errors
                assert line.startswith("Erro: "), f"{case}: {line}"
            words = line.replace("meio-test", "")
            for english in ("Invalid value", "Input should", "is not from", "no such", "cannot",
                            "Help:", "folder", "file", "valid"):
                assert english not in words, f"{case}: {line}"
    finally:
        speak("en")


def test_a_range_error_names_the_option_the_value_and_the_range() -> None:
    result = runner.invoke(app, ["demo", "--delay", "-1"])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "Error: Invalid value for '--delay': -1 is not from 0 to 60. Help: meio demo --help"
    )
