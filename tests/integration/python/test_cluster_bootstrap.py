"""A node joining a ring that holds data (issue 31): it registers JOINING, streams the ranges it
takes from the replicas losing them, moves reads to itself, becomes NORMAL, and only then serves
CQL and shows in system.peers. Real processes: four nodes and etcd, about 30 s.

What a simulated cluster cannot show: the steps committed to etcd and the barriers between them
over real messaging, STREAM_PULL over TCP with its throttle, and the node's start-up waiting for
its data.
"""

from __future__ import annotations

import time

from cassandra import ConsistencyLevel
from cassandra.query import SimpleStatement

from cluster_process import running_cluster

ROWS = 600


def test_a_new_node_streams_its_ranges_before_it_serves() -> None:
    with running_cluster(nodes=3) as cluster:
        with cluster.connect("127.0.0.1") as driver:
            session = driver.connect()
            session.execute("CREATE KEYSPACE grow WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 3}")
            # A replica reads itself first at ONE, and no other replica answers for it.
            session.execute("CREATE TABLE grow.t (k int PRIMARY KEY, v int, note text) "
                            "WITH speculative_retry = 'NONE'")
            insert = session.prepare("INSERT INTO grow.t (k, v, note) VALUES (?, ?, ?) "
                                     "USING TIMESTAMP ?")
            insert.consistency_level = ConsistencyLevel.ALL
            for k in range(ROWS):
                session.execute(insert, (k, k * 10, "n" + str(k), 1_000_000 + k))
            session.execute(SimpleStatement("UPDATE grow.t USING TTL 86400 SET note = 'ttl' "
                                            "WHERE k = 7", consistency_level=ConsistencyLevel.ALL))

        started = time.monotonic()
        cluster.start_node(4)
        cluster.wait_until_serving(4, timeout_s=120)
        log = (cluster.node_dir(4) / "sibyl-test.log").read_text()
        assert "JOINING: Starting to bootstrap..." in log, log
        assert "Bootstrap completed for tokens" in log, log
        print(f"joined in {time.monotonic() - started:.1f} s")

        with cluster.connect("127.0.0.1") as driver:
            peers = {row.peer for row in driver.connect().execute(
                "SELECT peer FROM system.peers")}
            assert "127.0.0.4" in {str(p) for p in peers}
        # Node 4 alone, at ONE: the keys it replicates come from its own data.
        with cluster.connect("127.0.0.4", only=True) as driver:
            session = driver.connect()
            select = session.prepare("SELECT v, note, writetime(v) AS w, ttl(note) AS t "
                                     "FROM grow.t WHERE k = ?")
            select.consistency_level = ConsistencyLevel.ONE
            for k in range(ROWS):
                row = session.execute(select, (k,)).one()
                assert row is not None, f"key {k} missing"
                assert row.v == k * 10
                assert row.w == 1_000_000 + k  # the original timestamp
            ttl_row = session.execute(select, (7,)).one()
            assert ttl_row.note == "ttl" and 0 < ttl_row.t <= 86400
