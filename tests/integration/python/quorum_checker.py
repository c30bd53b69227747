"""A history of reads and writes against a cluster, and the checks that say
whether it kept QUORUM's promises (docs/cluster.md, "Consistency levels").

The workload this checks writes unique (key, value) pairs: every value is
new (one counter for the whole run) and, per key, larger than every value
written before to that key. A write inserts the row (k, v) and sets the
partition's static column `latest` to v in the same mutation, so each key is
both a growing set (the rows) and a register (the static cell, last write
wins; values increase with the driver's client-side timestamps, so the
newest write holds the largest value). Times are `time.monotonic()` of the
one test process that issues everything, so "acknowledged before the read
began" is a real-time order, not a guess from clocks of different machines.

What a history must satisfy:

- a QUORUM read sees every QUORUM write acknowledged before it began: its
  rows include each such value, and its register is at least the largest;
- it sees nothing never written: every value was attempted before the read
  finished (a write that failed or timed out may or may not have landed, so
  seeing it, or not, is allowed);
- once a QUORUM read returned a value, every QUORUM read that begins after
  it returns that value too, even one of a write that failed: blocking read
  repair writes what a read returns to the replicas it read before it
  answers, and any two quorums share a replica (docs/cluster.md);
- the register agrees with the rows (the newest mutation wrote both);
- a final read (ALL, after the faults healed) holds every acknowledged write:
  no acknowledged write is lost.

The checker is pure Python over recorded data, so it is tested by itself
with hand-made histories (test_cluster_faults.py) and runs after the cluster
work is done.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Write:
    key: int
    value: int
    started: float
    finished: float
    acknowledged: bool  # False: it failed or timed out, and may or may not have landed
    error: str = ""


@dataclass(frozen=True)
class Read:
    key: int
    started: float
    finished: float
    values: frozenset[int]
    latest: int | None  # the static register; None when the partition is empty


@dataclass
class History:
    """What the workload's threads did, appended under a lock."""

    writes: list[Write] = field(default_factory=list)
    reads: list[Read] = field(default_factory=list)
    failed_reads: list[tuple[float, str]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record_write(self, write: Write) -> None:
        with self._lock:
            self.writes.append(write)

    def record_read(self, read: Read) -> None:
        with self._lock:
            self.reads.append(read)

    def record_failed_read(self, when: float, error: str) -> None:
        with self._lock:
            self.failed_reads.append((when, error))

    def acknowledged_values(self) -> dict[int, set[int]]:
        """Per key, the values of the acknowledged writes."""
        acked: dict[int, set[int]] = defaultdict(set)
        for w in self.writes:
            if w.acknowledged:
                acked[w.key].add(w.value)
        return acked

    def summary(self) -> str:
        acked = sum(w.acknowledged for w in self.writes)
        return (f"{len(self.writes)} writes ({acked} acknowledged), {len(self.reads)} reads "
                f"answered, {len(self.failed_reads)} reads failed")


def read_violations(history: History) -> list[str]:
    """What the QUORUM reads of `history` got wrong (empty: nothing)."""
    acked_by_key: dict[int, list[Write]] = defaultdict(list)
    attempted_by_key: dict[int, dict[int, Write]] = defaultdict(dict)
    for w in history.writes:
        attempted_by_key[w.key][w.value] = w
        if w.acknowledged:
            acked_by_key[w.key].append(w)
    reads_by_key: dict[int, list[Read]] = defaultdict(list)
    for r in history.reads:
        reads_by_key[r.key].append(r)
    violations = []
    for r in sorted(history.reads, key=lambda r: r.started):
        before = {w.value for w in acked_by_key[r.key] if w.finished < r.started}
        missing = before - r.values
        if missing:
            violations.append(
                f"stale read of key {r.key} (began {r.started:.3f}, ended {r.finished:.3f}): "
                f"missing {sorted(missing)}, acknowledged at "
                f"{[round(attempted_by_key[r.key][v].finished, 3) for v in sorted(missing)]}")
        for earlier in reads_by_key[r.key]:
            unseen = earlier.values - r.values - missing
            if earlier.finished < r.started and unseen:
                violations.append(
                    f"non-monotonic reads of key {r.key}: a read that ended at "
                    f"{earlier.finished:.3f} returned {sorted(unseen)}, the read that began at "
                    f"{r.started:.3f} (ended {r.finished:.3f}) did not")
                break
        if before and (r.latest is None or r.latest < max(before)):
            violations.append(
                f"register of key {r.key} behind (read began {r.started:.3f}): "
                f"latest={r.latest}, but {max(before)} was acknowledged before")
        attempted = attempted_by_key[r.key]
        phantoms = {v for v in r.values
                    if v not in attempted or attempted[v].started > r.finished}
        if phantoms:
            violations.append(f"read of key {r.key} (began {r.started:.3f}) returned values "
                              f"never written before it ended: {sorted(phantoms)}")
        expected_latest = max(r.values) if r.values else None
        if r.latest != expected_latest:
            violations.append(f"read of key {r.key} (began {r.started:.3f}): register "
                              f"latest={r.latest} but the largest row is {expected_latest}")
    return violations


def lost_writes(history: History, final: dict[int, Read]) -> list[str]:
    """Acknowledged writes that a final read of their key does not return."""
    lost = []
    for key, values in sorted(history.acknowledged_values().items()):
        got = final[key].values if key in final else frozenset()
        missing = values - got
        if missing:
            lost.append(f"key {key}: acknowledged values {sorted(missing)} are lost")
    return lost


def report(violations: list[str], limit: int = 15) -> str:
    """The first `limit` violations, one a line, and how many there were."""
    shown = "\n  ".join(violations[:limit])
    more = f"\n  ... and {len(violations) - limit} more" if len(violations) > limit else ""
    return f"{len(violations)} violations:\n  {shown}{more}"
