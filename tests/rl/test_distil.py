"""Distillation's augmentation: a decision with spades, diamonds and clubs renamed is
the decision of the renamed deal, in its inputs, its legal outputs and its targets; and
a network grown wider computes what it computed, then learns in all its units."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from meio.bots import spaces as S
from meio.bots.learned import LOCAL_ACTIONS
from meio.bots.observation import observe
from meio.engine import MatchConfig, Phase, State, TableOptions
from meio.engine import actions as A
from meio.engine import cards as C

torch = pytest.importorskip("torch")
from meio.rl.distil import (  # noqa: E402
    DistilError,
    distil,
    ensemble_targets,
    network_weights,
    suit_swaps,
    swapped,
    widened,
)
from meio.rl.train import Policy  # noqa: E402


def _rename_action(action: int, cards: np.ndarray, suits: tuple[int, ...]) -> int:
    if A.is_pack(action):
        return A.pack_action(C.mask_of(int(cards[c]) for c in C.cards_of(A.pack_of(action))))
    if action < 65:
        return int(cards[action])
    if action < 81:
        slot, suit = divmod(action - 65, 4)
        return 65 + 4 * slot + suits[suit]
    return action


@pytest.mark.parametrize("config", [MatchConfig(players=4, seed=3),
                                    MatchConfig(players=3, seed=8,
                                                options=TableOptions(wild_lead="next")),
                                    MatchConfig(players=4, partnership=True, seed=5)],
                         ids=["4", "3-next", "team"])
def test_a_renamed_decision_is_the_decision_of_the_renamed_deal(config: MatchConfig) -> None:
    rng = random.Random(1)
    for swap in suit_swaps()[1:]:
        state = State.new(config)
        twin = State.new(config)
        rename = [C.mask_of(int(swap.cards[c]) for c in C.cards_of(h)) for h in state.deal]
        aside = C.mask_of(int(swap.cards[c]) for c in C.cards_of(state.aside))
        twin.redeal(rename, aside, state.round_leader)
        while not state.rounds:
            seat = state.current_seat()
            view, twin_view = state.view(seat), twin.view(seat)
            if view.phase is Phase.SPLIT:
                picked = C.mask_of(C.cards_of(view.hand)[:2])
                twin_picked = C.mask_of(int(swap.cards[c]) for c in C.cards_of(picked))
                obs, twin_obs = observe(view, picked=picked), observe(twin_view,
                                                                     picked=twin_picked)
                mask = S.legal_mask(view, split_mode="sequential", picked=picked)
                twin_mask = S.legal_mask(twin_view, split_mode="sequential", picked=twin_picked)
            else:
                obs, twin_obs = observe(view), observe(twin_view)
                mask, twin_mask = S.legal_mask(view), S.legal_mask(twin_view)
            local = mask[list(LOCAL_ACTIONS)]
            target = np.where(local, np.arange(len(LOCAL_ACTIONS)) + 1.0, 0.0)
            x, m, t = swapped(swap, torch.from_numpy(obs[None]), torch.from_numpy(local[None]),
                              torch.from_numpy(target[None].astype(np.float32)))
            np.testing.assert_array_equal(x[0].numpy(), twin_obs)
            np.testing.assert_array_equal(m[0].numpy(), twin_mask[list(LOCAL_ACTIONS)])
            # the target of each renamed action is the target of the action it renames
            legal = list(view.legal_actions())
            action = legal[rng.randrange(len(legal))]
            if view.phase is not Phase.SPLIT:
                i = LOCAL_ACTIONS.index(action)
                j = LOCAL_ACTIONS.index(_rename_action(action, swap.cards, swap.suits))
                assert t[0, j] == target[i]
            else:
                card = C.cards_of(view.hand)[5]
                i = S.PICK_BASE + C.cards_of(view.hand).index(card)
                j = S.PICK_BASE + C.cards_of(twin_view.hand).index(int(swap.cards[card]))
                assert t[0, LOCAL_ACTIONS.index(j)] == target[LOCAL_ACTIONS.index(i)]
            state.apply(action, seat)
            twin.apply(_rename_action(action, swap.cards, swap.suits), seat)
        assert twin.rounds[0].scores == state.rounds[0].scores


def test_a_widened_network_computes_the_same_and_then_learns_in_its_new_units() -> None:
    torch.manual_seed(0)
    net = Policy(16)
    with torch.no_grad():  # a trained network's heads are not near zero
        for head in (net.pi, net.v):
            head.weight.normal_()
            head.bias.normal_()
    grown = widened(net, 40, seed=2)
    assert grown.l1.out_features == 40 and grown.l2.out_features == 40
    x = torch.rand(32, net.l1.in_features)
    with torch.no_grad():
        (a, va), (b, vb) = net(x), grown(x)
    # equal up to float rounding (the zeros may change a product's summing order)
    assert torch.allclose(a, b, rtol=0, atol=1e-5) and torch.allclose(va, vb, rtol=0, atol=1e-5)
    assert float(a.abs().max()) > 0.1  # heads that output ~0 would compare equal anyway
    # the caller's random state is untouched
    before = torch.random.get_rng_state()
    widened(net, 24, seed=5)
    assert torch.equal(torch.random.get_rng_state(), before)
    # the new units are not dead: one step of training moves what they feed forward
    logits, value = grown(x)
    (logits.logsumexp(-1).mean() + value.square().mean()).backward()
    for grad in (grown.pi.weight.grad, grown.v.weight.grad, grown.l2.weight.grad):
        assert grad is not None and float(grad[:, 16:].abs().sum()) > 0
    assert widened(net, 16) is net
    with pytest.raises(DistilError, match=r"only be widened: 8 units is fewer than .* 16"):
        widened(net, 8)


def test_training_refuses_to_narrow_a_network_before_reading_its_data(tmp_path: Path) -> None:
    from meio.bots.learned import save_policy

    start = tmp_path / "net.npz"
    save_policy(start, network_weights(Policy(16)), players=4)
    with pytest.raises(DistilError, match="only be widened: 8 units is fewer than"):
        distil(tmp_path / "no-such-data.jsonl", tmp_path / "out.npz", init=start, hidden=8)
    assert not (tmp_path / "out.npz").exists()


def test_an_ensembles_targets_are_the_mean_of_its_networks_logits(tmp_path: Path) -> None:
    """The ensemble's share of a target is the softmax, over the legal actions, of the
    members' mean logits as the NumPy bot computes them; the teacher's share is kept."""
    from meio.bots.learned import load_policy, save_policy
    from meio.rl import selfplay as SP

    data = tmp_path / "sp.jsonl"
    SP.generate(data, 2, seed=5, teacher="heuristic")
    ex = SP.examples(data)
    members = []
    for seed in (1, 2):
        torch.manual_seed(seed)
        members.append(tmp_path / f"m{seed}.npz")
        save_policy(members[-1], network_weights(Policy(16)), players=4)
    policies = [load_policy(m) for m in members]
    logits = (policies[0].logits(ex.obs) + policies[1].logits(ex.obs)) / 2
    want = np.where(ex.mask, np.exp(logits - logits.max(axis=1, keepdims=True)), 0.0)
    want /= want.sum(axis=1, keepdims=True)
    for weight in (0.0, 0.25, 1.0):
        got = ensemble_targets(ex, policies, weight)
        np.testing.assert_allclose(got.target, (1 - weight) * ex.target + weight * want,
                                   atol=1e-5)
        np.testing.assert_allclose(got.target.sum(axis=1), 1.0, atol=1e-5)
        assert not got.target[~ex.mask].any()
        assert got.obs is ex.obs and got.value is ex.value
    assert not np.allclose(want, ex.target, atol=0.05)  # the two kinds of target differ
    with pytest.raises(DistilError, match="between 0 and 1"):
        ensemble_targets(ex, policies, 1.5)
    with pytest.raises(DistilError, match="at least one network"):
        ensemble_targets(ex, [], 0.5)
    # distil refuses a bad weight before it reads the data (a file that does not exist)
    with pytest.raises(DistilError, match="between 0 and 1"):
        distil(tmp_path / "no-such-data.jsonl", tmp_path / "out.npz", ensemble=members,
               ensemble_weight=2.0)


def test_with_an_ensemble_the_agreement_is_still_measured_against_the_teacher(
        tmp_path: Path) -> None:
    from meio.bots.learned import load_policy, save_policy
    from meio.rl import selfplay as SP
    from meio.rl.distil import held_out

    data = tmp_path / "sp.jsonl"
    SP.generate(data, 10, seed=5, teacher="heuristic")  # round 9 is held out
    ex = SP.examples(data)
    torch.manual_seed(3)
    member = tmp_path / "m.npz"
    save_policy(member, network_weights(Policy(16)), players=4)
    out = tmp_path / "out.npz"
    report = distil(ex, out, epochs=1, hidden=16, ensemble=[member], ensemble_weight=1.0)
    net = load_policy(out)
    test = held_out(ex)
    logits = np.where(ex.mask[test], net.logits(ex.obs[test]), -np.inf)
    choice = logits.argmax(axis=1)
    teacher = ex.target[test]
    agree = teacher[np.arange(len(choice)), choice] >= teacher.max(axis=1) - 1e-6
    assert report.agreement == pytest.approx(float(agree.mean()), abs=0.02)
