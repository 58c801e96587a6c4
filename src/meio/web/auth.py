"""Optional accounts over HTTP: sign up, sign in and out, delete; the session cookie
and what guards it.

* **Passwords** are hashed with Argon2id (argon2-cffi's defaults, RFC 9106's
  low-memory profile) in worker threads, two at a time; a sign-in for an unknown
  name checks a dummy hash, so both take as long.
* **Sessions**: a random cookie (``meio_session``, ``HttpOnly``, ``SameSite=Lax``,
  ``Secure`` when the page came over TLS) of which the server keeps the SHA-256. A
  sign-in or sign-up always makes a new one and ends the browser's previous one.
* **CSRF**: a state-changing request (POST...) that a session cookie authorises must
  carry ``X-CSRF-Token`` equal to the ``meio_csrf`` cookie, a value derived from the
  session that only a page of this origin can read; and :class:`SameOrigin` refuses
  every state-changing request from a foreign page, cookie or not.
* **Guessing** slows the guesser, never the owner: wrong passwords earn growing
  delays per address and account together and per address (:mod:`meio.web.throttle`),
  a browser that signed in before (the ``meio_device`` cookie) is not held back by
  its address's failures, and hashing is shared fairly between addresses.
* A guest who signs up or in sends the seat tokens their browser holds: those seats
  become the account's (the tokens keep working, invite links too).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import math
import secrets
import time
from typing import Annotated

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from meio.web.accounts import Account, AccountStore, check_username, username_key
from meio.web.i18n import catalogue, visitor_language
from meio.web.limits import KeyedLimiter
from meio.web.refusal import Refusal, refusal_json
from meio.web.schemas import Me, Router
from meio.web.settings import Settings
from meio.web.store import Store, StoreError, hash_token
from meio.web.think import Share, ThinkPool, client_of
from meio.web.throttle import SignInThrottle

SESSION_COOKIE = "meio_session"
CSRF_COOKIE = "meio_csrf"
CSRF_HEADER = "x-csrf-token"
#: a browser that signed in to an account before: its address's failures do not
#: hold it back (:mod:`meio.web.throttle`)
DEVICE_COOKIE = "meio_device"
#: the methods that change something: a cookie authorises them only with the CSRF token
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})

router = Router(prefix="/api/account")


def csrf_of(session_token: str) -> str:
    """The CSRF token of a session: derived from its secret, so it needs no storage
    and a page that cannot read this origin's cookies cannot know it."""
    return hashlib.sha256(b"meio-csrf:" + session_token.encode()).hexdigest()[:32]


def origin_allowed(conn: HTTPConnection, allowed: tuple[str, ...],
                   public: str | None = None) -> bool:
    """Whether a page of this ``Origin`` may talk to the server: none sent (not a
    browser), the server's own origin, or one of ``allowed``.

    The server's own origin is ``public`` (``MEIO_PUBLIC_ORIGIN``) when it is set: a
    page's origin is compared with it, never with the request's ``Host``, which a
    DNS-rebinding page chooses (its origin and its forged host agree). Unset (a
    server on one machine, for development), the request's host and scheme stand in."""
    from urllib.parse import urlsplit

    origin = conn.headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/")
    if origin in allowed:
        return True
    if public is not None:
        return origin == public
    parts = urlsplit(origin)
    host = conn.headers.get("host", "")
    scheme = {"ws": "http", "wss": "https"}.get(conn.url.scheme, conn.url.scheme)
    return bool(host) and parts.netloc == host and parts.scheme == scheme


class SameOrigin:
    """ASGI middleware: a state-changing HTTP request from a foreign page (its
    ``Origin``, or ``Sec-Fetch-Site: cross-site``) is refused with 403 ``cross_site``
    before any route sees it."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...],
                 public: str | None = None) -> None:
        self.app = app
        self.allowed = allowed
        self.public = public

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE:
            conn = HTTPConnection(scope)
            foreign = conn.headers.get("sec-fetch-site") == "cross-site" and (
                conn.headers.get("origin", "").rstrip("/") not in self.allowed)
            if foreign or not origin_allowed(conn, self.allowed, self.public):
                refused = Refusal(403, "cross_site", "a page of another site cannot send this "
                                                     "request")
                lang = visitor_language(conn.headers)
                body = json.dumps(refusal_json(refused, catalogue(lang))).encode()
                await send({"type": "http.response.start", "status": 403,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


class Auth:
    """What the account routes share: the store, the hasher and the throttles."""

    def __init__(self, settings: Settings, accounts: AccountStore, store: Store) -> None:
        self.settings = settings
        self.accounts = accounts
        self.store = store
        self.hasher = PasswordHasher()
        #: requests that hash a password (sign-ins, sign-ups), per address: a flood of
        #: them costs its own address
        self.address_limiter = KeyedLimiter(settings.login_rate_per_min / 60,
                                            settings.login_burst)
        #: wrong passwords: growing delays per address and account, never a lock
        self.throttle = SignInThrottle(settings.login_free_failures)
        #: each hash takes ~64 MiB and a core for a while: two at a time, shared fairly
        #: between addresses (the think pool's scheduler, in threads of its own), so a
        #: flood of guesses from some addresses waits behind the others' sign-ins
        self.hashing = ThinkPool(processes=0, threads=2)
        self._dummy: str | None = None

    async def hash(self, password: str, address: str = "") -> str:
        return await self.hashing.run(Share(client_of(address)), self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str, address: str = "") -> bool:
        """Whether ``password`` matches ``stored`` (None: an unknown account, checked
        against a dummy hash all the same)."""
        if self._dummy is None:
            self._dummy = await self.hash(secrets.token_urlsafe(16))
        return await self.hashing.run(Share(client_of(address)), _verify, self.hasher,
                                      stored or self._dummy, password) and stored is not None


def _verify(hasher: PasswordHasher, stored: str, password: str) -> bool:
    try:
        return hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def get_auth(request: Request) -> Auth:
    auth: Auth = request.app.state.auth
    return auth


AuthDep = Annotated[Auth, Depends(get_auth)]


def session_token(request: Request) -> str | None:
    token = request.cookies.get(SESSION_COOKIE)
    return token if token and len(token) <= 128 else None


async def current_account(request: Request, auth: AuthDep) -> Account | None:
    """The account signed in with the request's cookie (None: a guest). A
    state-changing request it authorises must carry the CSRF token (else 403 ``csrf``);
    a cookie no session has any more (signed out, expired) counts for nothing."""
    token = session_token(request)
    if token is None:
        return None
    not_before = time.time() - auth.settings.session_ttl_s
    account = await asyncio.to_thread(auth.accounts.session, hash_token(token), not_before)
    if account is None:
        return None
    if request.method in UNSAFE and not hmac.compare_digest(
            request.headers.get(CSRF_HEADER, "").encode(), csrf_of(token).encode()):
        raise Refusal(403, "csrf", "this request lacks the page's CSRF token: reload the page")
    return account


AccountDep = Annotated[Account | None, Depends(current_account)]


async def signed_in(account: AccountDep) -> Account:
    if account is None:
        raise Refusal(401, "not_signed_in", "sign in first")
    return account


SignedInDep = Annotated[Account, Depends(signed_in)]


class Credentials(BaseModel):
    """A username and password, and the seat tokens this browser holds as a guest."""

    model_config = ConfigDict(strict=True, extra="forbid")

    username: str = Field(max_length=64)
    password: str = Field(min_length=8, max_length=128)
    tokens: list[str] = Field(default_factory=list, max_length=200)

    @field_validator("username")
    @classmethod
    def _check_username(cls, v: str) -> str:
        return check_username(v)


class NewPassword(BaseModel):
    """The account's password, and the one to replace it."""

    model_config = ConfigDict(strict=True, extra="forbid")

    password: str = Field(max_length=128)
    new_password: str = Field(min_length=8, max_length=128)


def check_password(password: str, username: str, min_score: int) -> None:
    """Refuse (422 ``weak_password``) a password that zxcvbn, the password-strength
    estimator, scores under ``min_score`` of 4: common ones (``12345678``), ones made
    of the username, keyboard walks, repeats."""
    from zxcvbn import zxcvbn

    found = zxcvbn(password[:128], user_inputs=[username])
    if int(found["score"]) >= min_score:
        return
    feedback = found.get("feedback") or {}
    hints = [str(feedback.get("warning") or ""), *map(str, feedback.get("suggestions") or [])]
    hint = " ".join(h for h in hints if h) or "Add more words that are less common."
    raise Refusal(422, "weak_password", f"this password is too easy to guess: {hint}",
                  score=int(found["score"]), needed=min_score)


class Password(BaseModel):
    """The account's password, asked again before the account is deleted."""

    model_config = ConfigDict(strict=True, extra="forbid")

    password: str = Field(max_length=128)


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


def _me(account: Account | None, **done: int) -> Me:
    return Me.model_validate({"account": None if account is None else
                              {"username": account.username, "created_at": account.created_at},
                              **done})


async def begin_session(auth: Auth, request: Request, response: Response, account: Account,
                   tokens: list[str]) -> Me:
    """A new session for ``account`` (the browser's old one ends) and its cookies;
    the guest seats of ``tokens`` become the account's."""
    token = secrets.token_urlsafe(32)
    old = session_token(request)
    await asyncio.to_thread(auth.accounts.start_session, account.id, hash_token(token),
                            None if old is None else hash_token(old),
                            time.time() - auth.settings.session_ttl_s)
    hashes = [hash_token(t) for t in tokens if len(t) <= 128]
    claimed = await asyncio.to_thread(auth.store.claim_seats, account.id, hashes)
    secure = request.url.scheme == "https" or auth.settings.secure_cookies
    age = int(auth.settings.session_ttl_s)
    response.set_cookie(SESSION_COOKIE, token, max_age=age, path="/", secure=secure,
                        httponly=True, samesite="lax")
    # readable by this origin's pages (they send it back as X-CSRF-Token), no one else's
    response.set_cookie(CSRF_COOKIE, csrf_of(token), max_age=age, path="/", secure=secure,
                        httponly=False, samesite="lax")
    return _me(account, seats_claimed=claimed)


def _sign_out(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    response.delete_cookie(CSRF_COOKIE, path="/", samesite="lax")


def throttle_sign_in(auth: Auth, request: Request) -> None:
    """Refuse a request that hashes a password when its address sent too many
    (``login_rate_per_min``): a flood costs its own address only."""
    if not auth.address_limiter.take(_address(request)):
        raise Refusal(429, "rate_limited", "too many sign-in attempts from your address: "
                                           "wait a minute")


def _device(request: Request) -> str | None:
    token = request.cookies.get(DEVICE_COOKIE)
    return hash_token(token) if token and len(token) <= 128 else None


@router.get("")
async def me(account: AccountDep) -> Me:
    """Who is signed in in this browser (``account`` null: a guest)."""
    return _me(account)


@router.post("/signup", status_code=201)
async def signup(body: Credentials, auth: AuthDep, request: Request, response: Response
                 ) -> Me:
    """Make an account and sign in; the guest seats of ``tokens`` become its own."""
    throttle_sign_in(auth, request)
    check_password(body.password, body.username, auth.settings.min_password_score)
    try:
        # before the hash (a refused name costs no hashing), and again as it is stored
        await asyncio.to_thread(auth.accounts.check_free, body.username)
        digest = await auth.hash(body.password, _address(request))
        account = await asyncio.to_thread(auth.accounts.create, body.username, digest)
    except StoreError as e:
        raise _name_refusal(e) from None
    return await begin_session(auth, request, response, account, body.tokens)


def _name_refusal(e: StoreError) -> Refusal:
    if e.code == "username_confusable":
        # 422: the name itself is refused (it reads as another), not a conflict of state
        return Refusal(422, "username_confusable", "this username looks like one that is "
                                                   "taken (the same letters from another "
                                                   "alphabet, or drawn alike): choose another")
    return Refusal(409, "username_taken", "this username is taken: choose another")


@router.post("/login")
async def login(body: Credentials, auth: AuthDep, request: Request, response: Response
                ) -> Me:
    """Sign in (a new session; the browser's old one ends). Wrong passwords slow down
    their sender (:mod:`meio.web.throttle`), never the account's owner elsewhere."""
    address, key, device = _address(request), username_key(body.username), _device(request)
    wait = auth.throttle.wait_s(address, key, device)
    if wait > 0:
        raise Refusal(429, "rate_limited", "too many wrong passwords from your address: "
                                           f"try again in {math.ceil(wait)} s",
                      seconds=math.ceil(wait))
    if not auth.throttle.known(device, key):
        throttle_sign_in(auth, request)
    found = await asyncio.to_thread(auth.accounts.by_username, body.username)
    if not await auth.verify(None if found is None else found[1], body.password, address):
        auth.throttle.failed(address, key)
        raise Refusal(401, "bad_login", "wrong username or password")
    assert found is not None
    account, stored = found
    if auth.hasher.check_needs_rehash(stored):
        await asyncio.to_thread(auth.accounts.set_password_hash, account.id,
                                await auth.hash(body.password, address))
    token = request.cookies.get(DEVICE_COOKIE)
    if not token or len(token) > 128:
        token = secrets.token_urlsafe(24)
    auth.throttle.succeeded(address, key, hash_token(token))
    response.set_cookie(DEVICE_COOKIE, token, max_age=365 * 86400, path="/api/account",
                        secure=request.url.scheme == "https" or auth.settings.secure_cookies,
                        httponly=True, samesite="strict")
    return await begin_session(auth, request, response, account, body.tokens)


@router.post("/logout")
async def logout(account: AccountDep, auth: AuthDep, request: Request, response: Response
                 ) -> Me:
    """Sign this browser out: its session ends (the cookie is worth nothing after)."""
    token = session_token(request)
    if account is not None and token is not None:
        await asyncio.to_thread(auth.accounts.end_session, hash_token(token))
    _sign_out(response)
    return _me(None)


@router.post("/logout-all")
async def logout_all(account: SignedInDep, auth: AuthDep, response: Response
                     ) -> Me:
    """Sign the account out of every browser."""
    ended = await asyncio.to_thread(auth.accounts.end_sessions, account.id)
    _sign_out(response)
    return _me(None, sessions_ended=ended)


@router.post("/password")
async def change_password(body: NewPassword, account: SignedInDep, auth: AuthDep,
                          request: Request, response: Response) -> Me:
    """Change the password (the current one asked again): every other session of the
    account ends, and this browser gets a new one."""
    throttle_sign_in(auth, request)
    address = _address(request)
    stored = await asyncio.to_thread(auth.accounts.password_hash, account.id)
    if stored is None or not await auth.verify(stored, body.password, address):
        auth.throttle.failed(address, username_key(account.username))
        raise Refusal(401, "bad_login", "wrong password")
    check_password(body.new_password, account.username, auth.settings.min_password_score)
    digest = await auth.hash(body.new_password, address)
    await asyncio.to_thread(auth.accounts.set_password_hash, account.id, digest)
    ended = await asyncio.to_thread(auth.accounts.end_sessions, account.id)
    answer = await begin_session(auth, request, response, account, [])
    return answer.model_copy(update={"sessions_ended": max(0, ended - 1)})


@router.post("/delete")
async def delete(body: Password, account: SignedInDep, auth: AuthDep, request: Request,
                 response: Response) -> Me:
    """Delete the account (its password asked again): the username, the password hash
    and the sessions go; its seats stay, named ``Player N``, so records stay whole."""
    throttle_sign_in(auth, request)
    stored = await asyncio.to_thread(auth.accounts.password_hash, account.id)
    if stored is None or not await auth.verify(stored, body.password, _address(request)):
        raise Refusal(401, "bad_login", "wrong password")
    tables = await asyncio.to_thread(auth.accounts.delete, account.id)
    hub = request.app.state.hub
    for table_id in tables:
        await hub.reload(table_id)
    _sign_out(response)
    return _me(None, tables=len(tables))
