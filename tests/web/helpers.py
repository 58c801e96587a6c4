"""Helpers of the web tests: a scripted player over a WebSocket, and the leak check."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Any

from meio.engine import MatchConfig, State
from meio.engine import actions as A
from meio.engine import cards as C
from meio.engine.errors import MeioError

Frame = dict[str, Any]
_ids = itertools.count()


def next_id() -> str:
    return f"m{next(_ids)}"


def choose(view: dict[str, Any]) -> str | None:
    """A deterministic legal action for a seat's view dict (None: nothing to do)."""
    seat = view["seat"]
    if view["is_over"] or seat is None:
        return None
    if view["phase"] == "split":
        if view["split_done"][seat]:
            return None
        return "pack:" + ",".join(view["hand"][:6])
    legal = view["legal"]
    return legal[0] if legal else None


class Player:
    """One seat (or a spectator) connected with Starlette's TestClient."""

    def __init__(self, ws: Any, *, token: str | None = None, spectate: str | None = None,
                 since: dict[str, Any] | None = None) -> None:
        self.ws = ws
        self.frames: list[Frame] = []
        self.match: str | None = None
        self.seq = 0
        self.view: dict[str, Any] | None = None
        hello: Frame = {"type": "hello", "since": since}
        if token:
            hello["token"] = token
        else:
            hello["spectate"] = spectate
        ws.send_json(hello)
        self.welcome = self.recv()

    def recv(self) -> Frame:
        frame: Frame = self.ws.receive_json()
        self.frames.append(frame)
        if frame["type"] in ("snapshot", "event"):
            self.match, self.seq, self.view = frame["match"], frame["seq"], frame["view"]
        if frame["type"] == "reject" and frame["snapshot"]["seq"] >= self.seq:
            snap = frame["snapshot"]
            self.match, self.seq, self.view = snap["match"], snap["seq"], snap["view"]
        return frame

    def until(self, pred: Callable[[Frame], bool], limit: int = 2000) -> Frame:
        for _ in range(limit):
            frame = self.recv()
            if pred(frame):
                return frame
        raise AssertionError("the expected frame never came")

    def act(self, action: str, *, seq: int | None = None, msg_id: str | None = None) -> Frame:
        """Send an action; returns the answer (ack or reject) for it."""
        mid = msg_id or next_id()
        self.ws.send_json({"type": "act", "id": mid, "seq": self.seq if seq is None else seq,
                           "action": action})
        return self.until(lambda f: f["type"] in ("ack", "reject") and f.get("id") == mid)

    def split(self, pack: str, *, msg_id: str | None = None) -> Frame:
        """Send a split, and send it again at the new number when another seat's split
        made it stale (splits are simultaneous: the browser client does the same)."""
        for attempt in range(5):
            answer = self.act(pack, msg_id=msg_id if attempt == 0 else None)
            if answer["type"] == "ack" or answer.get("code") != "stale":
                return answer
        return answer

    @property
    def seen(self) -> dict[str, Any]:
        """The latest view this player was sent (fails the test when none came yet)."""
        assert self.view is not None, "no view was sent to this player yet"
        return self.view

    def my_turn(self) -> bool:
        return self.view is not None and choose(self.view) is not None


def play_out(players: list[Player], limit: int = 5000) -> None:
    """Let scripted players act until their match is over (bots play the other seats)."""
    for _ in range(limit):
        if all(p.view is not None and p.view["is_over"] for p in players):
            return
        moved = False
        for p in players:
            if p.view is not None and p.my_turn():
                action = choose(p.view)
                assert action is not None
                answer = p.act(action)
                assert answer["type"] == "ack" or answer["code"] == "stale", answer
                moved = True
        if not moved:
            # wait for someone else (a bot, another seat) to move
            # wait on the player furthest behind (a bot or another seat moves meanwhile)
            waiting = min(players, key=lambda p: p.seq)
            waiting.until(lambda f: f["type"] in ("event", "snapshot"))
    raise AssertionError("the match did not end")


# -- the leak check ------------------------------------------------------------------------
def cards_in(obj: Any) -> set[int]:
    """Every card named anywhere in a JSON frame (card codes, plays, packs), but for a
    variant's ruleset (a config's ``variant``): it lists every special card the variant
    has, dealt or not, as the rules of the box list its five."""
    out: set[int] = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k != "variant":
                out |= cards_in(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= cards_in(v)
    elif isinstance(obj, str):
        try:
            action = A.parse_action(obj)
        except (MeioError, ValueError, IndexError):
            return out
        if A.is_pack(action):
            out |= set(C.cards_of(A.pack_of(action)))
        elif A.card_of(action) >= 0:
            out.add(A.card_of(action))
    return out


def known_cards(config: MatchConfig, actions: Iterable[tuple[int, str]], seat: int | None,
                upto: int) -> set[int]:
    """The cards ``seat`` may have seen after the first ``upto`` stored actions."""
    st = State.new(config)
    for seat_, text in list(actions)[:upto]:
        st.apply(A.parse_action(text), seat_)
    known = set(config.special_cards)
    starts = st.round_starts()
    for start in starts[:-1]:  # every dealt card of a finished round has been played
        for hand in start.deal:
            known |= set(C.cards_of(hand))
    known |= set(C.cards_of(st.played))
    if seat is not None:
        known |= set(C.cards_of(st.deal[seat]))
        partner = config.partner_of(seat)
        if partner is not None and all(st.packs) and st.phase.name != "SPLIT":
            known |= set(C.cards_of(st.packs[partner]))
    return known


def frame_seq(frame: Frame) -> int | None:
    if frame.get("type") in ("snapshot", "event") and frame.get("view") is not None:
        return int(frame["seq"])
    if frame.get("type") == "reject" and frame.get("snapshot", {}).get("view") is not None:
        return int(frame["snapshot"]["seq"])
    return None


def assert_no_leak(config: MatchConfig, actions: list[tuple[int, str]], seat: int | None,
                   frames: Iterable[Frame]) -> int:
    """Check that no frame named a card ``seat`` could not see then; returns frames checked."""
    cache: dict[int, set[int]] = {}
    at = 0
    count = 0
    for frame in frames:
        seq = frame_seq(frame)
        at = seq if seq is not None else at
        if at not in cache:
            cache[at] = known_cards(config, actions, seat, at)
        leaked = cards_in(frame) - cache[at]
        assert not leaked, (
            f"seat {seat} was sent {C.format_cards(C.mask_of(leaked))} at action {at}: {frame}"
        )
        count += 1
    return count


def game_of(record: dict[str, Any]) -> dict[str, Any]:
    """A downloaded record without its ``meta`` (player names, date, table id): the game
    itself, which two tables that played the same seeded match share exactly."""
    return {key: value for key, value in record.items() if key != "meta"}


class Browser:
    """Another person's browser on a test's one TestClient: its own cookies.

    Each TestClient entered runs the app's start-up again (a second hub on the same
    app), so a test with several people signed in lends the one client its cookie jar
    for each of their requests instead.
    """

    def __init__(self, client: Any, cookies: dict[str, str] | None = None) -> None:
        import httpx

        self.client = client
        self.cookies = httpx.Cookies(cookies or {})

    def request(self, method: str, path: str, **kw: Any) -> Any:
        saved = self.client.cookies
        self.client.cookies = self.cookies
        try:
            return self.client.request(method, path, **kw)
        finally:
            self.cookies = self.client.cookies
            self.client.cookies = saved

    def get(self, path: str, **kw: Any) -> Any:
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw: Any) -> Any:
        return self.request("POST", path, **kw)

    @property
    def app(self) -> Any:
        return self.client.app
