"""The disk usage guardrails (docs/guardrails.md "Disk usage"): each node
measures its data directory against local_data_disk_usage's thresholds
(data_disk_usage_percentage_warn/fail_threshold, capped by
data_disk_usage_max_disk_size), logs a violation, shows its state in
system_views.gossip_info and /metrics, and tells the other nodes in its
heartbeats; a coordinator warns about writes to a STUFFED replica and refuses
writes to a FULL one (replica_disk_usage), with Cassandra's texts.

The disk is made "full" the way an operator would bound it:
data_disk_usage_max_disk_size set to a few times what the data takes."""

from __future__ import annotations

import socket
import struct
from typing import Iterator

import pytest
from cassandra import InvalidRequest
from cassandra.cluster import Session

from cluster_process import RunningCluster, running_cluster, wait_for
from driver_session import connected
from select_support import server_message, warnings_of
from sibyl_process import SibylServer, running_server
from test_metrics import Samples, scrape

STUFFED = "Guardrail replica_disk_usage violated: Replica disk usage exceeds warning threshold"
FULL = ("Guardrail replica_disk_usage violated: Write request failed because disk usage "
        "exceeds failure threshold")
# The monitor measures every 100ms here (30s by default).
FAST_MONITOR = ["--disk-usage-monitor-interval", "100ms"]


def update_disk_guardrail(session: Session, **columns) -> None:
    assignments = ", ".join(f"{column} = %s" for column in columns)
    session.execute(f"UPDATE system_views.guardrails SET {assignments} "
                    "WHERE name = 'local_data_disk_usage'", list(columns.values()))


def local_disk_state(session: Session) -> str | None:
    rows = session.execute("SELECT address, disk_usage FROM system_views.gossip_info")
    return {str(row.address): row.disk_usage for row in rows}.get("127.0.0.1")


def wait_for_state(session: Session, state: str) -> None:
    wait_for(lambda: local_disk_state(session) == state, 10, f"disk usage state {state}")


@pytest.fixture(scope="module")
def server() -> Iterator[SibylServer]:
    # notify interval 0: every violation is told (30 minutes by default).
    with running_server(FAST_MONITOR + ["--disk-usage-notify-interval", "0ms"]) as server:
        yield server


@pytest.fixture(scope="module")
def session(server) -> Iterator[Session]:
    with connected(server) as session:
        session.execute("CREATE KEYSPACE du WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.execute("CREATE TABLE du.t (k int, c int, v text, PRIMARY KEY (k, c))")
        yield session


@pytest.fixture(scope="module")
def bounded(server, session) -> int:
    """Turns the guardrail on with the disk bounded at four times what the
    data takes now: about 25% used. Returns that bound in bytes."""
    assert local_disk_state(session) == "NOT_AVAILABLE"  # off by default, as in Cassandra
    samples = Samples(scrape(server))
    used = int(samples.get("sibyl_data_disk_used_bytes"))
    assert used > 0
    assert samples.get("sibyl_data_disk_usage_state") == 0
    bound = 4 * used
    update_disk_guardrail(session, warn_threshold="90", fail_threshold="95",
                          max_disk_size=f"{bound}B")
    row = session.execute("SELECT max_disk_size FROM system_views.guardrails "
                          "WHERE name = 'local_data_disk_usage'").one()
    assert row.max_disk_size == f"{bound}B"
    wait_for_state(session, "SPACIOUS")
    return bound


def test_spacious_writes_say_nothing(server, session, bounded):
    assert warnings_of(session, "INSERT INTO du.t (k, c, v) VALUES (1, 1, 'a')") == []
    # A bound larger than the disk is refused, as Cassandra refuses it.
    with pytest.raises(InvalidRequest) as error:
        update_disk_guardrail(session, max_disk_size="1000000000GiB")
    message = server_message(error.value)
    assert message.startswith("Invalid value for data_disk_usage_max_disk_size: 1000000000GiB "
                              "specified, but only "), message
    assert message.endswith(" are actually available on disk"), message
    samples = Samples(scrape(server))
    assert samples.get("sibyl_data_disk_usage_state") == 1
    assert 10 <= samples.get("sibyl_data_disk_usage_percent") <= 50


def test_stuffed_node_warns_every_write_and_logs_it(server, session, bounded):
    update_disk_guardrail(session, warn_threshold="5", fail_threshold="95")
    wait_for_state(session, "STUFFED")
    assert warnings_of(session, "INSERT INTO du.t (k, c, v) VALUES (1, 2, 'b')") == [STUFFED]
    assert warnings_of(session, "DELETE FROM du.t WHERE k = 1 AND c = 2") == [STUFFED]
    insert = session.prepare("INSERT INTO du.t (k, c, v) VALUES (?, ?, ?)")
    assert warnings_of(session, insert, [2, 1, "c"]) == [STUFFED]
    # Each statement of a batch is checked.
    assert warnings_of(session, "BEGIN BATCH INSERT INTO du.t (k, c, v) VALUES (3, 1, 'd'); "
                                "INSERT INTO du.t (k, c, v) VALUES (4, 1, 'e'); "
                                "APPLY BATCH") == [STUFFED, STUFFED]
    assert warnings_of(session, "SELECT * FROM du.t WHERE k = 1") == []
    assert session.execute("SELECT v FROM du.t WHERE k = 2 AND c = 1").one().v == "c"
    assert Samples(scrape(server)).get("sibyl_data_disk_usage_state") == 2
    log = server.log_text()
    assert "Guardrail local_data_disk_usage violated: Local data disk usage " in log
    assert "%(Stuffed) exceeds warning threshold of 5%" in log


def test_full_node_refuses_writes_but_serves_reads(server, session, bounded):
    update_disk_guardrail(session, warn_threshold="4", fail_threshold="5")
    wait_for_state(session, "FULL")
    for write in ["INSERT INTO du.t (k, c, v) VALUES (5, 1, 'f')",
                  "UPDATE du.t SET v = 'g' WHERE k = 1 AND c = 1",
                  "DELETE FROM du.t WHERE k = 1",
                  "BEGIN UNLOGGED BATCH INSERT INTO du.t (k, c, v) VALUES (5, 1, 'f'); "
                  "APPLY BATCH",
                  "BEGIN BATCH INSERT INTO du.t (k, c, v) VALUES (5, 1, 'f') IF NOT EXISTS; "
                  "APPLY BATCH"]:
        with pytest.raises(InvalidRequest) as error:
            session.execute(write)
        assert server_message(error.value) == FULL, write
    assert session.execute("SELECT v FROM du.t WHERE k = 1 AND c = 1").one().v == "a"
    assert session.execute("SELECT * FROM du.t WHERE k = 5").one() is None
    # As in Cassandra, a lightweight transaction outside a batch is not checked.
    assert session.execute("INSERT INTO du.t (k, c, v) VALUES (6, 1, 'h') IF NOT EXISTS").one()[0]
    assert Samples(scrape(server)).get("sibyl_data_disk_usage_state") == 3
    assert "%(Full) exceeds failure threshold of 5%, will stop accepting writes" in (
        server.log_text())
    model = session.execute("SELECT count, last_warning FROM system_views.model_warnings "
                            "WHERE rule = 'replica_disk_usage' AND keyspace_name = 'du' "
                            "AND table_name = 't'").one()
    assert model is not None and model.count >= 5 and model.last_warning == FULL

    # Room again: writes go through.
    update_disk_guardrail(session, max_disk_size=None)
    wait_for_state(session, "SPACIOUS")
    assert warnings_of(session, "INSERT INTO du.t (k, c, v) VALUES (5, 1, 'f')") == []
    update_disk_guardrail(session, warn_threshold=None, fail_threshold=None)
    wait_for_state(session, "NOT_AVAILABLE")


def test_a_warning_is_told_once_per_notify_interval():
    """With Cassandra's default interval (30 minutes) a node tells one
    warning and keeps quiet until the interval passes; a FULL node still
    refuses every write."""
    with running_server(FAST_MONITOR + [
            "--data-disk-usage-percentage-warn-threshold", "90",
            "--data-disk-usage-max-disk-size", "1KiB"]) as server:
        with connected(server) as session:
            session.execute("CREATE KEYSPACE du WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 1}")
            session.execute("CREATE TABLE du.t (k int PRIMARY KEY, v int)")
            wait_for_state(session, "STUFFED")
            told = [warnings_of(session, f"INSERT INTO du.t (k, v) VALUES ({k}, 1)")
                    for k in range(3)]
            assert told == [[STUFFED], [], []]
            update_disk_guardrail(session, fail_threshold="95")
            wait_for_state(session, "FULL")
            for k in range(2):
                with pytest.raises(InvalidRequest) as error:
                    session.execute(f"INSERT INTO du.t (k, v) VALUES ({k}, 2)")
                assert server_message(error.value) == FULL


def accepts_cql(address: str, port: int) -> bool:
    try:
        with socket.create_connection((address, port), timeout=1):
            return True
    except OSError:
        return False


def int_key(k: int) -> bytes:
    return struct.pack(">i", k)


def test_a_coordinator_checks_each_replicas_state_from_its_heartbeats(tmp_path):
    """Two nodes, one replica per partition: node 2 FULL, then STUFFED,
    then SPACIOUS; node 1 coordinates every write."""
    with running_cluster(nodes=2, parent=tmp_path) as cluster:
        cluster.kill_node(2)
        # Until the killed process is gone its ports are taken.
        wait_for(lambda: not accepts_cql("127.0.0.2", cluster.native_port), 30,
                 "node 2 to be gone")
        cluster.start_node(2, tuple(FAST_MONITOR) + (
            "--data-disk-usage-percentage-fail-threshold", "95",
            "--data-disk-usage-max-disk-size", "1KiB"))
        cluster.wait_until_serving(2)
        with cluster.connect("127.0.0.1", only=True) as c1, \
                cluster.connect("127.0.0.2", only=True) as c2:
            s1, s2 = c1.connect(), c2.connect()
            s1.execute("CREATE KEYSPACE du WITH replication = "
                       "{'class': 'SimpleStrategy', 'replication_factor': 1}")
            s1.execute("CREATE TABLE du.t (k int PRIMARY KEY, v int)")
            c1.refresh_schema_metadata()

            def states() -> dict[str, str]:
                return {str(r.address): r.disk_usage
                        for r in s1.execute("SELECT address, disk_usage FROM "
                                            "system_views.gossip_info")}
            wait_for(lambda: states() == {"127.0.0.1": "NOT_AVAILABLE", "127.0.0.2": "FULL"},
                     20, "node 1 to hear that node 2 is FULL")

            on_node2 = [k for k in range(40)
                        if str(c1.metadata.get_replicas("du", int_key(k))[0].address)
                        == "127.0.0.2"]
            assert 0 < len(on_node2) < 40
            on_node1 = [k for k in range(40) if k not in on_node2]
            for k in range(40):
                if k in on_node2:
                    with pytest.raises(InvalidRequest) as error:
                        s1.execute(f"INSERT INTO du.t (k, v) VALUES ({k}, 1)")
                    assert server_message(error.value) == FULL
                else:
                    assert warnings_of(s1, f"INSERT INTO du.t (k, v) VALUES ({k}, 1)") == []
            assert s1.execute("SELECT count(*) FROM du.t").one()[0] == len(on_node1)

            # STUFFED: node 1 warns (once in its 30-minute notify interval).
            update_disk_guardrail(s2, fail_threshold=None, warn_threshold="90")
            wait_for(lambda: states()["127.0.0.2"] == "STUFFED", 20, "node 2 STUFFED")
            told = [warnings_of(s1, f"INSERT INTO du.t (k, v) VALUES ({k}, 2)")
                    for k in on_node2[:2]]
            assert told == [[STUFFED], []]
            assert warnings_of(s1, f"INSERT INTO du.t (k, v) VALUES ({on_node1[0]}, 2)") == []

            update_disk_guardrail(s2, max_disk_size=None)
            wait_for(lambda: states()["127.0.0.2"] == "SPACIOUS", 20, "node 2 SPACIOUS")
            for k in on_node2:
                s1.execute(f"INSERT INTO du.t (k, v) VALUES ({k}, 3)")
            assert s1.execute("SELECT count(*) FROM du.t").one()[0] == 40
