#pragma once
// A read made of steps — the named partitions of a command, or the ring
// ranges a scan covers, in token order — each read from its replicas
// (replica_read.h) with what the command's limits still allow, gathered in
// order by a ReadResultAccumulator. The read stops at the first error
// (Unavailable found when a step starts, or the step's own) or once a limit
// is met.
//
// Steps run one after the other, except for index reads, whose rows are
// sparse over the ring: up to 4 steps are under way at once (Cassandra's
// concurrency factor, fixed here), each asked for what the limits allowed
// when it started, and an answer beyond the limits is cut by the
// accumulator, so pages are the same as one at a time. (Cassandra reads a
// plain scan's ranges concurrently too; one at a time keeps its pages
// exact at a latency cost for scans that cross many ranges.)
//
// Thread-safety: steps answer on any thread; the state is under one mutex,
// never held while calling out. The callback runs exactly once.

#include <memory>
#include <vector>

#include "cluster/read/replica_read.h"
#include "locator/token_ring.h"
#include "messaging/verb.h"
#include "storage/data/read_command.h"

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
