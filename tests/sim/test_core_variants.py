"""The compiled core plays variants as data (docs/variants.md): on randomly generated
valid variants, every table size, its games replay in the engine to the same legal
actions, tricks, piles, round scores and match results, and its heuristic is the
engine's heuristic bot in a variant game, decision for decision."""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from meio.bots import variant_play
from meio.bots.heuristic import HeuristicBot
from meio.engine import MatchConfig, State
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.presets import is_standard, preset
from meio.engine.record import Record, result_json
from meio.engine.ruleset import (
    LEADER_RULES,
    PILE_EFFECTS,
    SCORING_FORMS,
    SPECIAL_CODES,
    WILD_CODES,
    Variant,
)
from meio.engine.ruleset_file import parse_variant, variant_from_json, variant_json
from meio.sim import core as K
from meio.sim import evaluate_actions, simulate
from meio.sim.convert import state_to_arrays
from meio.sim.tables import plays_variant, rule_heuristic_rows, tables_for

#: a fixed profile, so that CI draws the same variants on every run
VARIANT_SETTINGS = settings(
    max_examples=120, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
GAMES = 2  # matches per drawn variant and table


def _value(draw: st.DrawFn) -> object:
    return draw(st.one_of(st.just("above"),
                          st.integers(-6, 30).map(lambda x: x / 2 if x % 2 else x // 2)))


@st.composite
def variants(draw: st.DrawFn) -> Variant:
    """A valid variant in the file's keys (no preset), every attribute drawn."""
    hand = draw(st.integers(2, 13))
    first = draw(st.integers(1, hand - 1))
    specials: list[dict[str, Any]] = []
    for code in draw(st.lists(st.sampled_from(SPECIAL_CODES), unique=True, max_size=5)):
        if draw(st.booleans()):
            specials.append({"preset": code})
            continue
        wild = code in WILD_CODES and draw(st.booleans())
        entry: dict[str, Any] = {
            "code": code,
            "value": _value(draw) if draw(st.booleans()) else [_value(draw), _value(draw)],
            "suit": "wild" if wild else draw(st.sampled_from("SHDC")),
            "pile": draw(st.sampled_from(PILE_EFFECTS)),
        }
        if not wild:
            entry["follows"] = draw(st.booleans())
        specials.append(entry)
    sizes = [n for n in range(2, 6) if n * hand <= 60 + len(specials)]
    chosen = draw(st.lists(st.sampled_from(sizes), unique=True, min_size=1, max_size=3))
    deck: dict[str, Any] = {}
    for n in chosen:
        extra = draw(st.integers(0, len(specials)))
        low = max(1, math.ceil((n * hand - extra) / 4))
        if low > 15:
            extra, low = len(specials), math.ceil((n * hand - len(specials)) / 4)
        count = draw(st.integers(low, 15))
        ranks = draw(st.permutations(C.RANKS))[:count]
        deck[str(n)] = {"ranks": "".join(ranks), "specials": extra}
    scoring: dict[str, Any] = {"form": draw(st.sampled_from(SCORING_FORMS))}
    if scoring["form"] == "balance_bonus":
        scoring["bonus"] = draw(st.integers(1, 3))

    def fmt() -> dict[str, Any]:
        if draw(st.booleans()):
            return {"form": "totals", "rounds": draw(st.integers(1, 3)),
                    "shared": draw(st.booleans())}
        return {"form": "victories", "to_win": draw(st.integers(1, 2))}

    match = {"default": fmt()}
    for n in chosen:
        if draw(st.booleans()):
            match[str(n)] = fmt()
    partnership = "4" in deck and draw(st.booleans())
    if partnership:
        match["partnership"] = {"form": "victories", "to_win": draw(st.integers(1, 2))}
    return variant_from_json({
        "name": "drawn", "edition": draw(st.sampled_from(["meio", "classic"])),
        "hand": {"size": hand, "first_half": first, "pack": hand - first},
        "trump": draw(st.sampled_from(["S", "H", "D", "C", "none"])),
        "deck": deck, "partnership": partnership, "special": specials, "scoring": scoring,
        "match": match, "leader": draw(st.sampled_from(LEADER_RULES)),
        "options": {"wild_lead": draw(st.sampled_from(["declare", "next"])),
                    "reveal_specials": draw(st.booleans())},
    })


def _sorted_row(mask: int, width: int) -> np.ndarray:
    row = np.zeros(width, dtype=np.int32)
    cards = C.cards_of(mask)
    row[: len(cards)] = cards
    return row


def _step_both(cfg: MatchConfig, record: Record, heuristic: bool) -> int:
    """Replay a core record in the engine and in the core's own kernels side by side:
    the same legal actions at every play; with ``heuristic``, the engine's heuristic bot
    chooses every recorded action. Returns the plays checked."""
    deals = [(tuple(r.hands), r.aside, r.leader) for r in record.rounds]
    state = State.new(record.config(), deals=deals)
    t = tables_for(cfg)
    s = np.zeros(K.STATE_LEN, dtype=np.int32)
    legal = np.zeros(K.LEGAL_MAX, dtype=np.int32)
    bot = HeuristicBot()
    checked = 0
    for rnd in record.rounds:
        hands = np.stack([_sorted_row(h, K.HAND_MAX) for h in rnd.hands]
                         + [np.zeros(K.HAND_MAX, dtype=np.int32)] * (5 - cfg.players))
        K.start_round(s, t.cfg, t.ruleset, hands, rnd.leader)
        for seat, pack in enumerate(rnd.splits):
            action = A.pack_action(pack)
            if heuristic:
                assert bot.choose(state.view(seat), state.legal_actions(seat)) == action
            state.apply(action, seat)
            K.apply_split(s, t.cfg, t.ruleset, seat, _sorted_row(pack, K.PACK_MAX))
        for text in rnd.plays:
            action = A.parse_action(text)
            seat = state.current_seat()
            engine_legal = list(state.legal_actions(seat))
            n = K.legal_actions(s, t.ruleset, legal)
            assert sorted(legal[:n].tolist()) == sorted(engine_legal)
            if heuristic:
                assert bot.choose(state.view(seat), engine_legal) == action
            state.apply(action, seat)
            K.apply_action(s, t.cfg, t.ruleset, action)
            checked += 1
        assert s[K.PHASE] == K.ROUND_DONE
    assert state.is_over
    return checked


@VARIANT_SETTINGS
@given(variants(), st.data())
def test_core_variant_games_replay_identically_in_the_engine(
    variant: Variant, data: st.DataObject
) -> None:
    assume(not is_standard(variant))
    players = data.draw(st.sampled_from(variant.players))
    partnership = players == 4 and variant.partnership and data.draw(st.booleans())
    policy = data.draw(st.sampled_from(["random", "heuristic"]))
    cfg = MatchConfig(edition=variant.edition, players=players, partnership=partnership,
                      options=variant.options, variant=variant, seed=data.draw(st.integers(0, 99)))
    try:
        res = simulate(cfg, GAMES, seed=7, policy=policy, record=True)
    except ValueError as exc:  # a tie for the lowest total that never breaks
        fmt = variant.format_for(players, partnership)
        assert "never broke" in str(exc) and fmt.form == "totals" and not fmt.shared
        assume(False)
        return
    assert res.tricks is not None and res.deals is not None
    assert res.deals.shape[3] == variant.hand and res.splits is not None
    assert res.splits.shape[3] == variant.pack
    winners = res.winners()
    for g in range(res.games):
        rec = res.record(g)
        record = Record.from_json(json.dumps(rec))
        assert record.variant == variant
        state = record.to_state()  # checks every rule, the leaders included
        doc = result_json(state)
        assert doc["finished"] is True
        assert len(doc["rounds"]) == res.rounds_played[g]
        for r, rnd in enumerate(doc["rounds"]):
            assert [t["winner"] for t in rnd["tricks"]] == res.tricks[g, r, 0].tolist()
            assert [t["pile"] for t in rnd["tricks"]] == res.tricks[g, r, 1].tolist()
            assert rnd["piles"] == res.piles[g, r].tolist()
            assert rnd["scores"] == res.scores[g, r].tolist()
            if partnership:
                assert res.team_scores is not None
                assert rnd["team_scores"] == res.team_scores[g, r].tolist()
        assert doc["totals"] == res.totals[g].tolist()
        assert sorted(doc["winners"]) == np.flatnonzero(winners[g]).tolist()
        assert _step_both(cfg, record, policy == "heuristic") > 0


#: two variants that between them use every attribute, on every table size
KITCHEN = ["""
name = "no-trumps"
preset = "meio"
trump = "none"
leader = "last_trick"
[hand]
size = 11
first_half = 5
pack = 6
[deck.2]
ranks = "89TJQKA"
[scoring]
form = "balance_bonus"
bonus = 2
[match.default]
form = "victories"
to_win = 2
[match.3]
form = "totals"
rounds = 2
shared = false
[options]
wild_lead = "next"
[[special]]
preset = "-1"
[[special]]
code = "A+"
value = [15, -1]
suit = "wild"
pile = "winner_chooses"
[[special]]
code = "-2H"
value = 20
suit = "S"
follows = false
pile = "other_half"
[[special]]
preset = "+.5"
[[special]]
code = "Q+"
value = [12.5, "above"]
suit = "wild"
pile = "other_half"
""", """
name = "squares"
preset = "meio"
trump = "D"
leader = "rotate"
[hand]
size = 12
first_half = 8
pack = 4
[deck.2]
ranks = "89TJQKA"
[scoring]
form = "squared"
[match.default]
form = "totals"
rounds = 2
shared = true
[[special]]
code = "-1"
value = "above"
suit = "C"
follows = true
pile = "winner_chooses"
[[special]]
preset = "A+"
[[special]]
preset = "-2H"
[[special]]
code = "+.5"
value = [3, "above"]
suit = "wild"
[[special]]
preset = "Q+"
"""]
TABLES = [(2, False), (3, False), (4, False), (4, True), (5, False)]


@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}{'-team' if t[1] else ''}")
@pytest.mark.parametrize("text", KITCHEN, ids=["no-trumps", "squares"])
def test_every_table_of_two_full_variants_replays_in_the_engine(
    text: str, table: tuple[int, bool], policy: str
) -> None:
    variant = parse_variant(text)
    players, partnership = table
    cfg = MatchConfig(players=players, partnership=partnership, variant=variant,
                      options=variant.options, seed=players)
    res = simulate(cfg, 3, seed=11, policy=policy, record=True)
    winners = res.winners()
    for g in range(res.games):
        record = Record.from_json(res.record(g))
        state = record.to_state()
        doc = result_json(state)
        assert [r["scores"] for r in doc["rounds"]] == res.scores[
            g, : res.rounds_played[g]].tolist()
        assert sorted(doc["winners"]) == np.flatnonzero(winners[g]).tolist()
        assert _step_both(cfg, record, policy == "heuristic") > 0


SIX_SEVEN = parse_variant('preset = "meio"\n[hand]\nfirst_half = 6\npack = 7\n',
                          "six-seven.toml")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_core_heuristic_is_the_engine_heuristic_on_a_six_seven_split(players: int) -> None:
    cfg = MatchConfig(players=players, variant=SIX_SEVEN, seed=players)
    res = simulate(cfg, 6, seed=3, policy="heuristic", record=True)
    for g in range(res.games):
        record = Record.from_json(res.record(g))
        assert _step_both(cfg, record, heuristic=True) >= int(res.rounds_played[g]) * 13 * players


def _rules_heuristic_round(config: MatchConfig) -> int:
    """Play round 1 of ``config`` with the core's heuristic of any ruleset
    (:data:`~meio.sim.core.POLICY_RULES_HEURISTIC`, reading the ruleset's rows) and
    check every split and play against :mod:`meio.bots.variant_play` on the engine
    state. Returns the decisions checked."""
    state = State.new(config)
    t = tables_for(config)
    s = state_to_arrays(state).array
    rng = np.zeros(1, dtype=np.uint64)
    legal = np.zeros(K.LEGAL_MAX, dtype=np.int32)
    pack = np.zeros(K.PACK_MAX, dtype=np.int32)
    checked = 0
    for seat in range(config.players):
        K.choose_split(s, t.ruleset, seat, t.strength, K.POLICY_RULES_HEURISTIC, rng, pack)
        core = C.mask_of(int(c) for c in pack[: config.pack_size])
        assert A.pack_action(core) == variant_play.choose(state.view(seat),
                                                          state.legal_actions(seat))
        K.apply_split(s, t.cfg, t.ruleset, seat, pack)
        state.apply(A.pack_action(core), seat)
        checked += 1
    while not state.rounds:
        seat = state.current_seat()
        action = int(K.choose_action(s, t.cfg, t.ruleset, t.strength,
                                     K.POLICY_RULES_HEURISTIC, 0.0, rng, legal))
        assert action == variant_play.choose(state.view(seat), state.legal_actions(seat))
        K.apply_action(s, t.cfg, t.ruleset, action)
        state.apply(action, seat)
        checked += 1
    return checked


@pytest.mark.parametrize(("edition", "players", "partnership"), [
    ("meio", 2, False), ("meio", 3, False), ("meio", 4, False), ("meio", 5, False),
    ("meio", 4, True), ("classic", 2, False), ("classic", 4, False),
])
def test_the_heuristic_of_any_ruleset_plays_an_edition_as_the_engine_rule_does(
    edition: str, players: int, partnership: bool
) -> None:
    """The rule heuristic's card numbers are built once per ruleset, the editions' presets
    included: on an edition (where "heuristic" names the editions' own heuristic) the
    core's rule heuristic still plays every split and card as the engine's rule does."""
    for seed in range(3):
        cfg = MatchConfig(edition=edition, players=players, partnership=partnership,
                          seed=seed)
        assert _rules_heuristic_round(cfg) >= players * 13


def test_the_heuristics_card_numbers_are_exact_and_read_the_ruleset() -> None:
    """Each chance is a whole number of 1/4096ths (so sums in any order are exact), and
    the numbers follow the ruleset: without a trump the ace of hearts is a plain ace."""
    rows = rule_heuristic_rows(preset("meio").card_rules)
    no_trump = parse_variant('preset = "meio"\ntrump = "none"\n', "no-trump.toml")
    plain = rule_heuristic_rows(MatchConfig(players=4, variant=no_trump, seed=1).rules)
    ace_hearts, ace_spades = C.parse_card("AH"), C.parse_card("AS")
    assert rows[0, ace_hearts] == 2 * (14 + 15) and rows[2, ace_hearts] == (58 + 4) ** 2
    assert plain[0, ace_hearts] == plain[0, ace_spades] == 28
    assert plain[2, ace_hearts] == (28 + 4) ** 2
    q_plus = C.Q_PLUS
    assert rows[4, q_plus] == -1 and rows[5, q_plus] == 1  # its trick goes to the other pile
    assert rows[4, C.PLUS_HALF] == 0  # its winner chooses


def test_an_editions_preset_is_played_as_the_standard_game() -> None:
    cfg = MatchConfig(players=3, variant=preset("meio"), seed=1)
    assert not plays_variant(cfg)
    res = simulate(cfg, 5, seed=2, record=True)
    plain = simulate(MatchConfig(players=3, specials=cfg.specials), 5, seed=2, record=True)
    assert np.array_equal(res.piles, plain.piles) and res.won is None
    doc = res.record(0)
    assert doc["variant"] == variant_json(preset("meio"))
    assert Record.from_json(doc).to_state().is_over


def test_variant_batches_do_not_depend_on_the_job_count() -> None:
    cfg = MatchConfig(players=4, variant=SIX_SEVEN, seed=1)
    one = simulate(cfg, 12, seed=5, policy="random")
    two = simulate(cfg, 12, seed=5, policy="random", jobs=2)
    assert np.array_equal(one.piles, two.piles)
    assert one.won is not None and two.won is not None
    assert np.array_equal(one.won, two.won)


def test_a_tie_that_never_breaks_is_one_clear_error() -> None:
    # two players, halves of 3 cards and no card that moves a trick: both seats always
    # score the same, so a totals match whose ties are not shared would never end
    text = """
name = "even"
edition = "meio"
trump = "H"
partnership = false
special = []
leader = "rotate"
[hand]
size = 6
first_half = 3
pack = 3
[deck.2]
ranks = "TJQ"
specials = 0
[scoring]
form = "difference"
[match.default]
form = "totals"
rounds = 1
shared = false
[options]
wild_lead = "declare"
reveal_specials = true
"""
    cfg = MatchConfig(players=2, variant=parse_variant(text), seed=1)
    with pytest.raises(ValueError, match="was not over after 21 rounds"):
        simulate(cfg, 3, seed=1, policy="random")


def test_rollouts_play_a_variant_from_its_own_sizes() -> None:
    """Search's playouts take a variant's position (issue 37): a 6/7 split's splits are
    scored, each seat's mean round score after each candidate, a score a player can get."""
    cfg = MatchConfig(players=4, variant=SIX_SEVEN, seed=1)
    state = State.new(cfg)
    candidates = list(state.legal_actions(0))[:2]
    values = evaluate_actions([state], candidates, 4, 1)
    assert values.shape == (len(candidates), 4)
    assert ((values >= 0) & (values <= 13)).all()


def test_meio_simulate_plays_a_variant_file_and_writes_records_replay_accepts(
    tmp_path: Any,
) -> None:
    from meio.cli import app

    path = tmp_path / "six-seven.toml"
    path.write_text('preset = "meio"\n[hand]\nfirst_half = 6\npack = 7\n')
    out = tmp_path / "games.jsonl"
    runner = CliRunner()
    result = runner.invoke(app, ["simulate", "--players", "3", "--matches", "4", "--variant",
                                 str(path), "--records", str(out)])
    assert result.exit_code == 0, result.output
    assert "six-seven" in result.output
    lines = out.read_text().splitlines()
    assert len(lines) == 4
    game = tmp_path / "one.json"
    game.write_text(lines[0])
    assert json.loads(lines[0])["variant"]["hand"] == {"size": 13, "first_half": 6, "pack": 7}
    replay = runner.invoke(app, ["replay", str(game)])
    assert replay.exit_code == 0, replay.output
    refused = runner.invoke(app, ["simulate", "--variant", str(path), "--wild-lead", "next"])
    assert refused.exit_code != 0
