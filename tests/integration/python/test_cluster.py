"""A three-node cluster (`sibyl cluster start`) seen through the Python driver.

The cluster runs etcd and three nodes on 127.0.0.1-3, on ports picked free for
this module, in a temporary directory; it is stopped at the end. Metadata,
membership and liveness are tested here; reads and writes in
test_cluster_data.py.
"""

from __future__ import annotations

import re
import socket
import uuid
from typing import Iterator

from cassandra.cluster import Cluster

import pytest

from cluster_process import ADDRESSES, NODES, RunningCluster, running_cluster, wait_for
from sibyl_process import SibylServer, free_port


@pytest.fixture(scope="module")
def cluster() -> Iterator[RunningCluster]:
    with running_cluster() as running:
        yield running


def test_driver_discovers_every_node_and_the_token_map(cluster: RunningCluster) -> None:
    with cluster.connect() as c:
        c.connect()
        hosts = c.metadata.all_hosts()
        assert sorted(h.address for h in hosts) == ADDRESSES
        assert all(h.datacenter == "datacenter1" and h.rack == "rack1" for h in hosts)
        token_map = c.metadata.token_map
        assert token_map is not None
        owners = {str(host.address) for host in token_map.token_to_host_owner.values()}
        assert owners == set(ADDRESSES)
        # 16 tokens per node by default, none claimed twice.
        assert len(token_map.ring) == 16 * NODES


def test_peers_rows_are_the_other_members(cluster: RunningCluster) -> None:
    with cluster.connect("127.0.0.1", only=True) as c:
        session = c.connect()
        local = session.execute("SELECT host_id, tokens FROM system.local").one()
        for table in ("peers", "peers_v2"):
            rows = list(session.execute(
                f"SELECT peer, host_id, data_center, rack, tokens, release_version, "
                f"schema_version FROM system.{table}"))
            assert sorted(str(r.peer) for r in rows) == ADDRESSES[1:], table
            for row in rows:
                assert row.host_id is not None and row.host_id != local.host_id
                assert (row.data_center, row.rack) == ("datacenter1", "rack1")
                assert row.tokens and not (set(row.tokens) & set(local.tokens))
                assert row.release_version == "4.1.7"
                assert row.schema_version is not None


def schema_versions(cluster: RunningCluster) -> set[uuid.UUID]:
    versions = set()
    for address in ADDRESSES:
        with cluster.connect(address, only=True) as c:
            session = c.connect()
            versions.add(session.execute("SELECT schema_version FROM system.local").one()[0])
    return versions


def test_ddl_on_one_node_reaches_every_node_before_it_returns(cluster: RunningCluster) -> None:
    # The driver does not wait for agreement itself (max_schema_agreement_wait
    # 0): what follows sees the node's own guarantee.
    with cluster.connect("127.0.0.1", only=True, max_schema_agreement_wait=0) as c:
        session = c.connect()
        created = session.execute("CREATE KEYSPACE agreed WITH replication = "
                                  "{'class': 'SimpleStrategy', 'replication_factor': 3}")
        # Replication factor 3 on a ring of 3 nodes: no "higher than the number of nodes".
        assert not created.response_future.warnings
        too_many = session.execute("CREATE KEYSPACE too_many WITH replication = "
                                   "{'class': 'NetworkTopologyStrategy', 'datacenter1': 4}")
        assert too_many.response_future.warnings == [
            "Your replication factor 4 for keyspace too_many is higher than the number of nodes "
            "3 for datacenter datacenter1"]
        session.execute("CREATE TABLE agreed.t (k int PRIMARY KEY, v text)")
        local = session.execute("SELECT schema_version FROM system.local").one()[0]
        # The statement returned after every live member applied it, and
        # confirmed it with its schema version: the peers rows agree at once.
        peers = {r.schema_version for r in session.execute("SELECT schema_version FROM system.peers")}
        assert peers == {local}
        # Every node serves the same version (asked one node at a time).
        assert schema_versions(cluster) == {local}
        assert c.control_connection.wait_for_schema_agreement(wait_time=10)
    wait_for(lambda: peers_versions_agree(cluster, local), 5, "heartbeats to carry the version")


def peers_versions_agree(cluster: RunningCluster, version: uuid.UUID) -> bool:
    with cluster.connect("127.0.0.2", only=True) as c:
        session = c.connect()
        return {r.schema_version for r in session.execute(
            "SELECT schema_version FROM system.peers")} == {version}


def test_killed_node_goes_down_and_rejoins_with_its_identity(cluster: RunningCluster) -> None:
    victim = 3
    address = ADDRESSES[victim - 1]
    # `watcher` follows the hosts' status (a host its policy ignores is not
    # followed); `queries` asks node 1 only.
    with cluster.connect() as watcher, cluster.connect("127.0.0.1", only=True) as queries:
        watcher.connect()
        session = queries.connect()
        before = {r.peer: (r.host_id, set(r.tokens)) for r in session.execute(
            "SELECT peer, host_id, tokens FROM system.peers")}
        cluster.kill_node(victim)
        wait_for(lambda: not watcher.metadata.get_host(address).is_up, 30, f"{address} marked down")

        cluster.start_node(victim)
        wait_for(lambda: watcher.metadata.get_host(address).is_up, 60, f"{address} back up")
        after = {r.peer: (r.host_id, set(r.tokens)) for r in session.execute(
            "SELECT peer, host_id, tokens FROM system.peers")}
        assert after == before
        assert len(watcher.metadata.all_hosts()) == NODES
    with cluster.connect(address, only=True) as c:
        local = c.connect().execute("SELECT host_id, tokens FROM system.local").one()
        assert (local.host_id, set(local.tokens)) == before[address]


def test_failure_detector_marks_a_dead_node_down_in_the_log(cluster: RunningCluster) -> None:
    """Node 1's failure detector convicted the node killed above, then saw it back."""
    log = (cluster.node_dir(1) / "sibyl.log").read_text()
    assert re.search(r"Node \S+ is now DOWN", log)
    assert re.search(r"Node \S+ is now UP", log)


def test_a_node_joining_later_is_announced_and_listed(cluster: RunningCluster) -> None:
    """NEW_NODE reaches the driver (which polls no table on its own) and the
    peers tables follow the directory."""
    with Cluster(["127.0.0.1"], port=cluster.native_port, protocol_version=4,
                 topology_event_refresh_window=0) as watcher:
        watcher.connect()
        assert len(watcher.metadata.all_hosts()) == NODES
        cluster.start_node(NODES + 1)
        wait_for(lambda: len(watcher.metadata.all_hosts()) == NODES + 1, 30, "the new host")
        # NEW_NODE waits until the newcomer serves CQL (Cassandra's
        # RPC_READY): a driver told about it can connect at once.
        socket.create_connection((f"127.0.0.{NODES + 1}", cluster.native_port), timeout=2).close()
        newcomer = watcher.metadata.get_host(f"127.0.0.{NODES + 1}")
        assert newcomer is not None and newcomer.datacenter == "datacenter1"
    with cluster.connect("127.0.0.1", only=True) as c:
        rows = list(c.connect().execute("SELECT peer, tokens FROM system.peers_v2"))
        assert sorted(str(r.peer) for r in rows) == ADDRESSES[1:] + [f"127.0.0.{NODES + 1}"]
        assert all(len(r.tokens) == 16 for r in rows)


def test_start_fails_when_a_nodes_own_process_does_not_come_up(tmp_path) -> None:
    """Another process answering CQL on a node's address (as a node left from
    an earlier cluster would) is not taken for the node: its own process
    cannot bind the port, and the start says so."""
    squatter = SibylServer(tmp_path / "squatter")
    squatter.host = "127.0.0.2"
    squatter.workdir.mkdir()
    squatter.start()
    try:
        running = RunningCluster(tmp_path / "cluster", squatter.port, free_port(),
                                 free_port(span=2), free_port())
        try:
            started = running.command("start", "--nodes", "2",
                                      "--native-port", str(running.native_port),
                                      "--storage-port", str(running.storage_port),
                                      "--prometheus-port", "0",
                                      "--etcd-port", str(running.etcd_port))
            assert started.returncode == 1, started.stdout + started.stderr
            assert "node 127.0.0.2 did not start: it exited" in started.stderr, started.stderr
        finally:
            running.command("stop")
        assert squatter.alive()
    finally:
        squatter.stop_cleanly()
