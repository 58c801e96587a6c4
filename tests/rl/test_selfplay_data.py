"""``meio selfplay`` data: rounds of search stored as actions, replayed into training
examples that hold only what the deciding seat could see; reproducible, resumable,
the same whatever the number of processes; and a tiny network trained on it plays."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from meio.bots import make_bot, play_match
from meio.engine import MatchConfig, Phase, State, sample_world
from meio.engine.errors import MeioError
from meio.engine.wire import config_from_json
from meio.rl import selfplay as SP

runner = CliRunner()


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("sp") / "data.jsonl"
    SP.generate(path, 3, seed=4, teacher="search:1")
    return path


def test_a_round_replays_to_its_scores_with_the_searched_values(data: Path) -> None:
    header, rounds = SP.read(data)
    assert header == SP.Header(4, "search:1") and sorted(rounds) == [0, 1, 2]
    doc = rounds[1]
    state = State.new(config_from_json(doc["config"]))
    values = dict((k, v) for k, v in doc["values"])
    for k, (seat, action) in enumerate(zip(doc["seats"], doc["actions"], strict=True)):
        legal = list(state.legal_actions(seat))
        if k in values:  # the teacher chose an action it valued best (to 0.001)
            assert values[k][legal.index(action)] == min(values[k])
        state.apply(action, seat)
    assert list(state.rounds[0].scores) == doc["scores"]
    assert values and all(len(v) > 1 for v in values.values())


def test_the_features_of_a_decision_do_not_change_when_hidden_cards_are_swapped(
        data: Path) -> None:
    _, rounds = SP.read(data)
    rng = random.Random(0)
    checked = 0
    for doc in rounds.values():
        state = State.new(config_from_json(doc["config"]))
        for seat, action in zip(doc["seats"], doc["actions"], strict=True):
            view = state.view(seat)
            mine = SP.decision_features(state, seat)
            world = sample_world(view, rng)  # the others' unseen cards dealt again
            if any(world.hands[p] != state.hands[p] for p in range(state.config.players)
                   if p != seat):
                np.testing.assert_array_equal(SP.decision_features(world, seat), mine)
                checked += 1
            state.apply(action, seat)
    assert checked > 50


def test_examples_are_legal_targets_and_outcomes(data: Path) -> None:
    ex = SP.examples(data)
    assert len(ex) > 100
    np.testing.assert_allclose(ex.target.sum(1), 1.0, atol=1e-5)
    assert not (ex.target[~ex.mask] > 0).any()  # no probability on an illegal action
    assert set(np.unique(ex.game)) == {0, 1, 2}
    assert (np.abs(ex.value) <= 1.3).all() and ex.value.std() > 0


def test_a_data_set_is_the_same_resumed_extended_or_played_by_two_processes(
        data: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.jsonl"
    SP.generate(other, 1, seed=4, teacher="search:1")
    with other.open("a") as f:
        f.write('{"game": 2, "conf')  # a run stopped while writing
    assert SP.generate(other, 3, seed=4, teacher="search:1", jobs=2) == 2
    assert SP.read(other) == SP.read(data)
    with pytest.raises(SP.SelfPlayError, match="same --seed and --teacher"):
        SP.generate(other, 4, seed=5, teacher="search:1")
    with pytest.raises(MeioError, match="unknown bot"):
        SP.generate(tmp_path / "x.jsonl", 1, teacher="nobody")
    (tmp_path / "bad.jsonl").write_text(json.dumps({"format": "other"}) + "\n")
    with pytest.raises(SP.SelfPlayError, match="not a meio-selfplay/1"):
        SP.read(tmp_path / "bad.jsonl")


def test_examples_of_several_data_sets_are_each_sets_examples(
        data: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.jsonl"
    SP.generate(other, 2, seed=9, teacher="heuristic")
    one, two = SP.examples(data), SP.examples(other)
    both = SP.examples([data, other])
    assert len(both) == len(one) + len(two)
    np.testing.assert_array_equal(both.obs, np.concatenate([one.obs, two.obs]))
    np.testing.assert_array_equal(both.target, np.concatenate([one.target, two.target]))
    np.testing.assert_array_equal(both.game, np.concatenate([one.game, two.game]))
    assert len(SP.examples([data, other], games=1)) == len(SP.examples(data, games=1)) + len(
        SP.examples(other, games=1))
    copy = tmp_path / "copy.jsonl"
    copy.write_text(data.read_text())  # the same rounds under another name
    with pytest.raises(SP.SelfPlayError, match="hold the same rounds"):
        SP.examples([data, copy])
    # the same seed and teacher name, other rounds (the teacher's network changed): kept
    renamed = tmp_path / "renamed.jsonl"
    renamed.write_text("\n".join([data.read_text().splitlines()[0],
                                   *other.read_text().splitlines()[1:]]) + "\n")
    assert len(SP.examples([data, renamed])) == len(one) + len(two)
    with pytest.raises(SP.SelfPlayError, match="no self-play data file"):
        SP.examples([])


def test_selfplay_then_train_from_it_gives_a_network_that_plays(
        data: Path, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from meio.bots.learned import load_policy
    from meio.cli import app

    out = tmp_path / "sp.jsonl"
    result = runner.invoke(app, ["selfplay", "--out", str(out), "--games", "2",
                                 "--teacher", "search:1", "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert SP.read(out)[1] == {g: d for g, d in SP.read(data)[1].items() if g < 2}
    net = tmp_path / "net.npz"
    result = runner.invoke(app, ["train", "--from-selfplay", str(data), "--out", str(net),
                                 "--epochs", "3", "--hidden", "16"])
    assert result.exit_code == 0, result.output
    assert "held-out agreement" in result.output
    policy = load_policy(net)
    assert policy.hidden == 16 and policy.value_head is not None
    state = play_match(MatchConfig(players=3, seed=1),
                       [make_bot(f"learned:{net}", s) for s in range(3)])
    assert state.is_over and state.view(0).phase is Phase.OVER
    # fine-tuning it: --lr sets how far one pass moves it (the second iteration's 3e-4)
    moved = []
    for lr in ("1e-7", "1e-1"):
        tuned = tmp_path / f"tuned-{lr}.npz"
        result = runner.invoke(app, ["train", "--from-selfplay", str(data), "--init", str(net),
                                     "--out", str(tuned), "--epochs", "1", "--lr", lr])
        assert result.exit_code == 0, result.output
        moved.append(max(float(np.abs(a - b).max()) for a, b in
                         zip(load_policy(tuned).weights, policy.weights, strict=True)))
    assert moved[0] < 1e-2 and moved[1] > 5e-2
    # --hidden with --init grows the network; it cannot shrink it
    result = runner.invoke(app, ["train", "--from-selfplay", str(data), "--init", str(net),
                                 "--out", str(tmp_path / "wide.npz"), "--epochs", "1",
                                 "--hidden", "24"])
    assert result.exit_code == 0, result.output
    assert load_policy(tmp_path / "wide.npz").hidden == 24
    result = runner.invoke(app, ["train", "--from-selfplay", str(data), "--init", str(net),
                                 "--out", str(tmp_path / "narrow.npz"), "--epochs", "1",
                                 "--hidden", "8"])
    assert result.exit_code == 2 and "can only be widened" in result.output
    assert not (tmp_path / "narrow.npz").exists()
    # several data sets at once: --from-selfplay again
    result = runner.invoke(app, ["train", "--from-selfplay", str(data), "--from-selfplay",
                                 str(out), "--out", str(tmp_path / "two.npz"),
                                 "--epochs", "1", "--hidden", "8"])
    assert result.exit_code == 2 and "hold the same rounds" in result.output
    other = tmp_path / "h.jsonl"
    SP.generate(other, 1, seed=3, teacher="heuristic")
    result = runner.invoke(app, ["train", "--from-selfplay", str(data), "--from-selfplay",
                                 str(other), "--out", str(tmp_path / "two.npz"),
                                 "--epochs", "1", "--hidden", "8"])
    assert result.exit_code == 0, result.output
    examples = len(SP.examples(data)) + len(SP.examples(other))
    assert f"{examples} examples" in result.output
    # --ensemble: the targets mix in the mean of other networks' choices
    result = runner.invoke(app, ["train", "--from-selfplay", str(data), "--init", str(net),
                                 "--ensemble", str(net), "--ensemble", str(tmp_path / "wide.npz"),
                                 "--ensemble-weight", "1", "--out", str(tmp_path / "ens.npz"),
                                 "--epochs", "1"])
    assert result.exit_code == 0, result.output
    assert load_policy(tmp_path / "ens.npz").hidden == 16
    result = runner.invoke(app, ["train", "--from-selfplay", str(data), "--ensemble",
                                 str(data), "--out", str(tmp_path / "bad.npz")])
    assert result.exit_code == 2 and "not a MEIO policy file" in result.output
    assert not (tmp_path / "bad.npz").exists()


def test_a_teacher_without_values_teaches_its_choices(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    SP.generate(path, 2, seed=1, teacher="heuristic")
    ex = SP.examples(path)
    _, rounds = SP.read(path)
    choices = splits = 0
    for doc in rounds.values():
        state = State.new(config_from_json(doc["config"]))
        for seat, action in zip(doc["seats"], doc["actions"], strict=True):
            if state.phase is Phase.SPLIT:
                splits += 1
            elif len(state.legal_actions(seat)) > 1:
                choices += 1
            state.apply(action, seat)
    picks = ex.target[:, 83:].sum(1) > 0
    assert picks.sum() == 6 * splits and (~picks).sum() == choices > 20
    assert ((ex.target[~picks] == 1.0).sum(1) == 1).all()  # the choice, and only it
