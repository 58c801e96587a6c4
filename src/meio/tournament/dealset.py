"""Benchmark deal sets: fixed, versioned deals that ship with meio, checked by a checksum.

A benchmark result can be cited only if everyone plays the same cards. The deal
sets here do not depend on a seed or on how the engine shuffles: each deal is
written out in full (every round's hands and set-aside cards, the specials, the
leader of round 1 and how ties for the lead of rounds 2 and 3 are broken) in a
``meio-deals/1`` JSON file inside the package, and :data:`DEAL_SETS` holds the
SHA-256 of each file, so a set that was altered or damaged is refused
(:func:`load_deal_set`). A new set gets a new name (``meio-bench-v2``); a
published set never changes.

``meio-bench-v1`` has :data:`V1_DEALS` deals for each table of :data:`TABLES`;
it was made by ``make_deal_set("meio-bench-v1", V1_DEALS)``. In each deal:

* ``specials`` are N of the five special cards (``meio``; N = players), drawn
  uniformly; ``leader`` is the seat leading round 1, uniform;
* ``rounds`` are three independent uniform deals of the table's deck, 13 cards
  a seat in seat order, the rest set aside (``classic`` with 2 or 3 players);
* ``ties`` holds, for rounds 2 and 3, a uniform order of the seats: the round is
  led by the first seat of that order that the rules allow to lead (RULES.md
  §6-7: a top scorer of the previous round; in partnership a player of the team
  that scored more), which is a uniform choice among them. The leader itself
  depends on play and is never stored.

>>> ds = load_deal_set("meio-bench-v1")
>>> ds.tables["meio-4"].players, len(ds.tables["meio-4"].deals)
(4, 100)
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources

from meio.engine import MatchConfig, TableOptions, eligible_leaders
from meio.engine import cards as C
from meio.engine.config import Edition
from meio.engine.errors import MeioError
from meio.engine.scoring import RoundResult

FORMAT = "meio-deals/1"
#: the shipped sets, by name: the SHA-256 of their file (``sha256sum`` gives the same)
DEAL_SETS: dict[str, str] = {
    "meio-bench-v1": "0041eb00e433e7c402a7ee7974be75fd3604aae65bf54c51dfebf77e7c1a2eae",
}
#: every table a set covers, by key: edition, players, partnership
TABLES: dict[str, tuple[Edition, int, bool]] = {
    "meio-2": ("meio", 2, False),
    "meio-3": ("meio", 3, False),
    "meio-4": ("meio", 4, False),
    "meio-5": ("meio", 5, False),
    "meio-4p": ("meio", 4, True),
    "classic-2": ("classic", 2, False),
    "classic-3": ("classic", 3, False),
    "classic-4": ("classic", 4, False),
    "classic-4p": ("classic", 4, True),
}
V1_DEALS = 100  #: deals per table in ``meio-bench-v1``
ROUNDS = 3  #: a match never has more


class DealSetError(MeioError, ValueError):
    """A deal set that is unknown, altered or not a valid ``meio-deals/1`` document."""


def table_key(edition: str, players: int, partnership: bool) -> str:
    """The key of a table in a deal set: ``meio-4``, ``classic-3``, ``meio-4p`` (partnership).

    >>> table_key("meio", 4, True)
    'meio-4p'
    """
    return f"{edition}-{players}{'p' if partnership else ''}"


@dataclass(frozen=True, slots=True)
class Deal:
    """Everything chance decides in one match: the cards of every round, the specials,
    the first leader and the tie-breaks for the later leaders."""

    index: int
    specials: tuple[int, ...]  #: card ids (``meio``); empty in ``classic``
    leader: int  #: leads round 1
    hands: tuple[tuple[int, ...], ...]  #: by round, by seat: a card mask
    aside: tuple[int, ...]  #: by round: the set-aside mask
    ties: tuple[tuple[int, ...], ...]  #: for rounds 2 and 3: seats in tie-break order

    def round_deal(self, round_index: int, previous: RoundResult | None,
                   config: MatchConfig) -> tuple[tuple[int, ...], int, int]:
        """``(hands, aside, leader)`` of a round, as :meth:`State.new` takes them; the
        leader of a later round follows from the previous round's result."""
        if round_index == 0 or previous is None:
            leader = self.leader
        else:
            allowed = eligible_leaders(config, previous)
            leader = next(s for s in self.ties[round_index - 1] if s in allowed)
        return self.hands[round_index], self.aside[round_index], leader


@dataclass(frozen=True, slots=True)
class DealTable:
    """The deals of one table of a set."""

    key: str
    edition: Edition
    players: int
    partnership: bool
    deals: tuple[Deal, ...]

    def config(self, deal: Deal, wild_lead: str = "declare",
               reveal_specials: bool = True) -> MatchConfig:
        """The match configuration of ``deal`` (its seed plays no part: every round is given)."""
        return MatchConfig(edition=self.edition, players=self.players,
                           partnership=self.partnership,
                           specials=deal.specials if self.edition == "meio" else None,
                           seed=0, first_leader=deal.leader,
                           options=TableOptions(wild_lead, reveal_specials))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class DealSet:
    """A named, checksummed set of deals for every table."""

    name: str
    sha256: str
    tables: dict[str, DealTable]

    def table(self, edition: str, players: int, partnership: bool) -> DealTable:
        key = table_key(edition, players, partnership)
        try:
            return self.tables[key]
        except KeyError:
            raise DealSetError(f"deal set {self.name} has no table {key}; it has "
                               f"{', '.join(self.tables)}") from None


def deal_set_bytes(name: str) -> bytes:
    """The document of a shipped set, as :data:`DEAL_SETS` checksums it (the package keeps
    it gzipped: ``gunzip -c meio/tournament/deals/NAME.json.gz | sha256sum``)."""
    path = resources.files("meio.tournament").joinpath("deals", f"{name}.json.gz")
    return gzip.decompress(path.read_bytes())


def load_deal_set(name: str) -> DealSet:
    """The shipped deal set ``name``, after checking its file against :data:`DEAL_SETS`."""
    if name not in DEAL_SETS:
        raise DealSetError(f"unknown deal set {name!r}; the shipped sets are "
                           f"{', '.join(DEAL_SETS)}")
    data = deal_set_bytes(name)
    digest = hashlib.sha256(data).hexdigest()
    if digest != DEAL_SETS[name]:
        raise DealSetError(f"deal set {name} does not match its checksum (sha256 {digest}, "
                           f"expected {DEAL_SETS[name]}): the file was altered or damaged")
    return parse_deal_set(json.loads(data), digest)


def parse_deal_set(doc: object, sha256: str = "") -> DealSet:
    """A :class:`DealSet` from a ``meio-deals/1`` document; every deal is checked against
    its table's deck (13 cards a seat, each card once, the rest set aside)."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise DealSetError(f"not a {FORMAT} document")
    tables = {}
    for key, table in doc["tables"].items():
        if key not in TABLES:
            raise DealSetError(f"unknown table {key!r} in deal set {doc.get('name')}")
        edition, players, partnership = TABLES[key]
        deals = tuple(_parse_deal(i, d, edition, players, key)
                      for i, d in enumerate(table["deals"]))
        tables[key] = DealTable(key, edition, players, partnership, deals)
    return DealSet(str(doc["name"]), sha256, tables)


def _parse_deal(index: int, d: dict[str, object], edition: Edition, players: int,
                key: str) -> Deal:
    where = f"{key} deal {index}"
    try:
        specials = tuple(sorted(C.parse_card(c) for c in d["specials"]))  # type: ignore[attr-defined]
        leader = int(d["leader"])  # type: ignore[call-overload]
        rounds = d["rounds"]
        ties = tuple(tuple(int(s) for s in order) for order in d["ties"])  # type: ignore[attr-defined]
        deck = MatchConfig(edition=edition, players=players, specials=specials or None,
                           seed=0, first_leader=leader).deck
        hands, aside = [], []
        for r in rounds:  # type: ignore[attr-defined]
            masks = tuple(C.parse_cards(h) for h in r["hands"])
            rest = C.parse_cards(r["aside"])
            if len(masks) != players or any(m.bit_count() != 13 for m in masks):
                raise DealSetError(f"{where}: every seat needs 13 cards")
            dealt = rest
            for m in masks:
                if dealt & m:
                    raise DealSetError(f"{where}: a card is dealt twice")
                dealt |= m
            if dealt != deck:
                raise DealSetError(f"{where}: the hands and aside are not the table's deck")
            hands.append(masks)
            aside.append(rest)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, DealSetError):
            raise
        raise DealSetError(f"{where}: {exc}") from None
    if len(hands) != ROUNDS or len(ties) != ROUNDS - 1:
        raise DealSetError(f"{where}: a deal has {ROUNDS} rounds and {ROUNDS - 1} tie orders")
    if any(sorted(t) != list(range(players)) for t in ties) or not 0 <= leader < players:
        raise DealSetError(f"{where}: seats out of range")
    return Deal(index, specials if edition == "meio" else (), leader, tuple(hands),
                tuple(aside), ties)


def make_deal_set(name: str, deals: int,
                  tables: Sequence[str] = tuple(TABLES)) -> dict[str, object]:
    """A new ``meio-deals/1`` document: ``deals`` uniform deals per table, drawn from a
    generator seeded by ``name`` and the table key (so the same call makes the same set)."""
    out: dict[str, object] = {}
    for key in tables:
        edition, players, partnership = TABLES[key]
        rng = random.Random(f"{name}/{key}")
        rows = []
        for _ in range(deals):
            specials = sorted(rng.sample(C.SPECIALS, players)) if edition == "meio" else []
            leader = rng.randrange(players)
            deck = MatchConfig(edition=edition, players=players, partnership=partnership,
                               specials=tuple(specials) or None, seed=0,
                               first_leader=leader).deck
            rounds = []
            for _r in range(ROUNDS):
                cards = C.cards_of(deck)
                rng.shuffle(cards)
                rounds.append({
                    "hands": [C.format_cards(C.mask_of(cards[13 * s:13 * s + 13]))
                              for s in range(players)],
                    "aside": C.format_cards(C.mask_of(cards[13 * players:])),
                })
            ties = []
            for _r in range(ROUNDS - 1):
                order = list(range(players))
                rng.shuffle(order)
                ties.append(order)
            rows.append({"specials": [C.card_code(c) for c in specials], "leader": leader,
                         "rounds": rounds, "ties": ties})
        out[key] = {"edition": edition, "players": players, "partnership": partnership,
                    "deals": rows}
    return {"format": FORMAT, "name": name, "tables": out}


def dump_deal_set(doc: dict[str, object]) -> bytes:
    """The file form of a deal set: one line per deal, so a diff shows what changed."""
    tables = doc["tables"]
    assert isinstance(tables, dict)
    lines = ["{", f'"format": {json.dumps(doc["format"])},', f'"name": {json.dumps(doc["name"])},',
             '"tables": {']
    for t, (key, table) in enumerate(tables.items()):
        head = {k: v for k, v in table.items() if k != "deals"}
        lines.append(f"{json.dumps(key)}: {json.dumps(head)[:-1]}, \"deals\": [")
        rows = table["deals"]
        for i, row in enumerate(rows):
            comma = "," if i < len(rows) - 1 else ""
            lines.append(json.dumps(row, separators=(",", ":")) + comma)
        lines.append("]}" + ("," if t < len(tables) - 1 else ""))
    lines.append("}}")
    return ("\n".join(lines) + "\n").encode()
