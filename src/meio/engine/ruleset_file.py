"""A ruleset's file format: reading a designer's TOML file (or a record's ``variant``
field), checking every key, and writing a ruleset back in the file's keys.

docs/variants.md documents every key. A file may start from a preset (``preset =
"meio"``, :mod:`meio.engine.presets`) and change only what it names; without
``preset`` every key must be given. Every problem is reported at once, one line each
naming the file and the key (:class:`VariantError`). Each key's check sits beside
the field it fills, so that the file, the record's ``variant`` field and
docs/variants.md cannot drift apart.

>>> v = parse_variant('preset = "meio"\\n[hand]\\nfirst_half = 6\\npack = 7\\n')
>>> v.first_half, v.pack, v.players
(6, 7, (2, 3, 4, 5))
>>> try:
...     parse_variant('preset = "meio"\\n[hand]\\nfirst_half = 8\\npack = 6\\n', "x.toml")
... except VariantError as exc:
...     print(exc)
x.toml: hand: pack sizes 8 + 6 do not add up to the hand of 13
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from meio.engine import cards as C
from meio.engine.errors import ConfigError
from meio.engine.options import OPTION_NAMES, TableOptions, options_json
from meio.engine.presets import PRESETS, SPECIALS, preset
from meio.engine.ruleset import (
    ABOVE,
    LEADER_RULES,
    MATCH_FORMS,
    PILE_EFFECTS,
    SCORING_FORMS,
    SPECIAL_CODES,
    WILD_CODES,
    Deck,
    MatchFormat,
    SpecialCard,
    Variant,
)


class VariantError(ConfigError):
    """A variant file or mapping with problems; ``problems`` holds one line each, and
    the message all of them, one a line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems), field="variant")
        self.problems = problems


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
    elif base_name in PRESETS:
        base = variant_json(preset(str(base_name)))
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


#: the hand's limits: each half holds at least one card, and the compiled core holds
#: hands of up to 15 cards (so packs of up to 14)
HAND_LIMITS = {"size": (2, 15), "first_half": (1, 14), "pack": (1, 14)}


def _hand(value: object, bad: _Problems) -> tuple[int, int]:
    """(size, first half); size 0 when a number is bad, so that no later check
    reports the same problem again through a hand size the file did not give."""
    table = _table(value, "hand", bad)
    _unknown(table, ("size", "first_half", "pack"), "hand", bad)
    size, first, pack = table.get("size"), table.get("first_half"), table.get("pack")
    ok = True
    for key, v in (("size", size), ("first_half", first), ("pack", pack)):
        low, high = HAND_LIMITS[key]
        if not _whole(v) or not low <= v <= high:  # type: ignore[operator]
            bad.add(f"hand.{key}", f"must be a whole number from {low} to {high}, not {v!r}")
            ok = False
    if not ok:
        return 0, 0
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
            if code not in SPECIALS:
                bad.add(f"{key}.preset", f"unknown special {code!r} "
                        f"(use {', '.join(SPECIAL_CODES)})")
                continue
            table = {**special_json(SPECIALS[str(code)]), **table}
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
        if ranks and hand and size < n * hand:
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
    _unknown(table, OPTION_NAMES, "options", bad)
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


def special_json(s: SpecialCard) -> dict[str, Any]:
    """A special card in the file's keys (one ``[[special]]`` entry)."""
    one, two = (_number(x) for x in s.values)
    entry: dict[str, Any] = {"code": s.code, "name": s.name,
                             "value": one if one == two else [one, two],
                             "suit": "wild" if s.suit < 0 else C.SUITS[s.suit]}
    if s.suit >= 0:
        entry["follows"] = s.follows
    entry["pile"] = s.pile
    return entry


def variant_json(v: Variant) -> dict[str, Any]:
    """The whole ruleset as a mapping in the file's own keys (the record's
    ``variant`` field); :func:`variant_from_json` reads it back."""
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
        "special": [special_json(s) for s in v.specials],
        "scoring": scoring,
        "match": match,
        "leader": v.leader,
        "options": options_json(v.options, full=True),
    }
