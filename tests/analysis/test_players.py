"""Who plays the lab's games: every bot that plays a ruleset is seated on it, a compare
puts one player on both rulesets, and a placebo (a ruleset against an exact copy of
itself) finds nothing under any player the lab offers."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from meio.analysis import AnalysisError, AnalysisSpec, LocalBackend, run_analysis
from meio.analysis.compare import players, run_compare
from meio.analysis.plan import Table
from meio.analysis.players import player
from meio.analysis.runner import games_of, plan_cells
from meio.analysis.verdicts import ALPHA, holm, judge, p_value
from meio.bots import make_bot, play_match, variant_play
from meio.engine import MatchConfig, State
from meio.engine.presets import is_standard, preset
from meio.engine.ruleset import SpecialCard, Variant
from meio.engine.ruleset_file import parse_variant

#: the box edition written out as a variant file, one special renamed: the same game
PLACEBO = parse_variant('preset = "meio"\nname = "placebo"\n' + "".join(
    f'[[special]]\npreset = "{c}"\n' for c in ("-1", "A+", "-2H", "+.5"))
    + '[[special]]\npreset = "Q+"\nname = "queen plus"\n')
#: the classic edition written out as a variant file, one table's format stated
CLASSIC_PLACEBO = parse_variant('preset = "classic"\nname = "classic placebo"\n[match.3]\n'
                                'form = "totals"\nrounds = 3\n')
SIX_SEVEN = parse_variant('preset = "meio"\nname = "six-seven"\n[hand]\nfirst_half = 6\n'
                          'pack = 7\n')


def _written_out(variant: Variant) -> Variant:
    """What the lab did before the general switch (``general_form``): an edition with one
    table size's match format written out, so that it stops being a preset and the bots
    take their general path on it; the same rules, deals and results."""
    written = dict(variant.formats)
    n = next(n for n in variant.players if str(n) not in written)
    return dataclasses.replace(variant, formats=(*variant.formats,
                                                 (str(n), variant.format_for(n, False))))


def _decisions(kinds: list[str], config: MatchConfig) -> list[tuple[int, int]]:
    bots = [make_bot(kind, seat) for seat, kind in enumerate(kinds)]
    return list(play_match(config, bots).history)


@pytest.mark.parametrize(("edition", "players_", "bot"), [
    ("meio", 4, "heuristic"), ("classic", 3, "heuristic"), ("meio", 4, "learned"),
    ("meio", 2, "search:1"), ("classic", 3, "search:1"), ("meio", 3, "search:4"),
])
def test_an_edition_under_the_general_switch_plays_as_its_written_out_form_did(
        edition: str, players_: int, bot: str) -> None:
    v = preset(edition)
    old = _written_out(v)
    assert is_standard(v) and not is_standard(old)
    general = variant_play.general_name(bot)
    assert general != bot and general.endswith("-any")
    match = MatchConfig(edition, players_, seed=3, variant=v)
    written = MatchConfig(edition, players_, seed=3, variant=old)
    if bot.startswith("search"):  # one round at search's speed: the heuristic plays on
        kinds = [bot] + ["heuristic"] * (players_ - 1)
        theirs = [general] + ["heuristic-any"] * (players_ - 1)
        one = State.new(match)
        two = State.new(written)
        bots = [make_bot(k, s) for s, k in enumerate(theirs)]
        olds = [make_bot(k, s) for s, k in enumerate(kinds)]
        while not one.rounds:
            seat = one.current_seat()
            mine = bots[seat].choose(one.view(seat), one.legal_actions(seat))
            assert mine == olds[seat].choose(two.view(seat), two.legal_actions(seat))
            one.apply(mine, seat)
            two.apply(mine, seat)
        assert one.rounds[0].piles == two.rounds[0].piles
        return
    got = _decisions([general] * players_, match)
    assert got == _decisions([bot] * players_, written)
    # the switch is a different player on an edition, so the test can tell them apart
    assert got != _decisions([bot] * players_, match)


def test_the_general_switch_names_one_player_on_both_sides() -> None:
    assert player("heuristic", preset("meio")) != player("heuristic", PLACEBO)
    assert player("heuristic", preset("meio"), general=True) == player("heuristic", PLACEBO)
    assert player("heuristic-any", preset("meio")) == player("heuristic", PLACEBO)
    assert player("search:4", preset("meio")) != player("search:4", PLACEBO)
    assert player("search:4", preset("meio"), True) == player("search:4", PLACEBO, True)
    assert player("random", preset("meio"), True) == player("random", preset("meio"))


def test_search_and_expert_play_a_variant_in_the_lab(tmp_path: Path) -> None:
    classic67 = parse_variant('preset = "classic"\nname = "c67"\n[hand]\nfirst_half = 6\n'
                              'pack = 7\n')
    spec = AnalysisSpec(questions=("seats",), players=(3,), games=2, seed=1,
                        policy="search:1", variant=classic67)
    run = run_analysis(spec, tmp_path, LocalBackend(1))
    f = run.selfplay
    assert set(f.distinct("policy")) == {"search:1"} and len(f)
    assert f["h"].max() > 0  # tricks were played
    assert AnalysisSpec(questions=("seats",), players=(2,), policy="expert",
                        variant=SIX_SEVEN).policy == "expert"


def test_an_editions_network_is_refused_on_a_variant_and_learned_plays_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # ppo stands on the editions' cards: refused in one line that names who can play
    with pytest.raises(AnalysisError, match=r"ppo bot does not play the ruleset "
                       r"'six-seven'.*--bots random, heuristic, search"):
        AnalysisSpec(questions=("seats",), policy="ppo", variant=SIX_SEVEN)
    # learned plays the network for any ruleset off the editions, so it is seated
    spec = AnalysisSpec(questions=("seats", "skill"), policy="learned", variant=SIX_SEVEN)
    assert ("learned", "heuristic") in spec.skill_pairs_played()
    # the lab asks the bots (plays_ruleset): a network the bots say cannot play is refused
    monkeypatch.setattr(variant_play, "NETWORK_BOTS", ("learned",))
    with pytest.raises(AnalysisError, match=r"learned bot does not play the ruleset"):
        AnalysisSpec(questions=("seats",), policy="learned", variant=SIX_SEVEN)


def test_the_named_player_gets_its_own_skill_pair_on_enough_deals() -> None:
    spec = AnalysisSpec(questions=("skill", "specials"), players=(4,), editions=("meio",),
                        partnership=False, policy="learned", games=2000)
    assert spec.skill_pairs_played() == (("heuristic", "random"), ("search", "heuristic"),
                                         ("learned", "heuristic"))
    plan = plan_cells(spec)
    deals = {cell.pair: games_of(spec, cell, 2000) for cell in plan.cells if cell.pair}
    # 2000 games at 1 engine deal in 200 would leave 10 deals a pair
    assert deals[("learned", "heuristic")] >= 30 and deals[("heuristic", "random")] >= 200
    assert deals[("search", "heuristic")] == 2
    # which set of specials rewards skill is judged by the named player against random
    contrast = {cell.policy for cell in plan.cells if cell.pair is None}
    assert contrast == {"learned", "random"}


def test_a_compare_plays_both_rulesets_with_one_player_unless_asked() -> None:
    general, who = players("heuristic", preset("meio"), SIX_SEVEN,
                           others=("heuristic", "random"))
    assert general and who["same"] and who["general"]
    assert "general rule" in who["base"] and who["base"] == who["variant"]
    assert "base ruleset is an edition" in who["note"]
    general, who = players("heuristic", preset("meio"), SIX_SEVEN, allow_different=True)
    assert not general and not who["same"]
    assert "editions' policy" in who["base"] and "mixes the rules" in who["note"]
    # random play is one player on any ruleset, but the skill pair's heuristic is not
    general, who = players("random", preset("meio"), SIX_SEVEN)
    assert not general and who["same"] and not who["general"]
    general, _ = players("random", preset("meio"), SIX_SEVEN, others=("heuristic",))
    assert general
    with pytest.raises(AnalysisError, match="ppo bot does not play"):
        players("ppo", preset("meio"), SIX_SEVEN)
    # learned: the general switch, so one network plays both sides
    general, who = players("learned", preset("meio"), SIX_SEVEN)
    assert general and who["same"]
    assert "network for any ruleset" in who["base"]


def test_a_compare_under_the_switch_seats_the_general_bots_on_the_same_seeds() -> None:
    spec = AnalysisSpec(questions=("seats",), players=(4,), partnership=False, games=4,
                        policy="heuristic", variant=preset("meio"), general=True)
    (table,) = spec.tables()
    plain = dataclasses.replace(spec, general=False).tables()[0]
    assert table.general and table.bot("search:3") == "search:3-any"
    assert plain.bot("search:3") == "search:3"
    # the seeds are the plain table's: the switch changes the player, not the deals
    assert table.seed_key == plain.seed_key and table.key == plain.key + "-any"


def _separated(summary: dict[str, Any]) -> list[str]:
    return [f"{t}/{s}: {k}" for t, e in summary["compare"]["tables"].items()
            for s, rows in e["studies"].items() for k, r in rows.items() if r["separates"]]


@pytest.mark.parametrize(("policy", "edition", "players_", "games", "questions"), [
    ("random", "meio", 4, 60, ("seats", "specials", "skill", "splits", "length")),
    ("heuristic", "meio", 4, 60, ("seats", "specials", "skill", "splits", "length")),
    # search at its smallest budget, on one set of specials (none): seconds, not minutes
    ("search:1", "classic", 3, 2, ("seats", "length")),
])
def test_a_placebo_finds_no_difference_under_each_player(
        tmp_path: Path, policy: str, edition: str, players_: int, games: int,
        questions: tuple[str, ...]) -> None:
    # the family-wise rate of each comparison is 5%: three placebos may show any
    # separation at all with a chance of at most 15%; with one player on both sides the
    # games are the same, so none may show one
    spec = AnalysisSpec(questions=questions, players=(players_,), partnership=False,
                        games=games, seed=5, policy=policy,
                        skill_pairs=(("heuristic", "random"),), pair_deals=(games, 2))
    copy = PLACEBO if edition == "meio" else CLASSIC_PLACEBO
    summary, _, _ = run_compare(spec, preset(edition), copy, tmp_path, LocalBackend(1))
    assert summary["players"]["same"]
    rows = [r for e in summary["compare"]["tables"].values()
            for rr in e["studies"].values() for r in rr.values()]
    assert len(rows) >= 8
    assert _separated(summary) == []
    assert all(r["difference"]["value"] == 0 for r in rows)
    if "specials" in questions:  # the renamed card is named as each ruleset names it
        names = summary["compare"]["tables"][f"{players_}p"]["studies"]["specials"]
        assert "Q+ / queen plus (Q+): holder − others" in names


def test_the_placebo_catches_a_change_of_player(tmp_path: Path) -> None:
    # the old compare: the edition by the editions' policy, the copy by the general rule
    spec = AnalysisSpec(questions=("specials", "splits"), players=(4,), partnership=False,
                        games=60, seed=5, policy="heuristic", skill_pairs=())
    summary, _, _ = run_compare(spec, preset("meio"), PLACEBO, tmp_path, LocalBackend(1),
                                allow_different_players=True)
    assert not summary["players"]["same"]
    assert len(_separated(summary)) >= 3


def test_holm_holds_the_family_wise_rate_where_figures_one_by_one_do_not() -> None:
    rng = np.random.default_rng(4)
    families, size = 400, 30
    any_holm = any_raw = 0
    for _ in range(families):
        # thirty correlated null figures (read off the same games)
        common = rng.standard_normal()
        z = 0.6 * common + 0.8 * rng.standard_normal(size)
        ps = [p_value({"value": float(v), "ci95": [float(v) - 1.96, float(v) + 1.96]})
              for v in z]
        assert all(p is not None for p in ps)
        adjusted = holm([float(p) for p in ps if p is not None])
        any_holm += min(adjusted) < ALPHA
        any_raw += min(p for p in ps if p is not None) < ALPHA
    assert any_holm / families <= ALPHA + 0.03
    assert any_raw / families > 0.4


def _row(value: float, half: float, n: int = 500) -> dict[str, Any]:
    est = {"value": value, "ci95": [value - half, value + half], "n": n}
    return {"base": {"value": 1.0, "ci95": [0.9, 1.1], "n": n},
            "variant": {"value": 1.0 + value, "ci95": [0.9, 1.1], "n": n},
            "difference": est}


def test_a_verdict_needs_a_difference_that_matters_and_says_better_where_there_is_one(
        ) -> None:
    rows = [("length: playing time per match (minutes)", _row(0.004, 0.001)),
            ("seats: seat spread (worst − best)", _row(-0.08, 0.02)),
            ("skill: heuristic vs random: weaker − stronger", _row(-0.2, 0.05)),
            ("length: mean round score", _row(0.3, 0.05)),
            ("length: shared victory", _row(0.01, 0.05)),
            ("length: rounds per match", _row(0.5, 0.1, n=5))]
    judge(rows)
    verdicts = [r["verdict"] for _, r in rows]
    assert verdicts == ["below the smallest difference that matters (1)", "variant better",
                        "variant worse", "variant higher", "no clear difference", "–"]
    assert [r["separates"] for _, r in rows] == [False, True, True, True, False, False]
    assert "too few games" in rows[-1][1]["reason"]


def test_a_variant_special_is_named_as_the_variant_names_it() -> None:
    gambler = dataclasses.replace(PLACEBO, specials=tuple(
        SpecialCard("-2H", (40, 40), 0, True, "none", "gambler") if s.code == "-2H" else s
        for s in PLACEBO.specials))
    assert Table.of_variant(gambler, 4).card_label(62) == "gambler (-2H)"
    assert Table.of_variant(PLACEBO, 4).card_label(64) == "queen plus (Q+)"
    assert Table.of_variant(PLACEBO, 4).card_label(63) == "+.5"
