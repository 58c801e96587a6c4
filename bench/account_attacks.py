"""Issue 44's attacks on accounts and ratings, at their sizes, against a real ``meio serve``.

The thinking attacks are ``bench/fair_share.py``'s; these are the others whose bounds
docs/web.md ("Security and limits") states:

* ``lockout:A:N``: an owner signs up; then N wrong guesses of the owner's password
  from each of A addresses; then the owner signs in from their own address. Prints the
  owner's answer and its time, and what the guessers were answered (before: the owner
  got 429 after five guesses from each of six addresses);
* ``flood:N:A``: N wrong guesses at once (each for another username, so that every one
  is hashed) from A addresses, and, while they are in line, a genuine sign-in from an
  address of its own. Prints its time beside the same sign-in with no flood (before:
  150 guesses from 15 addresses made it take 26.9 s, 0.2 s idle);
* ``ratings:T:K``: T trials of one account ending K rated matches at the same moment
  (threads behind a barrier, ``RatingStore.rate_match`` as the server calls it when a
  match ends), on the database of ``--db-url`` (default a fresh SQLite file). Prints
  the trials whose account counted fewer games than the changes stored (before: 36
  of 40 trials lost an update) and the total of each.

    .venv/bin/python bench/account_attacks.py --attack lockout:6:5 \\
        --attack flood:150:15 --attack ratings:40:4 --src src

Prints one JSON object a line, with the load average.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from fair_share import Server, http

PASSWORD = "correct horse battery"
OWNER = "127.0.0.1"


def timed_sign_in(base: str, address: str, username: str) -> tuple[int, float]:
    with http(address) as c:
        began = time.perf_counter()
        status = c.post(f"{base}/api/account/login",
                        json={"username": username, "password": PASSWORD}).status_code
        return status, time.perf_counter() - began


def sign_up(base: str, username: str) -> None:
    with http(OWNER) as c:
        r = c.post(f"{base}/api/account/signup",
                   json={"username": username, "password": PASSWORD})
        r.raise_for_status()


def lockout(base: str, addresses: int, guesses: int) -> dict[str, Any]:
    sign_up(base, "iris")
    answers: dict[int, int] = {}
    waits: list[float] = []
    for a in range(addresses):
        with http(f"127.0.0.{20 + a}") as c:
            for i in range(guesses):
                r = c.post(f"{base}/api/account/login",
                           json={"username": "iris", "password": f"guess-{i:04d}"})
                answers[r.status_code] = answers.get(r.status_code, 0) + 1
                if r.status_code == 429:
                    waits.append(float(r.json().get("params", {}).get("seconds", 0)))
    status, took = timed_sign_in(base, OWNER, "iris")
    return {"owner_status": status, "owner_s": round(took, 3),
            "guesses_answered": {str(k): v for k, v in sorted(answers.items())},
            "guesser_wait_max_s": max(waits, default=0.0)}


def flood(base: str, guesses: int, addresses: int) -> dict[str, Any]:
    sign_up(base, "iris")
    idle = [timed_sign_in(base, "127.0.0.99", "iris")[1] for _ in range(3)]

    def guess(i: int) -> int:
        with http(f"127.0.0.{20 + i % addresses}") as c:
            return c.post(f"{base}/api/account/login",
                          json={"username": f"user{i}",
                                "password": f"wrong-guess-{i}"}).status_code

    with concurrent.futures.ThreadPoolExecutor(max_workers=guesses) as pool:
        sent = [pool.submit(guess, i) for i in range(guesses)]
        time.sleep(0.5)                      # the guesses are in line
        status, took = timed_sign_in(base, "127.0.0.99", "iris")
        codes = [f.result() for f in sent]
    return {"owner_status": status, "owner_s": round(took, 3),
            "owner_idle_s": round(sorted(idle)[1], 3),
            "guesses_answered": {str(c): codes.count(c) for c in sorted(set(codes))}}


def ratings(url: str, trials: int, together: int) -> dict[str, Any]:
    """``trials`` rounds of ``together`` matches of one account ending at once."""
    from sqlalchemy import update

    from meio.engine import MatchConfig
    from meio.engine.wire import config_json
    from meio.web.accounts import AccountStore
    from meio.web.db import MatchRow, migrate, open_engine
    from meio.web.rated import RatingStore
    from meio.web.store import SeatInfo, Store
    from meio.web.tablesetup import TableSetup

    engine = open_engine(url)
    migrate(engine)
    store = Store(engine)
    rating = RatingStore(engine)
    lost = 0
    counted = stored = 0
    try:
        for trial in range(trials):
            account = AccountStore(engine).create(f"p{trial}", "not a hash").id
            ids = []
            for i in range(together):
                info = store.create_table(
                    TableSetup(players=2),
                    [SeatInfo(0, "human", None, None, None),
                     SeatInfo(1, "bot", "heuristic", "Bot 2", None)], False, None, True)
                store.take_seat(info.id, 0, "P", f"t-{trial}-{i}", account)
                match = store.start_match(info.id, 1,
                                          config_json(MatchConfig(players=2, seed=i)))
                with engine.begin() as conn:
                    conn.execute(update(MatchRow).where(MatchRow.id == match.id).values(
                        finished_at=time.time(),
                        result={"winners": [i % 2], "totals": [0, 0], "victories": [1, 1],
                                "rounds": 3}))
                ids.append(match.id)
            gate = threading.Barrier(together)

            def end(match_id: str, gate: threading.Barrier = gate) -> None:
                gate.wait(30)
                rating.rate_match(match_id)

            threads = [threading.Thread(target=end, args=(m,)) for m in ids]
            for t in threads:
                t.start()
            for t in threads:
                t.join(120)
            games = sum(r.games for r in rating.ratings(account).values())
            changes = sum(1 for m in ids for c in rating.changes_of_match(m) if c.seat == 0)
            counted += games
            stored += changes
            lost += games != changes
    finally:
        engine.dispose()
    return {"database": url.split(":", 1)[0], "trials": trials, "together": together,
            "trials_that_lost_an_update": lost, "games_counted": counted,
            "changes_stored": stored}


def run(attack: str, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    kind, *rest = attack.split(":")
    if kind not in ("lockout", "flood", "ratings") or len(rest) != 2:
        raise SystemExit(f"unknown attack {attack!r} (lockout:A:N, flood:N:A, ratings:T:K)")
    first, second = int(rest[0]), int(rest[1])
    if kind == "ratings":
        url = args.db_url or f"sqlite:///{tmp / 'ratings.db'}"
        return {"attack": attack, **ratings(url, first, second),
                "load": round(os.getloadavg()[0], 1)}
    srv = Server(args.src, tmp)
    try:
        found = (lockout(srv.base, first, second) if kind == "lockout"
                 else flood(srv.base, first, second))
    finally:
        srv.stop()
    return {"attack": attack, **found, "load": round(os.getloadavg()[0], 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--attack", action="append", default=[])
    ap.add_argument("--src", default="src", help="the tree's sources (PYTHONPATH)")
    ap.add_argument("--db-url", default=None,
                    help="the database of the ratings attack (default a fresh SQLite file)")
    args = ap.parse_args()
    args.src = str(Path(args.src).resolve())
    sys.path.insert(0, args.src)
    with tempfile.TemporaryDirectory(prefix="meio-accounts-") as tmp:
        for attack in args.attack or ["lockout:6:5"]:
            print(json.dumps(run(attack, args, Path(tmp))), flush=True)


if __name__ == "__main__":
    main()
