"""Variants: a ruleset a designer writes in a TOML file, which the engine then plays.

A :class:`Variant` fixes what the two editions hard-code: the hand and the two pack
sizes, the deck of each table size, the trump suit, the special cards (described
by their attributes, :class:`SpecialCard`), the scoring of a round, the match
format, who leads the next round and the table options. The two editions are the
presets ``meio`` and ``classic`` (:func:`preset`); a variant file may start from one
(``preset = "meio"``) and change only what it names; without ``preset`` every key
must be given. docs/variants.md documents
every key.

Over 500 lines on purpose: the model, its TOML reading and its validation are one
schema, and each key's check sits beside the field it fills, so that the file, the
record's ``variant`` field and docs/variants.md cannot drift apart.

Card ids stay those of :mod:`meio.engine.cards`: a variant has at most five special
cards, each taking one of the special ids 60..64 (its ``code``: ``-1``, ``A+``,
``-2H``, ``+.5`` or ``Q+``) with its own attributes, so action numbers and
bitmasks are unchanged.

>>> v = parse_variant('preset = "meio"\\n[hand]\\nfirst_half = 6\\npack = 7\\n')
>>> v.first_half, v.pack, v.players
(6, 7, (2, 3, 4, 5))
>>> parse_variant('preset = "meio"\\n[hand]\\nsize = 13\\nfirst_half = 8\\npack = 6\\n', "x.toml")
Traceback (most recent call last):
...
meio.engine.variant.VariantError: x.toml: hand: pack sizes 8 + 6 do not add up to the hand of 13
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from meio.engine import cards as C
from meio.engine.errors import ConfigError
from meio.engine.options import Edition, TableOptions
from meio.engine.tricks import RELATIVE, table_winning_index

ScoringForm = Literal["difference", "balance_bonus", "squared"]
LeaderRule = Literal["most_points", "last_trick", "rotate"]
PileEffect = Literal["none", "winner_chooses", "other_half"]
MatchForm = Literal["totals", "victories"]

SCORING_FORMS: tuple[str, ...] = ("difference", "balance_bonus", "squared")
LEADER_RULES: tuple[str, ...] = ("most_points", "last_trick", "rotate")
PILE_EFFECTS: tuple[str, ...] = ("none", "winner_chooses", "other_half")
MATCH_FORMS: tuple[str, ...] = ("totals", "victories")
#: the special ids a wild may take: a wild lead declares a suit, and only these four
#: ids have declare actions (:mod:`meio.engine.actions`)
WILD_CODES = ("-1", "A+", "+.5", "Q+")
SPECIAL_CODES = ("-1", "A+", "-2H", "+.5", "Q+")
ABOVE = "above"  #: a special's value: 0.5 above the card played just before it


class VariantError(ConfigError):
    """A variant file or mapping with problems; ``problems`` holds one line each, and
    the message all of them, one a line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems), field="variant")
        self.problems = problems


@dataclass(frozen=True, slots=True)
class SpecialCard:
    """A special card by its attributes.

    ``values`` are its doubled values in half 1 and half 2 (``None``: 0.5 above the
    card played just before it in the trick, 0.5 when it leads); ``suit`` a fixed
    suit (0..3) or -1 for a wild (it follows any suit; led, it declares one under
    ``wild_lead: declare``); ``follows``, for a suited card, whether it obeys the
    follow rule as a card of its suit (``-2H``) or may be played on any trick; ``pile``
    where a trick it wins goes: its half (``none``), the winner's choice, or the other
    half."""

    code: str
    values: tuple[int | None, int | None]
    suit: int
    follows: bool
    pile: str
    name: str = ""

    @property
    def card(self) -> int:
        """The card id the special occupies."""
        return C.parse_card(self.code)


@dataclass(frozen=True, slots=True)
class Deck:
    """The deck of one table size: the ranks of each suit (rank indices, ``A`` = 14)
    and how many of the variant's special cards are drawn into it."""

    ranks: tuple[int, ...]
    specials: int


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """How a match ends: ``totals`` after ``rounds`` rounds, lowest total wins (a tie
    shared when ``shared``, else more rounds until it breaks); or ``victories``: the
    first seat (or team) to ``to_win`` round victories wins."""

    form: str
    rounds: int = 3
    to_win: int = 2
    shared: bool = True


@dataclass(frozen=True, slots=True)
class Variant:
    """A whole ruleset (see the module docstring); build it with :func:`parse_variant`,
    :func:`load_variant`, :func:`variant_from_json` or :func:`preset`."""

    name: str
    edition: Edition
    hand: int
    first_half: int
    trump: int
    decks: tuple[tuple[int, Deck], ...]
    partnership: bool
    specials: tuple[SpecialCard, ...]
    scoring: str
    bonus: int
    formats: tuple[tuple[str, MatchFormat], ...]
    leader: str
    options: TableOptions

    @property
    def pack(self) -> int:
        """Cards in the second-half pack."""
        return self.hand - self.first_half

    @property
    def players(self) -> tuple[int, ...]:
        """The table sizes the variant has a deck for."""
        return tuple(n for n, _ in self.decks)

    def deck_for(self, players: int) -> Deck:
        for n, deck in self.decks:
            if n == players:
                return deck
        raise ConfigError(
            f"the variant {self.name!r} has no deck for {players} players "
            f"(it has decks for {', '.join(str(n) for n in self.players)})",
            field="players",
        )

    def format_for(self, players: int, partnership: bool) -> MatchFormat:
        """The match format of a table: its own entry, else ``default``."""
        table = dict(self.formats)
        key = "partnership" if partnership else str(players)
        return table.get(key, table["default"])

    @property
    def special_pool(self) -> tuple[int, ...]:
        """The ids of the variant's special cards, lowest first."""
        return tuple(sorted(s.card for s in self.specials))

    @property
    def is_standard(self) -> bool:
        """Whether this is its edition's preset but for its name and table options (so
        what holds of the edition holds of it)."""
        base = preset(self.edition)
        return dataclasses.replace(self, name=base.name, options=base.options) == base

    def to_json(self) -> dict[str, Any]:
        """The whole ruleset as a mapping in the file's own keys (the record's
        ``variant`` field); :func:`variant_from_json` reads it back."""
        return _to_mapping(self)


# -- presets -----------------------------------------------------------------------------
_SPECIAL_PRESETS: dict[str, dict[str, Any]] = {
    "-1": {"code": "-1", "name": "-1/A+", "value": [-1, 15], "suit": "wild", "pile": "none"},
    "A+": {"code": "A+", "name": "A+/-1", "value": [15, -1], "suit": "wild", "pile": "none"},
    "-2H": {"code": "-2H", "name": "-2 hearts", "value": -2, "suit": "H", "follows": True,
            "pile": "none"},
    "+.5": {"code": "+.5", "name": "+0.5", "value": ABOVE, "suit": "wild",
            "pile": "winner_chooses"},
    "Q+": {"code": "Q+", "name": "Q+", "value": 12.5, "suit": "wild", "pile": "other_half"},
}

_PRESETS: dict[str, dict[str, Any]] = {
    "meio": {
        "name": "meio",
        "edition": "meio",
        "hand": {"size": 13, "first_half": 7, "pack": 6},
        "trump": "H",
        "deck": {
            "2": {"ranks": "9TJQKA", "specials": 2},
            "3": {"ranks": "6789TJQKA", "specials": 3},
            "4": {"ranks": "3456789TJQKA", "specials": 4},
            "5": {"ranks": "0123456789TJQKA", "specials": 5},
        },
        "partnership": True,
        "special": [{"preset": code} for code in SPECIAL_CODES],
        "scoring": {"form": "difference"},
        "match": {
            "default": {"form": "totals", "rounds": 3, "shared": True},
            "2": {"form": "victories", "to_win": 2},
            "partnership": {"form": "victories", "to_win": 2},
        },
        "leader": "most_points",
        "options": {"wild_lead": "declare", "reveal_specials": True},
    },
    "classic": {
        "name": "classic",
        "edition": "classic",
        "hand": {"size": 13, "first_half": 7, "pack": 6},
        "trump": "H",
        "deck": {
            "2": {"ranks": "A234567", "specials": 0},
            "3": {"ranks": "A23456789T", "specials": 0},
            "4": {"ranks": "A23456789TJQK", "specials": 0},
        },
        "partnership": True,
        "special": [],
        "scoring": {"form": "difference"},
        "match": {
            "default": {"form": "totals", "rounds": 3, "shared": True},
            "partnership": {"form": "victories", "to_win": 2},
        },
        "leader": "most_points",
        "options": {"wild_lead": "declare", "reveal_specials": True},
    },
    # a MEIO small enough to solve exactly (docs/rl.md): 2 players, hands of 3 split
    # 2/1 (so H - V still sums to an odd number and a round cannot tie), the four Aces,
    # -2H (a second trump, so hearts must be followed) and Q+; one round a match
    "mini": {
        "name": "mini",
        "edition": "meio",
        "hand": {"size": 3, "first_half": 2, "pack": 1},
        "trump": "H",
        "deck": {"2": {"ranks": "A", "specials": 2}},
        "partnership": False,
        "special": [{"preset": "-2H"}, {"preset": "Q+"}],
        "scoring": {"form": "difference"},
        "match": {"default": {"form": "victories", "to_win": 1}},
        "leader": "most_points",
        "options": {"wild_lead": "declare", "reveal_specials": True},
    },
}

PRESETS: tuple[str, ...] = tuple(_PRESETS)


def preset(name: str) -> Variant:
    """The ruleset of a standard edition (``meio`` or ``classic``) as a variant, or
    the ruleset of a shipped variant (``mini``: a MEIO small enough to solve).

    >>> v = preset("meio")
    >>> v.hand, v.first_half, v.pack, len(v.specials), v.deck_for(4).specials
    (13, 7, 6, 5, 4)
    """
    if name not in _PRESETS:
        raise VariantError([f"unknown preset {name!r} (use {', '.join(PRESETS)})"])
    return _preset(name)


@functools.cache
def _preset(name: str) -> Variant:
    return _build(copy.deepcopy(_PRESETS[name]), f"preset {name}")


# -- reading -----------------------------------------------------------------------------
def load_variant(path: str | Path) -> Variant:
    """The variant of a TOML file; every problem is reported at once, one line each
    naming the file and the key (:class:`VariantError`)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise VariantError([f"{p}: cannot read the variant file ({exc.strerror})"]) from None
    except UnicodeDecodeError:
        raise VariantError([f"{p}: not a text file (a variant file is UTF-8 TOML)"]) from None
    return parse_variant(text, str(p))


def parse_variant(text: str, source: str = "variant") -> Variant:
    """The variant of a TOML text (``source`` names it in error lines)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError([f"{source}: not valid TOML: {exc}"]) from None
    return variant_from_json(data, source)


def variant_from_json(data: object, source: str = "variant") -> Variant:
    """The variant of a mapping in the file's keys (a parsed file, or a record's
    ``variant`` field). A ``preset`` key starts from that preset: tables merge key
    by key (but a ``match`` entry replaces the preset's entry whole), everything else
    replaces."""
    if not isinstance(data, Mapping):
        raise VariantError([f"{source}: a variant is a table of keys, not {data!r}"])
    raw = dict(data)
    base_name = raw.pop("preset", None)
    if base_name is None:
        merged = raw
    elif base_name in _PRESETS:
        base = copy.deepcopy(_PRESETS[str(base_name)])
        formats = raw.get("match")
        if isinstance(formats, Mapping):  # a table's format replaces the preset's whole
            for key in formats:
                base["match"].pop(key, None)
        merged = _merge(base, raw)
    else:
        raise VariantError(
            [f"{source}: preset: unknown preset {base_name!r} (use {', '.join(PRESETS)})"]
        )
    if "name" not in raw:
        merged["name"] = Path(source).stem if source.endswith(".toml") else str(base_name)
    return _build(merged, source)


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), dict):
            base[key] = _merge(base[key], value)
        else:
            base[key] = value
    return base


_TOP_KEYS = ("name", "edition", "hand", "trump", "deck", "partnership", "special", "scoring",
             "match", "leader", "options")


class _Problems:
    def __init__(self, source: str) -> None:
        self.source = source
        self.lines: list[str] = []

    def add(self, key: str, message: str) -> None:
        self.lines.append(f"{self.source}: {key}: {message}")


def _build(data: dict[str, Any], source: str) -> Variant:
    bad = _Problems(source)
    for key in data:
        if key not in _TOP_KEYS:
            bad.add(key, f"unknown key (known: preset, {', '.join(_TOP_KEYS)})")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        bad.add("name", f"must be a non-empty text, not {name!r}")
        name = "variant"
    edition = data.get("edition")
    if edition not in ("meio", "classic"):
        bad.add("edition", f"must be 'meio' (Ace high) or 'classic' (Ace low), not {edition!r}")
        edition = "meio"
    hand, first = _hand(data.get("hand"), bad)
    trump = _trump(data.get("trump"), bad)
    partnership = data.get("partnership")
    if not isinstance(partnership, bool):
        bad.add("partnership", f"must be true or false, not {partnership!r}")
        partnership = False
    specials = _specials(data.get("special"), bad)
    decks = _decks(data.get("deck"), hand, len(specials), bad)
    deck_keys = data.get("deck") if isinstance(data.get("deck"), Mapping) else {}
    if partnership and not (deck_keys or {}).get("4"):
        bad.add("partnership", "partnership is played by 4 players, and there is no deck.4")
    scoring, bonus = _scoring(data.get("scoring"), bad)
    formats = _formats(data.get("match"), bad)
    leader = data.get("leader")
    if leader not in LEADER_RULES:
        bad.add("leader", f"unknown rule {leader!r} (use {', '.join(LEADER_RULES)})")
        leader = "most_points"
    options = _options(data.get("options"), bad)
    if bad.lines:
        raise VariantError(bad.lines)
    return Variant(str(name), "classic" if edition == "classic" else "meio", hand, first,
                   trump, decks, partnership, specials, scoring, bonus, formats, str(leader),
                   options)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _table(value: object, key: str, bad: _Problems) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        bad.add(key, f"must be a table, not {value!r}")
        return {}
    return dict(value)


def _unknown(table: Mapping[str, Any], known: tuple[str, ...], key: str, bad: _Problems) -> None:
    for k in table:
        if k not in known:
            bad.add(f"{key}.{k}", f"unknown key (known: {', '.join(known)})")


def _hand(value: object, bad: _Problems) -> tuple[int, int]:
    table = _table(value, "hand", bad)
    _unknown(table, ("size", "first_half", "pack"), "hand", bad)
    size, first, pack = table.get("size"), table.get("first_half"), table.get("pack")
    ok = True
    for key, v in (("size", size), ("first_half", first), ("pack", pack)):
        if not _whole(v) or not 1 <= v <= 15:  # type: ignore[operator]
            bad.add(f"hand.{key}", f"must be a whole number from 1 to 15, not {v!r}")
            ok = False
    if not ok:
        return 13, 7
    assert isinstance(size, int) and isinstance(first, int) and isinstance(pack, int)
    if first + pack != size:
        bad.add("hand", f"pack sizes {first} + {pack} do not add up to the hand of {size}")
    return size, first


def _trump(value: object, bad: _Problems) -> int:
    if value == "none":
        return -1
    if isinstance(value, str) and len(value) == 1 and value.upper() in C.SUITS:
        return C.SUITS.index(value.upper())
    bad.add("trump", f"must be a suit (S, H, D or C) or 'none', not {value!r}")
    return C.HEARTS


def _suit_text(value: object) -> int | None:
    if value == "wild":
        return -1
    if isinstance(value, str) and len(value) == 1 and value.upper() in C.SUITS:
        return C.SUITS.index(value.upper())
    return None


def _value2(value: object) -> tuple[bool, int | None]:
    """(valid, doubled value or None for ``above``)."""
    if value == ABOVE:
        return True, None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False, None
    doubled = value * 2
    if doubled != int(doubled) or not -40 <= doubled <= 80:
        return False, None
    return True, int(doubled)


def _specials(value: object, bad: _Problems) -> tuple[SpecialCard, ...]:
    if value is None:
        value = []
    if not isinstance(value, list):
        bad.add("special", f"must be a list of special cards ([[special]]), not {value!r}")
        return ()
    out: list[SpecialCard] = []
    seen: set[str] = set()
    for i, item in enumerate(value):
        key = f"special[{i}]"
        table = _table(item, key, bad)
        if not table:
            continue
        if "preset" in table:
            code = table.pop("preset")
            if code not in _SPECIAL_PRESETS:
                bad.add(f"{key}.preset", f"unknown special {code!r} "
                        f"(use {', '.join(SPECIAL_CODES)})")
                continue
            table = {**_SPECIAL_PRESETS[str(code)], **table}
        _unknown(table, ("code", "name", "value", "suit", "follows", "pile"), key, bad)
        code = table.get("code")
        if code not in SPECIAL_CODES:
            bad.add(f"{key}.code", f"must be one of {', '.join(SPECIAL_CODES)} (the card id "
                    f"it takes), not {code!r}")
            continue
        key = f"special {code}"
        if code in seen:
            bad.add(key, "is described twice")
            continue
        seen.add(str(code))
        raw = table.get("value")
        pair = raw if isinstance(raw, list) else [raw, raw]
        values: list[int | None] = []
        if len(pair) != 2:
            bad.add(f"{key}.value", f"is one value or two (half 1, half 2), not {raw!r}")
            pair = [0, 0]
        for j, v in enumerate(pair):
            ok, doubled = _value2(v)
            if not ok and (j == 0 or pair[1] != pair[0]):
                bad.add(f"{key}.value", f"{v!r} is not a value: use a number in steps of 0.5 "
                        f"from -20 to 40, or {ABOVE!r} (0.5 above the previous card)")
            values.append(doubled)
        suit = _suit_text(table.get("suit"))
        if suit is None:
            bad.add(f"{key}.suit", f"must be a suit (S, H, D, C) or 'wild', not "
                    f"{table.get('suit')!r}")
            suit = -1
        if suit < 0 and code not in WILD_CODES:
            bad.add(f"{key}.suit", f"{code} cannot be wild: a wild lead declares a suit and "
                    f"only {', '.join(WILD_CODES)} have declare actions")
        follows = table.get("follows", True)
        if not isinstance(follows, bool):
            bad.add(f"{key}.follows", f"must be true or false, not {follows!r}")
            follows = True
        if suit < 0 and "follows" in table:
            bad.add(f"{key}.follows", "applies to a suited card: a wild always follows suit")
        pile = table.get("pile", "none")
        if pile not in PILE_EFFECTS:
            bad.add(f"{key}.pile", f"unknown effect {pile!r} (use {', '.join(PILE_EFFECTS)})")
            pile = "none"
        name = table.get("name", str(code))
        if not isinstance(name, str):
            bad.add(f"{key}.name", f"must be a text, not {name!r}")
            name = str(code)
        out.append(SpecialCard(str(code), (values[0], values[1]), suit, follows or suit < 0,
                               str(pile), name))
    return tuple(sorted(out, key=lambda s: s.card))


def _decks(value: object, hand: int, pool: int, bad: _Problems
           ) -> tuple[tuple[int, Deck], ...]:
    table = _table(value, "deck", bad)
    out: list[tuple[int, Deck]] = []
    for k, item in table.items():
        key = f"deck.{k}"
        if item is False:
            continue  # a preset's table size removed
        if k not in ("2", "3", "4", "5"):
            bad.add(key, "a deck is given for a table size: deck.2 to deck.5")
            continue
        n = int(k)
        entry = _table(item, key, bad)
        if not entry:
            continue
        _unknown(entry, ("ranks", "specials"), key, bad)
        ranks_text = entry.get("ranks")
        ranks: list[int] = []
        if not isinstance(ranks_text, str) or not ranks_text:
            bad.add(f"{key}.ranks", f"must be rank letters such as '9TJQKA', not {ranks_text!r}")
        else:
            for ch in ranks_text.upper():
                if ch not in C.RANKS:
                    bad.add(f"{key}.ranks", f"{ch!r} is not a rank (use {C.RANKS})")
                elif C.RANKS.index(ch) in ranks:
                    bad.add(f"{key}.ranks", f"rank {ch} is listed twice")
                else:
                    ranks.append(C.RANKS.index(ch))
        specials = entry.get("specials", 0)
        if not _whole(specials) or not 0 <= specials <= pool:
            bad.add(f"{key}.specials", f"must be a whole number from 0 to {pool} (the special "
                    f"cards described), not {specials!r}")
            continue
        size = 4 * len(ranks) + specials
        if ranks and size < n * hand:
            bad.add(key, f"a {n}-player deck of {size} cards cannot deal {n} hands of {hand}")
        out.append((n, Deck(tuple(sorted(ranks)), specials)))
    if not out and table:
        return ()
    if not out:
        bad.add("deck", "no table size has a deck")
    return tuple(sorted(out))


def _scoring(value: object, bad: _Problems) -> tuple[str, int]:
    table = _table(value, "scoring", bad)
    _unknown(table, ("form", "bonus"), "scoring", bad)
    form = table.get("form")
    if form not in SCORING_FORMS:
        bad.add("scoring.form", f"unknown form {form!r} (use {', '.join(SCORING_FORMS)})")
        form = "difference"
    bonus = table.get("bonus", 0)
    if form == "balance_bonus":
        if not _whole(bonus) or not 1 <= bonus <= 13:
            bad.add("scoring.bonus", f"must be a whole number from 1 to 13, not {bonus!r}")
            bonus = 1
    elif "bonus" in table:
        bad.add("scoring.bonus", "applies only to the form 'balance_bonus'")
    return str(form), int(bonus) if form == "balance_bonus" else 0


def _formats(value: object, bad: _Problems) -> tuple[tuple[str, MatchFormat], ...]:
    table = _table(value, "match", bad)
    out: list[tuple[str, MatchFormat]] = []
    for k, item in table.items():
        key = f"match.{k}"
        if item is False:
            continue
        if k not in ("default", "2", "3", "4", "5", "partnership"):
            bad.add(key, "a format is given for default, 2 to 5, or partnership")
            continue
        entry = _table(item, key, bad)
        _unknown(entry, ("form", "rounds", "to_win", "shared"), key, bad)
        form = entry.get("form")
        if form not in MATCH_FORMS:
            bad.add(f"{key}.form", f"unknown form {form!r} (use totals or victories)")
            continue
        rounds, to_win, shared = entry.get("rounds", 3), entry.get("to_win", 2), \
            entry.get("shared", True)
        if not _whole(rounds) or not 1 <= rounds <= 20:
            bad.add(f"{key}.rounds", f"must be a whole number from 1 to 20, not {rounds!r}")
            rounds = 3
        if not _whole(to_win) or not 1 <= to_win <= 10:
            bad.add(f"{key}.to_win", f"must be a whole number from 1 to 10, not {to_win!r}")
            to_win = 2
        if not isinstance(shared, bool):
            bad.add(f"{key}.shared", f"must be true or false, not {shared!r}")
            shared = True
        if form == "victories" and "rounds" in entry:
            bad.add(f"{key}.rounds", "applies to the form 'totals'")
        if form == "totals" and "to_win" in entry:
            bad.add(f"{key}.to_win", "applies to the form 'victories'")
        if k == "partnership" and form != "victories":
            bad.add(key, "a partnership match is played to round victories")
        out.append((k, MatchFormat(str(form), int(rounds), int(to_win), shared)))
    if "default" not in table:
        bad.add("match.default", "is missing: the format of tables with no entry of their own")
    return tuple(sorted(out))


def _options(value: object, bad: _Problems) -> TableOptions:
    table = _table(value, "options", bad)
    _unknown(table, ("wild_lead", "reveal_specials"), "options", bad)
    try:
        return TableOptions(
            wild_lead=table.get("wild_lead", "declare"),
            reveal_specials=table.get("reveal_specials", True),
        )
    except ConfigError as exc:
        bad.add(f"options.{exc.field}", str(exc))
        return TableOptions()


# -- writing -----------------------------------------------------------------------------
def _number(doubled: int | None) -> int | float | str:
    if doubled is None:
        return ABOVE
    return doubled // 2 if doubled % 2 == 0 else doubled / 2


def _to_mapping(v: Variant) -> dict[str, Any]:
    specials: list[dict[str, Any]] = []
    for s in v.specials:
        one, two = (_number(x) for x in s.values)
        entry: dict[str, Any] = {"code": s.code, "name": s.name,
                                 "value": one if one == two else [one, two],
                                 "suit": "wild" if s.suit < 0 else C.SUITS[s.suit]}
        if s.suit >= 0:
            entry["follows"] = s.follows
        entry["pile"] = s.pile
        specials.append(entry)
    scoring: dict[str, Any] = {"form": v.scoring}
    if v.scoring == "balance_bonus":
        scoring["bonus"] = v.bonus
    match: dict[str, Any] = {}
    for key, f in v.formats:
        match[key] = ({"form": "totals", "rounds": f.rounds, "shared": f.shared}
                      if f.form == "totals" else {"form": "victories", "to_win": f.to_win})
    return {
        "name": v.name,
        "edition": v.edition,
        "hand": {"size": v.hand, "first_half": v.first_half, "pack": v.pack},
        "trump": "none" if v.trump < 0 else C.SUITS[v.trump],
        "deck": {str(n): {"ranks": "".join(C.RANKS[r] for r in d.ranks),
                          "specials": d.specials} for n, d in v.decks},
        "partnership": v.partnership,
        "special": specials,
        "scoring": scoring,
        "match": match,
        "leader": v.leader,
        "options": {"wild_lead": v.options.wild_lead,
                    "reveal_specials": v.options.reveal_specials},
    }


# -- the tables the engine plays a variant by --------------------------------------------
@dataclass(frozen=True, slots=True)
class CardRules:
    """A variant's card facts as the engine reads them, one entry per card id.

    ``suit_of``: a card's suit, -1 for a wild; ``wild``: the wilds (led, they declare
    under ``wild_lead: declare``); ``free``: the cards that may be played on any trick
    (the wilds and the suited specials that do not follow); ``suit_masks``: per suit,
    the cards whose holder must follow that suit; ``values``: doubled values in each
    half (0 for a relative card); ``relative``: per half, the cards worth 0.5 above
    the card before them; ``pile``: 0 none, 1 the winner chooses, 2 the other half;
    ``trump``: the trump suit or -1; ``trick_values``: per half, ``values`` with
    :data:`~meio.engine.tricks.RELATIVE` for the relative cards (the table the trick
    rule and the compiled core read)."""

    suit_of: tuple[int, ...]
    wild: int
    free: int
    suit_masks: tuple[int, ...]
    values: tuple[tuple[int, ...], tuple[int, ...]]
    relative: tuple[int, int]
    pile: tuple[int, ...]
    trump: int
    hand: int
    first_half: int
    pack: int
    trick_values: tuple[tuple[int, ...], tuple[int, ...]]


@functools.lru_cache(maxsize=256)
def card_rules(variant: Variant) -> CardRules:
    """The :class:`CardRules` of a variant (built once per variant)."""
    n = C.NUM_CARDS
    suit_of = [c // 15 if c < 60 else -1 for c in range(n)]
    ace_low = variant.edition == "classic"
    values: list[list[int]] = [[0] * n, [0] * n]
    for c in range(60):
        rank = c % 15
        for h in (0, 1):
            values[h][c] = 2 if ace_low and rank == 14 else 2 * rank
    wild = free = 0
    relative = [0, 0]
    pile = [0] * n
    masks = [sum(1 << (s * 15 + r) for r in range(15)) for s in range(4)]
    for s in variant.specials:
        card = s.card
        suit_of[card] = s.suit
        if s.suit < 0:
            wild |= 1 << card
            free |= 1 << card
        elif s.follows:
            masks[s.suit] |= 1 << card
        else:
            free |= 1 << card
        for h in (0, 1):
            v = s.values[h]
            if v is None:
                relative[h] |= 1 << card
            else:
                values[h][card] = v
        pile[card] = PILE_EFFECTS.index(s.pile)
    return CardRules(
        tuple(suit_of), wild, free, tuple(masks), (tuple(values[0]), tuple(values[1])),
        (relative[0], relative[1]), tuple(pile), variant.trump, variant.hand,
        variant.first_half, variant.pack,
        tuple(tuple(RELATIVE if relative[h] >> c & 1 else values[h][c] for c in range(n))
              for h in (0, 1)),  # type: ignore[arg-type]
    )


def variant_winning_index(
    cards: Sequence[int], led: int, half: int, rules: CardRules
) -> tuple[int, int]:
    """:func:`~meio.engine.tricks.winning_index` for a variant's cards (:class:`CardRules`):
    its suits, values, relative cards and trump suit (none: -1) in place of the
    editions' constants (:func:`~meio.engine.tricks.table_winning_index`). With a
    standard edition's preset it names the same card (tests/engine/test_variants.py
    plays both side by side).

    >>> from meio.engine.cards import parse_card as p
    >>> from meio.engine.variant import card_rules, preset
    >>> variant_winning_index([p("KS"), p("Q+"), p("+.5")], 0, 1, card_rules(preset("meio")))
    (0, 26)
    """
    return table_winning_index(
        cards, led, rules.trick_values[half - 1], rules.suit_of, rules.trump
    )


def variant_pile_for(winning_card: int, half: int, rules: CardRules) -> int:
    """:func:`~meio.engine.tricks.pile_for` for a variant: 0 when the winner must choose."""
    effect = rules.pile[winning_card]
    if effect == 2:
        return 3 - half
    if effect == 1:
        return 0
    return half
