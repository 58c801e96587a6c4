"""The server's errors: one family, each with a reason code, and one way to answer them.

Every error the web server raises on purpose is a :class:`ServerError`: a stable
``code`` (``seat_taken``, ``rate_limited``...), the English ``detail``, JSON-friendly
``params`` (seats counted from 1) and the HTTP status it is answered with. Where it
is raised decides how it travels, never its class:

* an HTTP route lets it go: the app's one handler (:mod:`meio.web.app`) answers
  ``{"detail", "code", "params", "message"}`` (and ``"problems"`` when it has them) with
  its status (:func:`refusal_json`), ``message`` in the visitor's language
  (``Accept-Language``, see :func:`meio.web.i18n.visitor_language`);
* a WebSocket message gets an ``error`` frame (code and detail: :mod:`meio.web.ws`),
  and a table message a ``reject`` frame (:meth:`~meio.web.table.LiveTable.refuse`),
  which the page translates by the code as it translates the engine's reasons.

The English template of each code's ``message`` is in :data:`MESSAGES`; its
translations are messages of the browser client's catalogue (``web.po``), so the page
and the server say the same words.

>>> e = Refusal(409, "seat_taken", "seat 2 is not free", seat=2)
>>> e.status_code, e.code, str(e), e.params
(409, 'seat_taken', 'seat 2 is not free', {'seat': 2})
>>> message(e, {})
'Seat 2 is not free any more: pick another.'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from meio.engine import MeioError

#: a parameter's value: text, a whole number, or a list of either
Param = str | int | list[str] | list[int]

#: the English template of each code's message (a ``web`` catalogue message id); a
#: ``code+param`` entry is used when the error has that parameter
MESSAGES: dict[str, str] = {
    # tables and seats
    "no_table": "There is no such table",
    "private": "This table is private",
    "bad_invite": "This invite link is not valid for this table.",
    "closed": "This table is closed: start a new one in the lobby.",
    "full": "Every seat of this table is taken.",
    "seat_taken": "Seat {seat} is not free any more: pick another.",
    "no_seat": "There is no seat {seat} at this table.",
    "sign_in_to_rate": "A rated table seats signed-in players only: sign in on the "
                       "Account page.",
    "agree_rated": "This rated table has bots: tick that you agree to a rated match with them.",
    "already_seated": "Your account already has a seat at this rated table.",
    "bad_table": "The server could not accept these choices: check them and try again.",
    "bad_variant": "The variant was not accepted: {reason}",
    "variant_unrated": "A variant table is not rated: the ratings are for the standard "
                       "editions.",
    "server_full": "This server has as many open tables as it can take: join one from the "
                   "lobby or try later.",
    "too_many_tables": "Your address has as many open tables as it may: finish or leave some "
                       "first.",
    "too_many_quick_seats": "You already have {seats} quick-play seats waiting or in play: "
                            "finish or leave one first.",
    "no_pool": "There is no such kind of table.",
    "bad_wait": "Quick play waits {low} to {high} seconds before bots take the free seats.",
    # matches and records
    "no_match": "There is no such match: it may have been played on another server.",
    "not_finished": "The record of a match is published once the match is over.",
    "review_busy": "One review at a time: wait until the one you asked for is done.",
    "not_reviewable": "Reviews are for the MEIO and classic editions, not for variants.",
    "no_puzzle": "There is no such puzzle.",
    "bad_move": "That is not a move.",
    "illegal_move": "That move is not legal here.",
    "no_solver": "Sign in, or send the page's token, to be rated.",
    # accounts and players
    "rate_limited": "Too many attempts: wait a minute and try again.",
    "rate_limited+seconds": "Too many wrong passwords from your address: try again in "
                            "{seconds} s.",
    "csrf": "This page is out of date: reload it and try again.",
    "cross_site": "This page is out of date: reload it and try again.",
    "not_signed_in": "You are not signed in.",
    "bad_login": "Wrong username or password.",
    "username_taken": "This username is taken: choose another.",
    "username_confusable": "This username looks like one that is taken (the same letters "
                           "from another alphabet, or letters drawn alike): choose another.",
    "weak_password": "This password is too easy to guess: make it longer, with words that "
                     "are not common and not your username.",
    "bad_username": "This is not a username: a username is 3 to 24 letters, digits, '_', "
                    "'-' and '.', with no spaces.",
    "no_player": "There is no such player.",
    "bad_passkey": "This passkey was not accepted here.",
    "passkey_expired": "The passkey request expired or was already answered: try again.",
    "passkey_taken": "This passkey is already registered.",
    "no_passkey": "This account has no such passkey.",
    "too_many_passkeys": "An account holds at most {n} passkeys: remove one first.",
    "follow_self": "You cannot follow yourself.",
    "too_many_friends": "You follow as many players as one may: stop following someone first.",
    "not_following": "You do not follow this player.",
    "not_seated": "Invite people to a table where you hold a seat.",
    "already_there": "This player has a seat at this table already.",
    "no_invitation": "This invitation is gone.",
    "no_seat_here": "Your account holds no seat at this table.",
}
#: the message of a code without a template of its own, by status
TOO_MANY = "Too many attempts: wait a minute and try again."
FAILED = "Something went wrong on the server; try again."
REFUSED = "The server refused: {reason}"


class ServerError(MeioError):
    """Base of every error the web server raises on purpose: ``code`` (stable, what a
    client translates), ``detail`` (the English sentence, also ``str(error)``),
    ``params`` (JSON-friendly; seats counted from 1) and ``status_code``, the HTTP
    status it is answered with. A subclass sets its usual code and status."""

    #: the code and the status of the class's errors, unless one says otherwise
    default_code: ClassVar[str] = "refused"
    default_status: ClassVar[int] = 400

    def __init__(self, detail: str, *, code: str | None = None, status: int | None = None,
                 **params: Param) -> None:
        super().__init__(detail)
        self.detail = detail
        self.code = code or self.default_code
        self.status_code = status or self.default_status
        self.params: dict[str, Param] = params

    @property
    def reason(self) -> str:
        """The English sentence (a frame's ``reason``)."""
        return self.detail


class Refusal(ServerError):
    """A request the server refuses: HTTP ``status``, ``code`` and the English ``detail``."""

    def __init__(self, status: int, code: str, detail: str, **params: Param) -> None:
        super().__init__(detail, code=code, status=status, **params)


class ProblemsRefusal(Refusal):
    """A refusal of a request with several problems (a variant's), one line each in
    ``problems``; ``detail`` is the first."""

    def __init__(self, status: int, code: str, problems: list[str]) -> None:
        super().__init__(status, code, problems[0])
        self.problems = problems


def message(exc: ServerError, catalogue: Mapping[str, str]) -> str:
    """The error's message in the language of ``catalogue`` (msgid → msgstr; English
    when empty), from its code's template and its parameters; a code without one says
    what its status means (and the English detail, for a plain refusal)."""
    template = next((MESSAGES[f"{exc.code}+{p}"] for p in exc.params
                     if f"{exc.code}+{p}" in MESSAGES), MESSAGES.get(exc.code))
    if template is None:
        template = (TOO_MANY if exc.status_code == 429 else
                    FAILED if exc.status_code >= 500 else REFUSED)
    values: dict[str, Any] = {"reason": exc.detail, **exc.params}
    for text in (catalogue.get(template, template), template):
        try:
            return text.format_map(values)
        except (KeyError, IndexError, ValueError):
            continue
    return exc.detail


def refusal_json(exc: ServerError, catalogue: Mapping[str, str]) -> dict[str, Any]:
    """The body of an HTTP answer to ``exc``."""
    body: dict[str, Any] = {"detail": exc.detail, "code": exc.code, "params": exc.params,
                            "message": message(exc, catalogue)}
    if isinstance(exc, ProblemsRefusal):
        body["problems"] = exc.problems
    return body
