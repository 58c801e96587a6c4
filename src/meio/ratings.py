"""Ratings: a player's skill at one kind of table, from the matches they finish.

The model is openskill's Plackett–Luce (Weng & Lin 2011), made for games of many
players and for teams: each rating is a mean ``mu`` and an uncertainty ``sigma``,
and a finished match updates every seat's rating from the order the seats
finished in. Matches of one kind are rated apart from the others, in a **pool**
per edition, table size and partnership, since skill at a 2-player duel says
little about a 5-player table.

How a match orders its seats (:func:`match_ranks`):

- 3–5 players, and 2 players of the classic edition: by the match totals, lowest
  first; equal totals are a tie, so a **shared victory counts as a tie** for first;
- 2 players of the MEIO edition: the winner of two rounds first, the other second;
- partnership: the two teams, the winning team first.

A rating is **provisional** until it has :data:`PROVISIONAL_GAMES` rated matches
in its pool; the number shown is the conservative estimate ``mu − 3·sigma``
(openskill's ``ordinal``), which starts at 0 and rises as a player wins and as
the system grows sure of them.

>>> pool = Pool.of(MatchConfig(players=4, seed=1))
>>> pool.key
'meio-4p'
>>> before = [Rating()] * 4
>>> after = rate(before, [1, 2, 2, 4])
>>> after[0].mu > 25 > after[3].mu, after[1] == after[2], after[0].games
(True, True, 1)
>>> after[0].provisional
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from meio.engine.config import Edition, MatchConfig
from meio.engine.errors import MeioError

#: rated matches in a pool before a rating stops being provisional
PROVISIONAL_GAMES = 10

#: openskill's defaults: a new player is 25 ± 25/3
MU = 25.0
SIGMA = 25.0 / 3.0

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


class RatingError(MeioError):
    """A pool or an outcome that cannot be rated."""


@dataclass(frozen=True, slots=True)
class Pool:
    """The kind of table a rating belongs to: edition, table size and partnership.

    >>> Pool("meio", 4, True).key, Pool.parse("classic-3p")
    ('meio-4p-partners', Pool(edition='classic', players=3, partnership=False))
    """

    edition: Edition
    players: int
    partnership: bool = False

    def __post_init__(self) -> None:
        # a pool exists for every table the engine deals, and for no other
        try:
            MatchConfig(edition=self.edition, players=self.players,
                        partnership=self.partnership)
        except MeioError as exc:
            raise RatingError(f"no rating pool for that table: {exc}") from None

    @classmethod
    def of(cls, config: MatchConfig) -> Pool:
        """The pool of a match's configuration."""
        return cls(config.edition, config.players, config.partnership)

    @classmethod
    def parse(cls, key: str) -> Pool:
        """The pool a :attr:`key` names; :class:`RatingError` for any other text."""
        parts = key.split("-")
        partnership = parts[-1:] == ["partners"]
        if partnership:
            parts = parts[:-1]
        if len(parts) != 2 or parts[0] not in ("meio", "classic") or not (
            len(parts[1]) == 2 and parts[1][0].isdigit() and parts[1][1] == "p"
        ):
            raise RatingError(f"{key!r} is not a rating pool: use e.g. 'meio-4p', "
                              "'classic-3p' or 'meio-4p-partners'")
        edition: Edition = "meio" if parts[0] == "meio" else "classic"
        return cls(edition, int(parts[1][0]), partnership)

    @property
    def key(self) -> str:
        """A short name, stable for storage and addresses: ``meio-4p``, ``meio-4p-partners``."""
        return f"{self.edition}-{self.players}p" + ("-partners" if self.partnership else "")


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating in one pool: ``mu`` ± ``sigma``, after ``games`` rated matches."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mu) and math.isfinite(self.sigma) and self.sigma > 0):
            raise RatingError(f"a rating needs a finite mu and a positive sigma, "
                              f"not {self.mu!r} ± {self.sigma!r}")
        if self.games < 0:
            raise RatingError(f"a rating cannot have {self.games} games")

    @property
    def ordinal(self) -> float:
        """The conservative estimate shown to players: ``mu − 3·sigma``."""
        return self.mu - 3.0 * self.sigma

    @property
    def provisional(self) -> bool:
        """True until the player has :data:`PROVISIONAL_GAMES` rated matches in the pool."""
        return self.games < PROVISIONAL_GAMES

    def __str__(self) -> str:
        return f"{self.ordinal:.1f}" + ("?" if self.provisional else "")


def match_ranks(config: MatchConfig, totals: Sequence[int], winners: Sequence[int]) -> list[int]:
    """Each seat's place in a finished match, 1 the best; tied seats share a place.

    ``totals`` are the seats' match totals and ``winners`` the winning seats, as a
    finished :class:`~meio.engine.state.State` has them.

    >>> cfg = MatchConfig(players=4, seed=1)
    >>> match_ranks(cfg, [3, 1, 1, 5], [1, 2])
    [3, 1, 1, 4]
    >>> match_ranks(MatchConfig(players=4, partnership=True, seed=1), [2, 4, 3, 1], [1, 3])
    [2, 1, 2, 1]
    """
    n = config.players
    if len(totals) != n or not winners or any(not 0 <= w < n for w in winners):
        raise RatingError(f"a finished {n}-player match has {n} totals and its winners "
                          f"among them, not totals {list(totals)} and winners {list(winners)}")
    if config.partnership or config.victories_to_win is not None:
        return [1 if seat in winners else 2 for seat in range(n)]
    return [1 + sum(other < mine for other in totals) for mine in totals]


def rate(ratings: Sequence[Rating], ranks: Sequence[int], *,
         partnership: bool = False) -> list[Rating]:
    """Every seat's rating after a match the seats finished in ``ranks`` (1 the best).

    In partnership seats 0 and 2 play as one team and 1 and 3 as the other: the
    update is openskill's team update, and partners share their team's place.
    """
    if len(ratings) != len(ranks) or len(ranks) < 2:
        raise RatingError(f"rating a match needs a rank for each of its seats, "
                          f"not {len(ranks)} ranks for {len(ratings)} ratings")
    teams = [[0, 2], [1, 3]] if partnership else [[seat] for seat in range(len(ratings))]
    if partnership and (len(ranks) != 4 or ranks[0] != ranks[2] or ranks[1] != ranks[3]):
        raise RatingError(f"partners share their team's place: {list(ranks)} splits a team")
    model_teams = [[_MODEL.rating(mu=ratings[s].mu, sigma=ratings[s].sigma) for s in team]
                   for team in teams]
    updated = _MODEL.rate(model_teams, ranks=[float(ranks[team[0]]) for team in teams])
    out = list(ratings)
    for team, new in zip(teams, updated, strict=True):
        for seat, r in zip(team, new, strict=True):
            out[seat] = Rating(r.mu, r.sigma, ratings[seat].games + 1)
    return out


def nearest(target: Rating, candidates: dict[str, Rating]) -> str:
    """The candidate (say, a bot level) whose rating is closest to ``target``'s.

    Closeness is of the means, the uncertainty aside; ties go to the first listed.

    >>> nearest(Rating(24.0), {"easy": Rating(20.0), "strong": Rating(26.0)})
    'strong'
    """
    if not candidates:
        raise RatingError("there is nothing to choose from")
    return min(candidates, key=lambda name: abs(candidates[name].mu - target.mu))
