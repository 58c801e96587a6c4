"""Property tests over random games of every table size (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from meio.engine import IllegalActionError, MatchConfig, Phase, State, sample_world
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.record import Record, result_json
from meio.engine.wire import view_json
from tests.engine.helpers import CONFIGS, OPTION_SETS, random_match, snapshot

#: (edition, players, partnership, wild_lead, reveal_specials): every table size
#: under every combination of the table options of RULES.md §10
Table = tuple[str, int, bool, str, bool]
configs = st_.builds(
    lambda c, o: (*c, *o), st_.sampled_from(CONFIGS), st_.sampled_from(OPTION_SETS)
)
seeds = st_.integers(min_value=0, max_value=2**32)
SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check_round_invariants(state: State) -> None:
    cfg = state.config
    for res in state.rounds:
        assert len(res.tricks) == 13
        assert sum(h + v for h, v in res.piles) == 13
        for t in res.tricks:
            assert len(t.plays) == cfg.players
            assert [s for s, _ in t.plays] == [
                (t.leader + i) % cfg.players for i in range(cfg.players)
            ]
            assert t.winner in [s for s, _ in t.plays]
            assert t.pile in (1, 2)
        # first-half minus second-half piles over the table is odd (RULES.md §5)
        assert sum(h - v for h, v in res.piles) % 2 == 1
        assert res.scores == tuple(abs(h - v) for h, v in res.piles)


@SETTINGS
@given(configs, seeds)
def test_random_matches_keep_every_invariant(config: Table, seed: int) -> None:
    edition, players, partnership, wild, reveal = config
    state = random_match(
        edition, players, partnership, seed, wild_lead=wild, reveal_specials=reveal
    )
    assert state.is_over
    _check_round_invariants(state)
    if players == 2 or partnership:
        # no round can be tied between two players or two teams
        for res in state.rounds:
            scores = res.team_scores if partnership else res.scores
            assert scores is not None and scores[0] != scores[1]
    if (players == 2 and edition == "meio") or partnership:
        assert state.victories is not None and max(state.victories) == 2
        assert 2 <= len(state.rounds) <= 3
    else:
        # 3 rounds on totals, 2-player classic included (RULES.md §6)
        assert state.victories is None and len(state.rounds) == 3
        assert all(r.victory is None for r in state.rounds)
        low = min(state.totals)
        assert state.winners == [s for s, t in enumerate(state.totals) if t == low]
        if players == 2:
            assert len(state.winners) == 1  # two totals never tie


@SETTINGS
@given(configs, seeds, st_.integers(min_value=0, max_value=60))
def test_card_conservation(config: Table, seed: int, steps: int) -> None:
    edition, players, partnership, wild, reveal = config
    state = random_match(
        edition, players, partnership, seed, steps, wild_lead=wild, reveal_specials=reveal
    )
    if state.is_over:
        return
    played = state.played
    if state.phase is Phase.SPLIT or state.half == 1:
        held = 0
        for seat in range(players):
            held |= state.hands[seat] | state.packs[seat]
    else:
        held = 0
        for seat in range(players):
            held |= state.hands[seat]
        for t in state.tricks[:7]:
            for _, c in t.plays:
                played |= 1 << c
    total = held | played | state.aside
    assert total == state.config.deck
    assert C.count(held) + C.count(played) + C.count(state.aside) == state.config.deck_size


@SETTINGS
@given(configs, seeds, st_.integers(min_value=0, max_value=200))
def test_illegal_actions_leave_the_state_unchanged(
    config: Table, seed: int, steps: int
) -> None:
    edition, players, partnership, wild, reveal = config
    state = random_match(
        edition, players, partnership, seed, steps, wild_lead=wild, reveal_specials=reveal
    )
    rng = random.Random(seed)
    legal = set(state.legal_actions()) if state.phase is not Phase.SPLIT else set()
    before = snapshot(state)
    candidates = [*list(range(A.NUM_PLAY_ACTIONS)), A.pack_action(rng.getrandbits(65))]
    for action in candidates:
        if action in legal:
            continue
        try:
            state.apply(action)
        except IllegalActionError as exc:
            assert exc.reason
        else:
            raise AssertionError(f"{A.action_text(action)} was accepted but is not legal")
        assert snapshot(state) == before


@SETTINGS
@given(configs, seeds, st_.integers(min_value=0, max_value=200))
def test_legal_actions_are_exactly_the_accepted_ones(
    config: Table, seed: int, steps: int
) -> None:
    edition, players, partnership, wild, reveal = config
    state = random_match(
        edition, players, partnership, seed, steps, wild_lead=wild, reveal_specials=reveal
    )
    if state.phase is Phase.SPLIT or state.is_over:
        return
    legal = set(state.legal_actions())
    for action in range(A.NUM_PLAY_ACTIONS):
        assert state.is_legal(action) == (action in legal)


@SETTINGS
@given(configs, seeds, st_.integers(min_value=0, max_value=200))
def test_record_round_trip(config: Table, seed: int, steps: int) -> None:
    edition, players, partnership, wild, reveal = config
    state = random_match(
        edition, players, partnership, seed, steps, wild_lead=wild, reveal_specials=reveal
    )
    record = Record.from_state(state)
    again = Record.from_json(record.to_text()).to_state(seed=state.config.seed)
    assert again.history == state.history
    assert snapshot(again)[1:] == snapshot(state)[1:]  # all but the fixed deals list
    assert result_json(again) == result_json(state)
    assert Record.from_state(again).to_json() == record.to_json()


@SETTINGS
@given(configs, seeds, st_.integers(min_value=0, max_value=120))
def test_undo_restores_exactly(config: Table, seed: int, steps: int) -> None:
    edition, players, partnership, wild, reveal = config
    state = random_match(
        edition, players, partnership, seed, steps, wild_lead=wild, reveal_specials=reveal
    )
    if state.is_over:
        return
    before = snapshot(state)
    rng = random.Random(seed)
    state.apply(rng.choice(state.legal_actions()))
    middle = snapshot(state)
    if not state.is_over:
        state.apply_unchecked(rng.choice(state.legal_actions()))
        state.undo()
        assert snapshot(state) == middle
    state.undo()
    assert snapshot(state) == before


@SETTINGS
@given(configs, seeds, st_.integers(min_value=0, max_value=200))
def test_clone_is_independent(config: Table, seed: int, steps: int) -> None:
    edition, players, partnership, wild, reveal = config
    state = random_match(
        edition, players, partnership, seed, steps, wild_lead=wild, reveal_specials=reveal
    )
    copy = state.clone()
    before = snapshot(state)
    rng = random.Random(seed)
    while not copy.is_over:
        copy.apply(rng.choice(copy.legal_actions()))
    assert snapshot(state) == before


def _hidden_cards_of_others(state: State, seat: int) -> int:
    """Cards seat could not see at a real table right now."""
    cfg = state.config
    seen = state.hands[seat] | state.packs[seat] | state.played
    if cfg.partnership and state.phase is not Phase.SPLIT:
        seen |= state.packs[(seat + 2) % 4]
    for res_trick in state.tricks:
        for _, c in res_trick.plays:
            seen |= 1 << c
    return cfg.deck & ~seen


def _cards_in_view(view: object) -> int:
    from meio.engine import View

    assert isinstance(view, View)
    # this round only: earlier rounds re-use the same deck and are all public
    return view.hand | view.pack | view.received | view.played


@SETTINGS
@given(configs, seeds, st_.integers(min_value=0, max_value=200))
def test_views_hold_no_hidden_card(config: Table, seed: int, steps: int) -> None:
    edition, players, partnership, wild, reveal = config
    state = random_match(
        edition, players, partnership, seed, steps, wild_lead=wild, reveal_specials=reveal
    )
    if state.is_over:
        return
    for seat in range(players):
        view = state.view(seat)
        hidden = _hidden_cards_of_others(state, seat)
        assert _cards_in_view(view) & hidden == 0
        # the view's JSON form carries no hidden card code either
        text = str(view_json(view))
        for card in C.cards_of(hidden & ~C.WILD_MASK & ~(1 << C.MINUS_TWO_H)):
            assert f"'{C.card_code(card)}'" not in text
        assert view.config.seed == 0
        if not reveal and players < 5 and edition == "meio":
            # hidden specials: only those the seat holds, held or saw played
            assert view.config.special_cards == ()
            seen = state.deal[seat] | state.played | _cards_in_view(view)
            for res in state.rounds:
                for t in res.tricks:
                    seen |= C.mask_of(t.cards)
            assert all(seen >> s & 1 for s in view.specials)
            codes = {C.card_code(s) for s in state.config.special_cards if not seen >> s & 1}
            assert not codes & set(view_json(view)["specials"])
    spectator = state.spectator_view()
    assert spectator.hand == spectator.pack == spectator.received == 0
    assert _cards_in_view(spectator) == state.played


@SETTINGS
@given(configs, seeds, st_.integers(min_value=0, max_value=200))
def test_sample_world_is_consistent_and_varies(
    config: Table, seed: int, steps: int
) -> None:
    edition, players, partnership, wild, reveal = config
    state = random_match(
        edition, players, partnership, seed, steps, wild_lead=wild, reveal_specials=reveal
    )
    if state.is_over:
        return
    seat = state.current_seat()
    view = state.view(seat)
    rng = random.Random(seed)
    worlds = [sample_world(view, rng) for _ in range(8)]
    deals = set()
    for w in worlds:
        wv = w.view(seat)
        for field in (
            "hand",
            "pack",
            "received",
            "hand_sizes",
            "tricks",
            "current_trick",
            "piles",
            "rounds",
            "phase",
            "to_move",
            "led_suit",
            "split_done",
        ):
            assert getattr(wv, field) == getattr(view, field), field
        assert set(w.legal_actions()) == set(view.legal_actions()) or w.phase is Phase.SPLIT
        # every other seat's cards respect the voids it has shown
        voids = view.voids()
        for other in range(players):
            for suit in voids[other]:
                assert w.hands[other] & C.SUIT_MASKS[suit] == 0
        deals.add((tuple(w.deal), tuple(w.packs)))
    if players >= 3 and view.phase is Phase.SPLIT:
        assert len(deals) > 1


def test_sample_world_reads_only_the_view() -> None:
    """Two states that look the same to a seat give the same worlds for the same rng."""
    for seed in range(20):
        state = random_match("meio", 4, False, seed, stop_after=30)
        view = state.view(state.current_seat())
        other = _same_view_different_hidden(state, seed)
        assert other.view(view.seat or 0) == view
        assert other.hands != state.hands  # the hidden cards really were swapped
        a = sample_world(view, random.Random(1))
        b = sample_world(other.view(view.seat or 0), random.Random(1))
        assert a.deal == b.deal and a.packs == b.packs


def _same_view_different_hidden(state: State, seed: int) -> State:
    """A different real state with the same view: other seats' unseen cards moved."""
    seat = state.current_seat()
    view = state.view(seat)
    rng = random.Random(seed + 1000)
    for _ in range(50):
        world = sample_world(view, rng)
        if world.view(seat) == view and world.hands != state.hands:
            return world
    raise AssertionError("could not build a look-alike state")


def test_new_states_are_reproducible_from_config() -> None:
    for edition, players, partnership in CONFIGS:
        cfg = MatchConfig(edition=edition, players=players, partnership=partnership, seed=99)  # type: ignore[arg-type]
        assert State.new(cfg).deal == State.new(cfg).deal
        other = MatchConfig(edition=edition, players=players, partnership=partnership, seed=98)  # type: ignore[arg-type]
        assert State.new(cfg).deal != State.new(other).deal
