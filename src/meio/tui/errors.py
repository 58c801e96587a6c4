"""The terminal's error: settings or a saved game it cannot start from."""

from __future__ import annotations

from meio.engine import MeioError


class SessionError(MeioError, ValueError):
    """Settings or a saved game the terminal cannot start from."""
