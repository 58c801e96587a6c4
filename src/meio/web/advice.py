"""Split advice for the seats of one table.

The :class:`Adviser` runs the split advisor (:func:`meio.bots.advisor.advise_view`)
in the think pool on the asking seat's view only. A seat has one request in flight
at a time and a budget of requests a minute, however many pages it has open
(``advice_burst``, ``advice_rate_per_min``), and its thinking is charged to the
address that asked, in the think pool's fair share (:mod:`meio.web.think`): forty
seats of one address asking for advice are one client there.
"""

from __future__ import annotations

from meio.engine import MeioError, Phase
from meio.engine import cards as C
from meio.web import frames as F
from meio.web import think
from meio.web.limits import KeyedLimiter
from meio.web.services import Frame
from meio.web.table import LiveTable

#: why a second request of a seat waits
BUSY = "your last request for advice is still being worked out"


class Adviser:
    """The split advisor of one table's seats."""

    def __init__(self, table: LiveTable) -> None:
        self.table = table
        #: the seats with a request for advice in flight (one each)
        self.advising: set[int] = set()
        settings = table.settings
        #: each seat's budget of requests for advice
        self.limiter = KeyedLimiter(settings.advice_rate_per_min / 60, settings.advice_burst)

    async def advise(self, msg_id: str, seat: int | None, pack: tuple[str, ...] | None,
                     client: str | None = None) -> Frame:
        """The split advisor's hint for ``seat`` (judging ``pack`` too when given),
        computed from its view in the think pool, charged to ``client`` (the asking
        address's, :func:`meio.web.think.client_of`); or a ``reject``."""
        t = self.table
        async with t.lock:
            if seat is None:
                return t.refuse(msg_id, "forbidden", "spectators get no split advice")
            view = t.view(seat)
            if view is None or view.phase is not Phase.SPLIT or view.pack:
                return t.refuse(msg_id, "illegal", "advice is given for your split only", seat)
            if seat in self.advising:
                return t.refuse(msg_id, "busy", BUSY, seat)
        chosen = None
        if pack is not None:
            try:
                cards = [C.parse_card(c) for c in pack]
            except MeioError as exc:
                return t.refuse(msg_id, "bad_message", str(exc), seat)
            chosen = C.mask_of(cards)
            size = view.config.pack_size  # 6 in the editions; a variant's own size
            if len(cards) != size or C.count(chosen) != size:
                return t.refuse(msg_id, "illegal",
                                f"a pack is {size} different cards of your hand", seat)
            if chosen & ~view.hand:
                return t.refuse(msg_id, "illegal",
                                f"{C.format_cards(chosen & ~view.hand)} not in your hand", seat)
        if seat in self.advising:
            return t.refuse(msg_id, "busy", BUSY, seat)
        if not self.limiter.take(str(seat)):
            return t.refuse(msg_id, "rate_limited", "you asked for advice too often: wait a "
                                                    "little", seat)
        self.advising.add(seat)
        try:
            payload = await t.services.think.run(t.think_share(client), think.advice, view,
                                                 chosen, t.settings.advice_budget_s)
        finally:
            self.advising.discard(seat)
        if "error" in payload:
            return t.refuse(msg_id, "illegal", str(payload["error"]), seat)
        return F.advice(msg_id, payload)
