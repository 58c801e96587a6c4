"""The terminal client: ``meio play`` (a match against bots) and ``meio view`` (replays)."""

from meio.tui.session import PlaySettings, Session, SessionError

__all__ = ["PlaySettings", "Session", "SessionError"]
