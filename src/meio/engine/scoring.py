"""The score of a round, who leads the next one and when the match ends (RULES.md §5–7).

>>> from meio.engine import MatchConfig
>>> cfg = MatchConfig(players=3, seed=1)
>>> result = score_round(cfg, [[4, 3], [2, 2], [5, 0]], (), leader=0)
>>> result.scores, eligible_leaders(cfg, result)
((1, 0, 5), (2,))

The rules a compiled core reads (:func:`balance`, :func:`round_victory`,
:func:`leader_seats`, :func:`match_over`) take the ruleset's numbers as plain ints and
sequences: numba compiles these same functions.
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


#: the scoring forms (:func:`balance`), in the order of ``Variant.scoring``'s names
DIFFERENCE, BALANCE_BONUS, SQUARED = 0, 1, 2
#: the leader rules (:func:`leader_seats`)
MOST_POINTS, LAST_TRICK, ROTATE = 0, 1, 2

#: a match to K victories ends after at most this many times K rounds: a tied round
#: gives nobody a victory, and some rulesets tie every round (an even split, 2
#: players, no card that moves a trick). The editions never tie, so never reach it.
VICTORY_ROUND_LIMIT = 5


def balance(form: int, bonus: int, first: int, second: int) -> int:
    """The score of piles of ``first`` and ``second`` tricks under a scoring ``form``:
    :data:`DIFFERENCE` ``|H - V|``; :data:`BALANCE_BONUS` the same, but ``-bonus`` for
    a perfect balance; :data:`SQUARED` ``(H - V)²``. Plain Python that numba compiles.

    >>> balance(DIFFERENCE, 0, 5, 2), balance(BALANCE_BONUS, 3, 4, 4), balance(SQUARED, 0, 1, 4)
    (3, -3, 9)
    """
    diff = abs(first - second)
    if form == SQUARED:
        return diff * diff
    if form == BALANCE_BONUS and diff == 0:
        return -bonus
    return diff


def round_victory(ranked: Sequence[int]) -> int:
    """Who takes a round victory: the index in ``ranked`` (the seats' scores, or the
    two teams') of the one lowest score; -1 when the lowest is tied (nobody).
    Plain Python that numba compiles.

    >>> round_victory([3, 1]), round_victory([2, 2]), round_victory([4, 1, 1])
    (1, -1, -1)
    """
    best = 0
    tied = False
    for i in range(1, len(ranked)):
        if ranked[i] < ranked[best]:
            best = i
            tied = False
        elif ranked[i] == ranked[best]:
            tied = True
    return -1 if tied else best


def leader_seats(
    rule: int, players: int, partnership: bool, ranked: Sequence[int], last_winner: int,
    last_leader: int,
) -> int:
    """The seats allowed to lead the next round, as a bitmask: :data:`MOST_POINTS` the
    seats (in partnership: both seats of each team) with the highest score of
    ``ranked`` (the seats' scores, or the two teams'), every one of them on a tie;
    :data:`LAST_TRICK` the winner of the round's last trick; :data:`ROTATE` the seat
    after the round's leader. Plain Python that numba compiles.

    >>> bin(leader_seats(MOST_POINTS, 3, False, [1, 4, 4], 0, 0))
    '0b110'
    >>> bin(leader_seats(MOST_POINTS, 4, True, [2, 2], 0, 0))   # the teams tie: anyone
    '0b1111'
    >>> none = [0, 0, 0, 0]
    >>> leader_seats(ROTATE, 4, False, none, 2, 3), leader_seats(LAST_TRICK, 4, False, none, 2, 3)
    (1, 4)
    """
    if rule == LAST_TRICK:
        return 1 << last_winner
    if rule == ROTATE:
        return 1 << (last_leader + 1) % players
    top = ranked[0]
    for i in range(1, len(ranked)):
        if ranked[i] > top:
            top = ranked[i]
    mask = 0
    for seat in range(players):
        if ranked[seat % 2 if partnership else seat] == top:
            mask |= 1 << seat
    return mask


def match_over(
    played: int, rounds: int, to_win: int, shared: bool, totals: Sequence[int],
    wins: Sequence[int],
) -> bool:
    """Whether a match ends after ``played`` rounds. To round victories (``to_win`` >
    0): when a seat or team of ``wins`` has ``to_win`` of them, or after
    :data:`VICTORY_ROUND_LIMIT` times ``to_win`` rounds. On totals (``to_win`` 0): after
    ``rounds`` rounds, and when the lowest of ``totals`` is tied and not ``shared``,
    once it is one seat's. Plain Python that numba compiles.

    >>> match_over(3, 3, 0, True, [5, 5, 9], []), match_over(3, 3, 0, False, [5, 5, 9], [])
    (True, False)
    >>> match_over(2, 0, 2, True, [], [1, 1]), match_over(3, 0, 2, True, [], [2, 1])
    (False, True)
    """
    if to_win > 0:
        if played >= VICTORY_ROUND_LIMIT * to_win:
            return True
        for w in wins:  # noqa: SIM110 - a plain loop, as numba compiles it
            if w >= to_win:
                return True
        return False
    if played < rounds:
        return False
    if shared:
        return True
    low = totals[0]
    for t in totals:
        if t < low:
            low = t
    count = 0
    for t in totals:
        if t == low:
            count += 1
    return count == 1


def score_round(
    config: MatchConfig,
    piles: Sequence[Sequence[int]],
    tricks: tuple[Trick, ...],
    leader: int,
) -> RoundResult:
    """The result of a round whose seats end with ``piles`` (``[H, V]`` each): a seat
    scores its piles by the ruleset's form, a team its summed piles; a round victory
    (a match to victories) goes to the one lowest score, nobody's on a tie."""
    pairs = tuple((h, v) for h, v in piles)
    ruleset = config.ruleset
    form, bonus = ruleset.scoring_form, ruleset.bonus
    scores = tuple(balance(form, bonus, h, v) for h, v in pairs)
    team_scores: tuple[int, int] | None = None
    ranked: tuple[int, ...] = scores
    if config.partnership:
        team_scores = (
            balance(form, bonus, pairs[0][0] + pairs[2][0], pairs[0][1] + pairs[2][1]),
            balance(form, bonus, pairs[1][0] + pairs[3][0], pairs[1][1] + pairs[3][1]),
        )
        ranked = team_scores
    victory: int | None = None
    if config.victories_to_win is not None:
        won = round_victory(ranked)
        victory = None if won < 0 else won
    return RoundResult(scores, pairs, team_scores, victory, tricks, leader)


def balance_score(config: MatchConfig, first: int, second: int) -> int:
    """The score of piles of ``first`` and ``second`` tricks under ``config``'s
    ruleset (:func:`balance`)."""
    ruleset = config.ruleset
    return balance(ruleset.scoring_form, ruleset.bonus, first, second)


def eligible_leaders(config: MatchConfig, result: RoundResult) -> tuple[int, ...]:
    """Seats allowed to lead the round after ``result`` (RULES.md §6–7; a ruleset's
    leader rule, :func:`leader_seats`), lowest first."""
    if config.partnership and result.team_scores is None:
        raise MeioError("a partnership round result has no team scores")
    ranked = result.team_scores if result.team_scores is not None else result.scores
    last_winner = result.tricks[-1].winner if result.tricks else result.leader
    mask = leader_seats(config.ruleset.leader_rule, config.players, config.partnership,
                        ranked, last_winner, result.leader)
    return tuple(s for s in range(config.players) if mask >> s & 1)


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


def match_finished(config: MatchConfig, rounds: Sequence[RoundResult]) -> bool:
    """Whether the match ends after ``rounds`` (:func:`match_over` on the table's
    match format)."""
    fmt = config.match_format
    to_win = fmt.to_win if fmt.form == "victories" else 0
    wins = victories(config, rounds) or []
    return match_over(len(rounds), fmt.rounds, to_win, fmt.shared, totals(config, rounds), wins)


def match_winners(config: MatchConfig, rounds: Sequence[RoundResult]) -> list[int]:
    """The winning seats of a finished match: the lowest total (shared on a tie), or
    the seats of the seat or team with the most victories (shared on a tie, which
    only a match stopped at :data:`VICTORY_ROUND_LIMIT` can have)."""
    wins = victories(config, rounds)
    if wins is None:
        sums = totals(config, rounds)
        low = min(sums)
        return [s for s, t in enumerate(sums) if t == low]
    top = max(wins)
    return [s for s in range(config.players) if wins[config.team_of(s)] == top]
