"""Passkeys (WebAuthn) for accounts: add one to a signed-in account, list and remove
them, and sign in with one instead of the password. The checks are py_webauthn's.

* **Usernameless**: sign-in asks for a discoverable credential with no username
  (the browser offers the passkeys it holds for this site); the credential id
  names the account, and the user handle it returns must be that account's id.
* **Challenges** are random, stored server-side (``meio_passkey_challenges``) under
  the SHA-256 of a random ``meio_webauthn`` cookie (``HttpOnly``,
  ``SameSite=Strict``), so only the browser that asked can answer; a registration's
  is bound to the session that asked too. Each is deleted when it is answered, right
  or wrong, and is worth nothing after ``passkey_challenge_ttl_s``.
* **Relying party**: the id and origin come from ``public_origin`` when the server is
  given one (behind a proxy), else from the request, as the Secure cookie does.
* **Signature counts** must grow when the authenticator keeps one: a cloned
  authenticator's stale count is refused.
* Registration needs a signed-in session and the CSRF token; a passkey sign-in is
  rate-limited per address (``login_rate_per_min``, as every sign-in request is), never
  per account, so no stranger's guesses can hold the owner's passkey back; it ends in
  the same new session and cookies.
* The server keeps a passkey's credential id, public key, signature count and
  transports; deleting the account deletes them.
"""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from meio.web.accounts import Account
from meio.web.auth import Auth, AuthDep, SignedInDep, begin_session, session_token, throttle_sign_in
from meio.web.db import AccountRow, PasskeyChallengeRow, PasskeyRow
from meio.web.refusal import Refusal
from meio.web.schemas import Me, PasskeyAdded, PasskeyRemoved, Passkeys, Router, WebAuthnOptions
from meio.web.store import hash_token

ATTEMPT_COOKIE = "meio_webauthn"
COOKIE_PATH = "/api/account/passkeys"
#: passkeys one account may hold
MAX_PASSKEYS = 20

router = Router(prefix=COOKIE_PATH)


@dataclass(frozen=True, slots=True)
class Passkey:
    """A passkey as its owner sees it in the list (never the key itself)."""

    id: str
    transports: tuple[str, ...]
    created_at: float
    last_used_at: float | None


class PasskeyStore:
    """Passkeys and pending challenges in the server's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def put_challenge(self, attempt: str, purpose: str, challenge: bytes,
                      session_hash: str | None, not_before: float) -> None:
        """Keep a challenge; the expired ones (older than ``not_before``) go, and so
        does the session's previous registration challenge (one pending a session)."""
        with Session(self.engine) as s, s.begin():
            s.execute(delete(PasskeyChallengeRow).where(
                PasskeyChallengeRow.created_at < not_before))
            if session_hash is not None:
                s.execute(delete(PasskeyChallengeRow).where(
                    PasskeyChallengeRow.session_hash == session_hash))
            s.add(PasskeyChallengeRow(attempt=attempt, purpose=purpose, challenge=challenge,
                                      session_hash=session_hash, created_at=time.time()))

    def take_challenge(self, attempt: str, purpose: str, session_hash: str | None,
                       not_before: float) -> bytes | None:
        """The challenge of ``attempt``, deleted as it is read (once only, even for two
        answers at once); None when there is none of this purpose and session, or it
        expired."""
        with Session(self.engine) as s, s.begin():
            row = s.get(PasskeyChallengeRow, attempt)
            if row is None:
                return None
            challenge, fits = row.challenge, (row.purpose == purpose and row.created_at
                                              >= not_before and row.session_hash == session_hash)
            res = s.execute(delete(PasskeyChallengeRow)
                            .where(PasskeyChallengeRow.attempt == attempt))
            if int(res.rowcount) != 1:  # type: ignore[attr-defined]
                return None
            return challenge if fits else None

    def add(self, account_id: str, credential_id: str, public_key: bytes, sign_count: int,
            transports: tuple[str, ...]) -> bool:
        """Store a new passkey of ``account_id``; False when that credential is known."""
        try:
            with Session(self.engine) as s, s.begin():
                s.add(PasskeyRow(id=credential_id, account_id=account_id,
                                 public_key=public_key, sign_count=sign_count,
                                 transports=",".join(transports), created_at=time.time()))
        except IntegrityError:
            return False
        return True

    def of_account(self, account_id: str) -> list[Passkey]:
        with Session(self.engine) as s:
            rows = s.scalars(select(PasskeyRow).where(PasskeyRow.account_id == account_id)
                             .order_by(PasskeyRow.created_at))
            return [Passkey(r.id, tuple(t for t in r.transports.split(",") if t),
                            r.created_at, r.last_used_at) for r in rows]

    def remove(self, account_id: str, credential_id: str) -> bool:
        """Remove a passkey of ``account_id`` (another account's stays)."""
        with Session(self.engine) as s, s.begin():
            res = s.execute(delete(PasskeyRow).where(PasskeyRow.id == credential_id,
                                                     PasskeyRow.account_id == account_id))
            return int(res.rowcount) == 1  # type: ignore[attr-defined]

    def find(self, credential_id: str) -> tuple[Account, bytes, int] | None:
        """The account of a passkey, its public key and its signature count."""
        with Session(self.engine) as s:
            found = s.execute(
                select(AccountRow, PasskeyRow)
                .join(PasskeyRow, PasskeyRow.account_id == AccountRow.id)
                .where(PasskeyRow.id == credential_id)).one_or_none()
            if found is None:
                return None
            account, key = found
            return (Account(account.id, account.username, account.created_at),
                    key.public_key, key.sign_count)

    def used(self, credential_id: str, old_count: int, new_count: int) -> bool:
        """Record a sign-in: the count moves from ``old_count`` to ``new_count`` only
        if nobody moved it meanwhile (two answers at once: one wins)."""
        with Session(self.engine) as s, s.begin():
            res = s.execute(update(PasskeyRow).where(PasskeyRow.id == credential_id,
                                                     PasskeyRow.sign_count == old_count)
                            .values(sign_count=new_count, last_used_at=time.time()))
            return int(res.rowcount) == 1  # type: ignore[attr-defined]


class Credential(BaseModel):
    """What ``navigator.credentials`` returned, as ``PublicKeyCredential.toJSON()``
    writes it; for a sign-in, the seat tokens this browser holds as a guest."""

    model_config = ConfigDict(strict=True, extra="forbid")

    credential: dict[str, Any]
    tokens: list[str] = Field(default_factory=list, max_length=200)


class Remove(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")

    id: str = Field(max_length=1400)


def relying_party(auth: Auth, request: Request) -> tuple[str, str]:
    """The relying party id (a host name) and the origin the browser must report."""
    origin = auth.settings.public_origin
    if origin is None:
        origin = f"{request.url.scheme}://{request.headers.get('host', '')}"
    return urlsplit(origin).hostname or "", origin.rstrip("/")


def _store(auth: Auth) -> PasskeyStore:
    return PasskeyStore(auth.accounts.engine)


async def _challenge(auth: Auth, request: Request, response: Response, purpose: str,
                     session_hash: str | None) -> bytes:
    attempt = secrets.token_urlsafe(32)
    challenge = secrets.token_bytes(32)
    ttl = auth.settings.passkey_challenge_ttl_s
    await asyncio.to_thread(_store(auth).put_challenge, hash_token(attempt), purpose,
                            challenge, session_hash, time.time() - ttl)
    response.set_cookie(ATTEMPT_COOKIE, attempt, max_age=math.ceil(ttl), path=COOKIE_PATH,
                        httponly=True, samesite="strict",
                        secure=request.url.scheme == "https" or auth.settings.secure_cookies)
    return challenge


async def _answered(auth: Auth, request: Request, response: Response, purpose: str,
                    session_hash: str | None) -> bytes:
    """The challenge this browser was given for ``purpose`` (now spent), or 400."""
    attempt = request.cookies.get(ATTEMPT_COOKIE)
    response.delete_cookie(ATTEMPT_COOKIE, path=COOKIE_PATH, httponly=True, samesite="strict")
    challenge = None if attempt is None or len(attempt) > 128 else await asyncio.to_thread(
        _store(auth).take_challenge, hash_token(attempt), purpose, session_hash,
        time.time() - auth.settings.passkey_challenge_ttl_s)
    if challenge is None:
        raise Refusal(400, "passkey_expired",
                      "this passkey request has expired or was already answered: try again")
    return challenge


def _bad_passkey() -> Refusal:
    return Refusal(401, "bad_passkey", "this passkey was not accepted here")


@router.get("")
async def passkeys(account: SignedInDep, auth: AuthDep) -> Passkeys:
    """The passkeys of the signed-in account."""
    keys = await asyncio.to_thread(_store(auth).of_account, account.id)
    return Passkeys.model_validate(
        {"passkeys": [{"id": k.id, "transports": list(k.transports),
                       "created_at": k.created_at, "last_used_at": k.last_used_at}
                      for k in keys]})


@router.post("/register/options")
async def register_options(account: SignedInDep, auth: AuthDep, request: Request,
                           response: Response) -> WebAuthnOptions:
    """The options for ``navigator.credentials.create`` (``PublicKeyCredential
    .parseCreationOptionsFromJSON`` reads them): a discoverable credential that
    verifies its user, none of those the account already has."""
    token = session_token(request)
    assert token is not None   # a signed-in request has a session cookie
    keys = await asyncio.to_thread(_store(auth).of_account, account.id)
    if len(keys) >= MAX_PASSKEYS:
        raise Refusal(409, "too_many_passkeys",
                      f"an account holds at most {MAX_PASSKEYS} passkeys: remove one first",
                      n=MAX_PASSKEYS)
    rp_id, _ = relying_party(auth, request)
    challenge = await _challenge(auth, request, response, "register", hash_token(token))
    options = generate_registration_options(
        rp_id=rp_id, rp_name="MEIO", user_name=account.username, user_id=account.id.encode(),
        challenge=challenge, timeout=int(auth.settings.passkey_challenge_ttl_s * 1000),
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.REQUIRED),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(k.id))
                             for k in keys])
    return WebAuthnOptions.model_validate_json(options_to_json(options))


@router.post("/register", status_code=201)
async def register(body: Credential, account: SignedInDep, auth: AuthDep, request: Request,
                   response: Response) -> PasskeyAdded:
    """Check the authenticator's answer to this session's challenge and keep the
    passkey."""
    token = session_token(request)
    assert token is not None
    challenge = await _answered(auth, request, response, "register", hash_token(token))
    rp_id, origin = relying_party(auth, request)
    try:
        checked = verify_registration_response(
            credential=body.credential, expected_challenge=challenge, expected_rp_id=rp_id,
            expected_origin=origin, require_user_verification=True)
    except (WebAuthnException, ValueError, KeyError, TypeError, AttributeError):
        raise Refusal(400, "bad_passkey", "this passkey was not accepted here") from None
    transports = body.credential["response"].get("transports", [])  # checked: a dict
    if not isinstance(transports, list):
        transports = []
    known = {t.value for t in AuthenticatorTransport}
    kept = tuple(sorted({t for t in transports if isinstance(t, str) and t in known}))
    credential_id = bytes_to_base64url(checked.credential_id)
    if len(checked.credential_id) > 1023:   # WebAuthn's bound (the column's too)
        raise Refusal(400, "bad_passkey", "this passkey was not accepted here")
    if not await asyncio.to_thread(_store(auth).add, account.id, credential_id,
                                   checked.credential_public_key, checked.sign_count, kept):
        raise Refusal(409, "passkey_taken", "this passkey is already registered")
    return PasskeyAdded(id=credential_id)


@router.post("/remove")
async def remove(body: Remove, account: SignedInDep, auth: AuthDep) -> PasskeyRemoved:
    """Remove one of the account's passkeys (it signs in no more)."""
    if not await asyncio.to_thread(_store(auth).remove, account.id, body.id):
        raise Refusal(404, "no_passkey", "this account has no such passkey")
    return PasskeyRemoved(removed=body.id)


@router.post("/sign-in/options")
async def sign_in_options(auth: AuthDep, request: Request, response: Response
                          ) -> WebAuthnOptions:
    """The options for ``navigator.credentials.get``: any passkey of this site, its
    user verified (throttled per address, as password sign-ins are)."""
    throttle_sign_in(auth, request)
    rp_id, _ = relying_party(auth, request)
    challenge = await _challenge(auth, request, response, "sign_in", None)
    options = generate_authentication_options(
        rp_id=rp_id, challenge=challenge,
        timeout=int(auth.settings.passkey_challenge_ttl_s * 1000),
        user_verification=UserVerificationRequirement.REQUIRED)
    return WebAuthnOptions.model_validate_json(options_to_json(options))


@router.post("/sign-in")
async def sign_in(body: Credential, auth: AuthDep, request: Request, response: Response
                  ) -> Me:
    """Sign in with a passkey: its answer to this browser's challenge, signed by a
    passkey of an account, with a grown signature count. A new session, as a password
    sign-in makes."""
    challenge = await _answered(auth, request, response, "sign_in", None)
    raw = body.credential.get("rawId")
    try:
        credential_id = bytes_to_base64url(base64url_to_bytes(raw)) if isinstance(
            raw, str) and len(raw) <= 1400 else None
    except ValueError:
        credential_id = None
    found = None if credential_id is None else await asyncio.to_thread(
        _store(auth).find, credential_id)
    if found is None or credential_id is None:
        raise _bad_passkey()
    account, public_key, count = found
    rp_id, origin = relying_party(auth, request)
    try:
        handle = body.credential.get("response", {}).get("userHandle")
        if handle is not None and base64url_to_bytes(handle) != account.id.encode():
            raise _bad_passkey()
        checked = verify_authentication_response(
            credential=body.credential, expected_challenge=challenge, expected_rp_id=rp_id,
            expected_origin=origin, credential_public_key=public_key,
            credential_current_sign_count=count, require_user_verification=True)
    except (WebAuthnException, ValueError, KeyError, TypeError, AttributeError):
        raise _bad_passkey() from None
    if not await asyncio.to_thread(_store(auth).used, credential_id, count,
                                   checked.new_sign_count):
        raise _bad_passkey()
    return await begin_session(auth, request, response, account, body.tokens)
