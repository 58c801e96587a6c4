"""Outside agents: a bot that lives in someone else's code, seated by ``module:factory``.

``meio bench --agent mypkg.agents:make`` (or ``--agent path/to/agent.py:make``) seats
the bot that ``make(seed)`` returns. The factory takes the seed of its seat and
returns a :class:`meio.bots.Bot`: an object with a ``name`` and
``choose(view, legal) -> int``. It sees only its seat's view, like every bot. The
spec itself is the bot's name in the lineups and the leaderboard, so every worker
process rebuilds the agent from it, and the benchmark document records the file's
SHA-256 when the spec names a file (:func:`describe_agent`).

``examples/bench_agent.py`` is an agent to start from.

A policy exported to ONNX plays too: ``meio bench --agent policy.onnx``. The model takes
a batch of observations (``meio-obs-v1``, 716 float32 entries) and returns one logit
per action, either the 1,812 flat actions (``meio-action-v1``; the split is then one of
the 1,716 packs) or the 96 compact ones (``meio-compact-action-v1``; the split is six
picks, as the shipped networks make it). The bot plays the legal action with the
highest logit (onnxruntime, one thread; ``pip install onnxruntime``).
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from meio.bots import Bot
from meio.bots.versions import file_sha256
from meio.tournament.agent_error import AgentError

#: ``module.path:factory`` or ``some/file.py:factory``
_SPEC = re.compile(r"^(?P<module>[^:]+):(?P<factory>[A-Za-z_]\w*)$")


def is_agent_spec(kind: str) -> bool:
    """Whether ``kind`` names an outside agent (a module or a ``.py`` file, then a
    factory, or an ``.onnx`` policy) rather than a meio bot (``learned:PATH``,
    ``search:5:PATH``, ``ismcts:N``).

    >>> is_agent_spec("examples/bench_agent.py:make_agent"), is_agent_spec("mypkg.bots:make")
    (True, True)
    >>> is_agent_spec("policy.onnx")
    True
    >>> is_agent_spec("learned:my.npz"), is_agent_spec("ismcts:20"), is_agent_spec("search:4")
    (False, False, False)
    """
    if kind.endswith(".onnx") and ":" not in kind:
        return True
    match = _SPEC.match(kind)
    if match is None:
        return False
    module = match["module"]
    return module.endswith(".py") or ("." in module and not module.startswith(
        ("learned", "search", "ismcts")))


def _load_module(module: str) -> ModuleType:
    if module.endswith(".py"):
        path = Path(module).resolve()
        if not path.is_file():
            raise AgentError(f"agent {module}: no such file")
        name = f"meio_agent_{abs(hash(str(path)))}"
        if name in sys.modules:
            return sys.modules[name]
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise AgentError(f"agent {module}: not a Python file")
        loaded = importlib.util.module_from_spec(spec)
        sys.modules[name] = loaded
        try:
            spec.loader.exec_module(loaded)
        except Exception as exc:
            del sys.modules[name]
            raise AgentError(f"agent {module}: importing it failed: {exc!r}") from exc
        return loaded
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise AgentError(f"agent {module}: cannot import it ({exc})") from None


def load_agent(kind: str, seed: int) -> Bot:
    """The bot of the outside agent ``kind`` (``module:factory`` or an ``.onnx`` file) for
    the seed ``seed``."""
    if kind.endswith(".onnx") and ":" not in kind:
        from meio.tournament.onnx import OnnxBot

        return OnnxBot(kind)
    match = _SPEC.match(kind)
    if match is None or not is_agent_spec(kind):
        raise AgentError(f"{kind!r} is not an agent: write module:factory or file.py:factory")
    module = _load_module(match["module"])
    factory = getattr(module, match["factory"], None)
    if not callable(factory):
        raise AgentError(f"agent {kind}: {match['module']} has no function {match['factory']}")
    make: Callable[[int], object] = factory
    try:
        bot = make(seed)
    except Exception as exc:
        raise AgentError(f"agent {kind}: {match['factory']}({seed}) failed: {exc!r}") from exc
    if not isinstance(bot, Bot):
        raise AgentError(f"agent {kind}: {match['factory']}({seed}) returned "
                         f"{type(bot).__name__}, not a bot (it needs a name and "
                         "choose(view, legal))")
    return bot


def describe_agent(kind: str) -> dict[str, str]:
    """What a benchmark document records of an outside agent: its spec, and the
    SHA-256 of its file when the spec names one (else of the module's file, if any)."""
    if kind.endswith(".onnx") and ":" not in kind:
        return {"agent": kind, "sha256": file_sha256(kind)}
    match = _SPEC.match(kind)
    if match is None:
        return {}
    module = _load_module(match["module"])
    source = getattr(module, "__file__", None)
    out = {"agent": kind}
    if source is not None:
        out["sha256"] = file_sha256(source)
    return out


__all__ = ["AgentError", "describe_agent", "is_agent_spec", "load_agent"]
