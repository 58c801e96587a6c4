"""What an analysis plays: tables, cells and chunks of games, all derived from the spec.

A *table* is one way of playing (edition, players, partnership, table options). A
*cell* is a table with one fixed set of special cards and one policy: the compiled
core plays a whole batch of one configuration, so a MEIO table with ``N < 5``
players is split into one cell per subset of ``N`` specials, each given the same
number of games (which is what drawing the subset at random would give on average).
A *chunk* is a run of consecutive games of one cell; it is the unit of work sent to
a worker process or a Ray task. Game ``g`` of a cell depends on ``(spec seed, cell,
g)`` alone, so the same spec plays the same games however the work is cut and
spread, and a run of ``N`` games repeats the first ``N`` games of a longer one.
"""

from __future__ import annotations

import itertools
import zlib
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal
from urllib.parse import quote

from meio.engine import cards as C
from meio.engine.errors import MeioError

Edition = Literal["meio", "classic"]
WildLead = Literal["declare", "next"]

#: the studies ``meio analyze`` knows, in report order
STUDIES = ("seats", "specials", "skill", "splits", "rules", "length")
#: policies every seat may play; ``search`` is the search bot, played through the engine
POLICIES = ("random", "heuristic", "learned", "search")
#: skill pairs compared on duplicate deals: (stronger, weaker)
SKILL_PAIRS = (("heuristic", "random"), ("search", "heuristic"))
#: the skill pair the rules study plays under every reading (both bots are cheap)
RULES_SKILL_PAIR = ("heuristic", "random")
#: default games of a core-played cell per game of an engine-played one (engine bots
#: are ~1,000x slower than the core; the search bot another ~200x slower)
ENGINE_SHARE = 200
#: core-played games are seeded by blocks of this many games (see Chunk.block_seed)
BLOCK = 500
SEARCH_SHARE = 10_000


class AnalysisError(MeioError, ValueError):
    """An analysis request that cannot be run (bad study, table or size)."""


@dataclass(frozen=True, slots=True, order=True)
class Table:
    """One way of playing: edition, table size and the table options (RULES.md §10)."""

    edition: Edition
    players: int
    partnership: bool = False
    wild_lead: WildLead = "declare"
    reveal_specials: bool = True

    @property
    def key(self) -> str:
        """A short stable name: ``meio-4p``, ``classic-4p-team``, ``meio-3p-next-hidden``."""
        parts = [self.edition, f"{self.players}p"]
        if self.partnership:
            parts.append("team")
        if self.wild_lead != "declare":
            parts.append(self.wild_lead)
        if not self.reveal_specials:
            parts.append("hidden")
        return "-".join(parts)

    @property
    def label(self) -> str:
        """How a report names the table."""
        text = f"{self.edition} {self.players}p" + (" partnership" if self.partnership else "")
        extras = []
        if self.wild_lead != "declare":
            extras.append(f"wild lead {self.wild_lead}")
        if not self.reveal_specials:
            extras.append("specials hidden")
        return text + (f" ({', '.join(extras)})" if extras else "")

    @property
    def default_options(self) -> Table:
        """This table with the default table options."""
        return replace(self, wild_lead="declare", reveal_specials=True)

    def special_sets(self) -> list[tuple[int, ...]]:
        """Every set of special cards a match at this table may use."""
        if self.edition == "classic":
            return [()]
        return [tuple(s) for s in itertools.combinations(C.SPECIALS, self.players)]

    def sides(self) -> int:
        """Scoring sides: teams in partnership, seats otherwise."""
        return 2 if self.partnership else self.players


@dataclass(frozen=True, slots=True)
class Cell:
    """A table, one set of specials and the policy of every seat (or, for the skill
    study, a pair of bots played in rotation on duplicate deals)."""

    table: Table
    specials: tuple[int, ...]
    policy: str
    pair: tuple[str, str] | None = None
    engine: bool = False  #: play through the engine even where the core could

    @property
    def key(self) -> str:
        specials = ",".join(C.card_code(s) for s in self.specials) or "none"
        if self.pair:
            specials = "drawn"  # each duplicate deal draws its own specials
        # a policy file's path (learned:PATH) names chunk files: no folder separators
        who = "-vs-".join(self.pair) if self.pair else quote(self.policy, safe=":+-,.")
        return f"{self.table.key}.{specials}.{who}" + ("-engine" if self.engine else "")

    @property
    def kind(self) -> str:
        """``duplicate`` (a skill pair) or ``selfplay``."""
        return "duplicate" if self.pair else "selfplay"


@dataclass(frozen=True, slots=True)
class Chunk:
    """Games ``first .. first + count - 1`` of one cell."""

    cell: Cell
    first: int
    count: int
    seed: int

    @property
    def key(self) -> str:
        return f"{self.cell.key}.{self.first}-{self.count}"

    def game_seed(self, game: int) -> int:
        """The seed of game ``game`` of the cell (engine-played games)."""
        return derive(self.seed, zlib.crc32(self.cell.key.encode()), game)

    def block_seed(self, block: int) -> int:
        """The seed of block ``block`` (games ``BLOCK * block ..``) of core-played games:
        the core's game ``i`` of a batch depends on the batch seed and ``i`` only, so a
        game's place in its block fixes it, however the games are cut into chunks."""
        return derive(self.seed, zlib.crc32(self.cell.key.encode()), block, 1)


def derive(*parts: int) -> int:
    """A 63-bit seed mixed from whole numbers (stable across runs and machines)."""
    x = 0x2545F4914F6CDD1D
    for p in parts:
        x = (x ^ (p & 0xFFFFFFFFFFFFFFFF)) * 0x9E3779B97F4A7C15 & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 31
    return x & 0x7FFFFFFFFFFFFFFF


@dataclass(frozen=True, slots=True)
class AnalysisSpec:
    """Everything ``meio analyze`` was asked, with defaults filled in."""

    questions: tuple[str, ...]
    players: tuple[int, ...] = (2, 3, 4, 5)
    editions: tuple[Edition, ...] = ("meio", "classic")
    partnership: bool | None = None  #: None: plain tables and partnership; True/False: only
    wild_lead: WildLead = "declare"
    hide_specials: bool = False
    policy: str = "heuristic"
    games: int = 2000  #: games per table (first wave, with ``ci``)
    ci: float | None = None  #: target width of every headline 95% interval
    max_games: int = 1_000_000  #: per table, when ``ci`` keeps asking for more
    seed: int = 0
    chunk: int = 5000  #: most games of one core chunk
    skill_pairs: tuple[tuple[str, str], ...] = SKILL_PAIRS  #: (stronger, weaker) bots
    engine_share: int = ENGINE_SHARE  #: table games per engine-played game (bots)
    search_share: int = SEARCH_SHARE  #: table games per game with a search bot
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not self.questions:
            raise AnalysisError(f"name at least one study: {', '.join(STUDIES)}")
        bad = [q for q in self.questions if q not in STUDIES]
        if bad:
            raise AnalysisError(
                f"unknown study {', '.join(bad)}; choose from {', '.join(STUDIES)}")
        if self.policy not in POLICIES and not self.policy.startswith("learned:"):
            raise AnalysisError(
                f"unknown policy {self.policy!r}; choose from {', '.join(POLICIES)}")
        if any(e not in ("meio", "classic") for e in self.editions) or not self.editions:
            raise AnalysisError("--edition must be meio or classic")
        if any(not 2 <= p <= 5 for p in self.players) or not self.players:
            raise AnalysisError("--players must be 2 to 5")
        if self.wild_lead not in ("declare", "next"):
            raise AnalysisError("--wild-lead must be declare or next")
        if not 1 <= self.games <= 50_000_000:
            raise AnalysisError(f"--games must be 1 to 50,000,000, not {self.games}")
        if self.ci is not None and not 0 < self.ci < 10:
            raise AnalysisError(f"--ci must be a positive interval width, not {self.ci}")
        if any(a not in POLICIES or b not in POLICIES or a == b for a, b in self.skill_pairs):
            raise AnalysisError(f"a skill pair is two different bots of {', '.join(POLICIES)}")
        if self.engine_share < 1 or self.search_share < 1:
            raise AnalysisError("engine_share and search_share must be at least 1")
        if self.max_games < self.games:
            raise AnalysisError("--max-games must be at least the first wave's games")
        if not self.tables():
            raise AnalysisError("no table matches these options (classic is for 2 to 4 players; "
                                "partnership needs 4 players)")

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("extra")
        return out

    def tables(self) -> list[Table]:
        """The tables the studies look at, with the requested table options."""
        out = []
        for edition in self.editions:
            for players in sorted(set(self.players)):
                if edition == "classic" and players == 5:
                    continue
                for team in (False, True):
                    if team and players != 4:
                        continue
                    if self.partnership is not None and team != self.partnership:
                        continue
                    out.append(Table(edition, players, team, self.wild_lead,
                                     not self.hide_specials))
        return out

    def rule_tables(self) -> list[Table]:
        """The rules study's tables: every table option reading at every table (a
        reading that cannot change a table, like hidden specials with 5 players or in
        the classic edition, is left out)."""
        out: list[Table] = []
        for base in self.tables():
            base = base.default_options
            variants = [base]
            if base.edition == "meio":
                variants.append(replace(base, wild_lead="next"))
                if base.players < 5:
                    variants.append(replace(base, reveal_specials=False))
            out.extend(v for v in variants if v not in out)
        return out
