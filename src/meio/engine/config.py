"""The frozen configuration of a match: edition, table, special cards, seed."""

from __future__ import annotations

import dataclasses
import functools
import random
from dataclasses import dataclass, field

from meio.engine import cards as C
from meio.engine.errors import ConfigError
from meio.engine.options import Edition, TableOptions, WildLead
from meio.engine.presets import standard
from meio.engine.ruleset import CardRules, MatchFormat, Variant

__all__ = ["Edition", "MatchConfig", "TableOptions", "WildLead"]


def _derive(seed: int, *parts: int) -> int:
    x = seed & 0xFFFFFFFFFFFFFFFF
    for p in parts:
        x = (x * 6364136223846793005 + 1442695040888963407 + p * 0x9E3779B97F4A7C15) & (
            0xFFFFFFFFFFFFFFFF
        )
        x ^= x >> 29
    return x


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
    options: TableOptions = TableOptions()  # noqa: RUF009 - frozen, so sharing it is safe
    #: a designer's ruleset (:mod:`meio.engine.ruleset_file`); None: the edition's
    #: preset with ``options`` (what a record or a lobby calls a standard game)
    variant: Variant | None = None
    deck: int = field(default=0, init=False, compare=False, repr=False)
    #: the ruleset played, always set: ``variant``, or the edition's preset with the
    #: table's options (:func:`meio.engine.presets.standard`). Every rule reads it.
    ruleset: Variant = field(default=None, init=False, compare=False, repr=False)  # type: ignore[assignment]
    #: the ruleset's card tables (:class:`~meio.engine.ruleset.CardRules`)
    rules: CardRules = field(default=None, init=False, compare=False, repr=False)  # type: ignore[assignment]
    #: how this table's match ends (the ruleset's format for its size and partnership)
    match_format: MatchFormat = field(default=None, init=False, compare=False, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        ruleset = self._init_ruleset()
        standard_game = self.variant is None  # the words of a refusal name the edition
        players = self.players
        if not isinstance(players, int) or players not in ruleset.players:
            sizes = ruleset.players
            raise ConfigError(
                f"the {self.edition} edition is for {sizes[0]} to {sizes[-1]} players, "
                f"not {players}" if standard_game else
                f"the variant {ruleset.name!r} is for "
                f"{', '.join(str(n) for n in sizes)} players, not {players}",
                field="players",
            )
        if self.partnership and not (ruleset.partnership and players == 4):
            raise ConfigError(
                "partnership is played by exactly 4 players" if standard_game else
                f"the variant {ruleset.name!r} has no partnership game for {players}",
                field="partnership",
            )
        deck = ruleset.deck_for(players)
        specials = self._init_specials(ruleset.special_pool, deck.specials, standard_game)
        object.__setattr__(self, "specials", specials)
        self._init_leader()
        mask = 0
        for suit in range(4):
            for rank in deck.ranks:
                mask |= 1 << (suit * 15 + rank)
        for card in specials:
            mask |= 1 << card
        object.__setattr__(self, "deck", mask)
        object.__setattr__(self, "ruleset", ruleset)
        object.__setattr__(self, "rules", ruleset.card_rules)
        object.__setattr__(self, "match_format", ruleset.format_for(players, self.partnership))

    def _init_ruleset(self) -> Variant:
        """The ruleset played: the variant, or the edition's preset with the options."""
        if not isinstance(self.options, TableOptions):
            raise ConfigError(
                f"options must be TableOptions, not {self.options!r}", field="options"
            )
        variant = self.variant
        if variant is None:
            if self.edition not in ("meio", "classic"):
                raise ConfigError(
                    f"unknown edition {self.edition!r}: use 'meio' or 'classic'", field="edition"
                )
            return standard(self.edition, self.options)
        if not isinstance(variant, Variant):
            raise ConfigError(f"variant must be a Variant, not {variant!r}", field="variant")
        if self.edition != variant.edition:
            raise ConfigError(
                f"the variant {variant.name!r} is of the {variant.edition} edition, "
                f"not {self.edition}",
                field="edition",
            )
        if self.options != variant.options:
            raise ConfigError(
                "the table options of a variant game are the variant's own", field="options"
            )
        return variant

    def _init_specials(self, pool: tuple[int, ...], count: int, standard_game: bool
                       ) -> tuple[int, ...]:
        """The specials in the deck: drawn from the seed when not given; ``()`` in the
        public form of a match whose specials are hidden."""
        specials = self.specials
        if specials is not None and len(specials) == 0 and not self.options.reveal_specials:
            return ()  # the public form: which specials are in the deck is unknown
        if specials is None:
            rng = random.Random(_derive(self.seed, 1))
            return tuple(sorted(rng.sample(pool, count)))
        specials = tuple(sorted(int(s) for s in specials))
        if standard_game and not pool and specials:
            raise ConfigError(f"the {self.edition} edition has no special cards",
                              field="specials")
        if len(set(specials)) != len(specials) or any(s not in pool for s in specials):
            names = " ".join(C.card_code(s) for s in pool) or "none"
            raise ConfigError(
                f"specials must be distinct special cards ({names})" if standard_game else
                f"specials must be distinct special cards of the variant ({names})",
                field="specials",
            )
        if len(specials) != count:
            raise ConfigError(
                f"a {self.players}-player MEIO game uses {count} special cards, "
                f"not {len(specials)}" if standard_game else
                f"a {self.players}-player game of this variant uses {count} "
                f"special cards, not {len(specials)}",
                field="specials",
            )
        return specials

    def _init_leader(self) -> None:
        leader = self.first_leader
        if leader is None:
            leader = random.Random(_derive(self.seed, 2)).randrange(self.players)
        elif not 0 <= leader < self.players:
            raise ConfigError(
                f"first leader {leader} is not a seat of a {self.players}-seat table",
                field="first_leader",
            )
        object.__setattr__(self, "first_leader", leader)

    # -- derived facts ---------------------------------------------------------------
    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat (13 in both editions)."""
        return self.ruleset.hand

    @property
    def pack_size(self) -> int:
        """Cards in each second-half pack (6 in both editions)."""
        return self.ruleset.pack

    @property
    def first_half_size(self) -> int:
        """Tricks of the first half (7 in both editions)."""
        return self.ruleset.first_half

    @property
    def special_cards(self) -> tuple[int, ...]:
        """The special card ids in the deck (always a tuple after construction;
        ``()`` in the public form of a match whose specials are hidden)."""
        return self.specials or ()

    @property
    def special_count(self) -> int:
        """How many special cards the deck holds (N = players in ``meio``)."""
        return self.ruleset.deck_for(self.players).specials

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
        return self.deck_size - self.hand_size * self.players

    @property
    def rounds(self) -> int | None:
        """3 rounds on totals (3–5 players, and 2-player ``classic``); None where the
        match runs to 2 victories (2-player ``meio``, partnership). A variant may set
        other counts, and with unshared ties play on past them (:mod:`~meio.engine.scoring`)."""
        fmt = self.match_format
        return fmt.rounds if fmt.form == "totals" else None

    @property
    def victories_to_win(self) -> int | None:
        """2 in 2-player ``meio`` and in partnership; None where totals decide."""
        fmt = self.match_format
        return fmt.to_win if fmt.form == "victories" else None

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
        pool = self.ruleset.special_pool
        hide = not self.options.reveal_specials and len(self.special_cards) < len(pool)
        if self.seed == 0 and not (hide and self.special_cards):
            return self
        return dataclasses.replace(self, specials=() if hide else self.specials, seed=0)

    def with_specials(self, specials: tuple[int, ...], seed: int) -> MatchConfig:
        """The same table with the given specials and seed (worlds of a search)."""
        return dataclasses.replace(self, specials=specials, seed=seed)


@functools.lru_cache(maxsize=4096)
def _public(config: MatchConfig) -> MatchConfig:
    # every view of every seat asks for it: build (and validate) it once per config
    return config._make_public()
