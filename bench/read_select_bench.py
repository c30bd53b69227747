#!/usr/bin/env python3
"""Read-path cost through the whole stack: prepared SELECTs of a small and a
big partition against a running node, through the DataStax Python driver.

The table is bench_read.t (k int, c int, v text, PRIMARY KEY (k, c)); k = 1
gets --small-rows rows (1,000) and k = 2 gets --rows rows (1,000,000), v 32
bytes, loaded with unlogged single-partition batches of 100 rows. Then, for
each partition, each query is run --reads times (or until --seconds have
passed, after at least 3 reads), after one unmeasured warm-up read:

  first100    SELECT * FROM bench_read.t WHERE k = ? LIMIT 100
  middle100   SELECT * FROM bench_read.t WHERE k = ? AND c >= ? LIMIT 100   (c >= N/2)
  point       SELECT * FROM bench_read.t WHERE k = ? AND c = ?              (c spread over the partition)

Every answer is checked (row count, first clustering value). Prints one line
per query and partition: reads, mean, p50, min and max latency in ms. Then it
pages through the whole big partition (--scan-fetch-size rows a page, the
driver's automatic paging) and checks every row. With --server-pid it also
prints the server's resident memory around the scan and its peak (VmHWM).

  /usr/bin/python3 bench/read_select_bench.py --port 9142 --rows 1000000

(Debian's /usr/bin/python3 has the driver: python3-cassandra.) See
bench/run_read_bench.sh, which starts a node and runs this.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from cassandra import ConsistencyLevel
from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile
from cassandra.concurrent import execute_concurrent
from cassandra.query import BatchStatement, BatchType, SimpleStatement

KEYSPACE = "bench_read"
BATCH_ROWS = 100


def value(c: int) -> str:
    return f"value-{c:026d}"  # 32 characters


def load(session, k: int, rows: int) -> float:
    insert = session.prepare(f"INSERT INTO {KEYSPACE}.t (k, c, v) VALUES (?, ?, ?)")
    start = time.monotonic()

    def batches():
        for first in range(0, rows, BATCH_ROWS):
            batch = BatchStatement(batch_type=BatchType.UNLOGGED,
                                   consistency_level=ConsistencyLevel.ONE)
            for c in range(first, min(rows, first + BATCH_ROWS)):
                batch.add(insert, (k, c, value(c)))
            yield batch, ()

    for ok, result in execute_concurrent(session, batches(), concurrency=16,
                                         raise_on_first_error=True, results_generator=True):
        if not ok:
            raise RuntimeError(f"load failed: {result}")
    return time.monotonic() - start


def measure(run, reads: int, seconds: float) -> list[float]:
    run(0)  # warm-up, not counted
    latencies = []
    deadline = time.monotonic() + seconds
    for i in range(1, reads + 1):
        start = time.perf_counter()
        run(i)
        latencies.append(time.perf_counter() - start)
        if len(latencies) >= 3 and time.monotonic() > deadline:
            break
    return latencies


def rss_mb(pid: int, field: str = "VmHWM") -> float | None:
    """The server's peak (VmHWM) or current (VmRSS) resident memory, MiB."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def scan(session, k: int, rows: int, fetch_size: int, pid: int) -> None:
    """Pages through a whole partition with the driver's automatic paging, checking
    every row, and prints the time and the server's resident memory around it."""
    before = rss_mb(pid, "VmRSS") if pid else None
    statement = SimpleStatement(f"SELECT c FROM {KEYSPACE}.t WHERE k = {k}",
                                fetch_size=fetch_size)
    start = time.monotonic()
    expected = 0
    for row in session.execute(statement):
        if row.c != expected:
            raise RuntimeError(f"scan: expected c={expected}, got c={row.c}")
        expected += 1
    seconds = time.monotonic() - start
    if expected != rows:
        raise RuntimeError(f"scan: expected {rows} rows, got {expected}")
    line = (f"scan k={k}: {rows} rows in pages of {fetch_size} in {seconds:.1f} s "
            f"({rows / seconds:,.0f} rows/s)")
    if pid:
        after = rss_mb(pid, "VmRSS")
        line += f"; server RSS {before:.0f} MiB before, {after:.0f} MiB after"
    print(line, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9042)
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows of the big partition")
    parser.add_argument("--small-rows", type=int, default=1000)
    parser.add_argument("--reads", type=int, default=200, help="reads per query and partition")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="stop a query's reads after this long (at least 3 reads)")
    parser.add_argument("--timeout", type=float, default=120.0, help="per-request timeout, s")
    parser.add_argument("--no-load", action="store_true", help="the table is already loaded")
    parser.add_argument("--server-pid", type=int, default=0)
    parser.add_argument("--scan-fetch-size", type=int, default=5000,
                        help="page size of the full scan of the big partition; 0: no scan")
    args = parser.parse_args()
    if args.rows < 2 * BATCH_ROWS or args.small_rows < BATCH_ROWS:
        parser.error(f"--rows must be at least {2 * BATCH_ROWS}, --small-rows at least {BATCH_ROWS}")

    profile = ExecutionProfile(consistency_level=ConsistencyLevel.ONE,
                               request_timeout=args.timeout)
    cluster = Cluster([args.host], port=args.port, protocol_version=4,
                      execution_profiles={EXEC_PROFILE_DEFAULT: profile})
    session = cluster.connect()
    partitions = [(1, args.small_rows), (2, args.rows)]
    if not args.no_load:
        session.execute(f"CREATE KEYSPACE IF NOT EXISTS {KEYSPACE} WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.execute(f"CREATE TABLE IF NOT EXISTS {KEYSPACE}.t "
                        "(k int, c int, v text, PRIMARY KEY (k, c))")
        for k, rows in partitions:
            seconds = load(session, k, rows)
            print(f"loaded k={k}: {rows} rows in {seconds:.1f} s ({rows / seconds:,.0f} rows/s)",
                  flush=True)

    first100 = session.prepare(f"SELECT * FROM {KEYSPACE}.t WHERE k = ? LIMIT 100")
    middle100 = session.prepare(f"SELECT * FROM {KEYSPACE}.t WHERE k = ? AND c >= ? LIMIT 100")
    point = session.prepare(f"SELECT * FROM {KEYSPACE}.t WHERE k = ? AND c = ?")

    def expect(rows, count: int, first_c: int, what: str) -> None:
        rows = list(rows)
        if len(rows) != count or rows[0].c != first_c:
            got = f"{len(rows)} rows" + (f" from c={rows[0].c}" if rows else "")
            raise RuntimeError(f"{what}: expected {count} rows from c={first_c}, got {got}")

    print(f"{'query':<10} {'rows':>9} {'reads':>6} {'mean ms':>9} {'p50 ms':>9} "
          f"{'min ms':>9} {'max ms':>9}", flush=True)
    failures = 0
    for name in ("first100", "middle100", "point"):
        for k, rows in partitions:
            middle = rows // 2

            def run(i: int, name=name, k=k, rows=rows, middle=middle) -> None:
                if name == "first100":
                    expect(session.execute(first100, (k,)), 100, 0, name)
                elif name == "middle100":
                    expect(session.execute(middle100, (k, middle)), 100, middle, name)
                else:
                    c = (i * 7919) % rows
                    expect(session.execute(point, (k, c)), 1, c, name)

            try:
                latencies = [s * 1000 for s in measure(run, args.reads, args.seconds)]
            except Exception as error:  # a refusal or timeout is a result too
                print(f"{name:<10} {rows:>9} failed: {error}", flush=True)
                failures += 1
                continue
            print(f"{name:<10} {rows:>9} {len(latencies):>6} {statistics.mean(latencies):>9.3f} "
                  f"{statistics.median(latencies):>9.3f} {min(latencies):>9.3f} "
                  f"{max(latencies):>9.3f}", flush=True)
    if args.scan_fetch_size > 0:
        scan(session, 2, args.rows, args.scan_fetch_size, args.server_pid)
    if args.server_pid:
        rss = rss_mb(args.server_pid)
        if rss is not None:
            print(f"server peak resident memory (VmHWM): {rss:.0f} MiB")
    cluster.shutdown()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
