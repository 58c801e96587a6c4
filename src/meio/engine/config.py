"""The frozen configuration of a match: edition, table, special cards, seed."""

from __future__ import annotations

import dataclasses
import functools
import random
from dataclasses import dataclass, field
from typing import Literal

from meio.engine import cards as C
from meio.engine.errors import ConfigError

Edition = Literal["meio", "classic"]
WildLead = Literal["declare", "next"]

#: lowest rank index in the MEIO deck for each table size (RULES.md §1)
_MEIO_LOWEST = {2: 9, 3: 6, 4: 3, 5: 0}
#: ranks in the classic deck for each table size; rank 14 is the Ace (value 1)
_CLASSIC_RANKS = {2: (14, 2, 3, 4, 5, 6, 7), 3: (14, *range(2, 11)), 4: (14, *range(2, 14))}


def _derive(seed: int, *parts: int) -> int:
    x = seed & 0xFFFFFFFFFFFFFFFF
    for p in parts:
        x = (x * 6364136223846793005 + 1442695040888963407 + p * 0x9E3779B97F4A7C15) & (
            0xFFFFFFFFFFFFFFFF
        )
        x ^= x >> 29
    return x


@dataclass(frozen=True, slots=True)
class TableOptions:
    """The table options of RULES.md §10, each checked.

    ``wild_lead``: ``"declare"`` (the leader of a wild names the led suit) or
    ``"next"`` (the first non-wild card sets it); ``reveal_specials``: whether the N
    specials in the deck are public.

    >>> TableOptions(wild_lead="next").declares
    False
    >>> TableOptions(wild_lead="first")
    Traceback (most recent call last):
    ...
    meio.engine.errors.ConfigError: unknown wild_lead 'first' (use 'declare' or 'next')
    """

    wild_lead: WildLead = "declare"
    reveal_specials: bool = True
    #: whether the leader of a wild declares the led suit (``wild_lead`` declare): a
    #: field, not a property, as every legal-action list reads it
    declares: bool = field(default=True, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.wild_lead not in ("declare", "next"):
            raise ConfigError(
                f"unknown wild_lead {self.wild_lead!r} (use 'declare' or 'next')",
                field="wild_lead",
            )
        if not isinstance(self.reveal_specials, bool):
            raise ConfigError(
                f"reveal_specials must be true or false, not {self.reveal_specials!r}",
                field="reveal_specials",
            )
        object.__setattr__(self, "declares", self.wild_lead == "declare")


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """Everything fixed for a whole match.

    ``specials`` left as ``None`` chooses N of the five special cards at random from
    ``seed`` (MEIO edition); ``first_leader`` left as ``None`` draws the leader of
    round 1 from ``seed``. After construction both are always set, so two configs
    that play the same game compare equal.

    ``options`` holds the table options of RULES.md §10 (:class:`TableOptions`).
    With ``reveal_specials`` off, the *public* form of a config (:meth:`public`,
    what views carry) has ``specials == ()``: the specials are unknown, and such a
    config cannot be dealt (``specials_known`` is False).

    >>> cfg = MatchConfig(players=4, seed=7)
    >>> len(cfg.specials), cfg.deck_size, cfg.rounds
    (4, 52, 3)
    >>> MatchConfig(edition="classic", players=2).rounds
    3
    >>> MatchConfig(players=4, seed=7, options=TableOptions(wild_lead="next")).options.declares
    False
    >>> hidden = TableOptions(reveal_specials=False)
    >>> MatchConfig(players=3, seed=7, options=hidden).public().special_cards
    ()
    """

    edition: Edition = "meio"
    players: int = 4
    partnership: bool = False
    specials: tuple[int, ...] | None = None
    seed: int = 0
    first_leader: int | None = None
    options: TableOptions = TableOptions()
    deck: int = field(default=0, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.edition not in ("meio", "classic"):
            raise ConfigError(
                f"unknown edition {self.edition!r}: use 'meio' or 'classic'", field="edition"
            )
        limits = (2, 5) if self.edition == "meio" else (2, 4)
        if not isinstance(self.players, int) or not limits[0] <= self.players <= limits[1]:
            raise ConfigError(
                f"the {self.edition} edition is for {limits[0]} to {limits[1]} players, "
                f"not {self.players}",
                field="players",
            )
        if self.partnership and self.players != 4:
            raise ConfigError("partnership is played by exactly 4 players", field="partnership")
        if not isinstance(self.options, TableOptions):
            raise ConfigError(
                f"options must be TableOptions, not {self.options!r}", field="options"
            )
        specials = self.specials
        if self.edition == "classic":
            if specials:
                raise ConfigError("the classic edition has no special cards", field="specials")
            specials = ()
        elif specials is not None and len(specials) == 0 and not self.options.reveal_specials:
            specials = ()  # the public form: which specials are in the deck is unknown
        elif specials is None:
            rng = random.Random(_derive(self.seed, 1))
            specials = tuple(sorted(rng.sample(C.SPECIALS, self.players)))
        else:
            specials = tuple(sorted(int(s) for s in specials))
            if len(set(specials)) != len(specials) or any(s not in C.SPECIALS for s in specials):
                raise ConfigError(
                    "specials must be distinct special cards (-1 A+ -2H +.5 Q+)", field="specials"
                )
            if len(specials) != self.players:
                raise ConfigError(
                    f"a {self.players}-player MEIO game uses {self.players} special cards, "
                    f"not {len(specials)}",
                    field="specials",
                )
        object.__setattr__(self, "specials", specials)
        leader = self.first_leader
        if leader is None:
            leader = random.Random(_derive(self.seed, 2)).randrange(self.players)
        elif not 0 <= leader < self.players:
            raise ConfigError(
                f"first leader {leader} is not a seat of a {self.players}-seat table",
                field="first_leader",
            )
        object.__setattr__(self, "first_leader", leader)
        object.__setattr__(self, "deck", _deck(self.edition, self.players, specials))

    # -- derived facts ---------------------------------------------------------------
    @property
    def special_cards(self) -> tuple[int, ...]:
        """The special card ids in the deck (always a tuple after construction;
        ``()`` in the public form of a match whose specials are hidden)."""
        return self.specials or ()

    @property
    def special_count(self) -> int:
        """How many special cards the deck holds (N = players in ``meio``)."""
        return self.players if self.edition == "meio" else 0

    @property
    def specials_known(self) -> bool:
        """False for the public form of a config whose specials are hidden."""
        return len(self.special_cards) == self.special_count

    @property
    def leader_of_round_one(self) -> int:
        """The seat leading trick 1 of round 1."""
        if self.first_leader is None:  # pragma: no cover - always set by __post_init__
            raise ConfigError("the first leader is not set")
        return self.first_leader

    @property
    def deck_size(self) -> int:
        return self.deck.bit_count()

    @property
    def aside_count(self) -> int:
        """Cards set aside each round (classic with 2 or 3 players)."""
        return self.deck_size - 13 * self.players

    @property
    def rounds(self) -> int | None:
        """3 rounds on totals (3–5 players, and 2-player ``classic``); None where the
        match runs to 2 victories (2-player ``meio``, partnership)."""
        return None if self.victories_to_win else 3

    @property
    def victories_to_win(self) -> int | None:
        """2 in 2-player ``meio`` and in partnership; None where totals decide."""
        if self.partnership or (self.players == 2 and self.edition == "meio"):
            return 2
        return None

    def team_of(self, seat: int) -> int:
        """The team of a seat in partnership (0 = seats 0 and 2); the seat itself otherwise."""
        return seat % 2 if self.partnership else seat

    def partner_of(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.partnership else None

    def round_seed(self, round_index: int, purpose: int) -> int:
        """A seed for one random event of one round, derived from ``seed``."""
        return _derive(self.seed, 100 + round_index, purpose)

    def public(self) -> MatchConfig:
        """This config as every player may know it (views carry this form): without
        its seed, which decides every deal, and without its specials when
        ``reveal_specials`` is off (except with 5 players, where all five are in)."""
        return _public(self)

    def _make_public(self) -> MatchConfig:
        hide = not self.options.reveal_specials and len(self.special_cards) < len(C.SPECIALS)
        if self.seed == 0 and not (hide and self.special_cards):
            return self
        return dataclasses.replace(self, specials=() if hide else self.specials, seed=0)

    def with_specials(self, specials: tuple[int, ...], seed: int) -> MatchConfig:
        """The same table with the given specials and seed (worlds of a search)."""
        return dataclasses.replace(
            self, specials=specials if self.edition == "meio" else None, seed=seed
        )


def _deck(edition: str, players: int, specials: tuple[int, ...]) -> int:
    mask = 0
    if edition == "meio":
        for suit in range(4):
            for rank in range(_MEIO_LOWEST[players], 15):
                mask |= 1 << (suit * 15 + rank)
        for s in specials:
            mask |= 1 << s
    else:
        for suit in range(4):
            for rank in _CLASSIC_RANKS[players]:
                mask |= 1 << (suit * 15 + rank)
    return mask


@functools.lru_cache(maxsize=4096)
def _public(config: MatchConfig) -> MatchConfig:
    # every view of every seat asks for it: build (and validate) it once per config
    return config._make_public()
