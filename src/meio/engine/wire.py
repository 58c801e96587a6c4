"""The engine's values as JSON: table options, config, trick, round result, view.

Each value has one JSON form, written here and nowhere else: records
(:mod:`meio.engine.record`), the ``meio-result/1`` document (its trick a fixed
projection of the one form: :func:`result_trick_json`), the server's frames and every
other client build theirs from these functions. Cards are written as their
codes (``QS``, ``+.5``), suits as letters, seats as numbers. The table options' form
(:func:`options_json`, :func:`options_from_json`, :func:`options_in`) is written in
:mod:`meio.engine.options`, beside the value, as a variant file writes it too; it is
offered here with the others.

>>> from meio.engine import MatchConfig, State, TableOptions
>>> cfg = MatchConfig(players=3, seed=4, options=TableOptions(wild_lead="next"))
>>> options_json(cfg.options)
{'wild_lead': 'next'}
>>> config_from_json(config_json(cfg)) == cfg
True
>>> view_json(State.new(cfg).view(0))["config"]["wild_lead"]
'next'
"""

from __future__ import annotations

from typing import Any

from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.config import MatchConfig
from meio.engine.errors import ConfigError
from meio.engine.legal import Phase
from meio.engine.options import OPTION_NAMES, options_from_json, options_in, options_json
from meio.engine.ruleset_file import variant_from_json, variant_json
from meio.engine.scoring import RoundResult
from meio.engine.tricks import Trick
from meio.engine.view import View

__all__ = [
    "OPTION_NAMES", "config_from_json", "config_json", "options_from_json", "options_in",
    "options_json", "result_trick_json", "round_json", "trick_json", "view_json",
]


# -- table options and config ----------------------------------------------------------------
def config_json(config: MatchConfig) -> dict[str, Any]:
    """Every field of a config, the seed included (so never for a client: a view
    carries the public config, whose seed is 0)."""
    out: dict[str, Any] = {
        "edition": config.edition,
        "players": config.players,
        "partnership": config.partnership,
        "specials": [C.card_code(s) for s in config.special_cards],
        "seed": config.seed,
        "first_leader": config.first_leader,
        **options_json(config.options, full=True),
    }
    if config.variant is not None:
        out["variant"] = variant_json(config.variant)
    return out


def config_from_json(data: dict[str, Any]) -> MatchConfig:
    """The config of a :func:`config_json` mapping (missing fields: the defaults);
    raises :class:`ConfigError` naming the field that is wrong."""

    def whole(name: str, default: int | None) -> int | None:
        value = data.get(name, default)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{name} must be a whole number, not {value!r}", field=name)
        return value

    edition = data.get("edition", "meio")
    if edition not in ("meio", "classic"):
        raise ConfigError(
            f"unknown edition {edition!r}: use 'meio' or 'classic'", field="edition"
        )
    partnership = data.get("partnership", False)
    if not isinstance(partnership, bool):
        raise ConfigError(
            f"partnership must be true or false, not {partnership!r}", field="partnership"
        )
    raw = data.get("specials")
    specials: tuple[int, ...] | None = None
    if raw is not None:
        if not isinstance(raw, (list, tuple)):
            raise ConfigError("specials must be a list of card codes", field="specials")
        specials = tuple(C.parse_card(str(code)) for code in raw)
    variant = None if data.get("variant") is None else variant_from_json(data["variant"])
    return MatchConfig(
        variant=variant,
        edition="classic" if edition == "classic" else "meio",
        players=whole("players", 4) or 0,
        partnership=partnership,
        specials=specials,
        seed=whole("seed", 0) or 0,
        first_leader=whole("first_leader", None),
        options=options_in(data),
    )


# -- tricks and rounds ---------------------------------------------------------------------------
def _suit(suit: int) -> str | None:
    return C.SUITS[suit] if suit >= 0 else None


def trick_json(trick: Trick) -> dict[str, Any]:
    """A trick as it was played: ``cards`` as ``[seat, code]`` in play order, the
    ``declared`` and ``led`` suits (None when there is none), the winner, and its
    ``pile`` (0 while a ``+.5`` winner has still to choose)."""
    return {
        "leader": trick.leader,
        "cards": [[s, C.card_code(c)] for s, c in trick.plays],
        "declared": _suit(trick.declared),
        "led": _suit(trick.led_suit),
        "winner": trick.winner,
        "pile": trick.pile,
    }


def result_trick_json(trick: Trick) -> dict[str, Any]:
    """The trick as the ``meio-result/1`` document writes it (RECORD.md, a fixed
    contract): :func:`trick_json`'s ``leader``, ``winner`` and ``pile``, with its cards as
    codes alone in play order (the seats follow from the leader), so the projection
    cannot drift from the one form.

    >>> from meio.engine import Trick
    >>> t = Trick(leader=1, plays=((1, 44), (0, 63)), declared=-1, winner=0, pile=1)
    >>> trick_json(t)["cards"], result_trick_json(t)["cards"]
    ([[1, 'AD'], [0, '+.5']], ['AD', '+.5'])
    """
    full = trick_json(trick)
    return {"leader": full["leader"], "cards": [code for _, code in full["cards"]],
            "winner": full["winner"], "pile": full["pile"]}


def round_json(result: RoundResult) -> dict[str, Any]:
    """A completed round's outcome: ``piles`` (``[H, V]`` by seat), ``scores`` by seat,
    ``team_scores`` (partnership, else None) and ``victory`` (the round's winning
    seat or team where the match is played to victories, else None)."""
    return {
        "piles": [list(p) for p in result.piles],
        "scores": list(result.scores),
        "team_scores": None if result.team_scores is None else list(result.team_scores),
        "victory": result.victory,
    }


# -- views --------------------------------------------------------------------------------------
def view_json(view: View) -> dict[str, Any]:
    """One seat's view for a client: the public config (no seed), its own cards, the
    public facts, and its legal actions as text (none listed during the split: its
    1,716 packs are the client's to build)."""
    config = config_json(view.config)
    del config["seed"]
    return {
        "seat": view.seat,
        "rules": options_json(view.config.options, full=True),
        "specials": [C.card_code(c) for c in view.specials],
        "special_count": view.special_count,
        "phase": view.phase.name.lower(),
        "round": view.round_index + 1,
        "round_leader": view.round_leader,
        "half": view.half,
        "trick_number": view.trick_number,
        "to_move": view.to_move,
        "seats_to_act": list(view.seats_to_act),
        "hand": C.codes(view.hand),
        "pack": C.codes(view.pack),
        "received": C.codes(view.received),
        "hand_sizes": list(view.hand_sizes),
        "split_done": list(view.split_done),
        "trick_leader": view.trick_leader,
        "current_trick": [[s, C.card_code(c)] for s, c in view.current_trick],
        "led_suit": _suit(view.led_suit),
        "tricks": [trick_json(t) for t in view.tricks],
        "piles": [list(p) for p in view.piles],
        "rounds": [round_json(r) for r in view.rounds],
        "totals": list(view.totals),
        "victories": None if view.victories is None else list(view.victories),
        "pending_pile": view.pending_pile,
        "winners": list(view.winners),
        "is_over": view.is_over,
        "legal": []
        if view.phase is Phase.SPLIT
        else [A.action_text(a) for a in view.legal_actions()],
        "config": config,
    }
