"""Rated tables: who may sit, the update at the end of a match against openskill's own
computation, once however often the end is replayed (a restart, a crash before the
update), the leaderboard and the public profile."""

from __future__ import annotations

import itertools
import time
from typing import Any

from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from meio.web import create_app
from meio.web.db import open_engine
from meio.web.tablesetup import TableSetup
from tests.web.conftest import make_settings
from tests.web.helpers import Browser
from tests.web.test_accounts import PASSWORD, csrf, signup


def post(c: Any, path: str, body: dict[str, Any]) -> Any:
    return c.post(path, json=body, headers=csrf(c))


def finished(c: Any, table_id: str, timeout: float = 240.0) -> str:
    """Wait until the table's match is over and rated; returns the match id (the
    timeout guards against a hang: a loaded machine beside the stack tests took over 90 s)."""
    store = c.app.state.hub.store  # type: ignore[attr-defined]
    end = time.time() + timeout
    while time.time() < end:
        match_id = store.table(table_id).current_match
        m = store.match(match_id) if match_id else None
        if m is not None and m.finished_at is not None:
            r = c.get(f"/api/matches/{m.id}/ratings").json()
            if not r["pending"]:
                return str(m.id)
        time.sleep(0.1)
    raise AssertionError("the match did not end (and get rated) in time")


def rated_duel(a: Any, b: Any) -> tuple[dict[str, Any], str]:
    """Ana and Bia at a rated 2-player table whose 0.1 s turn timer plays every move."""
    r = post(a, "/api/tables", {"players": 2, "name": "Ana", "rated": True, "listed": False,
                                "turn_timer_s": 0.1, "seed": 11})
    assert r.status_code == 201, r.text
    table = r.json()
    r = post(b, f"/api/tables/{table['table_id']}/join",
             {"invite": table["invite"], "name": "Bia"})
    assert r.status_code == 200, r.text
    return table, finished(a, table["table_id"])


def expected(ranks: list[int], before: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """openskill's Plackett–Luce update, computed here without meio.ratings."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=[float(r) for r in ranks])]


def test_a_rated_match_updates_both_ratings_as_openskill_does_once(sqlite_url: str) -> None:
    app = create_app(make_settings(sqlite_url))
    with TestClient(app) as a:
        b = Browser(a)
        signup(a, "ana")
        signup(b, "bia")
        _, match_id = rated_duel(a, b)
        result = app.state.hub.store.match(match_id).result
        ranks = [1 if s in result["winners"] else 2 for s in range(2)]
        want = expected(ranks, [(25.0, 25 / 3)] * 2)
        got = a.get(f"/api/matches/{match_id}/ratings").json()
        assert got["rated"] and [c["seat"] for c in got["changes"]] == [0, 1]
        assert [c["name"] for c in got["changes"]] == ["ana", "bia"]
        for change, (mu, sigma) in zip(got["changes"], want, strict=True):
            assert abs(change["after"]["mu"] - mu) < 1e-9
            assert abs(change["after"]["sigma"] - sigma) < 1e-9
            assert change["after"]["games"] == 1 and change["after"]["shown"].endswith("?")
        # the end replayed: nothing changes
        assert app.state.hub.services.ratings.rate_match(match_id) is False
        winner = "ana" if 0 in result["winners"] else "bia"
        board = a.get("/api/ratings/meio-2p").json()
        assert board["players"][0]["username"] == winner
        assert all(p["games"] == 1 and p["provisional"] for p in board["players"])
    # a restart rates nothing again
    with TestClient(create_app(make_settings(sqlite_url))) as c:
        again = c.get(f"/api/matches/{match_id}/ratings").json()
        assert again == got
        assert all(p["games"] == 1 for p in c.get("/api/ratings/meio-2p").json()["players"])


def test_a_match_left_unrated_by_a_crash_is_rated_at_start_up(sqlite_url: str) -> None:
    app = create_app(make_settings(sqlite_url))
    with TestClient(app) as a:
        b = Browser(a)
        signup(a, "ana")
        signup(b, "bia")
        _, match_id = rated_duel(a, b)
        got = a.get(f"/api/matches/{match_id}/ratings").json()
    # as if the server had stopped between the last card and the update
    engine = open_engine(sqlite_url)
    with engine.begin() as conn:
        from sqlalchemy import text

        conn.execute(text("DELETE FROM meio_rating_changes"))
        conn.execute(text("DELETE FROM meio_ratings"))
    engine.dispose()
    with TestClient(create_app(make_settings(sqlite_url))) as c:
        deadline = time.time() + 10
        while (now := c.get(f"/api/matches/{match_id}/ratings").json())["pending"]:
            assert time.time() < deadline, "the unrated match was never rated"
            time.sleep(0.05)
        assert [ch["after"] for ch in now["changes"]] == [ch["after"] for ch in got["changes"]]


def test_who_may_sit_at_a_rated_table(client: TestClient) -> None:
    # a guest may not make a rated table to sit at, nor a table of bots alone be rated
    r = client.post("/api/tables", json={"players": 2, "name": "Gui", "rated": True})
    assert r.status_code == 401 and r.json()["code"] == "sign_in_to_rate"
    r = client.post("/api/tables", json={"players": 2, "rated": True,
                                         "seats": [{"kind": "bot"}, {"kind": "bot"}]})
    assert r.status_code == 422
    signup(client, "caio")
    r = post(client, "/api/tables", {"players": 3, "name": "Caio", "rated": True,
                                     "seats": [{"kind": "human"}, {"kind": "human"},
                                               {"kind": "bot", "bot": "heuristic"}]})
    assert r.status_code == 201, r.text
    table = r.json()
    assert table["table"]["rated"] is True
    join = f"/api/tables/{table['table_id']}/join"
    # the same account cannot take a second seat and be rated against itself
    r = post(client, join, {"invite": table["invite"], "name": "Caio 2", "agree_rated": True})
    assert r.status_code == 409 and r.json()["code"] == "already_seated"
    guest = Browser(client)
    r = guest.post(join, json={"invite": table["invite"], "name": "Gui"})
    assert r.status_code == 401 and r.json()["code"] == "sign_in_to_rate"
    signup(guest, "gui")
    # a table with a bot: rated only if this person agrees too
    r = post(guest, join, {"invite": table["invite"], "name": "Gui"})
    assert r.status_code == 409 and r.json()["code"] == "agree_rated"
    r = post(guest, join, {"invite": table["invite"], "name": "Gui", "agree_rated": True})
    assert r.status_code == 200, r.text


def test_the_profile_shows_ratings_and_their_history_and_no_secret(sqlite_url: str) -> None:
    app = create_app(make_settings(sqlite_url))
    with TestClient(app) as a:
        b = Browser(a)
        signup(a, "ana")
        signup(b, "bia")
        table, match_id = rated_duel(a, b)
        # a second table of Ana's, in play: nothing of it is on her public profile
        r = post(a, "/api/tables", {"players": 2, "name": "Ana", "listed": False,
                                    "seats": [{"kind": "human"}, {"kind": "human"}]})
        playing = r.json()
        post(b, f"/api/tables/{playing['table_id']}/join",
             {"invite": playing["invite"], "name": "Bia"})
        in_play = app.state.hub.store.table(playing["table_id"]).current_match
        m = app.state.hub.store.match(match_id)
        stranger = Browser(a)
        r = stranger.get("/api/players/ANA")
        assert r.status_code == 200, r.text
        body = r.json()
        assert set(body) == {"username", "since", "own", "games", "wins", "rounds",
                             "mean_round_score", "balanced_share", "matches", "ratings",
                             "history"}
        assert body["own"] is False
        assert body["username"] == "ana" and list(body["ratings"]) == ["meio-2p"]
        # games, wins and the rounds, against the stored result and the engine's replay
        from meio.engine import actions as A
        from meio.engine import replay_actions
        from meio.engine.wire import config_from_json

        state = replay_actions(config_from_json(m.config),
                               [(e.seat, A.parse_action(e.action))
                                for e in app.state.hub.store.events(match_id)])
        scores = [r.scores[0] for r in state.rounds]
        assert body["games"] == 1 and body["wins"] == int(0 in m.result["winners"])
        assert body["rounds"] == len(scores) == m.result["rounds"]
        assert body["mean_round_score"] * body["rounds"] == m.result["totals"][0]
        assert body["balanced_share"] == scores.count(0) / len(scores)
        assert [x["id"] for x in body["matches"]] == [match_id]
        assert body["matches"][0]["names"] == ["ana", "bia"]
        assert in_play not in r.text and playing["table_id"] not in r.text
        assert body["ratings"]["meio-2p"]["games"] == 1
        assert [h["match"] for h in body["history"]] == [match_id]
        text = r.text
        for secret in (table["token"], table["invite"], table["spectate"], PASSWORD):
            assert secret not in text
        assert "password" not in text and "token" not in text
        assert stranger.get("/api/players/nobody").json()["code"] == "no_player"
        r = stranger.get("/api/ratings/meio-9p")
        assert r.status_code == 404 and r.json()["code"] == "no_pool"
        for secret in (playing["token"], playing["invite"], playing["spectate"]):
            assert secret not in text
        # her own profile says so, and lists the table she sits at now
        own = a.get("/api/players/ana").json()
        assert own["own"] is True
        assert {(t["id"], t["status"]) for t in own["tables"]} == {
            (playing["table_id"], "playing"), (m.table_id, "finished")}
        assert playing["token"] not in str(own)
        # a deleted account leaves the leaderboard
        assert post(a, "/api/account/delete", {"password": PASSWORD}).status_code == 200
        assert [p["username"] for p in b.get("/api/ratings/meio-2p").json()["players"]] == ["bia"]


# -- the ledger: matches ending together, and the repair --------------------------------------
def rated_matches(url: str, count: int) -> tuple[Any, str, list[str]]:
    """``count`` finished, unrated matches of Ana against the easy bot at rated tables
    of their own (she wins the even ones); returns (engine, her account id, match ids)."""
    from sqlalchemy import update

    from meio.engine import MatchConfig
    from meio.engine.wire import config_json
    from meio.web.accounts import AccountStore
    from meio.web.db import MatchRow, migrate
    from meio.web.store import SeatInfo, Store

    engine = open_engine(url)
    migrate(engine)
    ana = AccountStore(engine).create("ana", "not a hash")
    store = Store(engine)
    ids = []
    for i in range(count):
        info = store.create_table(TableSetup(players=2), [SeatInfo(0, "human", None, None, None),
                                       SeatInfo(1, "bot", "heuristic", "Bot 2", None)],
                                  False, None, True)
        store.take_seat(info.id, 0, "Ana", f"token-{i}", ana.id)
        match = store.start_match(info.id, 1, config_json(MatchConfig(players=2, seed=i)))
        with engine.begin() as conn:
            conn.execute(update(MatchRow).where(MatchRow.id == match.id).values(
                finished_at=time.time(), result={"winners": [i % 2], "totals": [0, 0],
                                                 "victories": [1, 1], "rounds": 3}))
        ids.append(match.id)
    return engine, ana.id, ids


def test_matches_ending_together_each_count_once(db_url: str) -> None:
    """One account and one bot level end four matches at the same moment, three times
    over: twelve changes stored, twelve games counted, none lost (before: a rating read
    and written back unguarded, 9 of 12 counted)."""
    import threading

    from meio.web.rated import RatingStore, bot_player

    engine, ana, ids = rated_matches(db_url, 12)
    ratings = RatingStore(engine)
    try:
        for batch in (ids[0:4], ids[4:8], ids[8:12]):
            gate = threading.Barrier(len(batch))
            done: list[bool] = []

            def end(match_id: str, gate: threading.Barrier = gate,
                    done: list[bool] = done) -> None:
                gate.wait(10)
                done.append(ratings.rate_match(match_id))

            threads = [threading.Thread(target=end, args=(m,)) for m in batch]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
            assert done == [True] * len(batch)
        for player in (ana, bot_player("heuristic")):
            rating = ratings.ratings(player)["meio-2p"]
            assert rating.games == 12 == len([c for m in ids
                                              for c in ratings.changes_of_match(m)
                                              if c.seat == (0 if player == ana else 1)])
        # every change started from the one before it: the ledger is a chain
        changes = sorted(ratings.history(ana), key=lambda c: c.before.games)
        for a, b in itertools.pairwise(changes):
            assert b.before.mu == a.after.mu and b.before.sigma == a.after.sigma
        assert changes[-1].after == ratings.ratings(ana)["meio-2p"]
        # rated once, however often the end is replayed
        assert not any(ratings.rate_match(m) for m in ids)
    finally:
        engine.dispose()


def test_the_repair_recomputes_a_rating_from_its_stored_changes(sqlite_url: str) -> None:
    from sqlalchemy import update
    from typer.testing import CliRunner

    from meio.cli import app as cli
    from meio.web.db import RatingRow
    from meio.web.rated import RatingStore

    engine, ana, ids = rated_matches(sqlite_url, 3)
    ratings = RatingStore(engine)
    try:
        for m in ids:
            assert ratings.rate_match(m)
        right = ratings.ratings(ana)["meio-2p"]
        # as a lost update left it: a game short, the last step missing
        last = sorted(ratings.history(ana), key=lambda c: c.before.games)[-1]
        with engine.begin() as conn:
            conn.execute(update(RatingRow).where(RatingRow.player == ana).values(
                mu=last.before.mu, sigma=last.before.sigma, games=2))
        assert ratings.ratings(ana)["meio-2p"].games == 2
        result = CliRunner().invoke(cli, ["admin", "--db", sqlite_url,
                                          "--repair-ratings", "ANA"])
        assert result.exit_code == 0, result.output
        assert "meio-2p" in result.output and "3" in result.output
        fixed = ratings.ratings(ana)["meio-2p"]
        assert fixed.games == 3
        assert abs(fixed.mu - right.mu) < 1e-9 and abs(fixed.sigma - right.sigma) < 1e-9
        # a name that is no account is said so
        result = CliRunner().invoke(cli, ["admin", "--db", sqlite_url,
                                          "--repair-ratings", "nobody"])
        assert result.exit_code == 1 and "nobody" in result.output
    finally:
        engine.dispose()


def test_a_player_who_leaves_a_rated_match_forfeits_it_to_the_bot(sqlite_url: str) -> None:
    """A rated table made without a timer gets one; Bia never comes, so after her
    first timeout the bot plays her turns at once, the match ends and is rated
    (before: no timer, the match never ended, no rating changed)."""
    from tests.web.helpers import Player, play_out

    app = create_app(make_settings(sqlite_url, rated_turn_timer_s=1.0, away_turn_s=0.02))
    with TestClient(app) as a:
        b = Browser(a)
        signup(a, "ana")
        signup(b, "bia")
        r = post(a, "/api/tables", {"players": 2, "name": "Ana", "rated": True,
                                    "listed": False, "seed": 5})
        assert r.status_code == 201, r.text
        table = r.json()
        assert table["table"]["turn_timer_s"] == 1.0
        r = post(b, f"/api/tables/{table['table_id']}/join",
                 {"invite": table["invite"], "name": "Bia"})
        assert r.status_code == 200, r.text
        began = time.time()
        with a.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
            ana = Player(ws, token=table["token"])
            play_out([ana])
        match_id = finished(a, table["table_id"], timeout=60)
        events = app.state.hub.store.events(match_id)
        bia = [ev for ev in events if ev.seat == 1]
        assert bia and all(ev.source == "timeout" for ev in bia)
        # one full timer, then the bot at once: far less than a timer a move
        assert time.time() - began < len(bia) * 1.0 / 2
        got = a.get(f"/api/matches/{match_id}/ratings").json()
        assert got["rated"] and len(got["changes"]) == 2


def test_a_deleted_accounts_seat_token_gives_no_second_seat(sqlite_url: str) -> None:
    """Bia deletes her account; Ana signs in sending Bia's seat token: the seat is not
    Ana's too (before: it was, and she played herself at a rated table)."""
    app = create_app(make_settings(sqlite_url))
    with TestClient(app) as a:
        b = Browser(a)
        signup(a, "ana")
        signup(b, "bia")
        r = post(a, "/api/tables", {"players": 3, "name": "Ana", "rated": True,
                                    "listed": False})
        assert r.status_code == 201, r.text
        table = r.json()
        r = post(b, f"/api/tables/{table['table_id']}/join",
                 {"invite": table["invite"], "name": "Bia"})
        assert r.status_code == 200, r.text
        bia_token = r.json()["token"]
        r = post(b, "/api/account/delete", {"password": PASSWORD})
        assert r.status_code == 200, r.text
        post(a, "/api/account/logout", {})
        r = a.post("/api/account/login", json={"username": "ana", "password": PASSWORD,
                                               "tokens": [bia_token]})
        assert r.status_code == 200, r.text
        assert r.json()["seats_claimed"] == 0
        store = app.state.hub.store
        ana = [seat for info, seat in store.tables_of_account(
            store.table(table["table_id"]).seats[0].account_id)]
        assert ana == [0]


def test_meio_admin_reports_accounts_that_only_play_each_other(sqlite_url: str) -> None:
    """Issue 44: a second account made seconds after the first, driven by one script to
    lose rated matches to it: nothing noticed. ``meio admin --paired`` lists the pair;
    accounts that met someone else too are not listed."""
    from sqlalchemy import update
    from typer.testing import CliRunner

    from meio.cli import app as cli
    from meio.engine import MatchConfig
    from meio.engine.wire import config_json
    from meio.web.accounts import AccountStore
    from meio.web.db import MatchRow, migrate
    from meio.web.rated import RatingStore
    from meio.web.store import SeatInfo, Store

    engine = open_engine(sqlite_url)
    migrate(engine)
    accounts = AccountStore(engine)
    ids = {name: accounts.create(name, "not a hash").id
           for name in ("ana", "anb", "cid", "dora", "eli")}
    store = Store(engine)

    def play(a: str, b: str, n: int) -> None:
        info = store.create_table(TableSetup(players=2), [SeatInfo(0, "human", None, None, None),
                                       SeatInfo(1, "human", None, None, None)], False, None, True)
        store.take_seat(info.id, 0, a, f"{a}-{n}", ids[a])
        store.take_seat(info.id, 1, b, f"{b}-{n}", ids[b])
        match = store.start_match(info.id, 1, config_json(MatchConfig(players=2, seed=n)))
        with engine.begin() as conn:
            conn.execute(update(MatchRow).where(MatchRow.id == match.id).values(
                finished_at=time.time(), result={"winners": [0], "totals": [0, 0],
                                                 "victories": [2, 0], "rounds": 2}))
        assert RatingStore(engine).rate_match(match.id)

    try:
        for n in range(4):
            play("ana", "anb", n)  # a farm: ana beats her second account
        for n in range(4, 8):
            play("cid", "dora", n)  # friends, one of whom met someone else too
        play("cid", "eli", 9)
        result = CliRunner().invoke(cli, ["admin", "--db", sqlite_url, "--paired"])
        assert result.exit_code == 0, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("ana and anb: 4 rated matches"), lines
    finally:
        engine.dispose()


def test_a_seat_at_a_rated_table_is_named_by_its_account(sqlite_url: str) -> None:
    """Issue 44: a seat name at a rated table could read "Bot 2 (expert)"."""
    app = create_app(make_settings(sqlite_url))
    with TestClient(app) as a:
        b = Browser(a)
        signup(a, "ana")
        signup(b, "bia")
        r = post(a, "/api/tables", {"players": 2, "name": "Bot 1 (expert)", "rated": True,
                                    "listed": False})
        assert r.status_code == 201, r.text
        table = r.json()
        r = post(b, f"/api/tables/{table['table_id']}/join",
                 {"invite": table["invite"], "name": "Bot 2 (expert)"})
        assert r.status_code == 200, r.text
        assert [s["name"] for s in r.json()["table"]["seats"]] == ["ana", "bia"]
