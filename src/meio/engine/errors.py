"""The errors the engine raises. All subclass :class:`MeioError`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class MeioError(Exception):
    """Base class of every error meio raises on purpose.

    ``template`` and its values, where given, are the message before the values went in
    (kept as ``message_template`` and ``message_params``), so that a client can show it
    in the player's language; ``str(error)`` is the English.

    >>> e = MeioError(template="{text} is not a card code", text="'ZZ'")
    >>> str(e), e.message_template, e.message_params
    ("'ZZ' is not a card code", '{text} is not a card code', {'text': "'ZZ'"})
    """

    def __init__(self, *args: Any, template: str | None = None, **values: Any) -> None:
        if template is not None and not args:
            args = (template.format(**values),)
        super().__init__(*args)
        self.message_template = template
        self.message_params = values


class CardError(MeioError, ValueError):
    """A card, suit or action text that cannot be read."""


class ConfigError(MeioError, ValueError):
    """A match configuration the rules do not allow.

    ``field`` names the setting at fault (``players``, ``specials``, ``wild_lead``...)
    where one is; None otherwise.
    """

    def __init__(self, *args: Any, field: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.field = field


class IllegalActionError(MeioError, ValueError):
    """An action the rules do not allow in this position; the state is unchanged.

    ``seat`` is the seat that tried to act, ``action`` the action (an int, see
    :mod:`meio.engine.actions`) and ``reason`` a sentence a player understands,
    in English. ``code`` and ``params`` say the same for a client that translates
    (a key of :data:`meio.engine.reasons.REASONS` and its JSON-friendly values);
    ``code`` is None for errors about using the API rather than about the rules.
    """

    def __init__(
        self,
        seat: int | None,
        action: object,
        reason: str,
        *,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        self.seat = seat
        self.action = action
        self.reason = reason
        self.code = code
        self.params: dict[str, Any] = dict(params or {})
        who = "" if seat is None else f"seat {seat}: "
        super().__init__(f"{who}{reason}")


class RecordError(MeioError, ValueError):
    """A game record that is malformed or breaks a rule.

    ``round`` and ``play`` are 1-based (``None`` where they do not apply); the
    message reads like ``round 2, play 17 (seat 3): 5C does not follow the led suit S``.
    Where the record breaks a rule of play, ``code`` and ``params`` are those of the
    :class:`IllegalActionError` (see :mod:`meio.engine.reasons`); otherwise ``code``
    is None.
    """

    def __init__(
        self,
        reason: str,
        *,
        round: int | None = None,
        play: int | None = None,
        seat: int | None = None,
        field: str | None = None,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        self.reason = reason
        self.code = code
        self.params: dict[str, Any] = dict(params or {})
        self.round = round
        self.play = play
        self.seat = seat
        self.field = field
        parts: list[str] = []
        if round is not None:
            parts.append(f"round {round}")
        if play is not None:
            parts.append(f"play {play}")
        elif field is not None:
            parts.append(f"field {field}")
        where = ", ".join(parts)
        if seat is not None:
            where = f"{where} (seat {seat})" if where else f"seat {seat}"
        super().__init__(f"{where}: {reason}" if where else reason)
