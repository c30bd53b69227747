#pragma once
// system_views.gossip_info: one row per member of the cluster as the node
// answering sees it, itself included (one row on a single node). Modelled on
// Cassandra 4.1's table of the same name, which shows each endpoint's gossip
// state; Sibyl has no gossip, so the columns are those its directory and
// heartbeats know, named as Cassandra names the matching application state:
//
//   address, port          the member's internode address (broadcast_address)
//                          and storage port
//   hostname               the address as text (no reverse DNS lookup)
//   generation, heartbeat  of the member's last heartbeat (its start time in
//                          seconds, the heartbeat's counter); the node itself
//                          shows its generation and a null heartbeat
//   load                   bytes of live data on disk as decimal text (the
//                          member's own measure, carried in its heartbeats;
//                          null until heard); Cassandra writes a double here
//   disk_usage             the member's disk usage state as Cassandra's gossip
//                          spells it: NOT_AVAILABLE, SPACIOUS, STUFFED or
//                          FULL (guardrails/disk_usage.h; null until heard)
//   schema, dc, rack, release_version, host_id
//   internal_address_and_port, native_address_and_port   "ip:port"
//
// and two columns Cassandra keeps elsewhere, so that one query gives what
// nodetool status prints:
//
//   liveness               'UP' or 'DOWN' by this node's failure detector
//                          (the node itself is UP; null when the node has no
//                          failure detector)
//   tokens                 the member's tokens (Cassandra leaves TOKENS out
//                          of the table because its gossip value is binary)

#include <memory>

#include "schema/virtual_table.h"

namespace sibyl::schema {

std::unique_ptr<VirtualTable> MakeGossipInfoTable();

}  // namespace sibyl::schema
