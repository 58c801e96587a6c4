"""Scripted deals for engine tests: hands written as card codes."""

from __future__ import annotations

import random
from collections.abc import Sequence

from meio.engine import MatchConfig, State, TableOptions
from meio.engine import actions as A
from meio.engine import cards as C


def scripted(
    first: Sequence[str],
    packs: Sequence[str],
    *,
    specials: str = "",
    edition: str = "meio",
    partnership: bool = False,
    leader: int = 0,
    aside: str = "",
    wild_lead: str = "declare",
) -> State:
    """A state after every seat has split: ``first[seat]`` is its 7-card first-half
    hand and ``packs[seat]`` the 6-card pack it chose."""
    specials_ids = tuple(C.parse_card(s) for s in specials.split()) if specials else None
    players = len(first)
    cfg = MatchConfig(
        edition=edition,  # type: ignore[arg-type]
        players=players,
        partnership=partnership,
        specials=specials_ids,
        first_leader=leader,
        options=TableOptions(wild_lead),  # type: ignore[arg-type]
    )
    hands = [C.parse_cards(f) | C.parse_cards(p) for f, p in zip(first, packs, strict=True)]
    st = State.new(cfg, deals=[(hands, C.parse_cards(aside), leader)])
    for seat, pack in enumerate(packs):
        st.apply(A.pack_action(C.parse_cards(pack)), seat)
    return st


def play(st: State, texts: str) -> None:
    """Apply space-separated actions (``AS``, ``Q+=D``, ``pile=2``) in turn order."""
    for text in texts.split():
        st.apply_text(text)


def snapshot(st: State) -> tuple[object, ...]:
    """Every field of a state, copied, for exact before/after comparison."""
    out: list[object] = []
    # in the order of State.__slots__ (sorted), which the compiled engine (mypyc)
    # keeps, in another order, under another name
    names = getattr(State, "__slots__", None) or getattr(State, "__mypyc_attrs__")  # noqa: B009
    for name in sorted(names):
        value = getattr(st, name)
        if isinstance(value, list):
            value = [v.copy() if isinstance(v, list) else v for v in value]
        out.append(value)
    return tuple(out)


CONFIGS = [
    ("meio", 2, False),
    ("meio", 3, False),
    ("meio", 4, False),
    ("meio", 5, False),
    ("meio", 4, True),
    ("classic", 2, False),
    ("classic", 3, False),
    ("classic", 4, False),
    ("classic", 4, True),
]


#: every combination of the table options of RULES.md §10: (wild_lead, reveal_specials)
OPTION_SETS = [("declare", True), ("next", True), ("declare", False), ("next", False)]


def random_match(
    edition: str,
    players: int,
    partnership: bool,
    seed: int,
    stop_after: int | None = None,
    *,
    wild_lead: str = "declare",
    reveal_specials: bool = True,
) -> State:
    """A match played with uniformly random legal actions (optionally stopped early)."""
    st = State.new(
        MatchConfig(
            edition=edition,  # type: ignore[arg-type]
            players=players,
            partnership=partnership,
            seed=seed,
            options=TableOptions(wild_lead, reveal_specials),  # type: ignore[arg-type]
        )
    )
    rng = random.Random(seed)
    n = 0
    while not st.is_over and (stop_after is None or n < stop_after):
        st.apply(rng.choice(st.legal_actions()))
        n += 1
    return st
