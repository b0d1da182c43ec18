"""What a casino's monitoring reads of a running table: `GET /metrics` and `GET /healthz` (issue 32, 7).

Prometheus and the like scrape the screens' port; the floor and the service's watchdog ask
/healthz whether the table is in play. Both are read-only (the screens' server routes them
for GET only) and carry no secret: no supervisor, no PIN, no key, no card, no seat's wager,
no fault's wording (that is /healthz's one line and the screens'). The figures are the
table's own: the published state it already builds for the screens (devices, alarms, the
open fault, the link, the meter) and its journal (the rounds and faults it recorded, its
size, its last anchor, the software digest of this start), so monitoring sees what the
journal says, never a count of its own that could drift from it.

The journal is read in a worker thread (the table's journal reads under its own lock, like
the hourly scrub) and only from where the last scrape stopped, so a scrape costs the table's
event loop nothing and a year's journal is read once, not at every scrape. Money is whole
cents, as everywhere: the meter is `tablectl_meter_cents`.

A test table's figures say so (`tablectl_test_mode 1`): monitoring never takes them for play.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from prometheus_client.core import (CounterMetricFamily, GaugeMetricFamily, InfoMetricFamily, Metric,
                                    StateSetMetricFamily)
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector, CollectorRegistry

from drivers.events import LinkState

DIGEST_SHORT = 16          # hex digits of the software digest shown (as `tablectl software history` writes it)
REASON_MOST = 200          # characters of /healthz's reason: one line, bounded
ROUND_RECORD = "round-record"
FAULT = "fault"
ANCHOR_RECORDS = ("anchor-written", "anchor-commissioned")


@dataclass
class JournalFigures:
    """What the journal says, read from where the last scrape stopped."""

    rounds: Counter[tuple[str, str]] = field(default_factory=Counter)   # (game, outcome) -> rounds
    faults: Counter[str] = field(default_factory=Counter)               # the fault's source -> faults journaled
    entries: int = 0
    size_bytes: int = 0
    anchors: dict[str, tuple[int, float | None]] = field(default_factory=dict)   # sink -> (entry anchored, when)
    software: str | None = None


def outcome(payload: Any) -> str:
    """A round's outcome as its record says: void, or settled (a hand's history is a hand played)."""
    record = payload.get("record") if isinstance(payload, dict) else None
    if isinstance(record, dict) and record.get("void"):
        return "void"
    return "settled"


def game_of(payload: Any, default: str) -> str:
    record = payload.get("record") if isinstance(payload, dict) else None
    game = record.get("game") if isinstance(record, dict) else None
    return game if isinstance(game, str) and game else default


def _seconds(at: str) -> float | None:
    from datetime import datetime
    try:
        return datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


class JournalFollower:
    """The journal's figures, each scrape reading only the entries since the last one."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.figures = JournalFigures()
        self._cursor = 0
        self._journal_id: str | None = None
        self._lock = threading.Lock()   # two scrapes at once read one after the other

    def read(self, journal: Any) -> JournalFigures:
        with self._lock:
            f = self.figures
            if journal is None:
                return f
            if journal.journal_id != self._journal_id:   # another journal (restored from a replica): afresh
                self.figures = f = JournalFigures()
                self._cursor, self._journal_id = 0, journal.journal_id
            for e in journal.entries_of((ROUND_RECORD, FAULT, *ANCHOR_RECORDS), since=self._cursor):
                self._cursor = e.seq
                if e.kind == ROUND_RECORD:
                    f.rounds[(game_of(e.payload, self.game), outcome(e.payload))] += 1
                elif e.kind == FAULT:
                    source = e.payload.get("source") if isinstance(e.payload, dict) else None
                    f.faults[source if isinstance(source, str) else "unknown"] += 1
                elif isinstance(e.payload, dict) and isinstance(e.payload.get("seq"), int):
                    f.anchors[str(e.payload.get("sink") or "?")] = (e.payload["seq"], _seconds(e.at))
            if f.software is None:
                started = journal.latest("power-up")   # this start's digest: read once per journal
                digest = started.payload.get("software") if started is not None else None
                f.software = digest[:DIGEST_SHORT] if isinstance(digest, str) else None
            f.entries = journal.head_seq
            f.size_bytes = sum(p.stat().st_size for p in (journal.db_path, journal.wal_path) if p.exists())
            return f


@dataclass
class TableFigures:
    """What the table holds now: read on the table's loop, from its published state."""

    game: str
    test_mode: bool
    fault: dict[str, Any] | None
    alarms: list[dict[str, Any]]
    devices: list[dict[str, Any]]
    link: dict[str, Any] | None
    meter: dict[str, Any] | None


def table_figures(table: Any) -> TableFigures:
    view = table.published() or {}
    link = getattr(table, "link", None)
    return TableFigures(game=str(getattr(table.profile, "game", "")), test_mode=bool(getattr(table, "test_mode", False)),
                        fault=table.fault, alarms=[a for a in view.get("alarms", []) if isinstance(a, dict)],
                        devices=[d for d in view.get("devices", []) if isinstance(d, dict)],
                        link=link.view() if link is not None else None,
                        meter=view.get("meter") if isinstance(view.get("meter"), dict) else None)


# The states a device is reported in (controller/runtime/devices.py: its link's, or emulated); any other is "other".
DEVICE_STATES = (*(s.value for s in LinkState), "emulated", "other")


def families(t: TableFigures, j: JournalFigures) -> Iterator[Metric]:
    """Every family of the exposition, each present (with no sample when nothing applies)."""
    rounds = CounterMetricFamily("tablectl_rounds", "Rounds closed as the journal records them, by game and outcome",
                                 labels=["game", "outcome"])
    for (game, out), n in sorted(j.rounds.items()):
        rounds.add_metric([game, out], n)
    yield rounds
    faults = CounterMetricFamily("tablectl_faults", "Faults journaled, by source", labels=["source"])
    for source, n in sorted(j.faults.items()):
        faults.add_metric([source], n)
    yield faults
    yield GaugeMetricFamily("tablectl_in_play", "1 while the table plays, 0 while it is in a fault",
                            value=0 if t.fault else 1)
    open_ = GaugeMetricFamily("tablectl_fault_open", "Problems of the open fault, by code (none while in play)",
                              labels=["code"])
    if t.fault:
        codes = Counter(str(p.get("code", "fault")) for p in t.fault.get("problems") or [] if isinstance(p, dict))
        for code, n in sorted((codes or Counter({"fault": 1})).items()):
            open_.add_metric([code], n)
    yield open_
    alarms = GaugeMetricFamily("tablectl_alarms", "Alarms raised now, by kind", labels=["kind"])
    for kind, n in sorted(Counter(str(a.get("kind", "alarm")) for a in t.alarms).items()):
        alarms.add_metric([kind], n)
    yield alarms
    devices = StateSetMetricFamily("tablectl_device", "Each device's state", labels=["device"])
    for d in t.devices:
        status = str(d.get("status"))
        status = status if status in DEVICE_STATES else "other"
        devices.add_metric([str(d.get("name", "?"))], {s: s == status for s in DEVICE_STATES})
    yield devices
    yield GaugeMetricFamily("tablectl_link_linked", "1 when the table plays on a linked progressive",
                            value=1 if t.link is not None else 0)
    available = GaugeMetricFamily("tablectl_link_available", "1 while the pool answers (a linked table only)",
                                  labels=["pool"])
    unconfirmed = GaugeMetricFamily("tablectl_link_unconfirmed", "Operations asked of the pool and not yet confirmed",
                                    labels=["pool"])
    if t.link is not None:
        pool = str(t.link.get("pool") or "")
        available.add_metric([pool], 1 if t.link.get("available") else 0)
        unconfirmed.add_metric([pool], int(t.link.get("asked") or 0))
    yield available
    yield unconfirmed
    meter = GaugeMetricFamily("tablectl_meter_cents", "The progressive meter's amount, in cents", labels=["game"])
    amount = (t.meter or {}).get("amount")
    if isinstance(amount, int) and not isinstance(amount, bool):
        meter.add_metric([t.game], amount)
    yield meter
    yield GaugeMetricFamily("tablectl_journal_bytes", "The journal's size on the box's disk", value=j.size_bytes)
    yield GaugeMetricFamily("tablectl_journal_entries", "The journal's head: its last entry's number", value=j.entries)
    anchor = GaugeMetricFamily("tablectl_journal_anchor_seq", "The last entry anchored off the box, by where",
                               labels=["sink"])
    anchor_at = GaugeMetricFamily("tablectl_journal_anchor_timestamp_seconds", "When the last anchor was written",
                                  labels=["sink"])
    for sink, (seq, at) in sorted(j.anchors.items()):
        anchor.add_metric([sink], seq)
        if at is not None:
            anchor_at.add_metric([sink], at)
    yield anchor
    yield anchor_at
    software = InfoMetricFamily("tablectl_software", "The software this start checked: its digest's short form")
    software.add_metric([], {"digest": j.software or "", "version": _version()})
    yield software
    yield GaugeMetricFamily("tablectl_test_mode", "1 on emulated devices or autoplay: not play",
                            value=1 if t.test_mode else 0)


def _version() -> str:
    try:
        return metadata.version("tablectl")
    except metadata.PackageNotFoundError:
        return "unknown"


class _Once(Collector):
    def __init__(self, found: Iterable[Metric]) -> None:
        self.found = list(found)

    def collect(self) -> Iterable[Metric]:
        return self.found


def exposition(t: TableFigures, j: JournalFigures, accept: str | None) -> tuple[bytes, str]:
    """The body and its content type: OpenMetrics when the scraper asks for it, else Prometheus' text."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Once(families(t, j)))
    encode, content_type = choose_encoder(accept or "")
    return encode(registry), content_type


def health(t: TableFigures) -> tuple[int, str]:
    """200 and "in play", or 503 and why not in one line (the open fault's reason)."""
    if t.fault:
        reason = " ".join(str(t.fault.get("reason") or "fault").split())[:REASON_MOST]
        return 503, f"fault: {reason}\n"
    return 200, "in play\n"

