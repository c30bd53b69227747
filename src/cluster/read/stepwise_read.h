#pragma once
// A read made of steps run one after the other — the named partitions of
// a command, or the ring ranges a scan covers, in token order — each read
// from its replicas (replica_read.h) with what the command's limits still
// allow, gathered by a ReadResultAccumulator. The read stops at the first
// error (Unavailable found when a step starts, or the step's own) or once
// a limit is met. (Cassandra reads a scan's ranges a few at a time,
// concurrently; one at a time keeps paging simple and exact, at a latency
// cost for scans that cross many ranges.)
//
// Thread-safety: each step starts from the previous one's callback; state
// is touched by one thread at a time. The callback runs exactly once.

#include <memory>
#include <vector>

#include "cluster/read/replica_read.h"
#include "locator/token_ring.h"
#include "messaging/verb.h"
#include "storage/read_command.h"

namespace sibyl::cluster {

struct ReadStep {
  messaging::Verb verb = messaging::Verb::kRead;  // kRangeRead for a ring range
  storage::ReadCommand command;                   // one partition, or one range
  std::vector<locator::NodeId> replicas;          // its natural replicas
};

// REQUIRES: the context's view knows the command's table.
void ReadInSteps(std::shared_ptr<const ReadContext> context, const storage::ReadCommand& command,
                 std::vector<ReadStep> steps, ReadStepCallback done);

}  // namespace sibyl::cluster
