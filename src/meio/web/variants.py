"""A web table's variant (docs/variants.md): reading the one its host gives, and what
the pages are told of it.

A host creates a table with a variant by giving its TOML text (pasted or uploaded)
or a preset's name; :func:`read_variant` reads it with the engine's
:func:`~meio.engine.ruleset_file.parse_variant` and refuses it whole, with one line per
problem (:class:`VariantRefused`), before anything is stored. The table keeps the
variant's :func:`~meio.engine.ruleset_file.variant_json` in its options, so every
process, and the same process after a restart, plays the same ruleset; each
match's stored config carries it too (records, replays, ratings).

>>> v = read_variant('preset = "meio"\\n[hand]\\nfirst_half = 6\\npack = 7\\n', 16384)
>>> v.first_half, v.pack
(6, 7)
>>> try:
...     read_variant('preset = "meio"\\n[hand]\\nfirst_half = 8\\n', 16384)
... except VariantRefused as exc:
...     print(exc.problems)
['your variant: hand: pack sizes 8 + 6 do not add up to the hand of 13']
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from meio.bots.variant_play import VARIANT_BOTS
from meio.engine.presets import PRESETS, preset
from meio.engine.ruleset import Variant
from meio.engine.ruleset_file import VariantError, variant_from_json
from meio.web.refusal import ProblemsRefusal, Refusal

#: how an error line names the text a host gave
SOURCE = "your variant"
#: the longest variant name (and special-card name) a table shows
MAX_NAME = 40
#: problems shown at most, and the length of each (a problem may quote a value)
MAX_PROBLEMS = 20
MAX_LINE = 300


class VariantRefused(ProblemsRefusal):
    """A variant a table cannot be created with (``bad_variant``): ``problems`` holds
    one line each; answered 422, or 413 when it is too large."""

    def __init__(self, problems: list[str], status: int = 422) -> None:
        super().__init__(status, "bad_variant", problems)


def read_variant(text: str, max_bytes: int, file_name: str | None = None) -> Variant:
    """The variant of ``text``: a preset's name (``meio``, ``classic``) or a TOML file's
    text of at most ``max_bytes`` bytes, uploaded from ``file_name`` (which then
    names it in error lines, and names the variant when the file does not); raises
    :class:`VariantRefused`."""
    if text.strip() in PRESETS:
        return preset(text.strip())
    source = SOURCE
    if file_name is not None:
        stem = Path(file_name).name
        source = stem if stem.endswith(".toml") else f"{stem}.toml"
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise VariantRefused([f"{source}: {size} bytes; a variant is at most {max_bytes} "
                              "bytes of TOML"], 413)
    if not text.strip():
        raise VariantRefused([f"{source}: empty; give a variant file's TOML text or a "
                              f"preset ({' or '.join(PRESETS)})"])
    try:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise VariantError([f"{source}: not valid TOML: {exc}"]) from None
        if source == SOURCE:
            # pasted without a name: not the name of the preset it starts from
            data.setdefault("name", "variant")
        variant = variant_from_json(data, source)
    except VariantError as exc:
        raise VariantRefused(_trim(exc.problems)) from None
    except (RecursionError, UnicodeError):
        # tables or arrays nested thousands deep fit in a few kilobytes of TOML
        raise VariantRefused([f"{source}: not a variant: its tables or arrays nest too "
                              "deeply"]) from None
    problems = _names(variant, source)
    if problems:
        raise VariantRefused(problems)
    return variant


def _trim(problems: list[str]) -> list[str]:
    lines = [p if len(p) <= MAX_LINE else p[: MAX_LINE - 1] + "…" for p in problems]
    if len(lines) > MAX_PROBLEMS:
        more = len(lines) - MAX_PROBLEMS
        lines = [*lines[:MAX_PROBLEMS], f"{SOURCE}: and {more} more problems"]
    return lines


def _names(variant: Variant, source: str) -> list[str]:
    """The web's own limit: the names a page shows are short printable texts."""
    named = [("name", variant.name)] + [(f"special {s.code}.name", s.name)
                                        for s in variant.specials]
    return [f"{source}: {key}: a name on a web table is 1 to {MAX_NAME} printable "
            "characters" for key, name in named
            if len(name) > MAX_NAME or not name.isprintable()]


def check_bots(bots: list[tuple[int, str]]) -> None:
    """Refuse a bot seat (``(seat, kind)``) whose bot does not play variants (the kinds
    standing on the editions' network: their input is the editions' cards)."""
    for seat, bot in bots:
        if bot not in VARIANT_BOTS:
            raise VariantRefused([
                f"seat {seat + 1}: the {bot} bot does not play variants (its network reads "
                f"the editions' cards); seat {', '.join(VARIANT_BOTS)} bots "
                "at a variant table"])


def host_variant(text: str, file_name: str | None, max_bytes: int, given: set[str]) -> Variant:
    """The variant a host creates a table with, or a refusal listing its problems
    (``given``: the other options the request named; the variant sets the edition and
    the table options, so those may not be given beside it)."""
    beside = sorted({"edition", "wild_lead", "reveal_specials"} & given)
    if beside:
        raise Refusal(422, "bad_variant", f"with a variant, {', '.join(beside)} "
                      "come from the variant (set them in its file)")
    return read_variant(text, max_bytes, file_name)


def check_variant_table(rated: bool, bots: list[tuple[int, str]]) -> None:
    """Refuse what a variant table may not be: rated (the ratings are for the standard
    editions), or with a bot seat (``(seat, kind)``) whose bot plays only the editions."""
    if rated:
        raise Refusal(422, "variant_unrated", "a variant table is not rated: the ratings "
                      "are for the standard editions")
    check_bots(bots)
