"""Plain-ASCII output for terminals without Unicode (``meio play --ascii``).

The app draws its own marks in ASCII when asked (``S H D C``, ``+-|`` borders,
``>`` for the turn); :class:`AsciiFilter` then catches every other character on
its way to the terminal (Textual's own borders, the footer, accented letters of
the Portuguese text) and replaces it, cell for cell, with an ASCII one, so the
layout does not move.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

_FIXED = {
    "—": "-",
    "–": "-",
    "−": "-",
    "·": "|",  # a separator: a "-" would read as the card -1 or a minus sign
    "…": ".",
    "→": ">",
    "←": "<",
    "↑": "^",
    "↓": "v",
    "▶": ">",
    "◀": "<",
    "▸": ">",
    "✓": "v",
    "½": "h",
    "×": "x",
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "“": '"',
    "”": '"',
    "‘": "'",
    "’": "'",
    "•": "*",
    "⏎": "<",
    "⇥": ">",
    "\u00a0": " ",
}


@lru_cache(maxsize=4096)
def ascii_char(char: str) -> str:
    """An ASCII stand-in for ``char`` as wide as ``char`` on screen.

    >>> ascii_char("ã"), ascii_char("╭"), ascii_char("─"), ascii_char("│"), ascii_char("♠")
    ('a', '+', '-', '|', 'S')
    """
    if char.isascii():
        return char
    width = max(1, cell_len(char))
    fixed = _FIXED.get(char)
    if fixed is not None:
        return fixed.ljust(width)[:width]
    base = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
    if len(base) == 1:
        return base.ljust(width)
    name = unicodedata.name(char, "")
    if "BOX DRAWINGS" in name or "BORDER" in name:
        if "HORIZONTAL" in name and "VERTICAL" not in name:
            out = "-"
        elif "VERTICAL" in name and "HORIZONTAL" not in name:
            out = "|"
        else:
            out = "+"
    elif "BLOCK" in name or "SHADE" in name or "QUADRANT" in name:
        out = " " if "LOWER ONE EIGHTH" in name or "UPPER ONE EIGHTH" in name else "#"
    else:
        out = "?"
    return out.ljust(width)


def ascii_text(text: str) -> str:
    """``text`` with every character made ASCII (one cell for one cell)."""
    if text.isascii():
        return text
    return "".join(ascii_char(ch) for ch in text)


class AsciiFilter(LineFilter):
    """A Textual line filter that leaves only ASCII characters on the screen."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            seg if seg.control or seg.text.isascii() else Segment(ascii_text(seg.text), seg.style)
            for seg in segments
        ]
