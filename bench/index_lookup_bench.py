#!/usr/bin/env python3
"""A lookup by a unique value through a secondary index, against the same
lookup by key in a denormalized table (the guides' alternative).

Tables (keyspace bench_index, replication factor --replication-factor):
  users (id int PRIMARY KEY, email text, country text) with an index on email
  users_by_email (email text PRIMARY KEY, id int, country text)
--rows rows are written to both (prepared INSERTs), then --lookups prepared
SELECTs of random emails each way, at QUORUM (ONE on a single node), one at
a time: mean, p50 and p99 latency in ms. Every answer is checked.

  /usr/bin/python3 bench/index_lookup_bench.py --port 9142 --rows 20000
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from cassandra import ConsistencyLevel
from cassandra.cluster import Cluster


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9042)
    parser.add_argument("--rows", type=int, default=20000)
    parser.add_argument("--lookups", type=int, default=5000)
    parser.add_argument("--replication-factor", type=int, default=1)
    args = parser.parse_args()
    level = ConsistencyLevel.ONE if args.replication_factor == 1 else ConsistencyLevel.QUORUM
    cluster = Cluster([args.host], port=args.port)
    session = cluster.connect()
    session.execute("CREATE KEYSPACE IF NOT EXISTS bench_index WITH replication = "
                    f"{{'class': 'SimpleStrategy', 'replication_factor': {args.replication_factor}}}")
    session.execute("CREATE TABLE IF NOT EXISTS bench_index.users "
                    "(id int PRIMARY KEY, email text, country text)")
    session.execute("CREATE INDEX IF NOT EXISTS ON bench_index.users (email)")
    session.execute("CREATE TABLE IF NOT EXISTS bench_index.users_by_email "
                    "(email text PRIMARY KEY, id int, country text)")
    insert = session.prepare("INSERT INTO bench_index.users (id, email, country) VALUES (?, ?, ?)")
    insert_by_email = session.prepare(
        "INSERT INTO bench_index.users_by_email (email, id, country) VALUES (?, ?, ?)")
    for statement in (insert, insert_by_email):
        statement.consistency_level = level
    pending = []
    for i in range(args.rows):
        email = f"user{i}@example.com"
        pending.append(session.execute_async(insert, (i, email, "UK")))
        pending.append(session.execute_async(insert_by_email, (email, i, "UK")))
        if len(pending) >= 200:
            for future in pending:
                future.result()
            pending.clear()
    for future in pending:
        future.result()

    by_index = session.prepare("SELECT id, country FROM bench_index.users WHERE email = ?")
    by_key = session.prepare("SELECT id, country FROM bench_index.users_by_email WHERE email = ?")
    rng = random.Random(7)
    for name, statement in (("index lookup", by_index), ("denormalized table", by_key)):
        statement.consistency_level = level
        latencies = []
        for _ in range(args.lookups):
            i = rng.randrange(args.rows)
            start = time.perf_counter()
            rows = list(session.execute(statement, (f"user{i}@example.com",)))
            latencies.append((time.perf_counter() - start) * 1000)
            assert [r.id for r in rows] == [i], (name, i, rows)
        latencies.sort()
        print(f"{name}: {args.lookups} lookups of {args.rows} rows, mean "
              f"{statistics.mean(latencies):.3f} ms, p50 {latencies[len(latencies) // 2]:.3f} ms, "
              f"p99 {latencies[int(len(latencies) * 0.99)]:.3f} ms")
    cluster.shutdown()


if __name__ == "__main__":
    main()
