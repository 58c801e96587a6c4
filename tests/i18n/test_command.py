"""The ``meio`` command in Portuguese: help pages, ``meio replay``'s account, messages.

Typer reads help texts when the command modules are imported, so the help pages are
checked in fresh processes under ``LANG``; what the commands print is checked here.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from meio.cli import app
from meio.cli.account import account
from meio.cli.lang import speak
from meio.engine.record import Record, describe
from meio.i18n import language

ROOT = Path(__file__).resolve().parents[2]
SRC = str(ROOT / "src")
RECORDS = ROOT / "tests" / "data" / "records"
#: the modules of the ``meio`` command this catalogue covers, and their commands
MODULES = ("account", "advice", "analyze", "app", "bots", "demo", "lang", "learn", "options",
           "play", "records", "serve", "sim")
COMMANDS = ("play", "view", "learn", "serve", "replay", "deal", "demo", "advise", "tournament",
            "simulate", "analyze")

runner = CliRunner()


def meio(*args: str, lang: str = "pt_BR.UTF-8") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(LANG=lang, PYTHONPATH=SRC, COLUMNS="100")
    return subprocess.run(
        [sys.executable, "-m", "meio", *args], capture_output=True, text=True, env=env, timeout=60
    )


@pytest.fixture
def portuguese() -> Iterator[None]:
    before = language()
    speak("pt")
    try:
        yield
    finally:
        speak(before)


# -- help pages -------------------------------------------------------------------------------


def test_root_help_is_portuguese_under_lang() -> None:
    out = meio("--help")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    for word in ("Uso:", "Opções", "Comandos", "Mostra esta mensagem e sai.",
                 "Mostra a versão e sai.", "o jogo de vazas do equilíbrio entre as duas partes",
                 "Refaz registros de partidas"):
        assert word in text, word
    for english in ("Usage", "Options", "Commands", "Show this message", "Print the version",
                    "Replay a game record", "Play MEIO"):
        assert english not in text, english
    assert "Usage:" in meio("--help", lang="C.UTF-8").stdout


HELP_DUMP = """
import json, sys, typer
from meio.cli import app
group = typer.main.get_command(app)
ctx = typer.Context(group, info_name="meio")
out = {}
for name in sys.argv[1:]:
    cmd = group.get_command(ctx, name)
    sub = typer.Context(cmd, info_name=name, parent=ctx)
    out[name] = [cmd.help] + [p.help or "" for p in cmd.get_params(sub)]
print(json.dumps(out))
"""


def help_texts(lang: str) -> dict[str, list[str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(LANG=lang, PYTHONPATH=SRC)
    done = subprocess.run([sys.executable, "-c", HELP_DUMP, *COMMANDS], capture_output=True,
                          text=True, env=env, timeout=60, check=True)
    texts: dict[str, list[str]] = json.loads(done.stdout)
    return texts


def test_every_help_text_of_every_command_is_translated() -> None:
    english, portuguese = help_texts("C.UTF-8"), help_texts("pt_BR.UTF-8")
    assert set(english) == set(COMMANDS)
    for command in COMMANDS:
        assert len(english[command]) == len(portuguese[command]) > 1
        for en, pt in zip(english[command], portuguese[command], strict=True):
            assert en, f"meio {command}: a parameter without help"
            assert pt != en, f"meio {command}: {en!r} is not translated"


def test_command_help_page_is_portuguese() -> None:
    out = meio("replay", "--help")
    assert out.returncode == 0, out.stderr
    assert "Argumentos" in out.stdout and "[obrigatório]" in out.stdout
    assert "imprime o documento JSON meio-result/1" in out.stdout
    assert "Refaz registros de partidas conferindo cada regra" in out.stdout


# -- what the commands print ------------------------------------------------------------------


def test_replay_prints_its_account_in_portuguese() -> None:
    out = meio("replay", str(RECORDS / "meio-partnership.json"))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("MEIO (edição meio), 4 jogadores, em duplas; especiais ")
    assert "Rodada 1" in lines and "Rodada 3" in lines
    assert "  vaza  1 (primeira parte), lugar 1 sai: 3S +.5 KS 9S" in out.stdout
    assert "  vaza  8 (segunda parte), lugar" in out.stdout
    assert "  duplas  lugares 0+2: 0  lugares 1+3: 3" in out.stdout
    assert lines[-1].startswith("Vencedor: lugar")
    for english in ("Round", "trick", "seat", "pile", "half", "Winner", "Totals"):
        assert english not in out.stdout, english


def test_an_error_line_is_portuguese(tmp_path: Path) -> None:
    missing = tmp_path / "nada.json"
    out = meio("replay", str(missing))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().splitlines() == [
        f"Erro: Valor inválido para 'ARQUIVO': {missing}: arquivo não encontrado. "
        "Ajuda: python -m meio replay --help"
    ]
    out = meio("advise", "AS KS QS")
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == ["erro: uma mão tem 13 cartas; você deu 3"]
    # the engine's own errors (it writes English) come through in Portuguese too
    out = meio("advise", "ZZ KS 7S 3S QH 9H 4H TD 8D 5D JC 6C -1")
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == ["erro: 'ZZ' não é o código de uma carta"]
    out = meio("replya")  # Typer's own error box
    assert out.returncode == 2 and "Erro" in out.stderr
    assert "Não existe o comando 'replya'. Você quis dizer 'replay', 'play'?" in out.stderr
    out = meio("demo", "--delay", "x")
    assert out.returncode == 2
    assert "Valor inválido para '--delay': o valor deve ser um número" in out.stderr
    out = meio("analyze", "seats", "--out", str(tmp_path / "study"), "--games", "3", "--ci", "0.1")
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == ["erro: dê --games ou --ci, não os dois"]


def test_a_record_that_breaks_a_rule_names_it_in_portuguese() -> None:
    # the engine's reason, translated from its code: cards stay codes, as the command writes
    out = meio("replay", str(RECORDS / "illegal-not-following.json"))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().splitlines() == [
        "rodada 2, jogada 48 (lugar 2): 8D não segue o naipe da vaza, H"
    ]
    out = meio("replay", str(RECORDS / "illegal-short-pack.json"))
    assert out.stderr.strip().splitlines() == [
        "rodada 1, campo splits (lugar 2): a pilha separada tem exatamente 6 cartas, não 5"
    ]
    # the viewer says the same
    broken = RECORDS / "illegal-not-following.json"
    out = meio("view", str(broken))
    assert out.returncode != 0
    assert f"{broken}: rodada 2, jogada 48 (lugar 2): 8D não segue o naipe da vaza, H" in out.stderr
    # in English the line is the engine's, word for word
    out = meio("replay", str(RECORDS / "illegal-short-pack.json"), lang="C.UTF-8")
    assert out.stderr.strip() == "round 1, field splits (seat 2): a pack is exactly 6 cards, not 5"


USAGE_ERRORS = [
    ("Missing argument 'file'.", "Falta o argumento 'file'."),
    ("Missing option '--bots'.", "Falta a opção '--bots'."),
    ("No such option: --sed (Possible options: --seed)",
     "Não existe a opção --sed (opções possíveis: --seed)"),
    ("No such option: --x", "Não existe a opção --x"),
    ("Option '--seed' requires an argument.", "A opção '--seed' precisa de um valor."),
    ("Got unexpected extra argument(s) (b c)", "Argumento(s) a mais, inesperado(s) (b c)"),
    ("Invalid value for '--players' / '-n': Input should be a valid integer, unable to parse "
     "string as an integer", "Valor inválido para '--players' / '-n': o valor deve ser um número "
     "inteiro"),
    ("Invalid value for '--top': something else", "Valor inválido para '--top': something else"),
    ("No such command 'x'. Did you mean 'play'?", "No such command 'x'. Você quis dizer 'play'?"),
    ("A message Typer may add one day.", "A message Typer may add one day."),
]


@pytest.mark.parametrize(("english", "portuguese"), USAGE_ERRORS)
def test_usage_errors_of_typers_click(english: str, portuguese: str) -> None:
    from meio.cli.lang import usage_error

    assert usage_error(english) == english
    speak("pt")
    try:
        assert usage_error(english) == portuguese
    finally:
        speak("en")


@pytest.mark.parametrize(
    "name",
    ["meio-partnership", "meio-4p-in-progress", "meio-3p-hidden-specials", "meio-2p-wild-next",
     "classic-2p-three-rounds", "meio-5p-seed21"],
)
def test_the_english_account_is_the_engines(name: str) -> None:
    record = Record.from_json((RECORDS / f"{name}.json").read_text())
    state = record.to_state()
    assert language() == "en"
    assert account(state, len(record.rounds)) == describe(state, len(record.rounds))


def test_the_portuguese_account_says_the_same_things(portuguese: None) -> None:
    record = Record.from_json((RECORDS / "meio-3p-hidden-specials.json").read_text())
    state = record.to_state()
    pt = account(state, len(record.rounds))
    speak("en")
    en = account(state, len(record.rounds))
    assert len(pt) == len(en)
    numbers = re.compile(r"-?\d+")
    for p, e in zip(pt, en, strict=True):
        assert numbers.findall(p) == numbers.findall(e)  # same seats, tricks, piles and scores
    options = "coringa na saída: carta seguinte, especiais reveladas: não"
    assert pt[0].endswith(f"; opções da mesa: {options}")


def test_commands_print_portuguese(portuguese: None) -> None:
    demo = runner.invoke(app, ["demo", "--seed", "4", "-n", "4", "--wild-lead", "next"])
    assert demo.exit_code == 0, demo.output
    assert "opções da mesa: coringa na saída: carta seguinte, especiais reveladas" in demo.stdout
    assert demo.stdout.count("vaza 13") == 3 and "Fim da partida" in demo.stdout
    assert "vencedor lugar" in demo.stdout
    bad = runner.invoke(app, ["simulate", "--rounds", "5", "--matches", "5"])
    assert bad.exit_code == 2
    assert bad.stderr.strip() == "use --rounds ou --matches, não os dois"
    bad = runner.invoke(app, ["tournament", "--bots", "nobody"])
    assert bad.exit_code == 2 and bad.stderr.startswith("erro: bot desconhecido nobody; escolha")


@pytest.mark.parametrize(("players", "seed", "seat"), [(4, 3, 2), (3, 7, 0), (5, 11, 1)])
def test_the_english_advice_is_the_advisors(players: int, seed: int, seat: int) -> None:
    from meio.bots.advisor import advise_view
    from meio.bots.policy import rank_packs
    from meio.cli.advice import explanation, reason
    from meio.engine import MatchConfig, State

    view = State.new(MatchConfig(players=players, seed=seed)).view(seat)
    ranking = rank_packs(view.hand, view.config)
    worst = ranking.pack(int(ranking.cost.argmax()))
    for chosen in (None, worst):
        advice = advise_view(view, chosen_pack=chosen, worlds=4, seed=seed)
        assert explanation(advice, view.hand) == advice.explanation
        for c in advice.candidates:
            assert reason(c, view.hand) == c.reason


def test_the_advice_in_portuguese(portuguese: None) -> None:
    import dataclasses

    from meio.bots.advisor import Advice, Candidate
    from meio.cli.advice import explanation
    from meio.engine import cards as C

    hand = C.parse_cards("AS KS 7S 3S QH 9H 4H TD 8D 5D -1 A+ Q+")
    pack = C.parse_cards("AS KS 7S 3S QH -1")
    best = Candidate(pack, 1.2, 1.0, 1.4, 3.1, 3.0, "")
    for first, second in ((3.1, 3.0), (4.0, 2.5), (2.0, 3.5)):
        tried = dataclasses.replace(best, first_half_tricks=first, second_half_tricks=second)
        mine = dataclasses.replace(tried, pack=C.parse_cards("9H 4H TD 8D 5D A+"), mean=2.0)
        text = explanation(Advice([tried, mine], tried, mine, "", 8), hand)
        assert "Melhor pilha de 6 encontrada: " in text and "A sua pilha de 6 " in text
        assert "o -1 vai na pilha de 6 cartas, onde vale 15" in text
        assert "a Q+ é jogada na primeira parte" in text
        assert not re.search(r"\b(the|pack|half|tricks|your|which)\b", text), text
        # Brazilian numbers: a decimal comma, never a point
        assert "Pontuação esperada na rodada 1,20 (IC 95% de 1,00 a 1,40)" in text
        assert "faz 2,00 em média (+0,80 em relação à melhor)" in text
        assert not re.search(r"\d\.\d", text), text


# -- no string shown unmarked -----------------------------------------------------------------

#: calls whose text arguments a player reads
SHOWN = {"echo", "print", "rule", "_fail", "Table", "add_column", "BadParameter", "add_task"}
#: words that are no English to translate: the game's and the options' names
NAMES = re.compile(r"\bmeio\b|\bMEIO\b|--[a-z-]+|\[/?[a-z ]*\]")


def _literal_words(node: ast.AST) -> Iterator[str]:
    """The English words in the literal text of ``node``, skipping text inside ``_()``."""
    if isinstance(node, ast.Call) and _callee(node) in ("_", "N_", "ngettext"):
        return
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield from re.findall(r"[A-Za-z]{2,}", NAMES.sub("", node.value))
        return
    for child in ast.iter_child_nodes(node):
        yield from _literal_words(child)


def _callee(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


@pytest.mark.parametrize("module", MODULES)
def test_no_shown_string_is_left_unmarked(module: str) -> None:
    tree = ast.parse((ROOT / "src" / "meio" / "cli" / f"{module}.py").read_text())
    problems: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for deco in node.decorator_list:
                if (isinstance(deco, ast.Call) and _callee(deco) == "command"
                        and not any(k.arg == "help" for k in deco.keywords)):
                    problems.append(f"line {deco.lineno}: a command whose help is its docstring")
        if not isinstance(node, ast.Call):
            continue
        texts: list[ast.expr] = [k.value for k in node.keywords if k.arg in ("help", "title")]
        if _callee(node) in SHOWN:
            texts += node.args[:1]
        for text in texts:
            words = list(_literal_words(text))
            if words:
                problems.append(f"line {text.lineno}: {' '.join(words)!r} is not marked")
    assert not problems, problems
