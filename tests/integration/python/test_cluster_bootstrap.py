"""A node joining a ring that holds data (issue 31): it registers JOINING, streams the ranges it
takes from the replicas losing them, moves reads to itself, becomes NORMAL, and only then serves
CQL and shows in system.peers; a node leaving hands its ranges over; `sibyl cluster add` and
`remove` do both for the local cluster. Real processes: up to four nodes and etcd; about 45 s
for the five tests.

What a simulated cluster cannot show: the steps committed to etcd and the barriers between them
over real messaging, STREAM_PULL over TCP with its throttle, the node's start-up waiting for its
data, and a kill -9 in the middle of it.
"""

from __future__ import annotations

import re
import subprocess
import threading
import time
from pathlib import Path

from cassandra import ConsistencyLevel
from cassandra.query import SimpleStatement

from cluster_process import RunningCluster, running_cluster, wait_for
from sibyl_process import sibyl_binary

ROWS = 600


def create_and_fill(cluster: RunningCluster, rows: int, note_bytes: int = 8,
                    replication_factor: int = 3) -> None:
    with cluster.connect("127.0.0.1") as driver:
        session = driver.connect()
        session.execute("CREATE KEYSPACE grow WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': "
                        f"{replication_factor}}}")
        # A replica reads itself first at ONE, and no other replica answers for it.
        session.execute("CREATE TABLE grow.t (k int PRIMARY KEY, v int, note text) "
                        "WITH speculative_retry = 'NONE'")
        insert = session.prepare("INSERT INTO grow.t (k, v, note) VALUES (?, ?, ?) "
                                 "USING TIMESTAMP ?")
        insert.consistency_level = ConsistencyLevel.ALL
        for k in range(rows):
            session.execute(insert, (k, k * 10, "n" * note_bytes, 1_000_000 + k))


def check_node_alone(cluster: RunningCluster, i: int, keys: dict[int, int],
                     level: int = ConsistencyLevel.ONE) -> None:
    """Node i alone coordinating, at `level`: at ONE, the keys it replicates come from its own
    data."""
    with cluster.connect(f"127.0.0.{i}", only=True) as driver:
        session = driver.connect()
        select = session.prepare("SELECT v, writetime(v) AS w FROM grow.t WHERE k = ?")
        select.consistency_level = level
        for k, v in keys.items():
            row = session.execute(select, (k,)).one()
            assert row is not None, f"key {k} missing"
            assert row.v == v, f"key {k}: {row.v} instead of {v}"


def test_a_new_node_streams_its_ranges_before_it_serves() -> None:
    with running_cluster(nodes=3) as cluster:
        create_and_fill(cluster, ROWS)
        # Writes go on while it joins: none acknowledged at QUORUM may be lost (the joiner was
        # pending for them, counted on top of QUORUM, or streamed them). One acknowledged
        # without the joiner's answer may reach it later (a hint), as in Cassandra: so they are
        # read back at QUORUM, and the rows written before, alone at ONE.
        acknowledged: dict[int, int] = {}
        stop = threading.Event()

        def write() -> None:
            with cluster.connect("127.0.0.1") as driver:
                session = driver.connect()
                insert = session.prepare("INSERT INTO grow.t (k, v) VALUES (?, ?)")
                insert.consistency_level = ConsistencyLevel.QUORUM
                k = ROWS
                while not stop.is_set():
                    try:
                        session.execute(insert, (k, k * 10))
                        acknowledged[k] = k * 10
                    except Exception:  # noqa: BLE001 - unacknowledged: not checked
                        pass
                    k += 1

        writer = threading.Thread(target=write)
        writer.start()
        try:
            time.sleep(1)
            started = time.monotonic()
            cluster.start_node(4)
            cluster.wait_until_serving(4, timeout_s=120)
            print(f"joined in {time.monotonic() - started:.1f} s")
            time.sleep(1)
        finally:
            stop.set()
            writer.join()
        log = (cluster.node_dir(4) / "sibyl-test.log").read_text()
        assert "JOINING: Starting to bootstrap..." in log, log
        assert "Bootstrap completed for tokens" in log, log
        assert len(acknowledged) > 20, "the writer did not get going"

        with cluster.connect("127.0.0.1") as driver:
            session = driver.connect()
            peers = {str(row.peer) for row in session.execute("SELECT peer FROM system.peers")}
            assert "127.0.0.4" in peers
            session.execute(SimpleStatement("UPDATE grow.t USING TTL 86400 SET note = 'ttl' "
                                            "WHERE k = 7", consistency_level=ConsistencyLevel.ALL))
        check_node_alone(cluster, 4, {k: k * 10 for k in range(ROWS)})
        check_node_alone(cluster, 4, acknowledged, ConsistencyLevel.QUORUM)
        with cluster.connect("127.0.0.4", only=True) as driver:
            session = driver.connect()
            row = session.execute(SimpleStatement(
                "SELECT writetime(v) AS w, ttl(note) AS t FROM grow.t WHERE k = 7",
                consistency_level=ConsistencyLevel.ONE)).one()
            assert row.w == 1_000_007  # the original timestamp came along
            assert 0 < row.t <= 86400


def admin(cluster: RunningCluster, i: int, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(sibyl_binary()), "admin", "--host", f"127.0.0.{i}", "--port",
                           str(cluster.native_port), *args],
                          capture_output=True, text=True, timeout=300)


def streamed(log: str) -> tuple[int, int]:
    """(slices received, slices done before) of the joiner's last stream."""
    found = re.findall(r"JOINING: streamed (\d+) slices \((\d+) bytes; (\d+) done before\)", log)
    assert found, log
    return int(found[-1][0]), int(found[-1][2])


def test_a_joiner_killed_while_streaming_resumes_after_what_it_applied() -> None:
    # Slow sources (64KiB/s each), so that the kill lands in the middle of the stream.
    options = (("stream_throughput_outbound", "64KiB/s"),)
    with running_cluster(nodes=3, node_options=options) as cluster:
        create_and_fill(cluster, ROWS, note_bytes=1000)
        cluster.start_node(4)
        progress_dir = cluster.node_dir(4) / "data" / "streams"

        def slices_applied() -> int:
            files = list(progress_dir.glob("*.stream")) if progress_dir.exists() else []
            return sum(len(f.read_text().splitlines()) for f in files)

        deadline = time.monotonic() + 60
        while slices_applied() < 20 and time.monotonic() < deadline:
            time.sleep(0.05)
        applied_before = slices_applied()
        assert applied_before >= 20, "the stream did not get going"
        cluster.kill_node(4)
        log_path: Path = cluster.node_dir(4) / "sibyl-test.log"
        assert "Bootstrap completed" not in log_path.read_text(), "killed too late"

        cluster.start_node(4)
        cluster.wait_until_serving(4, timeout_s=120)
        received, done_before = streamed(log_path.read_text())
        # What it applied before the kill is not fetched again.
        assert done_before >= applied_before
        print(f"resumed: {done_before} slices done before the kill, {received} fetched after")
        check_node_alone(cluster, 4, {k: k * 10 for k in range(ROWS)})


def test_a_decommissioned_node_hands_its_ranges_over_and_leaves() -> None:
    with running_cluster(nodes=4) as cluster:
        create_and_fill(cluster, ROWS)
        with cluster.connect("127.0.0.4", only=True) as driver:
            session = driver.connect()
            assert session.execute(
                "SELECT state FROM system_views.decommission").one().state == "NORMAL"
            # Another node's host id is refused: decommission runs on the node leaving.
            other = session.execute("SELECT host_id FROM system.peers LIMIT 1").one().host_id
            try:
                session.execute("INSERT INTO system_views.decommission (host_id) VALUES (%s)",
                                (other,))
                raise AssertionError("another node's decommission was accepted")
            except Exception as e:  # noqa: BLE001 - the driver's InvalidRequest
                assert "is not this node" in str(e), e
        left = admin(cluster, 4, "decommission")
        assert left.returncode == 0 and left.stdout == "", left
        deadline = time.monotonic() + 30
        while cluster.alive(4) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not cluster.alive(4), "a decommissioned node stops"
        log = (cluster.node_dir(4) / "sibyl.log").read_text()
        assert "DECOMMISSIONED" in log, log
        with cluster.connect("127.0.0.1", only=True) as driver:
            session = driver.connect()
            peers = {str(row.peer) for row in session.execute("SELECT peer FROM system.peers")}
            assert peers == {"127.0.0.2", "127.0.0.3"}
        # Three nodes left for RF 3: another decommission would lose a replica.
        refused = admin(cluster, 1, "decommission")
        assert refused.returncode == 1
        assert ("Not enough live nodes to maintain replication factor in keyspace grow "
                "(RF = 3, N = 3). Perform a forceful decommission to ignore.") in refused.stderr
        # RF 3 on three nodes: each holds every key, with its original write time.
        for i in (1, 2, 3):
            check_node_alone(cluster, i, {k: k * 10 for k in range(ROWS)})


def test_cluster_add_and_remove_grow_and_shrink_the_local_cluster() -> None:
    """`sibyl cluster add` starts node N+1 with the options `start` was given, and it joins by
    streaming; `sibyl cluster remove` decommissions the last node, whose rows (some written
    while it was a replica) reach the nodes that stay, then deletes its directory."""
    options = (("num_tokens", "8"),)
    with running_cluster(nodes=3, node_options=options) as cluster:
        create_and_fill(cluster, ROWS // 2)
        added = cluster.command("add")
        assert added.returncode == 0, added.stdout + added.stderr
        assert added.stdout == f"Node 127.0.0.4 joined the cluster in {cluster.directory}\n"
        log = (cluster.node_dir(4) / "sibyl.log").read_text()
        assert "Bootstrap completed" in log, log
        with cluster.connect("127.0.0.4", only=True) as driver:
            session = driver.connect()
            tokens = session.execute("SELECT tokens FROM system.local").one().tokens
            assert len(tokens) == 8, "the added node was started without start's options"
            insert = session.prepare("INSERT INTO grow.t (k, v) VALUES (?, ?) USING TIMESTAMP ?")
            insert.consistency_level = ConsistencyLevel.ALL
            for k in range(ROWS // 2, ROWS):
                session.execute(insert, (k, k * 10, 1_000_000 + k))
        removed = cluster.command("remove")
        assert removed.returncode == 0, removed.stdout + removed.stderr
        assert removed.stdout == f"Node 127.0.0.4 left the cluster in {cluster.directory}\n"
        assert not cluster.node_dir(4).exists()
        with cluster.connect("127.0.0.1", only=True) as driver:
            rows = driver.connect().execute("SELECT peer FROM system.peers")
            assert {str(row.peer) for row in rows} == {"127.0.0.2", "127.0.0.3"}
        # RF 3 on three nodes: each holds every key again.
        for i in (1, 2, 3):
            check_node_alone(cluster, i, {k: k * 10 for k in range(ROWS)})
        # Three nodes left for RF 3 (system_distributed's too, as on Cassandra): removing one
        # more would lose a replica.
        refused = cluster.command("remove")
        assert refused.returncode == 1
        assert "(RF = 3, N = 3). Perform a forceful decommission to ignore." in \
            refused.stderr, refused.stderr
        assert cluster.node_dir(3).exists()
        # Forced, as nodetool decommission --force: node 3 leaves, and RF 3 on the two left
        # means each holds every key.
        forced = admin(cluster, 3, "decommission", "--force")
        assert forced.returncode == 0 and forced.stdout == "", forced
        for i in (1, 2):
            check_node_alone(cluster, i, {k: k * 10 for k in range(ROWS)})


def test_a_dead_node_is_removed_and_its_ranges_rebuilt_from_the_replicas_left() -> None:
    with running_cluster(nodes=4) as cluster:
        create_and_fill(cluster, ROWS)
        with cluster.connect("127.0.0.1", only=True) as driver:
            session = driver.connect()
            own = session.execute("SELECT host_id FROM system.local").one().host_id
            ids = {str(row.peer): row.host_id
                   for row in session.execute("SELECT peer, host_id FROM system.peers")}
        refusals = {
            str(own): "Cannot remove self",
            str(ids["127.0.0.2"]): f"Node /127.0.0.2:{cluster.storage_port} is alive and owns "
                                   "this ID. Use decommission command to remove it from the ring",
            "6a4cbd7e-0000-4000-8000-000000000000": "Host ID not found.",
        }
        for host_id, message in refusals.items():
            refused = admin(cluster, 1, "removenode", host_id)
            assert refused.returncode == 1 and message in refused.stderr, refused
        status = admin(cluster, 1, "removenode", "status")
        assert status.stdout == "RemovalStatus: No token removals in process.\n", status
        nothing = admin(cluster, 1, "removenode", "force")
        assert nothing.returncode == 1
        assert "No tokens to force removal on, call 'removenode' first" in nothing.stderr

        cluster.kill_node(4)
        wait_for(lambda: "DN  127.0.0.4" in admin(cluster, 1, "status").stdout, 30,
                 "node 4 down")
        removed = admin(cluster, 1, "removenode", str(ids["127.0.0.4"]))
        assert removed.returncode == 0 and removed.stdout == "", removed
        with cluster.connect("127.0.0.1", only=True) as driver:
            rows = driver.connect().execute("SELECT peer FROM system.peers")
            assert {str(row.peer) for row in rows} == {"127.0.0.2", "127.0.0.3"}
        assert "127.0.0.4" not in admin(cluster, 1, "status").stdout
        # RF 3 on the three left: each holds every key, the dead node's ranges included.
        for i in (1, 2, 3):
            check_node_alone(cluster, i, {k: k * 10 for k in range(ROWS)})


def test_a_leaver_killed_while_its_ranges_stream_comes_back_normal() -> None:
    # Slow streams (64KiB/s from the leaver), so that the kill lands while they run.
    options = (("stream_throughput_outbound", "64KiB/s"),)
    with running_cluster(nodes=4, node_options=options) as cluster:
        create_and_fill(cluster, ROWS, note_bytes=1000)
        decommission = subprocess.Popen(
            [str(sibyl_binary()), "admin", "--host", "127.0.0.4", "--port",
             str(cluster.native_port), "decommission"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            def receivers_streaming() -> bool:
                return any(f.read_text() for i in (1, 2, 3)
                           for f in (cluster.node_dir(i) / "data" / "streams").glob("*.stream"))
            deadline = time.monotonic() + 60
            while not receivers_streaming() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert receivers_streaming(), "the receivers did not start streaming"
            cluster.kill_node(4)
        finally:
            decommission.wait(timeout=60)
        assert decommission.returncode != 0  # it never finished
        cluster.start_node(4)
        cluster.wait_until_serving(4, timeout_s=120)
        log = (cluster.node_dir(4) / "sibyl-test.log").read_text()
        assert "the decommission is cancelled" in log, log
        with cluster.connect("127.0.0.4", only=True) as driver:
            assert driver.connect().execute(
                "SELECT state FROM system_views.decommission").one().state == "NORMAL"
        # Asked again, it leaves, the others holding everything.
        left = admin(cluster, 4, "decommission")
        assert left.returncode == 0, left
        for i in (1, 2, 3):
            check_node_alone(cluster, i, {k: k * 10 for k in range(ROWS)})
