"""Rulesets (meio.engine.ruleset, ruleset_file, presets): files, checks, the engine playing them.

The presets must play exactly as the standard editions (same legal actions, trick
winners, piles and results over many random games); the other rules each get a
scripted deal or a property over random matches.
"""

from __future__ import annotations

import dataclasses
import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meio.engine import IllegalActionError, MatchConfig, Outcome, Phase, State
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.errors import ConfigError
from meio.engine.presets import PRESETS, preset
from meio.engine.ruleset import Variant
from meio.engine.ruleset_file import (
    VariantError,
    load_variant,
    parse_variant,
    variant_from_json,
    variant_json,
)
from meio.engine.scoring import score_round

TABLES = [
    ("meio", 2, False), ("meio", 3, False), ("meio", 4, False), ("meio", 5, False),
    ("meio", 4, True), ("classic", 2, False), ("classic", 3, False), ("classic", 4, False),
    ("classic", 4, True),
]


def _random_match(cfg: MatchConfig, seed: int) -> State:
    st_ = State.new(cfg)
    rng = random.Random(seed)
    while not st_.is_over:
        st_.apply(rng.choice(st_.legal_actions()))
    return st_


# -- the presets are the editions ---------------------------------------------------------
class TestPresetsPlayAsTheEditions:
    @pytest.mark.parametrize(("edition", "players", "partnership"), TABLES)
    @pytest.mark.parametrize("wild_lead", ["declare", "next"])
    def test_same_actions_tricks_piles_and_results_over_random_matches(
        self, edition: str, players: int, partnership: bool, wild_lead: str
    ) -> None:
        base = preset(edition)
        variant = variant_from_json({**variant_json(base), "options": {"wild_lead": wild_lead}})
        plus_half_wins = q_plus_wins = 0
        for seed in range(12):
            std = State.new(MatchConfig(edition=edition, players=players,  # type: ignore[arg-type]
                                        partnership=partnership, seed=seed,
                                        options=variant.options))
            var = State.new(MatchConfig(edition=edition, players=players,  # type: ignore[arg-type]
                                        partnership=partnership, seed=seed, variant=variant,
                                        options=variant.options))
            assert var.deal == std.deal and var.config.specials == std.config.specials
            rng = random.Random(seed)
            while not std.is_over:
                seat = std.current_seat()
                legal = list(std.legal_actions())
                assert list(var.legal_actions()) == legal
                assert list(var.view(seat).legal_actions()) == legal
                action = rng.choice(legal)
                assert std.apply(action, seat) == var.apply(action, seat)
                assert var.tricks == std.tricks and var.piles == std.piles
                assert var.view(seat).voids() == std.view(seat).voids()
            assert var.is_over and var.rounds == std.rounds and var.winners == std.winners
            for result in std.rounds:
                for trick in result.tricks:
                    winning = trick.plays[[s for s, _ in trick.plays].index(trick.winner)][1]
                    plus_half_wins += winning == C.PLUS_HALF
                    q_plus_wins += winning == C.Q_PLUS
        if edition == "meio" and players >= 4:  # the pile-moving specials did win tricks
            assert plus_half_wins and q_plus_wins

    def test_each_special_preset_alone_plays_as_the_box_special(self) -> None:
        # a 2-player variant holding only that special, against the edition with it
        for code in ("-1", "A+", "-2H", "+.5", "Q+"):
            card = C.parse_card(code)
            data = variant_json(preset("meio"))
            data["special"] = [{"preset": code}, {"preset": "Q+" if code != "Q+" else "-1"}]
            data["deck"] = {"2": data["deck"]["2"]}
            data["partnership"] = False
            variant = variant_from_json(data)
            for seed in range(15):
                other = next(s for s in variant.special_pool if s != card)
                std = MatchConfig(players=2, seed=seed, specials=(card, other))
                var = MatchConfig(players=2, seed=seed, specials=(card, other), variant=variant)
                a, b = _random_match(std, seed), _random_match(var, seed)
                assert a.history == b.history and a.rounds == b.rounds


# -- the file and its checks ------------------------------------------------------------
class TestFile:
    def test_presets_round_trip_through_their_json(self) -> None:
        for name in PRESETS:
            assert variant_from_json(variant_json(preset(name))) == preset(name)

    def test_a_file_changes_only_what_it_names(self, tmp_path: Path) -> None:
        path = tmp_path / "six-seven.toml"
        path.write_text('preset = "meio"\n[hand]\nfirst_half = 6\npack = 7\n')
        v = load_variant(path)
        assert (v.name, v.first_half, v.pack) == ("six-seven", 6, 7)
        assert v.decks == preset("meio").decks and v.specials == preset("meio").specials
        assert variant_from_json(variant_json(v)) == v

    def test_every_problem_is_reported_at_once_naming_the_file_and_key(
        self, tmp_path: Path
    ) -> None:
        path = tmp_path / "bad.toml"
        path.write_text(
            'preset = "meio"\ntrump = "X"\nleader = "eldest"\n'
            "[hand]\nsize = 13\nfirst_half = 8\npack = 6\n"
            '[deck.5]\nranks = "123456789TJQKA"\n'
            '[scoring]\nform = "cube"\n[options]\nwild_lead = "first"\n'
        )
        with pytest.raises(VariantError) as info:
            load_variant(path)
        lines = info.value.problems
        assert f"{path}: hand: pack sizes 8 + 6 do not add up to the hand of 13" in lines
        assert f"{path}: deck.5: a 5-player deck of 61 cards cannot deal 5 hands of 13" in lines
        assert any(line.startswith(f"{path}: trump: ") for line in lines)
        assert any(line.startswith(f"{path}: leader: ") for line in lines)
        assert any(line.startswith(f"{path}: options.wild_lead: ") for line in lines)
        assert any(line.startswith(f"{path}: scoring.form: ") for line in lines)
        assert str(info.value).splitlines() == lines

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("[hand]\nsize = 13\nfirst_half = 7\npack = 6\n", "x.toml: deck: no table size"),
            ('preset = "meio"\ncolour = 1\n', "x.toml: colour: unknown key"),
            ('preset = "nope"\n', "x.toml: preset: unknown preset 'nope'"),
            ('preset = "meio"\n[deck.2]\nspecials = 9\n', "x.toml: deck.2.specials: must be"),
            ('preset = "meio"\n[[special]]\ncode = "Q+"\nvalue = 0.3\nsuit = "wild"\n',
             "x.toml: special Q+.value: 0.3 is not a value"),
            ('preset = "meio"\n[match.2]\nform = "victories"\nrounds = 2\n',
             "x.toml: match.2.rounds: applies to the form 'totals'"),
            ('preset = "meio"\n[options]\nwild_lead = "first"\n',
             "x.toml: options.wild_lead: unknown wild_lead"),
            ("hand = [\n", "x.toml: not valid TOML"),
            ('preset = "meio"\n[[special]]\ncode = "-2H"\nvalue = 1\nsuit = "wild"\n',
             "x.toml: special -2H.suit: -2H cannot be wild"),
        ],
    )
    def test_one_clear_line_per_problem(self, text: str, expected: str) -> None:
        with pytest.raises(VariantError) as info:
            parse_variant(text, "x.toml")
        assert any(line.startswith(expected) for line in info.value.problems), info.value

    def test_a_missing_file_is_one_line(self, tmp_path: Path) -> None:
        with pytest.raises(VariantError, match="cannot read the variant file"):
            load_variant(tmp_path / "none.toml")

    def test_a_config_refuses_what_the_variant_does_not_have(self) -> None:
        v = parse_variant('preset = "meio"\n[deck]\n5 = false\n')
        with pytest.raises(ConfigError, match="is for 2, 3, 4 players, not 5"):
            MatchConfig(players=5, variant=v)
        with pytest.raises(ConfigError, match="of the meio edition, not classic"):
            MatchConfig(edition="classic", players=3, variant=v)


# -- the engine plays a variant ------------------------------------------------------------
ALL_RANKS = ('[deck]\n3 = false\n4 = false\n5 = false\n'
             '[deck.2]\nranks = "0123456789TJQKA"\nspecials = 2\n')


def _table(extra: str, hands: list[str], leader: int = 0, specials: str = "-1 Q+") -> State:
    v = parse_variant('preset = "meio"\npartnership = false\n' + extra + ALL_RANKS)
    cfg = MatchConfig(players=2, variant=v, first_leader=leader,
                      specials=tuple(C.parse_card(s) for s in specials.split()))
    masks = [C.parse_cards(h) for h in hands]
    aside = cfg.deck & ~(masks[0] | masks[1])
    return State.new(cfg, deals=[(masks, aside, leader)])


def _split(st_: State, packs: list[str]) -> None:
    for seat, pack in enumerate(packs):
        st_.apply(A.pack_action(C.parse_cards(pack)), seat)


def _play(st_: State, text: str) -> Outcome:
    return st_.apply(A.parse_action(text))


HANDS = ["2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"]


class TestVariantPlay:
    def test_a_6_7_split_keeps_seven_cards_and_switches_halves_after_six_tricks(self) -> None:
        st_ = _table("[hand]\nfirst_half = 6\npack = 7\n", HANDS)
        assert len(st_.legal_actions(0)) == math.comb(13, 7)
        with pytest.raises(IllegalActionError, match="exactly 7 cards, not 6"):
            st_.apply(A.pack_action(C.parse_cards("8S 9S TS JS QS KS")), 0)
        _split(st_, ["8S 9S TS JS QS KS AS", "8H 9H TH JH QH KH AH"])
        for _ in range(6):
            assert st_.half == 1
            st_.apply(st_.legal_actions()[0])
            st_.apply(st_.legal_actions()[0])
        assert st_.half == 2 and st_.trick_number == 7 and st_.hands[0].bit_count() == 7

    def test_without_trumps_a_heart_does_not_beat_the_led_suit(self) -> None:
        st_ = _table('trump = "none"\n', HANDS)
        _split(st_, ["8S 9S TS JS QS KS", "8H 9H TH JH QH KH"])
        _play(st_, "2S")
        out = _play(st_, "AH")
        assert out.trick is not None and out.trick.winner == 0
        std = _table("", HANDS)  # the same trick with hearts trumps
        _split(std, ["8S 9S TS JS QS KS", "8H 9H TH JH QH KH"])
        _play(std, "2S")
        assert _play(std, "AH").trick.winner == 1  # type: ignore[union-attr]

    def test_a_suited_special_that_need_not_follow_plays_on_any_trick(self) -> None:
        extra = ('[[special]]\ncode = "-2H"\nvalue = 20\nsuit = "S"\nfollows = false\n'
                 'pile = "winner_chooses"\n[[special]]\npreset = "Q+"\n')
        hands = ["2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
                 "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH -2H"]
        st_ = _table(extra, hands, specials="-2H Q+")
        _split(st_, ["8S 9S TS JS QS KS", "8H 9H TH JH QH KH"])
        _play(st_, "2S")
        assert C.MINUS_TWO_H in st_.legal_actions()  # a spade: seat 1 follows with it
        assert C.parse_card("2H") in st_.legal_actions()  # ...but need not: it is free
        out = _play(st_, "-2H")  # worth 20, a spade: it beats 2S, its winner chooses
        assert out.trick is not None and out.trick.winner == 1 and out.pile_pending
        assert st_.phase is Phase.PILE
        _play(st_, "pile=2")
        assert st_.piles[1] == [0, 1]
        # holding the led suit, its holder may still play it (a wild's freedom)
        hands2 = ["2H 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS -2H",
                  "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH KS"]
        st2 = _table(extra, hands2, leader=1, specials="-2H Q+")
        _split(st2, ["7S 8S 9S TS JS QS", "9H TH JH QH KH AH"])
        _play(st2, "3H")
        assert sorted(st2.legal_actions()) == [C.parse_card("2H"), C.MINUS_TWO_H]

    def test_a_relative_value_is_half_a_point_above_the_card_before_it(self) -> None:
        extra = ('[[special]]\ncode = "Q+"\nvalue = "above"\nsuit = "wild"\n'
                 '[[special]]\npreset = "-1"\n')
        hands = ["2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
                 "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH Q+"]
        st_ = _table(extra, hands)
        _split(st_, ["8S 9S TS JS QS KS", "8H 9H TH JH QH KH"])
        _play(st_, "AS")
        out = _play(st_, "Q+")  # 14.5 over the Ace; its pile is its half's
        assert out.trick is not None and out.trick.winner == 1 and out.trick.pile == 1

    def test_scoring_forms(self) -> None:
        sq = MatchConfig(players=3, variant=parse_variant(
            'preset = "meio"\n[scoring]\nform = "squared"\n'))
        bonus = MatchConfig(players=3, variant=parse_variant(
            'preset = "meio"\n[scoring]\nform = "balance_bonus"\nbonus = 2\n'))
        piles = [[5, 2], [1, 1], [1, 3]]
        assert score_round(sq, piles, (), 0).scores == (9, 0, 4)
        assert score_round(bonus, piles, (), 0).scores == (3, -2, 2)

    @settings(max_examples=25, deadline=None)
    @given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 4, 5]),
           rule=st.sampled_from(["last_trick", "rotate"]))
    def test_the_next_leader_follows_the_variants_rule(
        self, seed: int, players: int, rule: str
    ) -> None:
        v = parse_variant(f'preset = "meio"\nleader = "{rule}"\n'
                          '[match.default]\nform = "totals"\nrounds = 3\n')
        done = _random_match(MatchConfig(players=players, seed=seed, variant=v), seed)
        for before, after in zip(done.rounds, done.rounds[1:], strict=False):
            expected = (before.tricks[-1].winner if rule == "last_trick"
                        else (before.leader + 1) % players)
            assert after.leader == expected

    @settings(max_examples=20, deadline=None)
    @given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 4, 5]),
           shape=st.sampled_from([(13, 8, 5), (12, 6, 6), (13, 6, 7), (10, 5, 5)]))
    def test_hand_and_pack_sizes_set_the_tricks_of_each_half(
        self, seed: int, players: int, shape: tuple[int, int, int]
    ) -> None:
        size, first, pack = shape
        v = parse_variant(f'preset = "meio"\n[hand]\nsize = {size}\nfirst_half = {first}\n'
                          f"pack = {pack}\n")
        done = _random_match(MatchConfig(players=players, seed=seed, variant=v), seed)
        assert len(done.rounds) <= 5 * 2  # a 2-round-victory match that ties ends
        for result in done.rounds:
            assert len(result.tricks) == size
            assert sum(h + v for h, v in result.piles) == size
            for start in done.round_starts():
                assert all(hand.bit_count() == size for hand in start.deal)

    @settings(max_examples=20, deadline=None)
    @given(seed=st.integers(0, 10_000), players=st.sampled_from([3, 4, 5]))
    def test_match_formats(self, seed: int, players: int) -> None:
        first_to_3 = parse_variant('preset = "meio"\n[match.default]\nform = "victories"\n'
                                   "to_win = 3\n")
        done = _random_match(MatchConfig(players=players, seed=seed, variant=first_to_3), seed)
        wins = done.victories
        assert wins is not None
        if len(done.rounds) < 15:  # else the round limit ended it: the most victories
            assert max(wins) == 3 and wins.count(3) == 1
        assert done.winners == [i for i, w in enumerate(wins) if w == max(wins)]
        unshared = parse_variant('preset = "meio"\n[match.default]\nform = "totals"\n'
                                 "rounds = 2\nshared = false\n")
        done = _random_match(MatchConfig(players=players, seed=seed, variant=unshared), seed)
        assert len(done.rounds) >= 2 and len(done.winners) == 1
        assert done.totals.count(min(done.totals)) == 1

    def test_a_variant_needs_its_own_options(self) -> None:
        v = parse_variant('preset = "meio"\n[options]\nwild_lead = "next"\n')
        with pytest.raises(ConfigError, match="the variant's own"):
            MatchConfig(players=3, variant=v)
        assert MatchConfig(players=3, variant=v, options=v.options).options.declares is False


def test_variant_is_a_hashable_value() -> None:
    assert isinstance(hash(preset("meio")), int)
    assert isinstance(preset("classic"), Variant)


# -- records ------------------------------------------------------------------------------
class TestRecords:
    def test_a_variant_record_carries_the_ruleset_and_replays_without_the_file(self) -> None:
        from meio.engine.record import Record, replay_record

        v = parse_variant('preset = "meio"\nleader = "rotate"\n[hand]\nsize = 12\n'
                          "first_half = 6\npack = 6\n")
        done = _random_match(MatchConfig(players=3, seed=9, variant=v), 9)
        data = Record.from_state(done).to_json()
        assert data["variant"] == variant_json(v)
        state, result = replay_record(data)
        assert state.rounds == done.rounds and result["winners"] == done.winners
        # the same plays read as a standard game break its rules
        with pytest.raises(Exception, match="dealt 12 cards, not 13"):
            replay_record({k: val for k, val in data.items() if k != "variant"})

    def test_a_record_names_a_bad_variant_and_a_wrong_leader(self) -> None:
        from meio.engine.errors import RecordError
        from meio.engine.record import Record, replay_record

        v = parse_variant('preset = "meio"\nleader = "rotate"\n')
        done = _random_match(MatchConfig(players=3, seed=4, variant=v), 4)
        data = Record.from_state(done).to_json()
        bad = {**data, "variant": {**data["variant"], "trump": "X"}}
        with pytest.raises(RecordError, match=r"field variant.*trump: must be a suit"):
            Record.from_json(bad)
        moved = dict(data)
        moved["rounds"] = [dict(r) for r in data["rounds"]]
        moved["rounds"][1]["leader"] = (data["rounds"][1]["leader"] + 1) % 3
        with pytest.raises(RecordError, match="the seat after round 1's leader leads"):
            replay_record(moved)

    def test_a_standard_record_has_no_variant_field(self) -> None:
        from meio.engine.record import Record

        done = _random_match(MatchConfig(players=3, seed=4), 4)
        assert "variant" not in Record.from_state(done).to_json()


def test_the_refusal_of_a_pile_names_the_card_that_won_the_trick() -> None:
    # here Q+, not +.5, lets its winner choose: the refusal names the card that won
    text = ('preset = "meio"\npartnership = false\n[deck]\n3 = false\n4 = false\n5 = false\n'
            '[deck.2]\nranks = "89TJQKA"\nspecials = 1\n'
            '[[special]]\npreset = "Q+"\npile = "winner_chooses"\n')
    cfg = MatchConfig(players=2, variant=parse_variant(text), seed=1)
    rng = random.Random(5)
    seen = 0
    for game in range(40):
        state = State.new(dataclasses.replace(cfg, seed=game))
        while not state.is_over and state.phase is not Phase.PILE:
            seat = state.current_seat()
            state.apply(rng.choice(list(state.legal_actions(seat))), seat)
        if state.is_over:
            continue
        other = 1 - state.pending_pile
        with pytest.raises(IllegalActionError, match=rf"only seat {state.pending_pile}, "
                           r"who won the trick with Q\+, chooses its pile"):
            state.apply(A.PILE_1, other)
        seen += 1
    assert seen >= 3
