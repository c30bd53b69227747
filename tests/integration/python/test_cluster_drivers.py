"""What the Python driver does with a three-node cluster (`sibyl cluster start`)
when it is connected to one node only.

Tested here: the driver learns the other two nodes from the first; a prepared
statement at ONE, under TokenAwarePolicy, is coordinated by the replica of its
partition key, and the nodes place rows where the driver's token map says; the
prepared id is the same on every node (and is Cassandra's MD5 of the query
text); after CREATE TABLE the driver sees the table and the nodes agree on the
schema; queries at QUORUM keep succeeding when a node is killed, acknowledged
writes survive the kill, and Unavailable is retried once, on another node;
when the contact point dies the control connection moves and DDL still
reaches agreement; every node tells its clients of DDL run through another
node, and DDL right after a node dies returns once that node is seen down.
Membership and the system tables are tested in test_cluster.py, consistency levels and hints in test_cluster_data.py.

One cluster serves the whole module. A test that kills a node restarts it
before it ends, so the order of the tests does not matter.
"""

from __future__ import annotations

import hashlib
from typing import Iterator

import pytest
from cassandra import ConsistencyLevel, ReadTimeout, Unavailable
from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile
from cassandra.policies import RoundRobinPolicy, TokenAwarePolicy
from cassandra.query import SimpleStatement

from cluster_process import ADDRESSES, RunningCluster, running_cluster, wait_for

# One replica per key: only one node may coordinate a token-aware request.
SINGLE = "single_replica"
# Three replicas: QUORUM still has two nodes when one dies.
TRIPLE = "three_replicas"
KEYS = range(40)


@pytest.fixture(scope="module")
def cluster() -> Iterator[RunningCluster]:
    with running_cluster() as running:
        with running.connect("127.0.0.1", only=True) as c:
            session = c.connect()
            for keyspace, factor in ((SINGLE, 1), (TRIPLE, 3)):
                session.execute(f"CREATE KEYSPACE {keyspace} WITH replication = "
                                f"{{'class': 'SimpleStrategy', 'replication_factor': {factor}}}")
                session.execute(f"CREATE TABLE {keyspace}.t (k int PRIMARY KEY, v text)")
        yield running


def token_aware(cluster: RunningCluster, level: int, **options) -> Cluster:
    """A driver given only 127.0.0.1; its default profile routes to replicas.
    The child policy is a plain round robin so that a request that is *not*
    routed by token would land on any of the three nodes."""
    profile = ExecutionProfile(load_balancing_policy=TokenAwarePolicy(RoundRobinPolicy()),
                               consistency_level=level)
    return Cluster(["127.0.0.1"], port=cluster.native_port, protocol_version=4,
                   connect_timeout=10, control_connection_timeout=10,
                   execution_profiles={EXEC_PROFILE_DEFAULT: profile}, **options)


def connect_to_every_node(c: Cluster):
    """c's session once it has a connection pool for every node: connect()
    can return while the driver is still opening one, and a request whose
    replica has no pool yet goes to the next host of the plan."""
    session = c.connect()
    wait_for(lambda: sorted(h.address for h in session.get_pool_state()) == ADDRESSES,
             10, "a connection pool for every node")
    return session


def coordinator(result) -> str:
    return result.response_future._current_host.address


def test_driver_given_one_contact_point_discovers_every_node(cluster: RunningCluster) -> None:
    with token_aware(cluster, ConsistencyLevel.ONE) as c:
        c.connect()
        assert sorted(h.address for h in c.metadata.all_hosts()) == ADDRESSES
        assert all(h.is_up for h in c.metadata.all_hosts())
        # Every node gets a connection pool, not just the contact point.
        connect_to_every_node(c)


def test_prepared_statements_at_one_are_coordinated_by_the_keys_replica(
        cluster: RunningCluster) -> None:
    with token_aware(cluster, ConsistencyLevel.ONE) as c:
        session = connect_to_every_node(c)
        insert = session.prepare(f"INSERT INTO {SINGLE}.t (k, v) VALUES (?, ?)")
        select = session.prepare(f"SELECT v FROM {SINGLE}.t WHERE k = ?")
        # The routing key comes from the partition-key indexes in PREPARED.
        assert insert.routing_key_indexes == [0] and select.routing_key_indexes == [0]
        replica_of = {}
        for k in KEYS:
            bound = insert.bind((k, f"value {k}"))
            replicas = c.metadata.get_replicas(SINGLE, bound.routing_key)
            assert len(replicas) == 1, (k, replicas)
            replica_of[k] = replicas[0].address
            assert coordinator(session.execute(bound)) == replica_of[k], k
        # With 40 keys over 48 tokens each node owns some: a driver that
        # always picked the contact point would fail above.
        assert set(replica_of.values()) == set(ADDRESSES)
        for k in KEYS:
            read = session.execute(select, (k,))
            assert coordinator(read) == replica_of[k], k
            assert read.one().v == f"value {k}"

    # Each replica, asked alone at ONE, has the rows the driver sent it.
    for address in ADDRESSES:
        with cluster.connect(address, only=True) as c:
            session = c.connect()
            select = session.prepare(f"SELECT v FROM {SINGLE}.t WHERE k = ?")
            select.consistency_level = ConsistencyLevel.ONE
            for k in (k for k in KEYS if replica_of[k] == address):
                read = session.execute(select, (k,))
                assert coordinator(read) == address
                assert read.one().v == f"value {k}"


def test_prepared_ids_are_the_same_on_every_node(cluster: RunningCluster) -> None:
    qualified = f"SELECT v FROM {SINGLE}.t WHERE k = ?"
    unqualified = "SELECT v FROM t WHERE k = ?"
    ids = {}
    for address in ADDRESSES:
        # prepare_on_all_hosts off: each id comes from that node alone.
        with cluster.connect(address, only=True, prepare_on_all_hosts=False) as c:
            session = c.connect()
            by_name = session.prepare(qualified)
            session.set_keyspace(SINGLE)
            in_keyspace = session.prepare(unqualified)
            ids[address] = (by_name.query_id, in_keyspace.query_id)
            assert session.execute(in_keyspace, (1,)).one().v == "value 1"
    assert len(set(ids.values())) == 1, ids
    # Cassandra 4.0.2+: MD5 of the query, prefixed with the session's
    # keyspace when the statement relies on it.
    assert ids[ADDRESSES[0]] == (hashlib.md5(qualified.encode()).digest(),
                                 hashlib.md5((SINGLE + unqualified).encode()).digest())


def test_statement_prepared_through_one_node_executes_on_the_others(
        cluster: RunningCluster) -> None:
    """The driver prepares on the contact point, then executes that id on every
    node; a node with another id would answer UNPREPARED and the driver's
    re-prepare would fail with "ID mismatch"."""
    with cluster.connect("127.0.0.1", only=True, prepare_on_all_hosts=False) as first:
        prepared = first.connect().prepare(f"SELECT v FROM {SINGLE}.t WHERE k = ?")
    for address in ADDRESSES[1:]:
        with cluster.connect(address, only=True, prepare_on_all_hosts=False) as c:
            session = c.connect()
            # The statement was never prepared on this node: the first execute
            # is answered UNPREPARED, re-prepared, and must come back equal.
            read = session.execute(prepared, (2,))
            assert coordinator(read) == address
            assert read.one().v == "value 2"


def test_create_table_is_in_the_drivers_metadata_once_the_nodes_agree(
        cluster: RunningCluster) -> None:
    with token_aware(cluster, ConsistencyLevel.ONE) as c:
        session = c.connect()
        created = session.execute(f"CREATE TABLE {TRIPLE}.agreed (k int PRIMARY KEY, n int)")
        # The driver waited for every up node to report the new schema version
        # before it returned, and refreshed its metadata.
        assert created.response_future.is_schema_agreed
        table = c.metadata.keyspaces[TRIPLE].tables["agreed"]
        assert [col.name for col in table.partition_key] == ["k"]
        assert table.columns["n"].cql_type == "int"
        assert c.control_connection.wait_for_schema_agreement(wait_time=10)
    # A driver whose control connection is another node loads the table too,
    # and every node takes writes to it.
    with cluster.connect("127.0.0.2") as other:
        session = other.connect()
        assert "agreed" in other.metadata.keyspaces[TRIPLE].tables
        insert = session.prepare(f"INSERT INTO {TRIPLE}.agreed (k, n) VALUES (?, ?)")
        insert.consistency_level = ConsistencyLevel.ALL
        session.execute(insert, (1, 1))


def test_metadata_follows_a_table_created_through_another_node(cluster: RunningCluster) -> None:
    # The watcher's control connection is on node 1, its only contact point;
    # no wait before the refresh an event triggers.
    with token_aware(cluster, ConsistencyLevel.ONE, schema_event_refresh_window=0) as watcher:
        watcher.connect()
        assert control_host(watcher) == ADDRESSES[0]
        with cluster.connect(ADDRESSES[1], only=True) as other:
            other.connect().execute(f"CREATE TABLE {TRIPLE}.elsewhere (k int PRIMARY KEY)")
        wait_for(lambda: "elsewhere" in watcher.metadata.keyspaces[TRIPLE].tables, 5,
                 "the watcher's metadata to list the table")


def test_queries_at_quorum_keep_succeeding_after_a_node_is_killed(
        cluster: RunningCluster) -> None:
    victim = 3
    address = ADDRESSES[victim - 1]
    with token_aware(cluster, ConsistencyLevel.QUORUM) as c:
        session = connect_to_every_node(c)
        insert = session.prepare(f"INSERT INTO {TRIPLE}.t (k, v) VALUES (?, ?)")
        select = session.prepare(f"SELECT v FROM {TRIPLE}.t WHERE k = ?")
        for k in KEYS:
            session.execute(insert, (k, "before"))
        # Rows with the victim as their only replica (QUORUM of one is one).
        insert_single = session.prepare(f"INSERT INTO {SINGLE}.t (k, v) VALUES (?, ?)")
        select_single = session.prepare(f"SELECT v FROM {SINGLE}.t WHERE k = ?")
        victims_keys = [k for k in KEYS if replica(c, insert_single.bind((k, ""))) == address]
        assert victims_keys
        for k in KEYS:
            session.execute(insert_single, (k, f"durable {k}"))
        try:
            cluster.kill_node(victim)
            coordinators = set()
            # No wait for the driver or the nodes to notice: requests sent
            # while the dead node's connections break are retried elsewhere.
            for k in KEYS:
                written = session.execute(insert, (k, "after"))
                read = session.execute(select, (k,))
                assert read.one().v == "after", k
                coordinators |= {coordinator(written), coordinator(read)}
            assert address not in coordinators
            assert not c.metadata.get_host(address).is_up

            # Once the nodes convict the dead one, ALL is refused up front with
            # Unavailable, which the driver's default RetryPolicy retries once
            # on the next host before giving up.
            everything = select.bind((1,))
            everything.consistency_level = ConsistencyLevel.ALL
            wait_for(lambda: unavailable(session, everything), 30,
                     "the nodes to refuse ALL with Unavailable")
            future = session.execute_async(everything)
            with pytest.raises(Unavailable) as refused:
                future.result()
            assert (refused.value.required_replicas, refused.value.alive_replicas) == (3, 2)
            tried = [host.address for host in future.attempted_hosts]
            assert len(tried) == 2 and len(set(tried)) == 2 and address not in tried, tried

            # The nodes place rows where the driver's token map says: without
            # the victim, exactly its keys of the one-replica keyspace are
            # unavailable.
            for k in KEYS:
                if k in victims_keys:
                    with pytest.raises(Unavailable) as refused:
                        session.execute(select_single, (k,))
                    assert (refused.value.required_replicas, refused.value.alive_replicas) == (1, 0)
                else:
                    assert session.execute(select_single, (k,)).one().v == f"durable {k}"
        finally:
            cluster.start_node(victim)
            cluster.wait_until_serving(victim)
        wait_for(lambda: c.metadata.get_host(address).is_up, 60, f"the driver to see {address} up")
        wait_for(lambda: address in {h.address for h in session.get_pool_state()}, 10,
                 f"a connection pool for {address}")
        # Acknowledged writes survived the kill; and the restarted node takes
        # the statement ids prepared before it died (it re-learns the text
        # from the driver: its id must be the same).
        for k in victims_keys:
            read = session.execute(select_single, (k,))
            assert coordinator(read) == address, k
            assert read.one().v == f"durable {k}", k


def replica(c: Cluster, bound) -> str:
    (host,) = c.metadata.get_replicas(bound.keyspace, bound.routing_key)
    return host.address


def unavailable(session, statement) -> bool:
    """True once `statement` is refused with Unavailable; until the nodes'
    failure detector convicts the dead node it times out waiting for it."""
    try:
        session.execute(statement)
    except Unavailable:
        return True
    except ReadTimeout:
        return False
    return False


def test_driver_moves_its_control_connection_when_the_contact_point_dies(
        cluster: RunningCluster) -> None:
    victim = 1
    address = ADDRESSES[victim - 1]
    with token_aware(cluster, ConsistencyLevel.QUORUM) as c:
        session = connect_to_every_node(c)
        assert control_host(c) == address
        try:
            cluster.kill_node(victim)
            # The driver sees a node closing its connections only when it next
            # uses them (or at the 30 s idle heartbeat): the requests routed to
            # the victim find their connection closed, mark it down, and the
            # control connection, whose host is down, moves.
            insert = session.prepare(f"INSERT INTO {TRIPLE}.t (k, v) VALUES (?, ?)")
            for k in KEYS:
                assert coordinator(session.execute(insert, (k, "no contact point"))) != address
            assert not c.metadata.get_host(address).is_up
            wait_for(lambda: control_host(c) not in (None, address), 10,
                     "the control connection to move to another node")
            # DDL and its agreement go through the surviving nodes; the
            # driver leaves down hosts out of the agreement. (Once the nodes
            # have convicted the victim: see the next test for DDL before.)
            everything = SimpleStatement(f"SELECT v FROM {TRIPLE}.t WHERE k = 1",
                                         consistency_level=ConsistencyLevel.ALL)
            wait_for(lambda: unavailable(session, everything), 30,
                     "the nodes to refuse ALL with Unavailable")
            created = session.execute(f"CREATE TABLE {TRIPLE}.after_contact (k int PRIMARY KEY)")
            assert created.response_future.is_schema_agreed
            assert "after_contact" in c.metadata.keyspaces[TRIPLE].tables
            assert c.control_connection.wait_for_schema_agreement(wait_time=10)
        finally:
            cluster.start_node(victim)
            cluster.wait_until_serving(victim)
        wait_for(lambda: c.metadata.get_host(address).is_up, 60, f"the driver to see {address} up")
    # The node that was down when the table was created learned it.
    with cluster.connect(address, only=True) as c:
        session = c.connect()
        rows = session.execute(f"SELECT table_name FROM system_schema.tables "
                               f"WHERE keyspace_name = '{TRIPLE}'")
        assert "after_contact" in {r.table_name for r in rows}
        session.execute(SimpleStatement(f"INSERT INTO {TRIPLE}.after_contact (k) VALUES (1)",
                                        consistency_level=ConsistencyLevel.ALL))


def control_host(c: Cluster):
    connection = c.control_connection._connection
    return connection.endpoint.address if connection and not connection.is_closed else None


def test_ddl_right_after_a_node_dies_returns_within_the_drivers_default_timeout(
        cluster: RunningCluster) -> None:
    victim = 2
    # Default request timeout (10 s), as an application has; the DDL goes to
    # node 1, which has not convicted node 2 yet.
    with cluster.connect("127.0.0.1", only=True) as c:
        session = c.connect()
        try:
            cluster.kill_node(victim)
            created = session.execute(f"CREATE TABLE {TRIPLE}.right_after_death (k int PRIMARY KEY)")
            assert created.response_future.is_schema_agreed
        finally:
            cluster.start_node(victim)
            cluster.wait_until_serving(victim)
