"""Bots under the table options of RULES.md §10: ``wild_lead: next`` and hidden specials.

They play only legal moves (no declared suit under ``next``), finish matches on
every table, and decide from the view alone: with the specials hidden, a world
that differs from the real one in which specials the seat cannot know are in the
deck gives the same decision.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from meio.bots import bot_turn, make_bot, play_match
from meio.bots.base import Bot
from meio.bots.features import seen_from_view
from meio.bots.playout import evaluate_actions as python_evaluate
from meio.bots.search import Level, SearchBot
from meio.engine import MatchConfig, Phase, State, TableOptions, View, sample_world
from meio.engine import actions as A
from meio.engine import cards as C

TABLES = [
    ("meio", 2, False), ("meio", 3, False), ("meio", 4, False), ("meio", 5, False),
    ("meio", 4, True), ("classic", 2, False), ("classic", 3, False), ("classic", 4, False),
]
OPTIONS = [("next", True), ("declare", False), ("next", False)]
SPECIALS_MASK = C.mask_of(C.SPECIALS)
TINY = Level(card_worlds=3, card_playouts=1, split_candidates=3, split_worlds=3,
             split_playouts=1)


def _config(table: tuple[str, int, bool], options: tuple[str, bool], seed: int) -> MatchConfig:
    edition, players, partnership = table
    wild_lead, reveal = options
    return MatchConfig(edition=edition, players=players,  # type: ignore[arg-type]
                       partnership=partnership, seed=seed,
                       options=TableOptions(wild_lead, reveal))  # type: ignore[arg-type]


def _options_id(options: tuple[str, bool]) -> str:
    return f"{options[0]}-{'shown' if options[1] else 'hidden'}"


class _Watch:
    """Wraps a bot: checks each action it returns is legal in the view and, under
    ``next``, never a declared suit."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.wild_leads = 0

    def choose(self, view: View, legal: Sequence[int]) -> int:
        action = self.bot.choose(view, legal)
        assert action in view.legal_actions()
        if not view.config.options.declares:
            assert not A.DECLARE_BASE <= action < A.PILE_1
            if view.phase is Phase.PLAY and not view.current_trick and action in C.WILDS:
                self.wild_leads += 1
        return action


@pytest.mark.parametrize("options", OPTIONS, ids=_options_id)
@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t[0]}{t[1]}{'-team' if t[2] else ''}")
def test_heuristic_and_random_play_legal_moves_under_every_option(
    table: tuple[str, int, bool], options: tuple[str, bool]
) -> None:
    players = table[1]
    for seed in range(12):
        cfg = _config(table, options, seed)
        kinds = ["heuristic", "random"] if seed % 2 else ["random", "heuristic"]
        bots = [_Watch(make_bot(kinds[s % 2], seed * 10 + s)) for s in range(players)]
        state = play_match(cfg, bots)  # State.apply raises on an illegal action
        assert state.is_over and state.winners
        if table[0] == "classic" and players == 2:
            assert len(state.rounds) == 3 and state.victories is None


@pytest.mark.parametrize("options", OPTIONS, ids=_options_id)
@pytest.mark.parametrize("table", [("meio", 2, False), ("meio", 4, False), ("meio", 4, True),
                                   ("classic", 2, False)])
def test_search_completes_matches_under_every_option(
    table: tuple[str, int, bool], options: tuple[str, bool]
) -> None:
    cfg = _config(table, options, 7)
    for evaluate in (python_evaluate, None):  # the Python playouts and the compiled core
        bots = [_Watch(SearchBot(s, budget=TINY, evaluate=evaluate)) if s % 2 == 0
                else make_bot("heuristic", s) for s in range(table[1])]
        state = play_match(cfg, bots)
        assert state.is_over and state.winners


def test_the_heuristic_leads_wilds_under_next() -> None:
    leads = 0
    for seed in range(10):
        bots = [_Watch(make_bot("heuristic", s)) for s in range(4)]
        play_match(_config(("meio", 4, False), ("next", True), seed), bots)
        leads += sum(b.wild_leads for b in bots)
    assert leads > 0  # a wild lead without a suit is a move it makes, not one it avoids


FACTORIES: list[Callable[[], Bot]] = [
    lambda: make_bot("heuristic", 5),
    lambda: SearchBot(5, budget=Level(card_worlds=4, card_playouts=1, split_candidates=3,
                                      split_worlds=4, split_playouts=1),
                      evaluate=python_evaluate),
    lambda: SearchBot(5, budget=Level(card_worlds=4, card_playouts=1, split_candidates=3,
                                      split_worlds=4, split_playouts=1)),
]


@pytest.mark.parametrize("wild_lead", ["declare", "next"])
def test_with_hidden_specials_decisions_do_not_depend_on_the_unknown_specials(
    wild_lead: str,
) -> None:
    cfg = MatchConfig(players=3, seed=4,
                      options=TableOptions(wild_lead, False))  # type: ignore[arg-type]
    state = State.new(cfg)
    movers = [make_bot("heuristic", s) for s in range(3)]
    rng = random.Random(2)
    checked = 0
    for step in range(45):
        if step % 3 == 0:
            seat = state.current_seat()
            view = state.view(seat)
            assert view.config.special_cards == ()  # the view does not name the specials
            others = [sample_world(view, rng) for _ in range(30)]
            differing = [w for w in others
                         if w.config.special_cards != state.config.special_cards]
            if differing:
                other = differing[0]
                assert other.view(seat) == view
                for make in FACTORIES:
                    real = make().choose(view, view.legal_actions())
                    imagined = make().choose(other.view(seat), other.view(seat).legal_actions())
                    assert real == imagined
                checked += 1
        bot_turn(state, movers)
    assert checked >= 5


def test_the_heuristic_counts_only_specials_it_may_not_have_seen_as_unseen() -> None:
    cfg = MatchConfig(players=4, seed=9, options=TableOptions(reveal_specials=False))
    state = State.new(cfg)
    view = state.view(0)
    seen = seen_from_view(view)
    held = view.hand & SPECIALS_MASK
    # no special the seat holds is unseen; every special it does not hold may be
    assert seen.unseen & held == 0
    for card in C.SPECIALS:
        if not held >> card & 1:
            assert seen.unseen >> card & 1
    # and the ordinary cards of the others are unseen, exactly as with specials shown
    shown = seen_from_view(State.new(MatchConfig(players=4, seed=9)).view(0))
    assert seen.unseen & ~SPECIALS_MASK == shown.unseen & ~SPECIALS_MASK


@pytest.mark.parametrize("options", OPTIONS, ids=_options_id)
def test_the_heuristic_still_beats_random_play_under_the_options(
    options: tuple[str, bool],
) -> None:
    from meio.tournament import TournamentSpec, run_tournament, summarize

    spec = TournamentSpec(("heuristic", "random"), players=4, matches=12, seed=1,
                          wild_lead=options[0], reveal_specials=options[1])  # type: ignore[arg-type]
    scores = {b.bot: b.mean_score for b in summarize(run_tournament(spec)).bots}
    # about 1.0 against 1.4 under the default rules: a broken heuristic would lose that
    assert scores["heuristic"] < scores["random"] - 0.15
