"""Playing a duplicate tournament.

*Duplicate* here means: deal ``d`` of a tournament is played once per *lineup*
of a schedule (:func:`lineups`) in which every bot sits in every seat equally
often, so every bot meets the same cards from every seat.

A deal is either built from a seed, ``MatchConfig(seed=deal_seed(seed, d))``,
or taken from a benchmark deal set (:mod:`meio.tournament.dealset`, with
``TournamentSpec.deal_table``). The engine deals every round from the match
seed and the round number alone, and a deal set writes every round out, so in
all lineups of a deal **every round's hands, the special cards and round 1's
leader are identical**; what may differ is who leads rounds 2 and 3 (a top
scorer of the previous round, which depends on play) and, with 2 players in
``meio`` or in partnership, how many rounds are played (the first side to 2
round victories ends the match; 2-player ``classic`` is always 3 rounds on
totals). :func:`check_duplicates` verifies this from the saved records. The
table options of RULES.md §10 (``wild_lead``, ``reveal_specials``) are the
same for every match of a tournament.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

from meio.bots import Bot, UnknownBotError, bot_kinds, bot_turn, make_bot, play_match
from meio.bots.variant_play import check_variant_bot
from meio.engine import MatchConfig, State, TableOptions, replay_actions
from meio.engine.config import Edition, WildLead
from meio.engine.errors import MeioError
from meio.engine.record import Record
from meio.engine.ruleset import Variant
from meio.tournament.dealset import Deal, DealTable


class TournamentError(MeioError, ValueError):
    """A tournament that cannot be played as asked (no bots, a bot listed twice, ...)."""


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    """What to play: bots, table, number of deals, the base seed and the table options."""

    bots: tuple[str, ...]
    players: int = 4
    edition: Edition = "meio"
    partnership: bool = False
    matches: int = 10  #: deals; each is played once per lineup
    seed: int = 0
    wild_lead: WildLead = "declare"
    reveal_specials: bool = True
    #: play the first ``matches`` deals of this table of a deal set instead of seeded deals;
    #: ``seed`` then seeds only the bots
    deal_table: DealTable | None = None
    #: a variant to play (docs/variants.md); its options replace the two above
    variant: Variant | None = None

    def __post_init__(self) -> None:
        lineups(self.bots, self.players, self.partnership)  # the bots' errors, early
        if self.variant is not None:
            if self.deal_table is not None:
                raise TournamentError("a deal set holds standard deals: not for a variant")
            for bot in self.bots:
                check_variant_bot(bot, self.config(0))
        if self.matches < 1:
            raise TournamentError("a tournament needs at least one deal")
        if self.seed < 0:
            raise TournamentError(f"the seed is a whole number from 0, not {self.seed}")
        t = self.deal_table
        if t is None:
            return
        if (t.edition, t.players, t.partnership) != (self.edition, self.players,
                                                     self.partnership):
            raise TournamentError(f"the deal table {t.key} is not this tournament's table")
        if self.matches > len(t.deals):
            raise TournamentError(f"the deal table {t.key} has {len(t.deals)} deals, not "
                                  f"{self.matches}")

    def config(self, deal: int) -> MatchConfig:
        if self.deal_table is not None:
            return self.deal_table.config(self.deal_table.deals[deal], self.wild_lead,
                                          self.reveal_specials)
        if self.variant is not None:
            return MatchConfig(edition=self.variant.edition, players=self.players,
                               partnership=self.partnership, seed=deal_seed(self.seed, deal),
                               options=self.variant.options, variant=self.variant)
        return MatchConfig(edition=self.edition, players=self.players,
                           partnership=self.partnership, seed=deal_seed(self.seed, deal),
                           options=TableOptions(self.wild_lead, self.reveal_specials))

    def bot_seed(self, deal: int, seat: int) -> int:
        """The seed of the bot at ``seat`` in deal ``deal``, the same in every lineup."""
        return deal_seed(self.seed, deal) * 8 + seat

    @property
    def games(self) -> int:
        """Matches in the whole tournament."""
        return self.matches * len(lineups(self.bots, self.players, self.partnership))


@dataclass(frozen=True, slots=True)
class MatchTask:
    """One match to play: a deal and the bot sitting at each seat."""

    spec: TournamentSpec
    deal: int
    rotation: int
    lineup: tuple[str, ...]
    record_path: str | None = None


@dataclass(frozen=True, slots=True)
class MatchResult:
    """What a match gave, by seat."""

    deal: int
    rotation: int
    lineup: tuple[str, ...]
    round_scores: tuple[tuple[int, ...], ...]  #: by round, by seat (team score in partnership)
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    victories: tuple[int, ...] | None
    hands: tuple[tuple[int, ...], ...] = field(default=())  #: by round, the dealt hands


#: the bot OpenSpiel's ISMCTS plays as (``ismcts:N``: N simulations a decision)
ISMCTS = "ismcts"


def tournament_bot_kinds() -> list[str]:
    """The bots a tournament seats by name: :func:`meio.bots.bot_kinds` and ``ismcts``
    (also ``learned:PATH`` and ``ismcts:N``)."""
    return sorted([*bot_kinds(), ISMCTS])


def make_player(kind: str, seed: int) -> Bot:
    """The bot ``kind`` seeded by ``seed``: :func:`meio.bots.make_bot`'s, or for ``ismcts``
    and ``ismcts:N`` OpenSpiel's ISMCTS (:class:`meio.openspiel.IsmctsPlayer`, which
    needs OpenSpiel: the ``bench`` extra). A bot registered under that name
    (:func:`meio.bots.register`, as ``bench/rl_strength.py`` does) comes first."""
    if kind.split(":")[0] != ISMCTS or kind in bot_kinds():
        return make_bot(kind, seed)
    try:
        from meio.openspiel.ismcts import ismcts_player
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith(("pyspiel", "open_spiel")):
            raise
        raise UnknownBotError(f"the {kind} bot is OpenSpiel's ISMCTS: install OpenSpiel "
                              "(pip install 'meio[bench]')") from None
    return ismcts_player(kind, seed)


def deal_seed(seed: int, deal: int) -> int:
    """The match seed of deal ``deal`` of a tournament seeded ``seed``."""
    return seed * 1_000_003 + deal


def lineups(bots: Sequence[str], players: int,
            partnership: bool = False) -> list[tuple[str, ...]]:
    """The seat orders each deal is played in: over them, every bot sits in every seat
    equally often and no bot is left out.

    * With no more bots than seats, the bots are repeated round the table in the
      order given and the lineups are their cyclic shifts: ``k`` bots give ``k``
      lineups, and each bot sits in each seat exactly once per deal.
    * With more bots than seats, every set of ``players`` of the bots plays, each in
      its ``players`` rotations: each bot sits in each seat equally often, and
      every two bots meet equally often.
    * In partnership a team is one bot in both its seats: the teams are scheduled
      as the two seats of a 2-player table.

    >>> lineups(["a", "b", "c"], 4)
    [('a', 'b', 'c', 'a'), ('b', 'c', 'a', 'b'), ('c', 'a', 'b', 'c')]
    >>> lineups(["a", "b", "c"], 2)
    [('a', 'b'), ('b', 'a'), ('a', 'c'), ('c', 'a'), ('b', 'c'), ('c', 'b')]
    >>> lineups(["a", "b"], 4, partnership=True)
    [('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a')]
    """
    if not bots:
        raise TournamentError("a tournament needs at least one bot")
    twice = sorted({b for b in bots if list(bots).count(b) > 1})
    if twice:
        raise TournamentError(f"bot {', '.join(twice)} is listed twice; list each bot once")
    if players < 1:
        raise TournamentError(f"a table has at least one seat, not {players}")
    if partnership:
        return [(a, b, a, b) for a, b in lineups(bots, 2)]
    k = len(bots)
    if k <= players:
        return [tuple(bots[(shift + seat) % k] for seat in range(players))
                for shift in range(k)]
    return [group[r:] + group[:r] for group in combinations(tuple(bots), players)
            for r in range(players)]


def tasks_for(spec: TournamentSpec, record_dir: Path | None = None) -> list[MatchTask]:
    """Every match of a tournament, deal by deal."""
    tasks = []
    for deal in range(spec.matches):
        for r, lineup in enumerate(lineups(spec.bots, spec.players, spec.partnership)):
            path = None
            if record_dir is not None:
                path = str(record_dir / f"deal{deal:04d}-lineup{r}.json")
            tasks.append(MatchTask(spec, deal, r, lineup, path))
    return tasks


def play_task(task: MatchTask) -> MatchResult:
    """Play one match (in a worker process) and save its record if asked."""
    spec = task.spec
    cfg = spec.config(task.deal)
    bots = [make_player(kind, seed=spec.bot_seed(task.deal, seat))
            for seat, kind in enumerate(task.lineup)]
    if spec.deal_table is None:
        state = play_match(cfg, bots)
    else:
        state = play_deal(cfg, spec.deal_table.deals[task.deal], bots)
    if task.record_path is not None:
        Path(task.record_path).write_text(json.dumps(Record.from_state(state).to_json()))
    return _result(task, state)


def play_deal(config: MatchConfig, deal: Deal, bots: Sequence[Bot]) -> State:
    """Play a whole match on the cards of ``deal`` (every round), ``bots[seat]`` choosing
    for each seat. The leader of rounds 2 and 3 follows the rules from the round before
    (:meth:`Deal.round_deal`)."""
    if len(bots) != config.players:
        raise ValueError(f"{config.players} seats need {config.players} bots, not {len(bots)}")
    deals = [deal.round_deal(0, None, config)]
    state = State.new(config, deals=deals)
    while not state.is_over:
        if len(state.rounds) == len(deals):
            # a round is over and the engine dealt the next one from the seed, before any
            # bot saw it: replace it by the set's
            deals.append(deal.round_deal(len(deals), state.rounds[-1], config))
            state = replay_actions(config, state.history, deals)
        bot_turn(state, bots)
    return state


def _result(task: MatchTask, state: State) -> MatchResult:
    n = state.config.players
    scores = []
    for r in state.rounds:
        if r.team_scores is not None:
            scores.append(tuple(r.team_scores[s % 2] for s in range(n)))
        else:
            scores.append(tuple(r.scores))
    victories = state.victories
    return MatchResult(
        deal=task.deal,
        rotation=task.rotation,
        lineup=task.lineup,
        round_scores=tuple(scores),
        totals=tuple(state.totals),
        winners=tuple(state.winners),
        victories=None if victories is None else tuple(victories),
        hands=tuple(start.deal for start in state.round_starts()),
    )


def run_tournament(
    spec: TournamentSpec,
    *,
    jobs: int = 1,
    record_dir: Path | None = None,
    progress: Callable[[MatchResult], None] | None = None,
    ray_address: str | None = None,
) -> list[MatchResult]:
    """Play every match; ``jobs`` worker processes (1: in this process), or one Ray
    task per match on the cluster at ``ray_address`` (needs ``meio[cluster]``)."""
    for kind in spec.bots:
        make_player(kind, 0)  # an unknown bot fails here, before any work
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
    tasks = tasks_for(spec, record_dir)
    results: list[MatchResult] = []
    if ray_address is not None:
        from meio.ray_tasks import ray_map

        for _task, result in ray_map(ray_address, play_task, tasks):
            results.append(result)
            if progress:
                progress(result)
    elif jobs <= 1:
        for task in tasks:
            results.append(play_task(task))
            if progress:
                progress(results[-1])
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(play_task, t) for t in tasks]
            for fut in as_completed(futures):
                results.append(fut.result())
                if progress:
                    progress(results[-1])
    results.sort(key=lambda r: (r.deal, r.rotation))
    return results


def check_duplicates(record_dir: Path) -> dict[str, int]:
    """Read the saved records and count what the lineups of each deal share.

    Returns counts: ``deals``, ``records``, ``round1_identical`` (deals whose
    lineups all had the same round-1 hands, specials and leader),
    ``rounds_compared`` and ``rounds_identical`` (later rounds played in two or
    more lineups, and those dealt the same hands in all of them), and
    ``leaders_differ`` (later rounds whose leader differed between lineups).
    """
    by_deal: dict[str, list[Record]] = {}
    for path in sorted(record_dir.glob("deal*-lineup*.json")):
        deal = path.name.split("-")[0]
        by_deal.setdefault(deal, []).append(Record.from_json(path.read_text()))
    out = {"deals": len(by_deal), "records": 0, "round1_identical": 0, "rounds_compared": 0,
           "rounds_identical": 0, "leaders_differ": 0}
    for records in by_deal.values():
        out["records"] += len(records)
        first = records[0]
        if all(
            r.rounds[0].hands == first.rounds[0].hands
            and r.rounds[0].leader == first.rounds[0].leader
            and r.specials == first.specials
            for r in records
        ):
            out["round1_identical"] += 1
        rounds = max(len(r.rounds) for r in records)
        for k in range(1, rounds):
            present = [r.rounds[k] for r in records if len(r.rounds) > k]
            if len(present) < 2:
                continue
            out["rounds_compared"] += 1
            if all(p.hands == present[0].hands for p in present):
                out["rounds_identical"] += 1
            if len({p.leader for p in present}) > 1:
                out["leaders_differ"] += 1
    return out
