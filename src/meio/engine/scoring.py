"""The score of a round, who leads the next one and when the match ends (RULES.md §5–7).

>>> from meio.engine import MatchConfig
>>> cfg = MatchConfig(players=3, seed=1)
>>> result = score_round(cfg, [[4, 3], [2, 2], [5, 0]], (), leader=0)
>>> result.scores, eligible_leaders(cfg, result)
((1, 0, 5), (2,))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from meio.engine.config import MatchConfig
from meio.engine.errors import MeioError
from meio.engine.tricks import Trick


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The public outcome of a completed round."""

    scores: tuple[int, ...]
    piles: tuple[tuple[int, int], ...]
    team_scores: tuple[int, int] | None
    victory: int | None  #: 2 players: the winning seat; partnership: the winning team
    tricks: tuple[Trick, ...] = ()
    leader: int = 0


def score_round(
    config: MatchConfig,
    piles: Sequence[Sequence[int]],
    tricks: tuple[Trick, ...],
    leader: int,
) -> RoundResult:
    """The result of a round whose seats end with ``piles`` (``[H, V]`` each): a seat
    scores the difference of its piles, a team that of its summed piles; a round
    victory goes to the lower score (2 players, partnership)."""
    pairs = tuple((h, v) for h, v in piles)
    if config.variant is not None:
        return _score_variant(config, pairs, tricks, leader)
    scores = tuple(abs(h - v) for h, v in pairs)
    team_scores: tuple[int, int] | None = None
    victory: int | None = None
    if config.partnership:
        team_scores = (
            abs(pairs[0][0] + pairs[2][0] - pairs[0][1] - pairs[2][1]),
            abs(pairs[1][0] + pairs[3][0] - pairs[1][1] - pairs[3][1]),
        )
        victory = 0 if team_scores[0] < team_scores[1] else 1
    elif config.victories_to_win is not None:  # 2-player meio
        victory = 0 if scores[0] < scores[1] else 1
    return RoundResult(scores, pairs, team_scores, victory, tricks, leader)


def balance_score(config: MatchConfig, first: int, second: int) -> int:
    """The score of piles of ``first`` and ``second`` tricks: ``|H - V|``, or the
    variant's form (``(H - V)²``; ``|H - V|`` with ``-bonus`` for a perfect balance)."""
    diff = abs(first - second)
    variant = config.variant
    if variant is None or variant.scoring == "difference":
        return diff
    if variant.scoring == "squared":
        return diff * diff
    return -variant.bonus if diff == 0 else diff


def _score_variant(
    config: MatchConfig,
    pairs: tuple[tuple[int, int], ...],
    tricks: tuple[Trick, ...],
    leader: int,
) -> RoundResult:
    # a round victory (victories format) goes to the one lowest score; on a tie for
    # the lowest, nobody's
    scores = tuple(balance_score(config, h, v) for h, v in pairs)
    team_scores: tuple[int, int] | None = None
    ranked: tuple[int, ...] = scores
    if config.partnership:
        team_scores = (
            balance_score(config, pairs[0][0] + pairs[2][0], pairs[0][1] + pairs[2][1]),
            balance_score(config, pairs[1][0] + pairs[3][0], pairs[1][1] + pairs[3][1]),
        )
        ranked = team_scores
    victory: int | None = None
    if config.victories_to_win is not None:
        low = min(ranked)
        if ranked.count(low) == 1:
            victory = ranked.index(low)
    return RoundResult(scores, pairs, team_scores, victory, tricks, leader)


def eligible_leaders(config: MatchConfig, result: RoundResult) -> tuple[int, ...]:
    """Seats allowed to lead the round after ``result`` (RULES.md §6–7; a variant's
    rule: also the winner of the last trick, or the next seat after the last leader)."""
    rule = "most_points" if config.variant is None else config.variant.leader
    if rule == "last_trick" and result.tricks:
        return (result.tricks[-1].winner,)
    if rule == "rotate":
        return ((result.leader + 1) % config.players,)
    if config.partnership:
        if result.team_scores is None:
            raise MeioError("a partnership round result has no team scores")
        team = 0 if result.team_scores[0] > result.team_scores[1] else 1
        return (team, team + 2)
    top = max(result.scores)
    return tuple(s for s, v in enumerate(result.scores) if v == top)


def totals(config: MatchConfig, rounds: Sequence[RoundResult]) -> list[int]:
    """Each seat's sum of the scores of ``rounds``."""
    out = [0] * config.players
    for r in rounds:
        for s, v in enumerate(r.scores):
            out[s] += v
    return out


def victories(config: MatchConfig, rounds: Sequence[RoundResult]) -> list[int] | None:
    """2 players: round victories by seat; partnership: by team; else None."""
    if config.victories_to_win is None:
        return None
    out = [0] * (2 if config.partnership else config.players)
    for r in rounds:
        if r.victory is not None:
            out[r.victory] += 1
    return out


#: a variant's match to K victories ends after at most this many times K rounds: a tied
#: round gives nobody a victory, and some variants tie every round (an even split,
#: 2 players, no card that moves a trick)
VICTORY_ROUND_LIMIT = 5


def match_finished(config: MatchConfig, rounds: Sequence[RoundResult]) -> bool:
    """Whether the match ends after ``rounds``: 3 rounds on totals, or 2 victories (a
    variant's counts; with unshared ties, totals play on until the lowest is one seat's)."""
    wins = victories(config, rounds)
    if config.victories_to_win is None or wins is None:
        if len(rounds) < (config.rounds or 3):
            return False
        variant = config.variant
        if variant is None or variant.format_for(config.players, config.partnership).shared:
            return True
        sums = totals(config, rounds)
        return sums.count(min(sums)) == 1
    if config.variant is not None and len(rounds) >= VICTORY_ROUND_LIMIT * config.victories_to_win:
        return True
    return max(wins) >= config.victories_to_win


def match_winners(config: MatchConfig, rounds: Sequence[RoundResult]) -> list[int]:
    """The winning seats of a finished match: the lowest total (shared on a tie), or
    the seat or team with the victories."""
    wins = victories(config, rounds)
    if wins is None:
        sums = totals(config, rounds)
        low = min(sums)
        return [s for s, t in enumerate(sums) if t == low]
    if config.variant is not None:  # after the round limit: the most victories, shared
        top = max(wins)
        best_all = [i for i, w in enumerate(wins) if w == top]
        if config.partnership:
            return sorted(s for t in best_all for s in (t, t + 2))
        return best_all
    best = wins.index(max(wins))
    return [best, best + 2] if config.partnership else [best]
