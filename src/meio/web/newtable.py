"""A new table: what its creator may ask for (the request's schema) and the check that
turns it into the table's options and seats. The rules of a table live here, apart from
the route that receives it (:func:`meio.web.api.create_table`)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import HTTPException
from pydantic import BaseModel, ConfigDict, Field, field_validator

from meio.engine import ConfigError, MatchConfig, MeioError, TableOptions
from meio.engine import cards as C
from meio.engine.ruleset_file import variant_json
from meio.engine.wire import options_json
from meio.web.settings import Settings
from meio.web.store import SeatInfo
from meio.web.variants import check_variant_table, host_variant

#: request bodies are read strictly: ``"seat": "1"`` is not the number 1
STRICT = ConfigDict(strict=True, extra="forbid")


def display_name(value: str) -> str:
    """A display name with its spaces folded; refused unless 1 to 24 printable characters."""
    name = " ".join(value.split())
    if not 1 <= len(name) <= 24 or not name.isprintable():
        raise ValueError("a display name is 1 to 24 printable characters")
    return name


class SeatSpec(BaseModel):
    """A seat of a new table: a human (free until someone joins) or a bot."""

    model_config = STRICT

    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(default=None, max_length=32)


class CreateTable(BaseModel):
    """The options of a new table."""

    model_config = STRICT

    edition: Literal["meio", "classic"] = "meio"
    players: int = Field(default=4, ge=2, le=5)
    partnership: bool = False
    #: None draws the special cards at random for each match
    specials: list[str] | None = Field(default=None, max_length=5)
    seats: list[SeatSpec] | None = Field(default=None, max_length=5)
    turn_timer_s: float | None = None
    listed: bool = True
    #: the creator's display name: when given, the creator takes the first human seat
    name: str | None = None
    #: a fixed deal seed (only when the server allows it: tests, demos)
    seed: int | None = Field(default=None, ge=0, lt=2**62)
    #: the table options of RULES.md §10
    wild_lead: Literal["declare", "next"] = "declare"
    reveal_specials: bool = True
    #: its finished matches change the ratings of the accounts (and bots) at it
    rated: bool = False
    #: played over hours or days: ``turn_timer_s`` is then a long one (required)
    turn_based: bool = False
    #: a rule variant's TOML text or a preset's name, and the file it was uploaded from
    #: (:mod:`meio.web.variants`); it sets the edition and the table options
    variant: str | None = None
    variant_file: str | None = Field(default=None, min_length=1, max_length=64)

    @field_validator("name")
    @classmethod
    def _check_name(cls, v: str | None) -> str | None:
        return None if v is None else display_name(v)


def check_new_table(body: CreateTable, settings: Settings
                    ) -> tuple[dict[str, Any], list[SeatInfo]]:
    """The options and seats of the table ``body`` asks for, as the store keeps them;
    refused (422) when the server's settings or the rules do not allow them."""
    from meio.bots import bot_kinds

    specials: list[str] | None = None
    variant = None if body.variant is None else host_variant(
        body.variant, body.variant_file, settings.max_variant_bytes, body.model_fields_set)
    edition, table_options = ((body.edition, TableOptions(body.wild_lead, body.reveal_specials))
                              if variant is None else (variant.edition, variant.options))
    try:
        parsed = None if body.specials is None else tuple(C.parse_card(s) for s in body.specials)
        cfg = MatchConfig(edition=edition, players=body.players,
                          partnership=body.partnership, specials=parsed,
                          options=table_options, variant=variant)
    except (ConfigError, MeioError) as exc:
        raise HTTPException(422, str(exc)) from None
    if parsed is not None:
        specials = [C.card_code(s) for s in cfg.special_cards]
    seats = body.seats or [SeatSpec() for _ in range(body.players)]
    if len(seats) != body.players:
        raise HTTPException(422, f"{body.players} players need {body.players} seats, "
                                 f"not {len(seats)}")
    kinds = bot_kinds()
    infos: list[SeatInfo] = []
    for i, s in enumerate(seats):
        if s.kind == "bot":
            bot = s.bot or "random"
            if bot not in kinds:
                raise HTTPException(422, f"seat {i}: unknown bot {bot!r}; choose one of "
                                         f"{', '.join(kinds)}")
            infos.append(SeatInfo(i, "bot", bot, None, None))
        else:
            infos.append(SeatInfo(i, "human", None, None, None))
    timer = body.turn_timer_s
    if body.turn_based:
        low, high = settings.min_turn_based_s, settings.max_turn_based_s
        if timer is None or not low <= timer <= high:
            raise HTTPException(422, f"a turn-based table's turn timer is {low:g} to "
                                     f"{high:g} seconds")
    elif timer is not None and not settings.min_turn_timer_s <= timer <= settings.max_turn_timer_s:
        raise HTTPException(422, f"the turn timer is {settings.min_turn_timer_s:g} to "
                                 f"{settings.max_turn_timer_s:g} seconds")
    if body.rated and timer is None:
        # a rated table always has a timer: a player who leaves cannot hold the result
        timer = settings.rated_turn_timer_s
    if body.seed is not None and not settings.allow_seeds:
        raise HTTPException(422, "this server does not accept fixed deal seeds")
    if body.name is not None and not any(s.kind == "human" for s in infos):
        raise HTTPException(422, "every seat is a bot: there is no seat for you")
    if body.rated and not any(s.kind == "human" for s in infos):
        raise HTTPException(422, "a table of bots alone is not rated")
    if variant is not None:
        check_variant_table(body.rated, [(s.seat, s.bot or "random") for s in infos
                                         if s.kind == "bot"])
    options: dict[str, Any] = {
        "edition": edition,
        "players": body.players,
        "partnership": body.partnership,
        "specials": specials,
        "turn_timer_s": timer,
        "seed": body.seed,
        **options_json(table_options, full=True),
    }
    if body.turn_based:
        options["turn_based"] = True
    if variant is not None:
        options["variant"] = variant_json(variant)
    return options, infos
