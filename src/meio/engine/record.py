"""The ``meio-record/1`` game record and the ``meio-result/1`` replay result.

A record holds a whole match, or a match in progress: the deals, the splits and
every play. :meth:`Record.to_state` replays it through the engine checking every
rule, and raises :class:`RecordError` naming the round, play, seat and reason of
the first fault. See ``docs/record-format.md``.

>>> from meio.engine import MatchConfig, State
>>> st = State.new(MatchConfig(players=3, seed=4))
>>> rec = Record.from_state(st)
>>> Record.from_json(rec.to_text()).to_state().deal == st.deal
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.config import MatchConfig, TableOptions
from meio.engine.errors import CardError, ConfigError, IllegalActionError, MeioError, RecordError
from meio.engine.legal import Phase
from meio.engine.ruleset import Variant
from meio.engine.ruleset_file import VariantError, variant_from_json, variant_json
from meio.engine.scoring import eligible_leaders
from meio.engine.state import State
from meio.engine.wire import options_from_json, options_json, result_trick_json, round_json

FORMAT = "meio-record/1"
RESULT_FORMAT = "meio-result/1"
#: records larger than this are refused before parsing (a whole match is ~10 KB)
MAX_RECORD_BYTES = 2_000_000


@dataclass(slots=True)
class RoundRecord:
    """One round of a record: the deal (bitmasks by seat), the splits, the plays."""

    leader: int
    hands: list[int]
    aside: int = 0
    splits: list[int] = field(default_factory=list)  #: 0 for a seat that has not split
    plays: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Record:
    """A match record. Build it from a state or from JSON; replay it with :meth:`to_state`."""

    edition: str
    players: int
    partnership: bool
    specials: tuple[int, ...]
    rounds: list[RoundRecord]
    options: TableOptions = field(default_factory=TableOptions)
    #: the ruleset of a variant game (docs/variants.md); None: a standard edition
    variant: Variant | None = None

    # -- from and to a state -------------------------------------------------------------
    @classmethod
    def from_state(cls, state: State) -> Record:
        """The record of everything played in ``state`` so far."""
        starts = state.round_starts()
        if not starts or starts[0].round_index != 0:
            raise MeioError("this state does not hold its match from round 1 (a sampled world?)")
        cfg = state.config
        rounds: list[RoundRecord] = []
        history = state.history
        for k, start in enumerate(starts):
            end = starts[k + 1].history_len if k + 1 < len(starts) else len(history)
            splits = [0] * cfg.players
            plays: list[str] = []
            for seat, action in history[start.history_len : end]:
                if A.is_pack(action):
                    splits[seat] = A.pack_of(action)
                else:
                    plays.append(A.action_text(action))
            rounds.append(RoundRecord(start.leader, list(start.deal), start.aside, splits, plays))
        return cls(
            cfg.edition, cfg.players, cfg.partnership, cfg.special_cards, rounds, cfg.options,
            cfg.variant,
        )

    def config(self, seed: int = 0) -> MatchConfig:
        """The match configuration this record describes."""
        try:
            return MatchConfig(
                edition=self.edition,  # type: ignore[arg-type]
                players=self.players,
                partnership=self.partnership,
                # RECORD.md: a classic record's specials are [] or absent; others are
                # ignored, as they always were
                specials=self.specials
                if self.edition == "meio" or self.variant is not None
                else None,
                seed=seed,
                first_leader=self.rounds[0].leader if self.rounds else None,
                options=self.options,
                variant=self.variant,
            )
        except ConfigError as exc:
            where = {"first_leader": "leader", "options": "rules"}.get(
                exc.field or "", exc.field
            )
            raise RecordError(str(exc), field=where) from None

    def to_state(self, seed: int = 0) -> State:
        """Replay the record, checking every rule; deals after the last round use ``seed``.

        Raises :class:`RecordError` at the first fault.
        """
        cfg = self.config(seed)
        if not self.rounds:
            raise RecordError("a record holds at least one round", field="rounds")
        for r, rnd in enumerate(self.rounds):
            self._check_deal(cfg, r, rnd)
        deals = [(tuple(rnd.hands), rnd.aside, rnd.leader) for rnd in self.rounds]
        st = State.new(cfg, deals=deals)
        for r, rnd in enumerate(self.rounds):
            if st.is_over:
                raise RecordError(f"the match was already over after round {r}", round=r + 1)
            if st.round_index != r:
                raise RecordError(
                    "the previous round is not finished, yet this round follows", round=r + 1
                )
            if r > 0:
                allowed = eligible_leaders(cfg, st.rounds[r - 1])
                if rnd.leader not in allowed:
                    who = "team" if cfg.partnership else "player"
                    rule = cfg.ruleset.leader
                    why = {
                        "most_points": f"the {who} who scored most in round {r} leads",
                        "last_trick": f"the winner of round {r}'s last trick leads",
                        "rotate": f"the seat after round {r}'s leader leads",
                    }[rule]
                    raise RecordError(
                        f"seat {rnd.leader} may not lead: {why} "
                        f"(seat {' or '.join(str(s) for s in allowed)})",
                        round=r + 1,
                        field="leader",
                    )
            self._replay_round(st, r, rnd)
        return st

    @staticmethod
    def _check_deal(cfg: MatchConfig, r: int, rnd: RoundRecord) -> None:
        if not 0 <= rnd.leader < cfg.players:
            raise RecordError(f"leader {rnd.leader} is not a seat", field="leader", round=r + 1)
        if len(rnd.hands) != cfg.players:
            raise RecordError(
                f"{len(rnd.hands)} hands for {cfg.players} players", field="hands", round=r + 1
            )
        seen = 0
        for seat, hand in enumerate(rnd.hands):
            if hand.bit_count() != cfg.hand_size:
                raise RecordError(
                    f"seat {seat} is dealt {hand.bit_count()} cards, not {cfg.hand_size}",
                    field="hands",
                    round=r + 1,
                )
            if seen & hand:
                raise RecordError(
                    f"{C.format_cards(seen & hand)} dealt twice", field="hands", round=r + 1
                )
            seen |= hand
        if rnd.aside.bit_count() != cfg.aside_count:
            raise RecordError(
                f"{rnd.aside.bit_count()} cards set aside; this table sets aside {cfg.aside_count}",
                field="aside",
                round=r + 1,
            )
        if seen & rnd.aside:
            raise RecordError(
                f"{C.format_cards(seen & rnd.aside)} both dealt and set aside",
                field="aside",
                round=r + 1,
            )
        seen |= rnd.aside
        if seen != cfg.deck:
            missing, extra = cfg.deck & ~seen, seen & ~cfg.deck
            parts = []
            if extra:
                parts.append(f"{C.format_cards(extra)} not in this deck")
            if missing:
                parts.append(f"{C.format_cards(missing)} missing")
            raise RecordError("; ".join(parts), field="hands", round=r + 1)
        if len(rnd.splits) != cfg.players:
            raise RecordError(
                f"{len(rnd.splits)} splits for {cfg.players} players", field="splits", round=r + 1
            )

    @staticmethod
    def _replay_round(st: State, r: int, rnd: RoundRecord) -> None:
        for seat, pack in enumerate(rnd.splits):
            if not pack:
                continue
            try:
                st.apply(A.pack_action(pack), seat)
            except IllegalActionError as exc:
                raise RecordError(
                    exc.reason, round=r + 1, field="splits", seat=seat, code=exc.code,
                    params=exc.params,
                ) from None
        if rnd.plays and st.phase is Phase.SPLIT:
            missing = ", ".join(str(s) for s in st.seats_to_act())
            raise RecordError(
                f"cards are played before every seat has split (seat {missing} has not)",
                round=r + 1,
                field="splits",
            )
        for i, text in enumerate(rnd.plays):
            mover = st.current_seat()
            who = mover if mover >= 0 else None
            if st.round_index != r or st.is_over:
                raise RecordError("the round is already over", round=r + 1, play=i + 1, seat=who)
            try:
                action = A.parse_action(text)
            except CardError as exc:
                raise RecordError(str(exc), round=r + 1, play=i + 1, seat=who) from None
            if A.is_pack(action):
                raise RecordError(
                    "a pack belongs in splits, not in plays", round=r + 1, play=i + 1, seat=who
                )
            try:
                st.apply(action)
            except IllegalActionError as exc:
                raise RecordError(
                    exc.reason, round=r + 1, play=i + 1, seat=who, code=exc.code,
                    params=exc.params,
                ) from None

    # -- JSON ----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict, fields in the documented order; ``rules``
        only when a table option differs from its default, ``variant`` only for a
        variant game."""
        out: dict[str, Any] = {
            "format": FORMAT,
            "edition": self.edition,
            "players": self.players,
            "partnership": self.partnership,
            "specials": [C.card_code(s) for s in self.specials],
        }
        rules = options_json(self.options)
        if rules:
            out["rules"] = rules
        if self.variant is not None:
            out["variant"] = variant_json(self.variant)
        out["rounds"] = [
                {
                    "leader": rnd.leader,
                    "hands": [C.codes(h) for h in rnd.hands],
                    "aside": C.codes(rnd.aside),
                    "splits": [C.codes(s) for s in rnd.splits],
                    "plays": list(rnd.plays),
                }
                for rnd in self.rounds
            ]
        return out

    def to_text(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_json(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, data: str | bytes | dict[str, Any]) -> Record:
        """Read a record from JSON text or a parsed dict; raises :class:`RecordError`."""
        if isinstance(data, (str, bytes)):
            if len(data) > MAX_RECORD_BYTES:
                raise RecordError(f"the record is larger than {MAX_RECORD_BYTES} bytes")
            try:
                data = json.loads(data)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise RecordError(f"not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        fmt = data.get("format")
        if fmt != FORMAT:
            raise RecordError(f"format is {fmt!r}, expected {FORMAT!r}", field="format")
        edition = data.get("edition")
        if edition not in ("meio", "classic"):
            raise RecordError(f"edition {edition!r} is not 'meio' or 'classic'", field="edition")
        players = data.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            raise RecordError("players must be a whole number", field="players")
        partnership = data.get("partnership", False)
        if not isinstance(partnership, bool):
            raise RecordError("partnership must be true or false", field="partnership")
        specials_raw = data.get("specials") or []
        specials = _card_list(specials_raw, "specials", None)
        try:
            options = options_from_json(data.get("rules"))
        except ConfigError as exc:
            raise RecordError(str(exc), field="rules") from None
        variant: Variant | None = None
        if data.get("variant") is not None:
            try:
                variant = variant_from_json(data["variant"], "variant")
            except VariantError as exc:
                raise RecordError("; ".join(exc.problems), field="variant") from None
            if data.get("rules") is None:
                options = variant.options  # a variant carries its own table options
        rounds_raw = data.get("rounds")
        if not isinstance(rounds_raw, list):
            raise RecordError("rounds must be a list", field="rounds")
        rounds: list[RoundRecord] = []
        for r, raw in enumerate(rounds_raw):
            if not isinstance(raw, dict):
                raise RecordError("a round is a JSON object", round=r + 1)
            leader = raw.get("leader")
            if not isinstance(leader, int) or isinstance(leader, bool):
                raise RecordError("leader must be a seat number", round=r + 1, field="leader")
            hands_raw = raw.get("hands")
            if not isinstance(hands_raw, list):
                raise RecordError("hands must be a list of lists", round=r + 1, field="hands")
            hands = [C.mask_of(_card_list(h, "hands", r)) for h in hands_raw]
            aside = C.mask_of(_card_list(raw.get("aside") or [], "aside", r))
            splits_raw = raw.get("splits")
            if splits_raw is None:
                splits_raw = [[] for _ in hands]
            if not isinstance(splits_raw, list):
                raise RecordError("splits must be a list of lists", round=r + 1, field="splits")
            splits = [C.mask_of(_card_list(s, "splits", r)) for s in splits_raw]
            plays = raw.get("plays") or []
            if not isinstance(plays, list) or not all(isinstance(p, str) for p in plays):
                raise RecordError("plays must be a list of strings", round=r + 1, field="plays")
            rounds.append(RoundRecord(leader, hands, aside, splits, list(plays)))
        return cls(
            str(edition), players, partnership, tuple(sorted(specials)), rounds, options, variant
        )


def _card_list(raw: object, name: str, r: int | None) -> list[int]:
    rnd = None if r is None else r + 1
    if not isinstance(raw, list):
        raise RecordError(f"{name} must be a list of card codes", round=rnd, field=name)
    out: list[int] = []
    for item in raw:
        if not isinstance(item, str):
            raise RecordError(f"{item!r} is not a card code", round=rnd, field=name)
        try:
            card = C.parse_card(item)
        except CardError as exc:
            raise RecordError(str(exc), round=rnd, field=name) from None
        if card in out:
            raise RecordError(f"{item} is listed twice", round=rnd, field=name)
        out.append(card)
    return out


# -- the replay result ---------------------------------------------------------------------
def result_json(state: State, rounds: int | None = None) -> dict[str, Any]:
    """The ``meio-result/1`` document of ``state``, limited to its first ``rounds`` rounds."""
    shown = len(state.rounds) + (0 if state.is_over else 1)
    if rounds is not None:
        shown = min(shown, rounds)
    out_rounds: list[dict[str, Any]] = []
    for r in range(shown):
        if r < len(state.rounds):
            res = state.rounds[r]
            out_rounds.append(
                {"tricks": [result_trick_json(t) for t in res.tricks], **round_json(res)}
            )
        else:
            out_rounds.append(
                {
                    "tricks": [result_trick_json(t) for t in state.tricks if t.pile],
                    "piles": [list(p) for p in state.piles],
                    "scores": None,
                    "team_scores": None,
                    "victory": None,
                }
            )
    victories = state.victories
    return {
        "format": RESULT_FORMAT,
        "rounds": out_rounds,
        "totals": state.totals,
        "victories": victories,
        "finished": state.is_over,
        "winners": list(state.winners) if state.is_over else [],
    }


def replay_record(
    record: Record | str | dict[str, Any], seed: int = 0
) -> tuple[State, dict[str, Any]]:
    """Replay a record; returns the final state and its ``meio-result/1`` document."""
    rec = record if isinstance(record, Record) else Record.from_json(record)
    state = rec.to_state(seed)
    return state, result_json(state, rounds=len(rec.rounds))


def describe(state: State, rounds: int | None = None) -> list[str]:
    """A readable account of a match: each trick, the piles, scores and the result."""
    cfg = state.config
    res = result_json(state, rounds)
    lines: list[str] = []
    table = f"{cfg.players} players" + (", partnership" if cfg.partnership else "")
    specials = " ".join(C.card_code(s) for s in cfg.special_cards)
    options = ", ".join(f"{k} {str(v).lower()}" for k, v in options_json(cfg.options).items())
    name = f"{cfg.edition} edition" if cfg.variant is None else f"variant {cfg.variant.name}"
    lines.append(
        f"MEIO ({name}), {table}"
        + (f"; specials {specials}" if specials else "")
        + (f"; table options: {options}" if options else "")
    )
    for r, rnd in enumerate(res["rounds"]):
        lines.append("")
        lines.append(f"Round {r + 1}")
        for k, t in enumerate(rnd["tricks"]):
            half = "first half" if k < cfg.first_half_size else "second half"
            cards = " ".join(f"{c}" for c in t["cards"])
            lines.append(
                f"  trick {k + 1:2d} ({half}), seat {t['leader']} leads: {cards:<24} "
                f"-> seat {t['winner']}, pile {t['pile']}"
            )
        piles = "  ".join(f"seat {s}: H {h} V {v}" for s, (h, v) in enumerate(rnd["piles"]))
        lines.append(f"  piles  {piles}")
        if rnd["scores"] is None:
            lines.append("  (round in progress)")
            continue
        lines.append("  scores " + "  ".join(f"seat {s}: {v}" for s, v in enumerate(rnd["scores"])))
        if rnd["team_scores"] is not None:
            ts = rnd["team_scores"]
            lines.append(f"  teams  seats 0+2: {ts[0]}  seats 1+3: {ts[1]}")
        if rnd["victory"] is not None:
            who = (
                f"team of seats {rnd['victory']} and {rnd['victory'] + 2}"
                if cfg.partnership
                else f"seat {rnd['victory']}"
            )
            lines.append(f"  victory: {who}")
    lines.append("")
    lines.append("Totals: " + "  ".join(f"seat {s}: {v}" for s, v in enumerate(res["totals"])))
    if res["victories"] is not None:
        lines.append("Victories: " + "  ".join(str(v) for v in res["victories"]))
    if res["finished"]:
        winners: Sequence[int] = res["winners"]
        shared = " (shared)" if len(winners) > 1 and not cfg.partnership else ""
        lines.append("Winner: " + ", ".join(f"seat {w}" for w in winners) + shared)
    else:
        lines.append("The match is in progress.")
    return lines
