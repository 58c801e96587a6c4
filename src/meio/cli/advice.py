"""The split advisor's explanation, as ``meio advise`` prints it, in the command's language.

:mod:`meio.bots.advisor` writes its explanation once, in English for ``Advice.explanation``
and ``Candidate.reason`` (kept so in the JSON output); this module has it write the same
sentences from the same figures with every phrase looked up in the catalogue and every
number written as the language writes it.
"""

from __future__ import annotations

from meio.bots import advisor
from meio.i18n import _, decimal


def reason(candidate: advisor.Candidate, hand: int) -> str:
    """Why ``candidate`` scores as it does: how its halves weigh, and its special cards."""
    return advisor.reason(candidate.pack, candidate.first_half_tricks,
                          candidate.second_half_tricks, hand, _, decimal)


def explanation(advice: advisor.Advice, hand: int) -> str:
    """The advisor's explanation of ``advice`` for the 13-card ``hand``."""
    return advisor.explanation(advice.best, advice.chosen, hand, _, decimal)
