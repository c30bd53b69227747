#pragma once
// The verbs: what a message asks for. Where Cassandra's net/Verb.java has the
// same verb, the number is its id (MUTATION_REQ is 0, READ_REQ 3, ...), so a
// packet capture reads the same; Sibyl's own verbs start at 200. The numbers
// are on the wire: do not change them.
//
// Cassandra gives each request verb a twin _RSP verb; here a reply keeps the
// verb of its request and its kind byte (message.h) says reply or failure
// reply, so per-verb counters and traces show "READ reply" without a table
// of twins.
//
// The payload of each verb is defined by its handler in cluster/; this layer
// never looks inside.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace sibyl::messaging {

enum class Verb : uint16_t {
  kMutation = 0,               // write a mutation (replica side of a write)
  kHint = 1,                   // replay a hinted mutation to its recovered replica
  kReadRepair = 2,             // write back the reconciled rows after a digest mismatch
  kRead = 3,                   // a single-partition read; the payload says data or digest
  kBatchStore = 5,             // store a logged batch in the batchlog
  kBatchRemove = 6,            // remove a batch from the batchlog once applied
  kRangeRead = 9,              // a token-range scan
  kTruncate = 19,              // truncate a table
  kCounterMutation = 24,       // a counter update sent to the counter leader
  kSchemaPull = 28,            // ask a peer for the metadata log past an epoch
  kPaxosPrepare = 33,          // Paxos phase 1: promise a ballot (cluster/paxos/)
  kPaxosPropose = 34,          // Paxos phase 2: accept a proposal
  kPaxosCommit = 35,           // Paxos: apply and remember a decision
  kHeartbeat = 200,            // liveness (gossip-like); carries the sender's epoch
  kEpochNotify = 201,          // "the metadata has reached epoch N": peers catch up
  kHello = 202,                // the first frame of a TCP connection (tcp_transport.h)
  kPaxosUncommitted = 203,     // the unfinished Paxos proposals in a token range (SERIAL scans)
  kPaxosPrepareAndRead = 204,  // Paxos v2's phase 1: promise a ballot and read the partition
  kStreamPull = 205,           // a slice of a token range, every row as stored (cluster/streaming/)
  kStreamRanges = 206,         // "stream the ranges you are pending for" (a leaving node's request)
};

// The verb's name as Cassandra spells it, without _REQ ("MUTATION",
// "RANGE_READ"); nullopt for a number that is no verb.
std::optional<std::string_view> VerbName(Verb verb);
// The verb for a wire number, if it is one.
std::optional<Verb> VerbFromWire(uint16_t wire);
// Every verb, in wire order.
std::span<const Verb> AllVerbs();

// Requests of an epoch-checked verb are held while the sender is ahead of us
// and refused (STALE_EPOCH) when it is behind (docs/dev/cluster.md,
// "Epochs"). Heartbeats and the metadata catch-up verbs are not checked:
// they are how epochs converge, and they must flow while epochs differ.
bool IsEpochChecked(Verb verb);

}  // namespace sibyl::messaging
