#include "cluster/read/read_coordinator.h"

#include <algorithm>
#include <cctype>

#include "cluster/read/replica_read_handler.h"
#include "cluster/read/ring_ranges.h"
#include "cluster/read/speculative_retry.h"
#include "cluster/read/stepwise_read.h"
#include "cluster/read/table_lookup.h"
#include "common/error.h"
#include "schema/storage_layout.h"

namespace sibyl::cluster {

namespace {

// The named partitions, one step each, in token order (the order the
// engine answers them in, so a cluster answers as a single node).
std::vector<ReadStep> PartitionSteps(const KeyspaceReplication& replication,
                                     const storage::ReadCommand& command) {
  std::vector<storage::PartitionKey> partitions = command.partitions;
  std::stable_sort(partitions.begin(), partitions.end(),
                   [](const auto& a, const auto& b) { return a.token < b.token; });
  std::vector<ReadStep> steps;
  for (storage::PartitionKey& partition : partitions) {
    ReadStep step;
    step.verb = messaging::Verb::kRead;
    step.command = command;
    const auto replicas = replication.placement->ReplicasFor(partition.token);
    step.replicas.assign(replicas.begin(), replicas.end());
    step.command.partitions = {std::move(partition)};
    steps.push_back(std::move(step));
  }
  return steps;
}

// The ring ranges the command's token range covers, in token order, from
// the one holding the resume position on.
std::vector<ReadStep> RangeSteps(const ClusterView& view, const KeyspaceReplication& replication,
                                 const storage::ReadCommand& command) {
  const storage::TokenRange& range = command.range;
  // (t, t] is empty for a ReadCommand but the whole ring for dht (unless t
  // is the minimum token, the whole ring for both).
  if (range.start == range.end && range.start != dht::kMinimumToken) return {};
  std::vector<ReadStep> steps;
  for (const RingPiece& piece :
       SplitAlongRing(view.ring(), dht::TokenRange(range.start, range.end))) {
    const dht::Token right = piece.range.right();
    if (command.resume_after && right != dht::kMinimumToken &&
        right < command.resume_after->partition.token) {
      continue;  // wholly before the resume position
    }
    ReadStep step;
    step.verb = messaging::Verb::kRangeRead;
    step.command = command;
    step.command.range = {piece.range.left(), right};
    const auto replicas = replication.placement->ReplicasAt(piece.ring_index);
    step.replicas.assign(replicas.begin(), replicas.end());
    steps.push_back(std::move(step));
  }
  return steps;
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) ==
                  std::toupper(static_cast<unsigned char>(y));
         });
}

}  // namespace

ReadCoordinator::ReadCoordinator(const ClusterServices& services, storage::Engine& engine,
                                 Clock& clock)
    : services_(services), engine_(engine), clock_(clock) {}

void ReadCoordinator::Read(storage::ReadCommand command, uint16_t consistency, Callback done) {
  ClusterViewPtr view = services_.views->Get();
  const KeyspaceReplication* replication = view->ReplicationOfTable(command.table_id);
  const schema::TablePtr table = FindTableById(view->schema(), command.table_id);
  if (replication == nullptr || table == nullptr) {
    return done({}, std::make_exception_ptr(CqlError(
                        ErrorCode::kInvalid, "The read names a table this node does not know")));
  }
  const bool scan = command.partitions.empty();
  auto context = std::make_shared<ReadContext>();
  context->services = &services_;
  context->engine = &engine_;
  context->view = view;
  context->layout = schema::MakeTableLayout(*table);
  context->consistency = consistency;
  context->blocking_repair = !EqualsIgnoringCase(table->params.read_repair, "NONE");
  context->speculative_retry =
      ParseSpeculativeRetry(table->params.speculative_retry, services_.timeouts.read);
  context->deadline =
      services_.scheduler->Now() + (scan ? services_.timeouts.range : services_.timeouts.read);
  std::vector<ReadStep> steps =
      scan ? RangeSteps(*view, *replication, command) : PartitionSteps(*replication, command);
  ReadInSteps(std::move(context), command, std::move(steps), std::move(done));
}

void ReadCoordinator::RegisterReplicaHandlers(messaging::MessagingService& messaging,
                                              storage::Engine& engine) {
  RegisterReplicaReadHandlers(messaging, engine);
}

}  // namespace sibyl::cluster
