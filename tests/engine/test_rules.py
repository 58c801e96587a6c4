"""Scripted deals for every rule of RULES.md, one scenario per rule or special card."""

from __future__ import annotations

import pytest

from meio.engine import IllegalActionError, MatchConfig, Phase, State
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.presets import preset
from meio.engine.scoring import RoundResult, eligible_leaders
from meio.engine.tricks import pile_for, winning_index
from meio.engine.wire import config_from_json, config_json
from tests.engine.helpers import play, scripted, snapshot


def win(codes: str, led: str, half: int = 1, edition: str = "meio") -> tuple[int, float]:
    cards = [C.parse_card(c) for c in codes.split()]
    rules = preset(edition).card_rules
    index, v2 = winning_index(cards, C.parse_suit(led), rules.trick_values[half - 1],
                              rules.suit_of, rules.trump)
    return index, v2 / 2


# -- card values and trick winners (RULES.md §3–4) --------------------------------------------
class TestTrickWinner:
    def test_highest_of_led_suit_wins_other_suits_never(self) -> None:
        assert win("9S KS AD QS", "S") == (1, 13)

    def test_any_heart_trumps_a_non_heart_lead(self) -> None:
        assert win("AS 3H KS", "S") == (1, 3)

    def test_highest_heart_wins_among_trumps(self) -> None:
        assert win("AS 3H 7H KS", "S") == (2, 7)

    def test_minus_two_hearts_is_the_lowest_trump_but_still_trumps(self) -> None:
        assert win("AS -2H KS", "S") == (1, -2)
        assert win("AS -2H 3H", "S") == (2, 3)
        assert win("3H -2H", "H") == (0, 3)

    def test_minus_one_is_lowest_in_first_half_highest_in_second(self) -> None:
        assert win("3D -1", "D", half=1) == (0, 3)
        assert win("3D -1 AD", "D", half=2) == (1, 15)

    def test_a_plus_is_highest_in_first_half_lowest_in_second(self) -> None:
        assert win("AD A+", "D", half=1) == (1, 15)
        assert win("3D A+", "D", half=2) == (0, 3)

    def test_wild_on_hearts_lead_is_a_trump(self) -> None:
        # A+ follows the hearts lead, so it is a heart and beats every trump in half 1
        assert win("2H A+ KH", "H", half=1) == (1, 15)

    def test_wild_on_other_lead_is_not_a_trump(self) -> None:
        # A+ counts as a spade; the heart still trumps it
        assert win("9S A+ 2H", "S", half=1) == (2, 2)

    def test_wild_lead_counts_as_the_declared_suit(self) -> None:
        # -1 leads declaring D (value -1): any diamond beats it, a spade does not
        assert win("-1 4S 4D", "D", half=1) == (2, 4)
        assert win("-1 4S", "D", half=1) == (0, -1)

    def test_q_plus_sits_between_queen_and_king(self) -> None:
        assert win("QS Q+", "S") == (1, 12.5)
        assert win("KS Q+", "S") == (0, 13)

    def test_plus_half_takes_the_previous_value_plus_half(self) -> None:
        assert win("9S TS +.5", "S") == (2, 10.5)
        assert win("TS 9S +.5", "S") == (0, 10)  # 9.5 < 10

    def test_plus_half_leading_is_worth_half(self) -> None:
        assert win("+.5 0S", "S") == (0, 0.5)
        assert win("+.5 1S", "S") == (1, 1)

    def test_plus_half_follows_previous_card_of_any_suit(self) -> None:
        # previous card is a diamond 9 (off-suit, it does not win) — +.5 is 9.5 spades
        assert win("7S 9D +.5", "S") == (2, 9.5)

    def test_plus_half_after_a_wild_uses_its_value_in_this_half(self) -> None:
        assert win("3S -1 +.5", "S", half=2) == (2, 15.5)
        assert win("3S -1 +.5", "S", half=1) == (0, 3)  # -1 then -0.5

    def test_plus_half_after_q_plus_ties_the_king_and_first_played_wins(self) -> None:
        assert win("KS Q+ +.5", "S") == (0, 13)
        assert win("Q+ +.5 KS", "S") == (1, 13)  # +.5 played before the K

    def test_classic_ace_is_the_lowest_card(self) -> None:
        assert win("AS 2S", "S", edition="classic") == (1, 2)
        assert win("KS AS", "S", edition="classic") == (0, 13)

    def test_pile_rules(self) -> None:
        effects = preset("meio").card_rules.pile
        assert pile_for(C.parse_card("KS"), 1, effects) == 1
        assert pile_for(C.parse_card("KS"), 2, effects) == 2
        assert pile_for(C.Q_PLUS, 1, effects) == 2
        assert pile_for(C.Q_PLUS, 2, effects) == 1
        assert pile_for(C.PLUS_HALF, 1, effects) == 0  # the winner chooses


# -- whole scripted rounds ---------------------------------------------------------------------
def scenario_q_plus_and_plus_half() -> State:
    return scripted(
        ["+.5 AS 9S TD 9D 9C TC", "Q+ KS 9H TH JH QH KH"],
        ["TS JS QS JD QD KD", "AH AD JC QC KC AC"],
        specials="+.5 Q+",
    )


class TestScriptedTwoPlayerRound:
    def test_q_plus_win_in_first_half_goes_to_second_half_pile(self) -> None:
        st = scenario_q_plus_and_plus_half()
        play(st, "9S Q+")
        assert st.tricks[-1].winner == 1 and st.tricks[-1].pile == 2
        assert st.piles == [[0, 0], [0, 1]]
        assert st.to_move == 1  # the winner leads

    def test_must_follow_suit_and_error_leaves_state_unchanged(self) -> None:
        st = scenario_q_plus_and_plus_half()
        play(st, "9S Q+ KS")
        before = snapshot(st)
        with pytest.raises(IllegalActionError, match="does not follow the led suit S"):
            st.apply_text("TD")
        assert snapshot(st) == before
        st.apply_text("AS")
        assert st.tricks[-1].winner == 0 and st.piles[0] == [1, 0]

    def test_void_player_may_trump(self) -> None:
        st = scenario_q_plus_and_plus_half()
        play(st, "9S Q+ KS AS TD 9H")
        assert st.tricks[-1].winner == 1 and st.piles[1] == [1, 1]

    def test_plus_half_win_asks_its_winner_for_the_pile(self) -> None:
        st = scenario_q_plus_and_plus_half()
        play(st, "9S Q+ KS AS TD 9H KH +.5")
        assert st.phase is Phase.PILE and st.pending_pile == 0
        assert st.legal_actions() == (A.PILE_1, A.PILE_2)
        before = snapshot(st)
        with pytest.raises(IllegalActionError, match="only seat 0"):
            st.apply(A.PILE_1, seat=1)
        with pytest.raises(IllegalActionError, match="choose the pile"):
            st.apply_text("9D")
        with pytest.raises(Exception, match="pile is 1"):
            st.apply_text("pile=3")
        assert snapshot(st) == before
        st.apply_text("pile=2")
        assert st.piles[0] == [1, 1] and st.tricks[-1].pile == 2
        assert st.phase is Phase.PLAY and st.to_move == 0

    def test_whole_round_scores_and_second_half_leader(self) -> None:
        st = scenario_q_plus_and_plus_half()
        play(st, "9S Q+ KS AS TD 9H KH +.5 pile=2 9D TH JH TC QH 9C")
        assert st.half == 2 and st.trick_number == 8 and st.to_move == 1  # won trick 7
        assert st.hands == [C.parse_cards("TS JS QS JD QD KD"), C.parse_cards("AH AD JC QC KC AC")]
        play(st, "AH TS AD JD JC QS QC JS KC QD AC KD")
        res = st.rounds[0]
        assert res.piles == ((1, 1), (4, 7))
        assert res.scores == (0, 3)
        assert res.victory == 0
        assert st.victories == [1, 0]
        # the next round is dealt and led by the seat that scored most
        assert st.round_index == 1 and st.phase is Phase.SPLIT and st.round_leader == 1

    def test_q_plus_in_second_half_goes_to_first_half_pile(self) -> None:
        st = scripted(
            ["AH KH QH JH TH 9H -1", "AS KS QS JS TS 9S 9D"],
            ["9C TC JC QC KC AC", "TD JD QD KD AD Q+"],
            specials="-1 Q+",
        )
        play(st, "AH AS KH KS QH QS JH JS TH TS 9H 9D")
        # -1 leads declaring spades: worth -1 in the first half, so the 9S wins
        play(st, "-1=S 9S")
        assert st.tricks[-1].winner == 1 and st.tricks[-1].declared == C.SPADES
        play(st, "Q+=C 9C")
        assert st.tricks[-1].winner == 1 and st.tricks[-1].pile == 1
        assert st.piles[1] == [2, 0]
        play(st, "TD TC JD JC QD QC KD KC AD AC")
        assert st.rounds[0].scores == (6, 3) and st.rounds[0].victory == 1

    def test_wild_lead_needs_a_declared_suit_and_only_a_lead_declares(self) -> None:
        st = scripted(
            ["AH KH QH JH TH 9H -1", "AS KS QS JS TS 9S 9D"],
            ["9C TC JC QC KC AC", "TD JD QD KD AD Q+"],
            specials="-1 Q+",
        )
        play(st, "AH AS KH KS QH QS JH JS TH TS 9H 9D")
        with pytest.raises(IllegalActionError, match="needs a declared suit"):
            st.apply_text("-1")
        play(st, "-1=S")
        with pytest.raises(IllegalActionError, match="not in seat 1's hand"):
            st.apply_text("Q+=S")  # Q+ is in seat 1's second-half pack

    def test_wild_may_always_be_played_even_holding_the_led_suit(self) -> None:
        st = scripted(
            ["AS KS QS JS TS 9S 9D", "AH KH QH JH TH 9H -1"],
            ["TD JD QD KD AD Q+", "9C TC JC QC KC AC"],
            specials="-1 Q+",
        )
        st.apply_text("9D")  # seat 1 has no diamond: anything goes
        legal = {A.action_text(a) for a in st.legal_actions()}
        assert legal == {"AH", "KH", "QH", "JH", "TH", "9H", "-1"}
        st.apply_text("-1")
        assert st.tricks[-1].winner == 0  # -1 is a diamond worth -1 in the first half

    def test_minus_two_hearts_must_follow_hearts(self) -> None:
        st = scripted(
            [
                "KH 3S 4S 5S 6S 7S 8S",
                "-2H 3D 4D 5D 6D 7D 8D",
                "AH 3C 4C 5C 6C 7C 8C",
                "QH 9S TS JS QS KS AS",
            ],
            ["9D TD JD QD KD AD", "9C TC JC QC KC AC", "3H 4H 5H 6H 7H 8H", "9H TH JH +.5 A+ -1"],
            specials="-2H +.5 A+ -1",
        )
        st.apply_text("KH")
        legal = {A.action_text(a) for a in st.legal_actions()}
        assert legal == {"-2H"}
        with pytest.raises(IllegalActionError, match="does not follow the led suit H"):
            st.apply_text("3D")
        play(st, "-2H AH QH")
        assert st.tricks[-1].winner == 2


class TestPartnership:
    def test_packs_pass_to_partners_and_teams_score(self) -> None:
        st = scripted(
            [
                "AS KS QS JS TS 9S 8S",
                "3S 4S 5S 6S 7S 3D 4D",
                "5D 6D 7D 8D 9D TD JD",
                "QD KD AD 3C 4C 5C 6C",
            ],
            ["7C 8C 9C TC JC QC", "KC AC 3H 4H 5H 6H", "7H 8H 9H TH JH QH", "KH AH -1 A+ +.5 Q+"],
            specials="-1 A+ +.5 Q+",
            partnership=True,
        )
        me = st.view(0)
        assert me.pack == C.parse_cards("7C 8C 9C TC JC QC")
        assert me.received == C.parse_cards("7H 8H 9H TH JH QH")  # from seat 2
        # seat 0 leads spades 7 times; seats 1 follows, 2 and 3 discard
        play(st, "AS 3S 5D QD KS 4S 6D KD QS 5S 7D AD JS 6S 8D 3C TS 7S 9D 4C")
        play(st, "9S 3D TD 5C 8S 4D JD 6C")
        assert st.half == 2 and st.to_move == 0
        assert st.hands[0] == C.parse_cards("7H 8H 9H TH JH QH")  # chosen by seat 2
        assert st.hands[2] == C.parse_cards("7C 8C 9C TC JC QC")  # chosen by seat 0
        assert st.hands[1] == C.parse_cards("KH AH -1 A+ +.5 Q+")  # chosen by seat 3
        assert st.piles[0] == [7, 0]
        play(st, "QH KH 7C 3H")  # seat 1 plays KH, the highest heart
        assert st.tricks[-1].winner == 1
        play(st, "AH 8C 4H 8H")
        play(st, "A+=H 9C 5H 9H")  # A+ is worth -1 in the second half: 9H wins
        assert st.tricks[-1].winner == 0
        play(st, "TH -1 TC 6H")  # -1 is 15 in the second half
        assert st.tricks[-1].winner == 1
        play(st, "Q+=C JC KC JH")  # seat 0 holds no club: JH trumps Q+ and KC
        assert st.tricks[-1].winner == 0
        play(st, "7H +.5 QC AC")  # +.5 on a heart lead is a trump worth 7.5
        assert st.tricks[-1].winner == 1 and st.phase is Phase.PILE
        st.apply_text("pile=1")
        res = st.rounds[0]
        h = [p[0] for p in res.piles]
        v = [p[1] for p in res.piles]
        assert res.team_scores == (abs(h[0] + h[2] - v[0] - v[2]), abs(h[1] + h[3] - v[1] - v[3]))
        assert res.victory == (0 if res.team_scores[0] < res.team_scores[1] else 1)
        assert st.victories is not None and sum(st.victories) == 1


# -- next-round leader and match end (RULES.md §6–7) ------------------------------------------
def result(scores: tuple[int, ...], team: tuple[int, int] | None = None) -> RoundResult:
    piles = tuple((s, 0) for s in scores)
    return RoundResult(scores, piles, team, None)


class TestNextLeader:
    def test_most_points_leads(self) -> None:
        cfg = MatchConfig(players=4)
        assert eligible_leaders(cfg, result((1, 3, 0, 2))) == (1,)

    def test_ties_are_all_eligible(self) -> None:
        cfg = MatchConfig(players=4)
        assert eligible_leaders(cfg, result((3, 1, 3, 0))) == (0, 2)

    def test_partnership_team_that_scored_more(self) -> None:
        cfg = MatchConfig(players=4, partnership=True)
        assert eligible_leaders(cfg, result((0, 0, 0, 0), (1, 4))) == (1, 3)

    def test_seeded_tie_break_is_deterministic_and_eligible(self) -> None:
        from tests.engine.helpers import random_match

        for seed in range(40):
            st = random_match("meio", 4, False, seed)
            starts = st.round_starts()
            for k in range(1, len(starts)):
                assert starts[k].leader in eligible_leaders(st.config, st.rounds[k - 1])
            again = random_match("meio", 4, False, seed)
            assert [s.leader for s in again.round_starts()] == [s.leader for s in starts]


class TestMatchEnd:
    def test_three_rounds_for_three_to_five_players(self) -> None:
        from tests.engine.helpers import random_match

        for players in (3, 4, 5):
            st = random_match("meio", players, False, players)
            assert len(st.rounds) == 3 and st.is_over
            low = min(st.totals)
            assert st.winners == [s for s, t in enumerate(st.totals) if t == low]

    def test_two_players_first_to_two_victories(self) -> None:
        from tests.engine.helpers import random_match

        for seed in range(30):
            st = random_match("meio", 2, False, seed)
            assert st.victories is not None and max(st.victories) == 2
            assert len(st.rounds) in (2, 3)
            assert st.winners == [st.victories.index(2)]

    def test_no_action_after_the_match(self) -> None:
        from tests.engine.helpers import random_match

        st = random_match("classic", 3, False, 1)
        before = snapshot(st)
        with pytest.raises(IllegalActionError, match="match is over"):
            st.apply(0)
        assert snapshot(st) == before
        assert list(st.legal_actions()) == []


class TestSplit:
    def test_pack_must_be_six_of_own_cards(self) -> None:
        st = State.new(MatchConfig(players=4, seed=11))
        hand = st.hands[2]
        cards = C.cards_of(hand)
        before = snapshot(st)
        with pytest.raises(IllegalActionError, match="exactly 6"):
            st.apply(A.pack_action(C.mask_of(cards[:5])), 2)
        other = C.cards_of(st.hands[3])[:6]
        with pytest.raises(IllegalActionError, match="not in seat 2's hand"):
            st.apply(A.pack_action(C.mask_of(other)), 2)
        with pytest.raises(IllegalActionError, match="choose a pack first"):
            st.apply(cards[0], 2)
        assert snapshot(st) == before
        st.apply(A.pack_action(C.mask_of(cards[:6])), 2)
        with pytest.raises(IllegalActionError, match="already chosen"):
            st.apply(A.pack_action(C.mask_of(cards[6:12])), 2)
        assert st.hands[2] == C.mask_of(cards[6:])
        assert st.seats_to_act() == (0, 1, 3)

    def test_splits_in_any_order_then_the_leader_plays(self) -> None:
        st = State.new(MatchConfig(players=3, seed=5, first_leader=2))
        for seat in (2, 0, 1):
            st.apply(st.legal_actions(seat)[7], seat)
        assert st.phase is Phase.PLAY and st.to_move == 2

    def test_out_of_turn_play_is_refused(self) -> None:
        st = State.new(MatchConfig(players=3, seed=5, first_leader=2))
        for seat in range(3):
            st.apply(st.legal_actions(seat)[0], seat)
        card = C.cards_of(st.hands[0])[0]
        with pytest.raises(IllegalActionError, match="seat 2's turn"):
            st.apply(card, seat=0)

    def test_pack_choices_sequence(self) -> None:
        st = State.new(MatchConfig(players=4, seed=1))
        packs = st.legal_actions(0)
        assert len(packs) == 1716
        listed = list(packs)
        assert len(set(listed)) == 1716
        assert [packs[i] for i in (0, 1, 500, 1715, -1)] == [
            listed[0],
            listed[1],
            listed[500],
            listed[1715],
            listed[-1],
        ]
        assert all(p in packs for p in listed[::97])
        assert A.pack_action(st.hands[1] & ((1 << 64) - 1)) not in packs


class TestConfig:
    @pytest.mark.parametrize(
        ("edition", "players", "size", "aside"),
        [
            ("meio", 2, 26, 0),
            ("meio", 3, 39, 0),
            ("meio", 4, 52, 0),
            ("meio", 5, 65, 0),
            ("classic", 2, 28, 2),
            ("classic", 3, 40, 1),
            ("classic", 4, 52, 0),
        ],
    )
    def test_deck_sizes(self, edition: str, players: int, size: int, aside: int) -> None:
        cfg = MatchConfig(edition=edition, players=players)  # type: ignore[arg-type]
        assert cfg.deck_size == size and cfg.aside_count == aside
        assert len(cfg.special_cards) == (players if edition == "meio" else 0)

    def test_two_player_meio_deck_is_nine_to_ace(self) -> None:
        cfg = MatchConfig(players=2, specials=(C.Q_PLUS, C.PLUS_HALF))
        ordinary = cfg.deck & ~C.WILD_MASK & ~(1 << C.MINUS_TWO_H)
        assert {C.card_code(c)[0] for c in C.cards_of(ordinary)} == set("9TJQKA")

    @pytest.mark.parametrize(
        ("kwargs", "message", "field"),
        [
            ({"players": 6}, "2 to 5", "players"),
            ({"edition": "classic", "players": 5}, "2 to 4", "players"),
            ({"players": 3, "partnership": True}, "exactly 4", "partnership"),
            ({"players": 3, "specials": (60, 61)}, "3 special cards", "specials"),
            ({"edition": "classic", "specials": (60,)}, "no special", "specials"),
            ({"edition": "poker"}, "unknown edition", "edition"),
            ({"first_leader": 4}, "not a seat", "first_leader"),
        ],
    )
    def test_bad_configs_name_the_field_at_fault(
        self, kwargs: dict[str, object], message: str, field: str
    ) -> None:
        from meio.engine import ConfigError

        with pytest.raises(ConfigError, match=message) as refused:
            MatchConfig(**kwargs)  # type: ignore[arg-type]
        assert refused.value.field == field

    def test_public_config_hides_the_seed(self) -> None:
        cfg = MatchConfig(players=4, seed=12345)
        st = State.new(cfg)
        assert st.view(0).config.seed == 0
        assert st.view(0).config.specials == cfg.specials


def test_plus_half_after_q_plus_ties_the_king_in_play_and_the_first_card_wins() -> None:
    st = scripted(
        ["KS AS 6H 7H 8H 9H TH", "Q+ 6S 7S 8S 9S TS JS", "+.5 QS JH QH KH AH -1"],
        ["6D 7D 8D 9D TD JD", "QD KD AD 6C 7C 8C", "9C TC JC QC KC AC"],
        specials="Q+ +.5 -1",
    )
    play(st, "KS Q+ +.5")
    trick = st.tricks[-1]
    assert trick.winner == 0 and trick.pile == 1  # K and +.5 are both 13: K came first
    assert st.phase is Phase.PLAY and st.to_move == 0


def test_three_round_totals_share_the_victory() -> None:
    import json
    from pathlib import Path

    from meio.engine.record import Record

    path = Path(__file__).parent.parent / "data" / "records" / "meio-4p.json"
    st = Record.from_json(json.loads(path.read_text())).to_state()
    assert [r.scores for r in st.rounds] == [(3, 1, 0, 1), (2, 1, 3, 1), (0, 1, 0, 2)]
    assert st.totals == [5, 3, 3, 4] and st.winners == [1, 2] and st.is_over


def test_config_dict_round_trip_and_bad_fields() -> None:
    from meio.engine import ConfigError

    cfg = MatchConfig(players=3, seed=77)
    assert config_from_json(config_json(cfg)) == cfg
    cfg = MatchConfig(edition="classic", players=4, partnership=True, seed=5)
    assert config_from_json(config_json(cfg)) == cfg
    for bad in ({"players": "4"}, {"players": True}, {"edition": 3}, {"partnership": "no"},
                {"specials": "-1"}, {"seed": 1.5}, {"wild_lead": "first"}):
        with pytest.raises(ConfigError) as refused:
            config_from_json(bad)
        assert refused.value.field == next(iter(bad))
