"""Connecting the DataStax Python driver to a test server: one node, so the
load-balancing policy is plain round robin (the driver's default wants a
datacenter it would have to discover)."""

from __future__ import annotations

import contextlib
from typing import Iterator

from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile, Session
from cassandra.policies import RoundRobinPolicy

from sibyl_process import SibylServer


@contextlib.contextmanager
def connected_cluster(server: SibylServer, row_factory=None,
                      **cluster_options) -> Iterator[tuple[Cluster, Session]]:
    """A cluster and its session on `server`, shut down on exit. `row_factory`
    (e.g. cassandra.query.tuple_factory) replaces the driver's named tuples."""
    profile_options = {"row_factory": row_factory} if row_factory is not None else {}
    profile = ExecutionProfile(load_balancing_policy=RoundRobinPolicy(), **profile_options)
    cluster = Cluster(contact_points=[server.host], port=server.port,
                      execution_profiles={EXEC_PROFILE_DEFAULT: profile}, **cluster_options)
    try:
        yield cluster, cluster.connect()
    finally:
        cluster.shutdown()


@contextlib.contextmanager
def connected(server: SibylServer, row_factory=None, **cluster_options) -> Iterator[Session]:
    """The session alone (see connected_cluster)."""
    with connected_cluster(server, row_factory, **cluster_options) as (_, session):
        yield session


def create_keyspace(session: Session, keyspace: str) -> None:
    """CREATE KEYSPACE IF NOT EXISTS `keyspace`, SimpleStrategy with one replica."""
    session.execute(f"CREATE KEYSPACE IF NOT EXISTS {keyspace} WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}")
