"""The tuner's search space: ``KEY=RANGE`` over a variant file's keys, a ruleset with
some keys changed, and the ruleset written back as a TOML file a designer can open.

A KEY is a dotted path into the file's keys (docs/variants.md): ``hand.first_half``,
``trump``, ``deck.4.specials``, ``scoring.bonus``, ``match.default.rounds``; a special
card's attribute is ``special.<code>.<attribute>`` (``special.Q+.value``), and one half
of its value ``special.Q+.value_half_1`` (or ``_2``). A RANGE is ``LOW..HIGH`` (whole
numbers; with a point, numbers by halves, as a card's value goes), or choices ``a,b,c``.

Changing ``hand.first_half`` or ``hand.pack`` alone keeps the hand's size: the other
takes the rest (a 13-card hand with ``first_half = 6`` keeps a pack of 7).

>>> v = parse_vary("hand.first_half=5..8")
>>> (v.key, v.low, v.high, v.integer)
('hand.first_half', 5.0, 8.0, True)
>>> from meio.engine.presets import preset
>>> changed(preset("meio"), {"hand.first_half": 6, "special.Q+.value_half_1": 3}).pack
7
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from meio.design.rulesets import DesignError
from meio.engine.ruleset import SPECIAL_CODES, Variant
from meio.engine.ruleset_file import variant_from_json, variant_json

#: a special card's attributes a KEY may name
SPECIAL_FIELDS = ("value", "value_half_1", "value_half_2", "suit", "follows", "pile", "name")


@dataclass(frozen=True)
class Vary:
    """One ``--vary``: a key and its range (``low .. high``, or ``choices``)."""

    key: str
    low: float = 0.0
    high: float = 0.0
    integer: bool = True
    choices: tuple[str, ...] = ()


def parse_vary(text: str) -> Vary:
    """A ``KEY=RANGE`` option."""
    key, sep, rng = text.partition("=")
    key, rng = key.strip(), rng.strip()
    if not sep or not key or not rng:
        raise DesignError(f"--vary {text!r}: write KEY=LOW..HIGH or KEY=a,b,c "
                          "(e.g. hand.first_half=5..8)")
    if ".." in rng:
        lo, _, hi = rng.partition("..")
        try:
            low, high = float(lo), float(hi)
        except ValueError:
            raise DesignError(f"--vary {text!r}: {rng!r} is not a range of numbers "
                              "(LOW..HIGH)") from None
        if not low < high:
            raise DesignError(f"--vary {text!r}: the low end must be below the high end")
        integer = "." not in lo and "." not in hi
        if not integer and (low * 2 != int(low * 2) or high * 2 != int(high * 2)):
            raise DesignError(f"--vary {text!r}: a range with a point goes by halves: its "
                              "ends must be whole or end in .5")
        return Vary(key, low, high, integer)
    choices = tuple(c.strip() for c in rng.split(",") if c.strip())
    if len(choices) < 2:
        raise DesignError(f"--vary {text!r}: give a range LOW..HIGH or at least two "
                          "choices a,b")
    return Vary(key, choices=choices)


def _choice(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def check_key(base: Variant, key: str) -> None:
    """Refuse a KEY that names no key of ``base``'s file, saying which keys there are."""
    _set(variant_json(base), key, None, dry=True)


def changed(base: Variant, values: Mapping[str, Any], name: str = "trial") -> Variant:
    """``base`` with the keys in ``values`` changed (a
    :class:`~meio.engine.ruleset_file.VariantError` lists the problems of a ruleset that
    does not hold together)."""
    return variant_from_json(changed_json(base, values, name), f"{name}.toml")


def changed_json(base: Variant, values: Mapping[str, Any], name: str = "trial"
                 ) -> dict[str, Any]:
    """The file's keys of ``base`` with ``values`` set (every key written)."""
    data = variant_json(base)
    data["name"] = name
    for key, value in values.items():
        if isinstance(value, str):
            value = _choice(value)
        _set(data, key, value)
    hand = data["hand"]
    given = {k.removeprefix("hand.") for k in values if k.startswith("hand.")}
    if given == {"first_half"}:
        hand["pack"] = hand["size"] - hand["first_half"]
    elif given == {"pack"}:
        hand["first_half"] = hand["size"] - hand["pack"]
    return data


def _set(data: dict[str, Any], key: str, value: Any, dry: bool = False) -> None:
    parts = key.split(".")
    if parts[0] == "special":
        if len(parts) != 3:
            raise DesignError(f"--vary {key}: a special card's key is special.<code>.<attribute> "
                              f"(e.g. special.Q+.value)")
        code, attr = parts[1], parts[2]
        entry = next((s for s in data["special"] if s["code"] == code), None)
        if entry is None:
            held = ", ".join(s["code"] for s in data["special"])
            if not held:
                raise DesignError(f"--vary {key}: {data['name']} has no special cards (a "
                                  "variant file adds them, [[special]] with a preset among "
                                  f"{', '.join(SPECIAL_CODES)}: docs/variants.md)")
            raise DesignError(f"--vary {key}: the ruleset has no special card {code!r} "
                              f"(it has {held}; the codes are {', '.join(SPECIAL_CODES)})")
        if attr not in SPECIAL_FIELDS:
            raise DesignError(f"--vary {key}: a special card has no attribute {attr!r} "
                              f"(choose {', '.join(SPECIAL_FIELDS)})")
        if dry:
            return
        if attr.startswith("value_half_"):
            old = entry["value"]
            pair = list(old) if isinstance(old, list) else [old, old]
            pair[int(attr[-1]) - 1] = value
            entry["value"] = pair
        else:
            entry[attr] = value
        return
    node: Any = data
    for i, part in enumerate(parts):
        if not isinstance(node, dict) or part not in node:
            where = ".".join(parts[:i]) or "the file"
            known = ", ".join(sorted(node)) if isinstance(node, dict) else "none"
            raise DesignError(f"--vary {key}: {where} has no key {part!r} (known: {known})")
        if i == len(parts) - 1:
            inner = node[part]
            if isinstance(inner, (dict, list)):
                keys = (", ".join(sorted(inner)) if isinstance(inner, dict)
                        else "special.<code>.<attribute>")
                raise DesignError(f"--vary {key}: {key} is a table; name one of its keys "
                                  f"({keys})")
            if not dry:
                node[part] = value
            return
        node = node[part]


# -- writing TOML -----------------------------------------------------------------------
def _value(x: Any) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, (int, float)):
        if isinstance(x, float) and not math.isfinite(x):
            raise DesignError(f"{x} cannot be written in a variant file")
        return repr(x)
    if isinstance(x, str):
        return '"' + x.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in x) + "]"
    raise DesignError(f"{x!r} cannot be written in a variant file")


def toml_text(data: Mapping[str, Any], comment: str = "") -> str:
    """A variant's keys (:func:`~meio.engine.ruleset_file.variant_json`'s form) as the
    text of a TOML file that :func:`~meio.engine.ruleset_file.load_variant` reads back.

    >>> from meio.engine.presets import preset
    >>> from meio.engine.ruleset_file import parse_variant
    >>> parse_variant(toml_text(variant_json(preset("mini")))) == preset("mini")
    True
    """
    lines = [f"# {line}" for line in comment.splitlines()]
    tables: list[tuple[str, Mapping[str, Any]]] = []
    arrays: list[tuple[str, list[Mapping[str, Any]]]] = []
    for key, value in data.items():
        if isinstance(value, Mapping):
            tables.append((key, value))
        elif isinstance(value, list) and value and isinstance(value[0], Mapping):
            arrays.append((key, value))
        elif isinstance(value, list) and not value and key == "special":
            lines.append("special = []")
        else:
            lines.append(f"{_key(key)} = {_value(value)}")

    def table(prefix: str, body: Mapping[str, Any]) -> None:
        plain = {k: v for k, v in body.items() if not isinstance(v, Mapping)}
        if plain or not body:
            lines.extend(["", f"[{prefix}]"])
            lines.extend(f"{_key(k)} = {_value(v)}" for k, v in plain.items())
        for k, v in body.items():
            if isinstance(v, Mapping):
                table(f"{prefix}.{_key(k)}", v)

    for key, body in tables:
        table(_key(key), body)
    for key, items in arrays:
        for item in items:
            lines.extend(["", f"[[{_key(key)}]]"])
            lines.extend(f"{_key(k)} = {_value(v)}" for k, v in item.items())
    return "\n".join(lines) + "\n"


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() else _value(k)


def variant_toml(v: Variant, comment: str = "") -> str:
    """The whole ruleset ``v`` as a variant file's text."""
    return toml_text(copy.deepcopy(variant_json(v)), comment)
