"""The HTTP API's answers as typed models (what ``/openapi.json`` documents), apart from
the domain's types (:mod:`meio.web.store`, :mod:`meio.web.tablesetup`).

Every JSON route declares one of these as its answer; a route builds its answer and
returns ``Model.model_validate(...)``. A model forbids fields it does not declare, so a
key a route adds without declaring it fails in the tests instead of vanishing; a field
left out of an answer is left out of the JSON too (the routers answer with
``response_model_exclude_unset``: :class:`Router`). Documents with a format of their own
(a record, a review, a seat's view, a rating change) are typed by their own modules and
carried here as JSON objects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

#: a JSON document typed by its own module (a record, a view, a review...)
Document = dict[str, Any]


class Answer(BaseModel):
    """An answer of the API: only the fields it declares."""

    model_config = ConfigDict(extra="forbid")


class Router(APIRouter):
    """An :class:`~fastapi.APIRouter` whose routes leave out of the JSON the fields an
    answer did not set (as the dicts the routes once returned did)."""

    def add_api_route(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        kwargs["response_model_exclude_unset"] = True
        super().add_api_route(path, endpoint, **kwargs)


# -- tables ------------------------------------------------------------------------------
class PublicSeat(Answer):
    seat: int
    kind: str
    bot: str | None
    #: a person's display name, or the bot's ("Bot 2 (expert)"); None: a free seat
    name: str | None
    filled: bool
    online: bool


class VariantFacts(Answer):
    """A variant table's name and sizes (the whole ruleset is in each view's config)."""

    name: str
    hand: int
    first_half: int
    pack: int
    trump: str | None
    specials: int


class PublicTable(Answer):
    """What anyone at a table may know of it (:func:`meio.web.frames.public_table`)."""

    # built by the frames' module: a field it adds passes through
    model_config = ConfigDict(extra="allow")

    id: str
    edition: str
    players: int
    partnership: bool
    #: the chosen specials' codes (None: drawn each match, or hidden at this table)
    specials: list[str] | None
    wild_lead: str
    reveal_specials: bool
    turn_timer_s: float | None
    turn_based: bool
    listed: bool
    rated: bool
    variant: VariantFacts | None
    quick: str | None
    fill_at: float | None
    seats: list[PublicSeat]
    free_seats: list[int]
    #: the id of the match in play or last played
    match: str | None


class Links(Answer):
    """A table's page addresses: to take a seat, and to watch."""

    invite_url: str
    spectate_url: str


class Status(Answer):
    status: str


class BotLevel(Answer):
    kind: str
    name: str
    strength: str


class Bots(Answer):
    """Every bot kind, the levels a lobby offers (weakest first), those playing variants."""

    bots: list[str]
    levels: list[BotLevel]
    variant_bots: list[str]


class CreatedTable(Links):
    table_id: str
    invite: str
    spectate: str
    #: the creator's seat and its token when a name was given (the token is shown once)
    seat: int | None
    token: str | None
    table: PublicTable


class QuickSeat(Links):
    table_id: str
    seat: int
    token: str
    invite: str
    spectate: str
    #: when bots take the seats still free
    fill_at: float | None
    table: PublicTable


class TableFacts(PublicTable):
    """A table's public facts, and which link ``key`` is (``invite``, ``spectate`` or
    None); an invite's holder also gets the spectator code."""

    key: str | None
    spectate: str | None = None


class Joined(Answer):
    table_id: str
    seat: int
    #: the only way to act for the seat: shown once, kept by the server as a hash
    token: str
    table: PublicTable


class LobbyTable(PublicTable):
    invite_url: str
    spectate_url: str
    invite: str


class Lobby(Answer):
    tables: list[LobbyTable]
    #: the ``before`` of the next page (None: the last page)
    next: float | None


class MyTable(PublicTable):
    seat: int
    #: ``waiting``, ``playing`` or ``finished``
    status: str
    closed: bool
    your_turn: bool
    deadline: float | None
    invite_url: str
    spectate_url: str


class MyTables(Answer):
    tables: list[MyTable]


class MatchSummary(Answer):
    id: str
    table_id: str
    number: int
    edition: str
    players: int
    partnership: bool
    specials: list[str] | None
    #: the variant's name (None: an edition)
    variant: str | None
    names: list[str | None]
    finished_at: float | None
    #: the ``meio-result/1`` document
    result: Document | None


class HistoryMatch(MatchSummary):
    mine: bool


class History(Answer):
    matches: list[HistoryMatch]


class RecordFile(BaseModel):
    """A ``meio-record/1`` document (docs/record-format.md), with ``meta``: who played
    and when (readers ignore it)."""

    model_config = ConfigDict(extra="allow")

    format: str
    meta: Document


class Replay(Answer):
    match: MatchSummary
    record: Document
    result: Document


# -- accounts ----------------------------------------------------------------------------
class AccountFacts(Answer):
    username: str
    created_at: float


class Me(Answer):
    """The signed-in account (None: nobody), and what an action on it did."""

    account: AccountFacts | None
    #: sign-in: the browser's guest seats the account took over
    seats_claimed: int | None = None
    #: the sessions a sign-out everywhere (or a new password) ended
    sessions_ended: int | None = None
    #: a deleted account: the tables its seats were at
    tables: int | None = None


class PasskeyFacts(Answer):
    id: str
    transports: list[str]
    created_at: float
    last_used_at: float | None


class Passkeys(Answer):
    passkeys: list[PasskeyFacts]


class WebAuthnOptions(BaseModel):
    """The options for ``navigator.credentials.create`` or ``.get``, in the WebAuthn
    JSON form (``PublicKeyCredentialCreationOptionsJSON`` / ``...RequestOptionsJSON``)."""

    model_config = ConfigDict(extra="allow")

    challenge: str


class PasskeyAdded(Answer):
    id: str


class PasskeyRemoved(Answer):
    removed: str


# -- players and ratings -----------------------------------------------------------------
class MatchRatings(Answer):
    rated: bool
    #: rated, finished, and its update not stored yet
    pending: bool
    #: each seat's rating change (``meio.web.rated``) and its name
    changes: list[Document]


class Pools(Answer):
    pools: list[str]


class RatingFacts(Answer):
    rating: str
    ordinal: float
    mu: float
    sigma: float
    games: int
    provisional: bool


class Ranked(RatingFacts):
    username: str


class Leaderboard(Answer):
    pool: str
    players: list[Ranked]


class RecentMatch(Answer):
    id: str
    finished_at: float | None
    seat: int
    pool: str
    variant: str | None
    names: list[str | None]
    winners: list[int]
    won: bool
    total: int | float | None


class OwnTable(Answer):
    id: str
    seat: int
    status: str


class Profile(Answer):
    username: str
    since: float
    own: bool
    games: int
    wins: int
    rounds: int
    mean_round_score: float | None
    balanced_share: float | None
    matches: list[RecentMatch]
    ratings: dict[str, RatingFacts]
    history: list[Document]
    #: the player's own profile: the tables they sit at now
    tables: list[OwnTable] | None = None


# -- players finding each other ----------------------------------------------------------
class DeviceSeat(Answer):
    table_id: str
    seat: int
    token: str
    name: str | None
    invite: str
    spectate: str


class TurnWaiting(PublicTable):
    seat: int
    deadline: float | None


class Invitation(Links):
    id: int
    #: the username of who invited (``from`` in the JSON)
    sender: str | None = Field(alias="from")
    created_at: float
    table: PublicTable


class Notifications(Answer):
    signed_in: bool
    invitations: list[Invitation]
    your_turn: list[TurnWaiting]
    count: int


class Dismissed(Answer):
    dismissed: bool


class Friend(Answer):
    username: str
    online: bool
    mutual: bool


class Friends(Answer):
    friends: list[Friend]


class Followed(Answer):
    username: str
    #: whether this made a new follow (or invitation)
    new: bool


class Unfollowed(Answer):
    unfollowed: bool


class LiveTable(PublicTable):
    spectate_url: str


class Live(Answer):
    tables: list[LiveTable]


# -- learning ----------------------------------------------------------------------------
class ReviewState(Answer):
    #: ``pending``, ``quick``, ``deep`` or ``failed``
    status: str
    review: Document | None


class Puzzle(Answer):
    id: str
    set: str
    seat: int
    kind: str
    edition: str
    #: the seat's view (:func:`meio.engine.wire.view_json`): nothing else of the deal
    view: Document
    #: a split puzzle's packs to choose from (the seat's own cards); [] for a card puzzle
    choices: list[list[str]]


class Progress(Answer):
    rating: float
    provisional: bool
    streak: int
    best_streak: int
    solved: int
    tried: int


class AttemptResult(Answer):
    solved: bool
    rated: bool
    answer: Any
    theme: str | None
    options: list[list[Any]]
    progress: Progress
    puzzle_rating: float


# -- the rest ----------------------------------------------------------------------------
class Catalogue(Answer):
    """The browser client's catalogue of ``lang`` and the reasons' English templates."""

    lang: str
    messages: dict[str, str]
    reasons: dict[str, str]


class Ready(Answer):
    status: str
    process: str | None = None
    tables: int | None = None
    error: str | None = None
