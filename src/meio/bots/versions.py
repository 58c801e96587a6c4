"""Bot names that never change meaning: every shipped bot has a versioned name.

A name like ``learned`` is an *alias*: it means the current version of that bot
(today ``learned-v7``) and will move when a better network ships. A name with ``-any``
(``heuristic-any``, ``search:3-any``, ``learned-any``) is the bot's general path on
every ruleset, the editions included (the general switch, :mod:`meio.bots.registry`);
its versions are ``heuristic-any-v1``, ``search:3-any-v1``, ``learned-any-v1``. A versioned name
(``learned-v7``, ``ppo-v1``, ``search:4-v1``) always plays the same bot; a result
that names one can be rerun years later. A bot that reads weights pins their
SHA-256 here, so replacing a shipped file without a new version name fails the
tests (``tests/bots/test_versions.py``), and ``meio bench`` records, for every bot
it seats, the version it resolved to and the weights' hash.

The encodings have versioned ids too (as PettingZoo's ``_vN`` environments): a
policy or a dataset names the observation and action layout it was made with.

>>> resolve("learned").name
'learned-v7'
>>> resolve("search:4-v1").alias
'search:4'
>>> resolve("expert").name
'search:4-v1'
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from meio.engine.errors import MeioError

#: the observation of :mod:`meio.bots.observation` (716 float32 entries)
OBSERVATION_ENCODING = "meio-obs-v1"
#: the flat action space of :mod:`meio.bots.spaces` (1,812 actions, 1,716 packs)
ACTION_ENCODING = "meio-action-v1"
#: the compact action space: the 83 play, declare and pile actions and 13 split picks
#: (96 outputs; :data:`meio.bots.spaces.COMPACT_ACTIONS`), what the learned bots read
COMPACT_ACTION_ENCODING = "meio-compact-action-v1"

#: the attribute encoding of any ruleset (:mod:`meio.bots.attributes`, 1,941 entries)
ANY_OBSERVATION_ENCODING = "meio-any-obs-v1"
#: the general network's outputs: the 83 play, declare and pile actions, then a pick of
#: each card id for the pack (148; :mod:`meio.bots.general`)
ANY_ACTION_ENCODING = "meio-any-action-v1"

_POLICIES = Path(__file__).resolve().parent / "policies"


class UnknownVersionError(MeioError, ValueError):
    """A bot name that is neither a shipped alias nor a shipped version."""


@dataclass(frozen=True, slots=True)
class BotVersion:
    """One shipped bot, under the name that never changes meaning."""

    name: str  #: the versioned name, e.g. ``learned-v7``
    alias: str  #: the moving name that means the current version, e.g. ``learned``
    about: str  #: what it plays, in a line
    weights: str | None = None  #: the policy file it reads, under ``meio/bots/policies``
    sha256: str | None = None  #: the SHA-256 of that file, pinned
    observation: str | None = None  #: the observation encoding it reads, if any
    actions: str | None = None  #: the action encoding of its outputs, if any

    @property
    def weights_path(self) -> Path | None:
        return None if self.weights is None else _POLICIES / self.weights

    def to_json(self) -> dict[str, str]:
        """What a benchmark document records of the bot (absent fields left out)."""
        out = {"version": self.name}
        for key in ("weights", "sha256", "observation", "actions"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


_DISTIL = "distil-4p.npz"
_DISTIL_SHA = "53a601995c01e8000aefd8bc06e0bc5a9a12938c22c7c3332ea94919a7015751"
_ANY = "any-v1.npz"
_ANY_SHA = "3a296715c276a6c0ff5e135e42908555a7e739a351e9fc244794ab94573a8da7"
_PPO = "ppo-4p.npz"
_PPO_SHA = "afcc3d23da4dfaf7a483797ed136ba0a64bc4f408afccf3719e0a264fb6479d8"
_NET = {"observation": OBSERVATION_ENCODING, "actions": COMPACT_ACTION_ENCODING}

#: every shipped version; an alias means the one listed here under it
VERSIONS: tuple[BotVersion, ...] = (
    BotVersion("random-v1", "random", "uniform over the legal actions"),
    BotVersion("heuristic-v1", "heuristic", "the rule-based bot (meio.bots.heuristic)"),
    BotVersion("heuristic-any-v1", "heuristic-any",
               "heuristic-v1's general path on every ruleset: the heuristic of any ruleset "
               "(meio.bots.variant_play), the editions included"),
    *(BotVersion(f"search:{level}-v1", f"search:{level}",
                 f"determinized search, level {level} (meio.bots.search)")
      for level in (1, 2, 3, 4)),
    *(BotVersion(f"search:{level}-any-v1", f"search:{level}-any",
                 f"search:{level}-v1's general path on every ruleset: the heuristic of any "
                 "ruleset in its playouts and split, the editions included")
      for level in (1, 2, 3, 4)),
    BotVersion("search:5-v1", "search:5", "search:4 standing on learned-v7's network",
               _DISTIL, _DISTIL_SHA, **_NET),
    BotVersion("search:6-v1", "search:6", "search:5 with the network playing its worlds out",
               _DISTIL, _DISTIL_SHA, **_NET),
    BotVersion("learned-v7", "learned", "the network distilled from search, seventh version",
               _DISTIL, _DISTIL_SHA, **_NET),
    BotVersion("learned-any-v1", "learned-any",
               "the network for any ruleset, first version (meio.bots.general); what "
               "learned plays off the editions", _ANY, _ANY_SHA,
               observation=ANY_OBSERVATION_ENCODING, actions=ANY_ACTION_ENCODING),
    BotVersion("ppo-v1", "ppo", "the policy trained by PPO against the compiled heuristic",
               _PPO, _PPO_SHA, **_NET),
)
#: further aliases of a version (``expert`` and ``search`` are names of the levels)
EXTRA_ALIASES = {"expert": "search:4-v1", "search": "search:2-v1",
                 "expert-any": "search:4-any-v1"}

_BY_NAME = {v.name: v for v in VERSIONS}
#: the versioned names, in the order of :data:`VERSIONS`
VERSION_NAMES: tuple[str, ...] = tuple(_BY_NAME)
_BY_ALIAS = {v.alias: v for v in VERSIONS} | {a: _BY_NAME[n] for a, n in EXTRA_ALIASES.items()}


def resolve(name: str) -> BotVersion:
    """The shipped version a bot name means: itself when versioned, the current one for
    an alias. Raises :class:`UnknownVersionError` for any other name."""
    found = _BY_NAME.get(name) or _BY_ALIAS.get(name)
    if found is None:
        raise UnknownVersionError(f"{name!r} is not a shipped bot; shipped versions: "
                                  f"{', '.join(_BY_NAME)}")
    return found


def file_sha256(path: str | Path) -> str:
    """The SHA-256 of a file, in hex."""
    return _file_sha256(str(path))


@lru_cache(maxsize=16)
def _file_sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def describe_bot(name: str) -> dict[str, str]:
    """What a benchmark records of the bot it seats as ``name``: the version it resolved
    to and, for a policy file, its SHA-256 (``learned:PATH`` records the file's hash and
    no version; a name that is no shipped bot, e.g. an outside agent, records nothing).

    >>> describe_bot("heuristic")
    {'version': 'heuristic-v1'}
    """
    for prefix in ("learned:", "search:5:", "search:6:"):
        if name.startswith(prefix):
            path = name[len(prefix):]
            return {"weights": path, "sha256": file_sha256(path),
                    "observation": OBSERVATION_ENCODING, "actions": COMPACT_ACTION_ENCODING}
    try:
        return resolve(name).to_json()
    except UnknownVersionError:
        return {}


__all__ = ["ACTION_ENCODING", "ANY_ACTION_ENCODING", "ANY_OBSERVATION_ENCODING",
           "COMPACT_ACTION_ENCODING", "EXTRA_ALIASES", "OBSERVATION_ENCODING", "VERSIONS",
           "VERSION_NAMES", "BotVersion", "UnknownVersionError", "describe_bot", "file_sha256",
           "resolve"]
