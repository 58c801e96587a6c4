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

import hashlib
import itertools
import json
import zlib
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal
from urllib.parse import quote

from meio.analysis.players import PlayerError, check_plays, known, plays
from meio.engine import cards as C
from meio.engine.errors import MeioError
from meio.engine.ruleset import Variant
from meio.engine.ruleset_file import variant_json

Edition = Literal["meio", "classic"]
WildLead = Literal["declare", "next"]

#: the studies ``meio analyze`` knows, in report order
STUDIES = ("seats", "specials", "skill", "splits", "rules", "length")
#: policies every seat may play (besides ``search:1`` to ``search:6``, ``learned:FILE``:
#: :func:`meio.analysis.players.known`); a search bot is played through the engine
POLICIES = ("random", "heuristic", "learned", "search", "expert")
#: skill pairs compared on duplicate deals: (stronger, weaker); the named player's own
#: pair against the heuristic is added (:meth:`AnalysisSpec.skill_pairs_played`)
SKILL_PAIRS = (("heuristic", "random"), ("search", "heuristic"))
#: the fewest duplicate deals of the cheap pair (heuristic and random) and of the named
#: player's own pair (its share of the table's games alone would leave it on a handful
#: of deals); never more than the table's own games
PAIR_DEALS = (200, 30)
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


def variant_tag(variant: Variant) -> str:
    """A variant's name and a digest of its whole ruleset (``six-seven@1f2e3d4c``): a
    table of a variant is keyed by it, so a changed file never meets the chunks of the
    old one."""
    text = json.dumps(variant_json(variant), sort_keys=True)
    digest = hashlib.sha256(text.encode()).hexdigest()[:8]
    return f"{quote(variant.name, safe='+-,')}@{digest}"


@dataclass(frozen=True, slots=True, order=True)
class Table:
    """One way of playing: edition, table size and the table options (RULES.md §10),
    or a variant's table of a size (``variant``; its options are the variant's own)."""

    edition: Edition
    players: int
    partnership: bool = False
    wild_lead: WildLead = "declare"
    reveal_specials: bool = True
    tag: str = ""  #: :func:`variant_tag` of ``variant``; "" for a standard table
    #: the bots play their general path here, on an edition too (the general switch:
    #: :func:`meio.bots.variant_play.general_name`)
    general: bool = False
    variant: Variant | None = field(default=None, compare=False)

    @classmethod
    def of_variant(cls, variant: Variant, players: int, partnership: bool = False,
                   general: bool = False) -> Table:
        """The table of ``variant`` with ``players`` seats (``general``: played by the
        bots' general path)."""
        return cls(variant.edition, players, partnership,
                   variant.options.wild_lead,
                   variant.options.reveal_specials, variant_tag(variant), general, variant)

    def bot(self, kind: str) -> str:
        """The bot that plays ``kind`` at this table: its general path's name at a
        table of the general switch, else ``kind``."""
        from meio.bots.variant_play import general_name

        return general_name(kind) if self.general else kind

    @property
    def key(self) -> str:
        """A short stable name: ``meio-4p``, ``classic-4p-team``, ``meio-3p-next-hidden``;
        a variant's table starts with its tag instead of the edition
        (``six-seven@1f2e3d4c-4p``); a table of the general switch ends in ``-any``."""
        return ((self.tag or self.edition) + "-" + self.seed_key.split("-", 1)[1]
                + ("-any" if self.general else ""))

    @property
    def seed_key(self) -> str:
        """The key without the variant (``meio-4p`` for any ruleset of the edition): what
        a game's seed derives from, so two rulesets play the same seeds (and, where they
        deal the same cards, the same deals). A variant's table options are left out
        too: they change the play, not the deal (its tag tells two variants apart)."""
        parts = [self.edition, f"{self.players}p"]
        if self.partnership:
            parts.append("team")
        if self.wild_lead != "declare" and not self.tag:
            parts.append(self.wild_lead)
        if not self.reveal_specials and not self.tag:
            parts.append("hidden")
        return "-".join(parts)

    @property
    def label(self) -> str:
        """How a report names the table."""
        text = f"{self.variant.name if self.variant else self.edition} {self.players}p" + (
            " partnership" if self.partnership else "")
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
        if self.variant is not None:
            count = self.variant.deck_for(self.players).specials
            return [tuple(s) for s in itertools.combinations(self.variant.special_pool, count)]
        if self.edition == "classic":
            return [()]
        return [tuple(s) for s in itertools.combinations(C.SPECIALS, self.players)]

    @property
    def special_pool(self) -> tuple[int, ...]:
        """The special cards that may be dealt at this table (none in classic)."""
        if self.variant is not None:
            return self.variant.special_pool if self.variant.deck_for(
                self.players).specials else ()
        return C.SPECIALS if self.edition == "meio" else ()

    @property
    def hand(self) -> int:
        """Cards dealt to a seat (13 in the editions)."""
        return self.variant.hand if self.variant else 13

    @property
    def pack(self) -> int:
        """Cards of the second-half pack (6 in the editions)."""
        return self.variant.pack if self.variant else 6

    def card_label(self, card: int) -> str:
        """How a report names special ``card`` at this table: its code (``Q+``), or for
        a variant's card that is not the box card of its code, its name and code
        (``the gambler (-2H)``).

        >>> import dataclasses
        >>> from meio.engine.presets import preset
        >>> box = preset("meio")
        >>> renamed = dataclasses.replace(box.specials[-1], name="queen plus")
        >>> v = dataclasses.replace(box, specials=(*box.specials[:-1], renamed))
        >>> Table.of_variant(v, 4).card_label(64), Table.of_variant(v, 4).card_label(63)
        ('queen plus (Q+)', '+.5')
        """
        code = C.card_code(card)
        if self.variant is None:
            return code
        from meio.engine.presets import SPECIALS

        for s in self.variant.specials:
            if s.card == card:
                box = SPECIALS.get(code)
                if box is not None and s == box:
                    return code
                if s.name and s.name != code:
                    return f"{s.name} ({code})"
                return f"{code} (the variant's)"  # the id of a box card, other rules
        return code

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
        return self.table.key + self._rest

    @property
    def seed_key(self) -> str:
        """The key a game's seed derives from: :attr:`key` without the variant (the
        same as :attr:`key` for a standard table)."""
        return self.table.seed_key + self._rest

    @property
    def _rest(self) -> str:
        specials = ",".join(C.card_code(s) for s in self.specials) or "none"
        if self.pair:
            specials = "drawn"  # each duplicate deal draws its own specials
        # a policy file's path (learned:PATH) names chunk files: no folder separators
        who = "-vs-".join(self.pair) if self.pair else quote(self.policy, safe=":+-,.")
        return f".{specials}.{who}" + ("-engine" if self.engine else "")

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
        return derive(self.seed, zlib.crc32(self.cell.seed_key.encode()), game)

    def block_seed(self, block: int) -> int:
        """The seed of block ``block`` (games ``BLOCK * block ..``) of core-played games:
        the core's game ``i`` of a batch depends on the batch seed and ``i`` only, so a
        game's place in its block fixes it, however the games are cut into chunks."""
        return derive(self.seed, zlib.crc32(self.cell.seed_key.encode()), block, 1)


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
    pair_deals: tuple[int, int] = PAIR_DEALS  #: fewest deals: cheap pair, named pair
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    #: a ruleset of its own (``meio analyze --variant FILE``): every table is the
    #: variant's, played through the engine; ``editions`` and the table options are
    #: then the variant's
    variant: Variant | None = None
    #: every bot plays its general path, on an edition too (the bots' general switch,
    #: :func:`meio.bots.variant_play.general_name`): ``meio analyze compare`` sets it
    #: where an edition meets another ruleset, so one player plays both
    general: bool = False

    def __post_init__(self) -> None:
        if not self.questions:
            raise AnalysisError(f"name at least one study: {', '.join(STUDIES)}")
        bad = [q for q in self.questions if q not in STUDIES]
        if bad:
            raise AnalysisError(
                f"unknown study {', '.join(bad)}; choose from {', '.join(STUDIES)}")
        if not known(self.policy):
            raise AnalysisError(
                f"unknown policy {self.policy!r}; choose from {', '.join(POLICIES)}, "
                "search:1 to search:6 or learned:FILE")
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
        if any(not known(a) or not known(b) or a == b for a, b in self.skill_pairs):
            raise AnalysisError(f"a skill pair is two different bots of {', '.join(POLICIES)}")
        if self.engine_share < 1 or self.search_share < 1:
            raise AnalysisError("engine_share and search_share must be at least 1")
        if self.max_games < self.games:
            raise AnalysisError("--max-games must be at least the first wave's games")
        if self.variant is not None:
            try:
                check_plays(self.policy, self.variant, self.variant.players)
            except PlayerError as exc:
                raise AnalysisError(str(exc)) from None
        if self.variant is not None and not self.tables():
            raise AnalysisError(
                f"the variant {self.variant.name!r} has no table for these options (it is "
                f"for {', '.join(str(n) for n in self.variant.players)} players"
                + (", with a partnership game" if self.variant.partnership else "") + ")")
        if not self.tables():
            raise AnalysisError("no table matches these options (classic is for 2 to 4 players; "
                                "partnership needs 4 players)")

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("extra")
        out.pop("variant")
        if self.variant is not None:  # the whole ruleset: a changed file is another analysis
            out["variant"] = variant_json(self.variant)
        return out

    def skipped(self) -> dict[str, str]:
        """What of the questions cannot apply to this spec's tables, each with its reason
        in one line (the report and ``summary.json`` list them): keyed ``study``,
        ``study/table`` or ``skill/STRONG-vs-WEAK``."""
        out: dict[str, str] = {}
        if self.variant is None:
            return out
        if "rules" in self.questions:
            out["rules"] = ("the rules study compares the table options of the standard "
                            "editions; a variant sets its own in [options] (compare two "
                            "rulesets with meio analyze compare)")
        if "skill" in self.questions:
            for pair in self._pairs():
                refused = [b for b in pair if not self._plays(b)]
                if refused:
                    out[f"skill/{'-vs-'.join(pair)}"] = (
                        f"the {refused[0]} bot does not play this ruleset (its network "
                        "reads the editions' cards)")
        if "specials" in self.questions:
            for t in self.tables():
                if not t.special_pool:
                    out[f"specials/{t.key}"] = (
                        f"the variant deals no special cards with {t.players} players")
                elif len(t.special_sets()) == 1:
                    out[f"specials/{t.key}/sets"] = (
                        "every special card of the variant is dealt at this table, so "
                        "there are no sets of specials to rank")
        return out

    def _plays(self, bot: str) -> bool:
        v = self.variant
        return v is None or all(plays(bot, v, n) for n in v.players)

    def _pairs(self) -> tuple[tuple[str, str], ...]:
        """The skill pairs asked for, and the named player's own pair against the
        heuristic (``learned-vs-heuristic`` under ``--bots learned``)."""
        named = (self.policy, "heuristic")
        if self.policy in ("random", "heuristic") or named in self.skill_pairs:
            return self.skill_pairs
        return (*self.skill_pairs, named)

    def skill_pairs_played(self) -> tuple[tuple[str, str], ...]:
        """The skill pairs whose bots play this spec's tables (see :meth:`_pairs`)."""
        return tuple(p for p in self._pairs() if all(self._plays(b) for b in p))

    def pair_floor(self, pair: tuple[str, str], table_games: int) -> int:
        """The fewest duplicate deals of ``pair`` when its table plays ``table_games``
        (:attr:`pair_deals`): a pair of the cheap bots, and the named player's own pair;
        2 for the others (an interval needs 2)."""
        cheap, named = self.pair_deals
        if pair == (self.policy, "heuristic"):
            return max(2, min(named, table_games))
        if set(pair) <= {"random", "heuristic"}:
            return max(2, min(cheap, table_games))
        return 2

    def tables(self) -> list[Table]:
        """The tables the studies look at, with the requested table options."""
        if self.variant is not None:
            v = self.variant
            found = []
            for players in sorted(set(self.players) & set(v.players)):
                for team in (False, True):
                    if team and not (players == 4 and v.partnership):
                        continue
                    if self.partnership is not None and team != self.partnership:
                        continue
                    found.append(Table.of_variant(v, players, team, self.general))
            return found
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
        the classic edition, is left out; a variant has none: its options are its own)."""
        if self.variant is not None:
            return []
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
