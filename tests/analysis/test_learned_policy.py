"""``meio analyze --bots learned``: self-play by the learned bot's network in the
compiled core, the very games the learned bot plays through the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from meio.analysis.plan import AnalysisError, AnalysisSpec, Cell, Chunk, Table
from meio.analysis.play import core_batch, on_core
from meio.bots import make_bot
from meio.engine import MatchConfig, State, TableOptions
from meio.engine import actions as A
from meio.engine import cards as C


@pytest.mark.parametrize("table", [Table("meio", 4), Table("meio", 3, wild_lead="next")],
                         ids=["4p", "3p-next"])
def test_a_learned_cell_plays_the_learned_bots_splits_in_the_core(table: Table) -> None:
    specials = (60, 62, 63) if table.players == 3 else (60, 61, 63, 64)
    cell = Cell(table, specials, "learned")
    assert on_core(cell)
    batch = core_batch(Chunk(cell, 0, 4, seed=5))
    bots = [make_bot("learned", s) for s in range(table.players)]
    config = MatchConfig(players=table.players, specials=specials,
                         options=TableOptions(wild_lead=table.wild_lead))
    for g in range(4):
        state = State.new(config)
        hands = [C.mask_of(int(c) for c in batch.deals[g, 0, p]) for p in range(table.players)]
        state.redeal(hands, config.deck & ~sum(hands), int(batch.leaders[g, 0]))
        for _ in range(table.players):  # the splits, in seat order as the engine asks
            seat = state.current_seat()
            view = state.view(seat)
            pack = bots[seat].choose(view, view.legal_actions())
            assert A.pack_of(pack) == C.mask_of(int(c) for c in batch.splits[g, 0, seat])
            state.apply(pack, seat)


def test_hidden_specials_under_learned_go_to_the_engine_and_bad_files_are_refused() -> None:
    assert not on_core(Cell(Table("meio", 4, reveal_specials=False), (), "learned"))
    assert AnalysisSpec(questions=("seats",), policy="learned:some.npz").policy
    with pytest.raises(AnalysisError, match="unknown policy"):
        AnalysisSpec(questions=("seats",), policy="learnt")



def test_learned_plays_a_variant_in_the_lab_by_the_network_for_any_ruleset(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``meio analyze --bots learned --variant``: the lab seats the learned bot, which
    off the editions plays the network for any ruleset (the engine plays the cell)."""
    from meio.analysis import LocalBackend, run_analysis
    from meio.bots import general
    from meio.engine.ruleset_file import parse_variant

    six_seven = parse_variant('preset = "meio"\nname = "six-seven"\n[hand]\nfirst_half = 6\n'
                              'pack = 7\n')
    assert not on_core(Cell(Table.of_variant(six_seven, 3), (60, 61, 63), "learned"))
    chosen: list[int] = []
    real = general.GeneralBot.choose

    def counted(self: general.GeneralBot, view: object, legal: object) -> int:
        action = real(self, view, legal)  # type: ignore[arg-type]
        chosen.append(action)
        return action

    monkeypatch.setattr(general.GeneralBot, "choose", counted)
    spec = AnalysisSpec(questions=("seats",), players=(3,), games=2, seed=1,
                        policy="learned", variant=six_seven)
    run = run_analysis(spec, tmp_path, LocalBackend(1))
    assert set(run.selfplay.distinct("policy")) == {"learned"}
    assert run.selfplay["h"].max() > 0
    assert len(chosen) > 2 * 3 * 13  # the network chose the moves of whole rounds
