"""The card-playing loops run without numba's runtime, and still compile from nothing.

Each test compiles in a fresh interpreter with an empty numba cache, so that the loops
are compiled here rather than loaded from a cache another order of calls wrote."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

_SCRIPT = textwrap.dedent(
    """
    import re, sys
    import numpy as np
    from meio.engine import MatchConfig
    from meio.engine import cards as C
    from meio.sim import core as K
    from meio.sim.rollout import core_means
    from meio.sim.tables import tables_for

    # the first call to reach the editions' heuristic split goes through play_out, a
    # kernel without the runtime: the split (which allocates) must keep its own
    t = tables_for(MatchConfig(players=4, specials=(C.MINUS_ONE, C.A_PLUS, C.PLUS_HALF,
                                                    C.Q_PLUS)))
    hands = np.arange(52, dtype=np.int32).reshape(4, 13)
    s = np.zeros(K.STATE_LEN, dtype=np.int32)
    K.start_round(s, t.cfg, t.ruleset, hands, 0)
    K.play_out(s, t.cfg, t.ruleset, t.strength, K.POLICY_HEURISTIC, 0.0,
               np.zeros(1, dtype=np.uint64), np.zeros(K.LEGAL_MAX, dtype=np.int32),
               np.zeros(K.PACK_MAX, dtype=np.int32))
    assert s[K.PHASE] == K.ROUND_DONE, s[K.PHASE]
    tricks = sum(int(s[K.PILES + i]) for i in range(8))
    assert tricks == 13, tricks

    def body(dispatcher, name):
        (sig,) = dispatcher.signatures
        ir = dispatcher.inspect_llvm(sig)
        for block in re.split(r"\\n(?=define )", ir):
            head = block.split("\\n", 1)[0]
            if head.startswith("define") and name in head and "cpython" not in head \\
                    and "cfunc" not in head:
                return block
        raise SystemExit(f"no body of {name} in its module")

    # the batch loop, and search's playouts with their scratch from core_means
    one = np.zeros(1, dtype=np.int8)
    rows = [np.zeros((1, 1, 4, 2), np.int8), np.zeros((1, 1), np.int8),
            np.zeros((1, 4), np.int8), np.zeros((1, 1, 4, 13), np.int8),
            np.zeros((1, 1, 2), np.int8), np.zeros((1, 1, 4, 6), np.int8),
            np.zeros((1, 1, 4), np.int8), np.zeros((1, 1, 80), np.int8),
            np.zeros((1, 1), np.int8), np.zeros((1, 1, 2, 13), np.int8)]
    played = K.simulate_games(t.cfg, t.ruleset, t.strength, t.deck, 0, 1, 7, K.POLICY_RANDOM,
                              0.0, True, True, one, *rows)
    assert played == 52, played
    world = np.zeros(K.STATE_LEN, dtype=np.int32)
    K.start_round(world, t.cfg, t.ruleset, hands, 0)
    packs = np.zeros((1, K.PACK_MAX), np.int32)
    packs[0, :6] = hands[0, 7:]
    means = core_means(t, world[None, :], np.ones(1, np.int32), np.zeros(1, np.int32), packs,
                       0, 2, 3, K.POLICY_RANDOM)
    assert means.shape == (1, 4) and 0 <= means.min() <= means.max() <= 13, means

    for dispatcher, name in ((K.play_out, "play_out"), (K.evaluate, "evaluate")):
        ops = body(dispatcher, name).count("@NRT_incref") + \\
            body(dispatcher, name).count("@NRT_decref")
        print(name, ops)
    """
)


def test_the_card_loops_compile_from_nothing_and_count_no_references(tmp_path: Path) -> None:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    out = subprocess.run([sys.executable, "-c", _SCRIPT], env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    # a kernel compiled with the runtime takes a reference to each array argument on
    # entry and at every inlined call: play_out would show dozens
    assert out.stdout.split() == ["play_out", "0", "evaluate", "0"], out.stdout
