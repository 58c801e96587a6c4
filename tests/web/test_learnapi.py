"""The review of a finished match and the puzzles, over HTTP."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import meio.review
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine import sample_world
from meio.engine.wire import view_json
from meio.puzzles import shipped
from meio.review import Budget
from meio.web import think
from tests.web.conftest import create
from tests.web.helpers import Player, play_out

SMALL = Budget(card_worlds=8, card_playouts=1, pool=8, split_worlds=8)
TOKEN = "a-browser-token-of-enough-length"


@pytest.fixture
def small_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    # the think pool runs the real review; the tests only need it small
    monkeypatch.setitem(meio.review.BUDGETS, "quick", SMALL)
    monkeypatch.setitem(meio.review.BUDGETS, "deep", SMALL)


def finished_match(client: TestClient) -> str:
    table = create(client, players=2, name="Ana", seed=21,
                   seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as wa:
        a = Player(wa, token=table["token"])
        a.until(lambda f: f["type"] == "snapshot")
        early = client.get(f"/api/matches/{a.match}/review")
        assert early.status_code == 409 and early.json()["code"] == "not_finished"
        play_out([a])
    return str(a.match)


def test_a_finished_match_is_reviewed_once_and_kept(client: TestClient,
                                                    small_reviews: None) -> None:
    match = finished_match(client)
    first = client.get(f"/api/matches/{match}/review").json()
    assert first["status"] in ("pending", "quick", "deep")
    deadline = time.monotonic() + 120
    body: dict[str, Any] = first
    while body["status"] != "deep":
        assert time.monotonic() < deadline, body["status"]
        time.sleep(0.2)
        body = client.get(f"/api/matches/{match}/review").json()
    review = body["review"]
    assert review["format"] == "meio-review/1" and review["depth"] == "deep"
    assert {d["seat"] for d in review["decisions"]} == {0, 1}
    assert all(d["flag"] is None for d in review["decisions"] if d["forced"])
    # kept: the next viewer reads it and starts nothing
    reviews = client.app.state.reviews  # type: ignore[attr-defined]
    assert client.get(f"/api/matches/{match}/review").json() == body
    assert not reviews.tasks
    assert client.get("/api/matches/nothing/review").json()["code"] == "no_match"


def test_a_puzzle_shows_only_its_seats_view_and_rates_attempts(client: TestClient) -> None:
    puzzle = client.get("/api/puzzles/daily").json()
    entry = shipped().get(puzzle["id"])
    state = entry.state()
    assert set(puzzle) == {"id", "set", "seat", "kind", "edition", "view", "choices"}
    assert puzzle["view"]["seat"] == entry.seat
    # what is sent is the seat's view: the same in a deal of the other seats' hidden
    # cards made again, so none of them is in it
    rng = random.Random(2)
    for _ in range(10):
        world = sample_world(state.view(entry.seat), rng)
        assert puzzle["view"] == json.loads(json.dumps(view_json(world.view(entry.seat))))
    assert client.post(f"/api/puzzles/{entry.id}/attempt",
                       json={"action": entry.answer}).json()["code"] == "no_solver"
    legal = [A.action_text(a) for a in state.view(entry.seat).legal_actions()]
    wrong = next(a for a in legal if not entry.solves(A.parse_action(a))) \
        if entry.kind != "split" else entry.heuristic
    bad = client.post(f"/api/puzzles/{entry.id}/attempt",
                      json={"action": "nonsense", "token": TOKEN})
    assert bad.status_code == 400
    missed = client.post(f"/api/puzzles/{entry.id}/attempt",
                         json={"action": wrong, "token": TOKEN}).json()
    assert missed["solved"] is False and missed["answer"] == entry.answer
    assert missed["progress"]["streak"] == 0 and missed["progress"]["tried"] == 1
    # a second try at a known puzzle is checked, not rated
    again = client.post(f"/api/puzzles/{entry.id}/attempt",
                        json={"action": entry.answer, "token": TOKEN}).json()
    assert again["solved"] is True and again["rated"] is False
    assert again["progress"] == missed["progress"]
    other = next(p for p in shipped().puzzles if p.id != entry.id)
    solved = client.post(f"/api/puzzles/{other.id}/attempt",
                         json={"action": other.answer, "token": TOKEN}).json()
    assert solved["solved"] is True and solved["rated"] is True
    assert solved["progress"]["streak"] == 1
    progress = client.post("/api/puzzles/progress", json={"token": TOKEN}).json()
    assert progress["solved"] == 1 and progress["tried"] == 2
    assert client.get("/api/puzzles/no-such-one").json()["code"] == "no_puzzle"
    assert client.get("/puzzles").status_code == 200


def test_a_split_puzzle_offers_its_packs_and_is_answered_by_choosing_one(
        client: TestClient) -> None:
    entry = next(p for p in shipped().puzzles if p.kind == "split")
    puzzle = client.get(f"/api/puzzles/{entry.id}").json()
    assert puzzle["kind"] == "split" and puzzle["view"]["phase"] == "split"
    # the packs offered are the seat's own cards
    hand = set(puzzle["view"]["hand"])
    assert len(puzzle["choices"]) == len(entry.choices) >= 3
    assert all(len(pack) == 6 and set(pack) <= hand for pack in puzzle["choices"])

    def sent(move: str) -> str:  # what the page sends: the chosen pack's cards
        return " ".join(C.codes(A.pack_of(A.parse_action(move))))

    missed = client.post(f"/api/puzzles/{entry.id}/attempt",
                         json={"action": sent(entry.heuristic), "token": TOKEN}).json()
    assert missed["solved"] is False and missed["answer"] == entry.answer
    assert {a for a, _ in missed["options"]} == set(entry.choices)
    solved = client.post(f"/api/puzzles/{entry.id}/attempt",
                         json={"action": sent(entry.answer), "token": TOKEN + "2"}).json()
    assert solved["solved"] is True and solved["rated"] is True


def test_one_address_has_one_match_under_review(client: TestClient,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from meio.web.learnapi import Reviews
    from meio.web.refusal import Refusal

    hub = client.app.state.hub  # type: ignore[attr-defined]

    async def run() -> None:
        reviews = Reviews(hub)

        charged: list[think.Share] = []

        async def slow(match_id: str, record: dict[str, Any], share: think.Share) -> None:
            charged.append(share)
            await asyncio.sleep(0.2)

        monkeypatch.setattr(reviews, "_run", slow)
        reviews.start("m1", {}, "10.0.0.1")
        reviews.start("m1", {}, "10.0.0.2")  # another viewer of the same match waits on it
        assert list(reviews.tasks) == ["m1"]
        await asyncio.sleep(0)
        # the review's thinking is charged to the address that asked, behind other bots
        assert charged == [think.Share(think.client_of("10.0.0.1"), "review:m1",
                                       think.BOTS_ONLY)]
        with pytest.raises(Refusal) as refused:
            reviews.start("m2", {}, "10.0.0.1")
        assert refused.value.code == "review_busy" and refused.value.status_code == 429
        await asyncio.sleep(0.4)
        assert not reviews.tasks and not reviews.by_address
        reviews.start("m2", {}, "10.0.0.1")  # the first is done: the next may start
        await asyncio.sleep(0.3)

    asyncio.run(run())
