"""Prometheus metrics of a server process, served at ``/metrics``.

Each process counts for itself; Prometheus scrapes every replica (see
docs/deploy.md). The names all start with ``meio_``.
"""

from __future__ import annotations

from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest

#: latency buckets in seconds, from a fraction of a millisecond to seconds
_FAST = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

CONNECTIONS = Gauge("meio_connections", "Open WebSocket connections (seats and spectators).")
TABLES = Gauge("meio_tables_loaded", "Tables held in memory by this process.")
LEASES = Gauge("meio_leases_held", "Tables whose bots and timer this process runs.")
ACTIONS = Counter(
    "meio_actions_total", "Actions submitted to this process, by outcome and source.",
    ["result", "source"],
)
BROADCAST = Histogram(
    "meio_action_broadcast_seconds",
    "From an action reaching this process to its event being queued for every local "
    "connection (path=local), or from its commit elsewhere to the same here (path=bus).",
    ["path"], buckets=_FAST,
)
BOT_THINK = Histogram(
    "meio_bot_think_seconds", "Time a bot (or a timed-out seat's stand-in) took to choose.",
    ["kind"], buckets=_FAST,
)
DB_COMMIT = Histogram(
    "meio_db_commit_seconds",
    "From an accepted action being handed to the writer to its commit (several tables' "
    "actions share one transaction when they arrive together).",
    buckets=_FAST,
)
COMMIT_BATCH = Histogram(
    "meio_db_commit_batch_actions", "Actions stored together in one transaction.",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256),
)
BUS_MESSAGES = Counter(
    "meio_bus_messages_total", "Messages exchanged with the other processes.", ["direction"],
)
BUS_EVENTS = Counter(
    "meio_bus_events_total",
    "Actions sent to the other processes (out) and heard from them (in): only the "
    "tables held by more than one process need them.", ["direction"],
)
PEERS = Gauge(
    "meio_bus_peers",
    "Other server processes heard from on the bus lately (their seats count as online).",
)
EVICTIONS = Counter("meio_tables_evicted_total", "Idle tables dropped from memory.")
INVALID_FRAMES = Counter("meio_invalid_frames_total",
                         "WebSocket text frames that were not UTF-8 (closed with 1007).")


def render() -> tuple[bytes, str]:
    """The metrics in Prometheus's text format, with its content type."""
    return generate_latest(), CONTENT_TYPE_LATEST
