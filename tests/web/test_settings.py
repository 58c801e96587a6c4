"""The server's settings: one declaration each, read from the environment by its type,
and the docs' table generated from the declarations."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from meio.web.settings import (
    Settings,
    SettingsError,
    declared,
    env_name,
    env_text,
    served_default,
    settings_table,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
SETTINGS = [f for f in fields(Settings) if f.name != "database_url"]


def _other(value: Any) -> str:
    """A valid value of a setting's type other than ``value``, as its variable writes it."""
    if isinstance(value, bool):
        return "0" if value else "1"
    if isinstance(value, int):
        return str(value + 3)
    if isinstance(value, float):
        return env_text(value * 2 + 1)
    if isinstance(value, tuple):
        return "https://a.example, https://b.example/"
    return "https://play.example.org/"


def test_every_setting_has_its_own_variable_and_a_description() -> None:
    names = [env_name(f) for f in fields(Settings)]
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"MEIO_[A-Z_]+|DATABASE_URL", n) for n in names)
    assert all(declared(f).doc for f in fields(Settings))


@pytest.mark.parametrize("f", SETTINGS, ids=lambda f: f.name)
def test_each_variable_parses_its_default_and_another_value(f: Any) -> None:
    """Written as the docs write its default, a variable gives the declared default
    (the docs and the declaration agree); another value is read as that value."""
    default = served_default(f)
    written = env_text(default)
    if written:
        got = Settings.from_env("sqlite://", environ={env_name(f): written})
        assert getattr(got, f.name) == default
    other = _other(default)
    got = getattr(Settings.from_env("sqlite://", environ={env_name(f): other}), f.name)
    assert got != default
    assert env_text(got) == other.replace(" ", "").rstrip("/").replace("/,", ",")


@pytest.mark.parametrize("f", [f for f in SETTINGS if declared(f).parse is None],
                         ids=lambda f: f.name)
def test_a_variable_that_cannot_be_read_is_refused_by_name(f: Any) -> None:
    with pytest.raises(SettingsError, match=f"^{env_name(f)} must be .*'soon'"):
        Settings.from_env("sqlite://", environ={env_name(f): "soon"})


def test_numbers_out_of_range_are_refused() -> None:
    for env, line in [("MEIO_MAX_SOCKETS", "MEIO_MAX_SOCKETS must be a finite number, 0 or "
                                           "more, not -1"),
                      ("MEIO_BOT_DELAY", "MEIO_BOT_DELAY must be a finite number, 0 or "
                                         "more, not -1"),
                      ("MEIO_SWITCH_INTERVAL_MS", "MEIO_SWITCH_INTERVAL_MS must be a finite "
                                                  "number above 0, not -1")]:
        with pytest.raises(SettingsError, match=f"^{re.escape(line)}$"):
            Settings.from_env("sqlite://", environ={env: "-1"})
    with pytest.raises(SettingsError, match="not nan"):
        Settings.from_env("sqlite://", environ={"MEIO_LEASE_TTL": "nan"})
    with pytest.raises(SettingsError, match=r"whole number, not '1\.5'"):
        Settings.from_env("sqlite://", environ={"MEIO_LOBBY_PAGE": "1.5"})


def test_served_defaults_differ_from_code_defaults_only_where_declared() -> None:
    served = Settings.from_env("sqlite://", environ={})
    built = Settings(database_url="sqlite://")
    differ = {f.name for f in SETTINGS if getattr(served, f.name) != getattr(built, f.name)}
    assert differ == {"warm_core", "think_processes"}
    assert served.warm_core and served.think_processes == 1


def test_an_empty_variable_leaves_the_default_and_the_site_names_the_origin() -> None:
    env = {"MEIO_BOT_DELAY": "", "MEIO_PUBLIC_ORIGIN": "", "MEIO_SITE": "play.example.org"}
    s = Settings.from_env("sqlite://", environ=env)
    assert s.bot_delay_s == 0.7 and s.public_origin == "https://play.example.org"
    s = Settings.from_env("sqlite://", environ={**env, "MEIO_PUBLIC_ORIGIN": "https://x.org/"})
    assert s.public_origin == "https://x.org"
    assert Settings.from_env("sqlite://", environ={"MEIO_SITE": ":80"}).public_origin is None
    db = Settings.from_env(environ={"DATABASE_URL": "postgres://u@h/db"}).database_url
    assert db == "postgresql+psycopg://u@h/db"


def test_the_docs_hold_the_generated_table() -> None:
    text = DOCS.read_text(encoding="utf-8")
    m = re.search(r"<!-- settings table: begin -->\n(.*?)<!-- settings table: end -->",
                  text, re.S)
    assert m is not None, "docs/deploy.md lost its settings table's markers"
    assert m.group(1) == settings_table(), (
        "docs/deploy.md's settings table is out of date: paste `python -m meio.web.settings`")
    # and the table names every variable, each once
    for f in fields(Settings):
        assert m.group(1).count(f"| `{env_name(f)}` |") == 1
