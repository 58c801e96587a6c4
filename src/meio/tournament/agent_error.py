"""The error of an outside agent, apart from the loaders that raise it (``agents`` loads
Python agents and hands ``.onnx`` files to ``onnx``, which raises it too)."""

from __future__ import annotations

from meio.engine.errors import MeioError


class AgentError(MeioError, ValueError):
    """An outside agent that cannot be loaded or does not behave as a bot."""
