"""The table options of RULES.md §10 as command-line options.

Every command that creates a game (``meio deal``, ``demo``, ``simulate``,
``tournament``, ``advise``) takes ``--wild-lead declare|next`` and
``--hide-specials`` in the same words; :func:`rules_text` says which options a
table plays, for the commands that print a header.
"""

from __future__ import annotations

from typing import Annotated

import typer

from meio.i18n import N_, _

WildLeadOption = Annotated[
    str,
    typer.Option(
        "--wild-lead",
        help=_(
            "how a led wild plays (RULES.md §10): 'declare' (the leader names the led "
            "suit) or 'next' (no suit; the first non-wild card sets it)"
        ),
    ),
]
HideSpecialsOption = Annotated[
    bool,
    typer.Option(
        "--hide-specials",
        help=_("do not tell the players which special cards are in the deck (RULES.md §10)"),
    ),
]


#: the values of the table options, as words in the current language
OPTION_WORDS = {
    "declare": N_("declare"),
    "next": N_("next"),
    "true": N_("true"),
    "false": N_("false"),
}


def option_word(value: object) -> str:
    """A table option's value as a word in the current language (``next``, ``false``...)."""
    raw = str(value).lower()
    return _(OPTION_WORDS[raw]) if raw in OPTION_WORDS else raw


def rules_text(wild_lead: str, reveal_specials: bool) -> str:
    """The table options in a few words, in the current language, e.g.
    ``"wild lead: next, specials hidden"``."""
    shown = _("specials shown") if reveal_specials else _("specials hidden")
    return _("wild lead: {wild_lead}, {specials}").format(
        wild_lead=option_word(wild_lead), specials=shown
    )
