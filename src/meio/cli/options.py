"""The table options of RULES.md §10 as command-line options.

Every command that creates a game (``meio deal``, ``demo``, ``simulate``,
``tournament``, ``advise``) takes ``--wild-lead declare|next`` and
``--hide-specials`` in the same words; :func:`rules_text` says which options a
table plays, for the commands that print a header.
"""

from __future__ import annotations

from typing import Annotated

import typer

WildLeadOption = Annotated[
    str,
    typer.Option(
        "--wild-lead",
        help="how a led wild plays (RULES.md §10): 'declare' (the leader names the led "
        "suit) or 'next' (no suit; the first non-wild card sets it)",
    ),
]
HideSpecialsOption = Annotated[
    bool,
    typer.Option(
        "--hide-specials",
        help="do not tell the players which special cards are in the deck (RULES.md §10)",
    ),
]


def rules_text(wild_lead: str, reveal_specials: bool) -> str:
    """The table options in a few words, e.g. ``"wild lead: next, specials hidden"``."""
    return f"wild lead: {wild_lead}, specials {'shown' if reveal_specials else 'hidden'}"
