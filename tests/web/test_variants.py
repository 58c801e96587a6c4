"""A web table created with a rule variant (docs/variants.md, docs/web.md): the API
reads it or refuses it whole, and its matches are played, stored, rebuilt and
exported with the variant."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from meio.cli import app as cli
from meio.engine.record import Record, replay_record
from meio.engine.ruleset_file import variant_json
from meio.engine.wire import config_from_json
from meio.web import create_app
from tests.web.conftest import create, make_settings
from tests.web.helpers import Player, assert_no_leak, next_id

SIX_SEVEN = (Path(__file__).parents[2] / "examples" / "variants" / "six-seven.toml").read_text()
TABLE: dict[str, Any] = {
    "players": 4, "name": "Ana", "seed": 20, "variant": SIX_SEVEN,
    "variant_file": "six-seven.toml",
    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"},
              {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"}],
}


def _open_tables(c: TestClient) -> int:
    return int(c.app.state.hub.store.open_tables(None).total)  # type: ignore[attr-defined]


def _pack_size(view: dict[str, Any]) -> int:
    variant = view["config"].get("variant")
    return 6 if variant is None else int(variant["hand"]["pack"])


def choose_variant(view: dict[str, Any]) -> str | None:
    """A legal action for a seat's view, the split sized by the view's own variant."""
    seat = view["seat"]
    if view["is_over"] or seat is None:
        return None
    if view["phase"] == "split":
        return None if view["split_done"][seat] else \
            "pack:" + ",".join(view["hand"][: _pack_size(view)])
    return view["legal"][0] if view["legal"] else None


def play_to_end(p: Player) -> None:
    for _ in range(3000):
        if p.view is not None and p.view["is_over"]:
            return
        action = None if p.view is None else choose_variant(p.view)
        if action is None:
            p.until(lambda f: f["type"] in ("event", "snapshot"))
            continue
        answer = p.split(action) if action.startswith("pack:") else p.act(action)
        assert answer["type"] == "ack", answer
    raise AssertionError("the match did not end")


# -- creating ------------------------------------------------------------------------------
def test_a_table_created_with_a_variant_shows_its_name_and_sizes(client: TestClient) -> None:
    made = create(client, **TABLE)
    facts = made["table"]["variant"]
    assert facts == {"name": "six-seven", "hand": 13, "first_half": 6, "pack": 7,
                     "trump": "H", "specials": 5}
    lobby = client.get("/api/lobby").json()["tables"]
    assert lobby == [] or all(t["variant"] is None or t["variant"]["name"] == "six-seven"
                              for t in lobby)
    # a free seat: the table is in the lobby with its variant
    open_one = create(client, players=2, variant=SIX_SEVEN)
    row = next(t for t in client.get("/api/lobby").json()["tables"]
               if t["id"] == open_one["table_id"])
    assert row["variant"]["first_half"] == 6 and row["variant"]["pack"] == 7
    # a standard table says it has none
    assert create(client, players=2)["table"]["variant"] is None


def test_a_preset_name_is_a_variant_too(client: TestClient) -> None:
    made = create(client, players=3, variant="classic")
    assert made["table"]["variant"]["name"] == "classic"
    assert made["table"]["edition"] == "classic"


@pytest.mark.parametrize(("variant", "status", "expected"), [
    ('preset = "meio"\n[hand\n', 422, "your variant: not valid TOML"),
    ('preset = "meio"\n[hand]\nsize = 13\nfirst_half = 8\npack = 6\n', 422,
     "your variant: hand: pack sizes 8 + 6 do not add up to the hand of 13"),
    ('preset = "meio"\ncolour = "blue"\n', 422, "your variant: colour: unknown key"),
    ('preset = "chess"\n', 422, "your variant: preset: unknown preset 'chess'"),
    ("", 422, "your variant: empty"),
    ("# " + "x" * 17000 + "\n", 413, "your variant: 17003 bytes"),
    ("a = " + "[" * 5000 + "]" * 5000 + "\n", 422, "your variant: not a variant"),
    ('preset = "meio"\nname = "' + "n" * 41 + '"\n', 422, "your variant: name: a name on a web"),
    ('preset = "meio"\nname = "a\\u0007b"\n', 422, "your variant: name: a name on a web"),
])
def test_a_bad_variant_is_refused_with_its_problems_and_nothing_is_made(
        client: TestClient, variant: str, status: int, expected: str) -> None:
    r = client.post("/api/tables", json={**TABLE, "variant": variant, "variant_file": None})
    assert r.status_code == status, r.text
    body = r.json()
    assert body["code"] == "bad_variant"
    assert body["problems"] and all("\n" not in p and len(p) <= 300 for p in body["problems"])
    assert any(p.startswith(expected) for p in body["problems"]), body["problems"]
    assert body["detail"] == body["problems"][0]
    assert _open_tables(client) == 0
    # the server is unaffected: a good table is made next
    assert create(client, **TABLE)["table"]["variant"]["name"] == "six-seven"


def test_every_problem_of_an_uploaded_variant_is_listed_under_its_file_name(
        client: TestClient) -> None:
    text = 'preset = "meio"\ntrump = "X"\nleader = "oldest"\n[hand]\nfirst_half = 8\n'
    r = client.post("/api/tables", json={**TABLE, "variant": text, "variant_file": "mine.toml"})
    assert r.status_code == 422
    problems = r.json()["problems"]
    assert all(p.startswith("mine.toml: ") for p in problems)
    assert {"hand", "trump", "leader"} <= {p.split(": ")[1] for p in problems}


def test_a_pasted_variant_without_a_name_is_not_called_by_its_preset(
        client: TestClient) -> None:
    made = create(client, **{**TABLE, "variant_file": None})
    assert made["table"]["variant"]["name"] == "variant"


@pytest.mark.parametrize(("change", "code", "expected"), [
    ({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "ppo"}]}, "bad_variant",
     "seat 2: the ppo bot does not play variants"),
    ({"rated": True}, "variant_unrated", "a variant table is not rated"),
    ({"edition": "classic"}, "bad_variant", "with a variant, edition come from the variant"),
    ({"wild_lead": "next"}, "bad_variant", "with a variant, wild_lead come from the variant"),
])
def test_what_a_variant_table_may_not_have_is_refused(
        client: TestClient, change: dict[str, Any], code: str, expected: str) -> None:
    body = {**TABLE, "players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}], **change}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["code"] == code and r.json()["detail"].startswith(expected), r.text
    assert _open_tables(client) == 0


def test_a_variant_table_size_it_has_no_deck_for_is_refused(client: TestClient) -> None:
    two_only = 'preset = "meio"\n[deck]\n3 = false\n4 = false\n5 = false\n'
    r = client.post("/api/tables", json={**TABLE, "variant": two_only})
    assert r.status_code == 422 and "players" in r.json()["detail"], r.text
    assert _open_tables(client) == 0


def test_the_lobby_is_told_which_bots_play_variants(client: TestClient) -> None:
    offered = client.get("/api/bots").json()["variant_bots"]
    # every level a lobby offers, the hints' search, the network for any ruleset and
    # the search standing on it included; not the kinds standing on the editions' network
    assert {"random", "heuristic", "search", "expert", "search:1", "search:3",
            "learned", "search:5", "search:6"} <= set(offered)
    assert not {"learned-v7", "ppo"} & set(offered)


# -- playing -------------------------------------------------------------------------------
def test_a_whole_six_seven_match_is_played_over_the_socket_and_exported(
        client: TestClient, tmp_path: Path) -> None:
    made = create(client, **TABLE)
    with client.websocket_connect("/ws/tables/" + made["table_id"]) as ws:
        p = Player(ws, token=made["token"])
        p.until(lambda f: f["type"] == "snapshot")
        assert p.seen["config"]["variant"]["hand"] == {"size": 13, "first_half": 6, "pack": 7}
        play_to_end(p)
        match_id = p.match
        frames = list(p.frames)
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    m = store.match(match_id)
    config = config_from_json(m.config)
    assert config.variant is not None and config.first_half_size == 6
    # the seat's frames named no card it could not see then; the ruleset they carry
    # (which the leak check does not read) is the table's, whole and no more
    assert all(f["view"]["config"]["variant"] == variant_json(config.variant)
               for f in frames if f["type"] in ("snapshot", "event"))
    actions = [(ev.seat, ev.action) for ev in store.events(match_id)]
    assert assert_no_leak(config, actions, 0, frames) > 50
    # every split made was a pack of 7
    packs = [a for _, a in actions if a.startswith("pack:")]
    assert packs and all(len(a[5:].split(",")) == 7 for a in packs)
    record = client.get(f"/api/matches/{match_id}/record").json()
    assert record["variant"]["name"] == "six-seven"
    assert record["variant"]["hand"]["first_half"] == 6
    state, _ = replay_record(Record.from_json(record))
    assert state.is_over and state.config.variant == config.variant
    path = tmp_path / "web.json"
    path.write_text(json.dumps(record))
    replayed = CliRunner().invoke(cli, ["replay", str(path)])
    assert replayed.exit_code == 0 and "variant six-seven" in replayed.output, replayed.output
    summary = client.post("/api/history", json={"tokens": [made["token"]]}).json()["matches"]
    assert summary[0]["variant"] == "six-seven"


def test_a_restarted_server_rebuilds_the_variant_table(sqlite_url: str) -> None:
    settings = make_settings(sqlite_url)
    with TestClient(create_app(settings)) as c:
        made = create(c, **TABLE)
        with c.websocket_connect("/ws/tables/" + made["table_id"]) as ws:
            p = Player(ws, token=made["token"])
            p.until(lambda f: f["type"] == "snapshot")
            view = p.seen
            assert choose_variant(view) is not None
            pack = choose_variant(view)
            assert pack is not None and p.split(pack)["type"] == "ack"
            seq, match = p.seq, p.match
    with TestClient(create_app(settings)) as c:
        info = c.app.state.hub.store.table(made["table_id"])  # type: ignore[attr-defined]
        assert info.options.variant is not None and info.options.variant.name == "six-seven"
        with c.websocket_connect("/ws/tables/" + made["table_id"]) as ws:
            p = Player(ws, token=made["token"], since={"match": match, "seq": seq})
            assert p.welcome["table"]["variant"]["pack"] == 7
            p.until(lambda f: f["type"] in ("snapshot", "event"))
            assert p.seen["config"]["variant"]["hand"]["first_half"] == 6
            assert p.seen["split_done"][0]
            play_to_end(p)
            assert len(p.seen["rounds"]) >= 3


def test_the_advisor_advises_on_a_variant_tables_split(client: TestClient) -> None:
    made = create(client, **TABLE)
    with client.websocket_connect("/ws/tables/" + made["table_id"]) as ws:
        p = Player(ws, token=made["token"])
        p.until(lambda f: f["type"] == "snapshot")
        mid = next_id()
        ws.send_json({"type": "advise", "id": mid})
        answer = p.until(lambda f: f.get("id") == mid)
        assert answer["type"] == "advice", answer
        assert len(answer["best"]["pack"]) == 7  # six-seven: a pack of 7
        mid = next_id()
        ws.send_json({"type": "advise", "id": mid, "pack": answer["best"]["pack"][:6]})
        wrong = p.until(lambda f: f.get("id") == mid)
        assert wrong["type"] == "reject" and "a pack is 7 different cards" in wrong["reason"]


def test_a_variant_in_a_socket_message_is_one_error_and_changes_nothing(
        client: TestClient) -> None:
    made = create(client, players=2, name="Ana", seed=3,
                  seats=[{"kind": "human"}, {"kind": "bot"}])
    with client.websocket_connect("/ws/tables/" + made["table_id"]) as ws:
        p = Player(ws, token=made["token"])
        p.until(lambda f: f["type"] == "snapshot")
        before = p.seen
        start = len(p.frames)
        ws.send_json({"type": "act", "id": "v1", "seq": p.seq, "action": "QS",
                      "variant": SIX_SEVEN})
        err = p.until(lambda f: f["type"] == "error")
        assert err["code"] == "bad_message" and "variant" in err["reason"]
        ws.send_json({"type": "ping"})
        p.until(lambda f: f["type"] == "pong")
        # the bot may split meanwhile (an event, which raced the pong on a busy
        # machine); nothing of Ana's moved and the table is no variant
        assert all(f["actor"] != 0 for f in p.frames[start:] if f["type"] == "event")
        assert p.seen["hand"] == before["hand"] and not p.seen["split_done"][0]
        assert p.seen["config"].get("variant") is None
    info = client.app.state.hub.store.table(made["table_id"])  # type: ignore[attr-defined]
    assert info.options.variant is None


def test_a_variant_that_hides_its_specials_shows_no_hidden_card(client: TestClient) -> None:
    hidden = ('preset = "meio"\nname = "hidden"\n[hand]\nsize = 12\nfirst_half = 6\n'
              'pack = 6\n[options]\nreveal_specials = false\n')
    made = create(client, players=3, name="Ana", seed=5, variant=hidden,
                  seats=[{"kind": "human"}, {"kind": "bot", "bot": "heuristic"},
                         {"kind": "bot", "bot": "random"}])
    assert made["table"]["specials"] is None and made["table"]["variant"]["hand"] == 12
    tid = made["table_id"]
    spectate = made["spectate"]
    with client.websocket_connect("/ws/tables/" + tid) as ws, \
            client.websocket_connect("/ws/tables/" + tid) as ws2:
        p = Player(ws, token=made["token"])
        watcher = Player(ws2, spectate=spectate)
        p.until(lambda f: f["type"] == "snapshot")
        assert len(p.seen["hand"]) == 12
        play_to_end(p)
        watcher.until(lambda f: f.get("view") is not None and f["view"]["is_over"])
        match_id = p.match
        seat_frames, watcher_frames = list(p.frames), list(watcher.frames)
    store = client.app.state.hub.store  # type: ignore[attr-defined]
    config = config_from_json(store.match(match_id).config)
    actions = [(ev.seat, ev.action) for ev in store.events(match_id)]
    assert config.special_count == 3 and not config.public().specials
    # the leak check counts the match's specials as known: which ones are in is checked here
    views = [f["view"] for f in watcher_frames if f.get("view")]
    assert views and all(v["config"]["specials"] == [] for v in views)
    played = {c for _, a in actions for c in [a.split("=")[0]]}
    assert all(set(v["specials"]) <= played for v in views)
    assert assert_no_leak(config, actions, 0, seat_frames) > 30
    assert assert_no_leak(config, actions, None, watcher_frames) > 30


def test_a_variant_match_is_on_the_profile_but_not_in_its_round_figures_nor_rated(
        sqlite_url: str) -> None:
    import time

    from tests.web.test_accounts import csrf, signup

    with TestClient(create_app(make_settings(sqlite_url))) as c:
        signup(c, "ana")
        # a 0.1 s turn timer plays every move of hers (by the heuristic, which plays variants)
        r = c.post("/api/tables", headers=csrf(c), json={
            **TABLE, "players": 2, "turn_timer_s": 0.1, "listed": False,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]})
        assert r.status_code == 201, r.text
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        end = time.time() + 90
        while (m := store.match(store.table(r.json()["table_id"]).current_match)) \
                .finished_at is None:
            assert time.time() < end, "the match did not end in time"
            time.sleep(0.1)
        body = c.get("/api/players/ana").json()
        assert body["games"] == 1 and [x["id"] for x in body["matches"]] == [m.id]
        assert body["matches"][0]["variant"] == "six-seven"
        # its rounds, scored by the variant's rules, are not averaged with the editions'
        assert body["rounds"] == 0 and body["mean_round_score"] is None
        assert body["ratings"] == {} and body["history"] == []
