#include "cluster/coordinator.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>

#include "cluster/paxos/paxos_verb_handlers.h"
#include "common/check.h"
#include "common/error.h"
#include "storage/cells/mutation_merge.h"
#include "storage/data/storage_error.h"

namespace sibyl::cluster {

const char* WriteTypeName(WriteType type) {
  switch (type) {
    case WriteType::kSimple:
      return "SIMPLE";
    case WriteType::kBatch:
      return "BATCH";
    case WriteType::kUnloggedBatch:
      return "UNLOGGED_BATCH";
    case WriteType::kCounter:
      return "COUNTER";
    case WriteType::kBatchLog:
      return "BATCH_LOG";
    case WriteType::kCas:
      return "CAS";
    case WriteType::kView:
      return "VIEW";
    case WriteType::kCdc:
      return "CDC";
  }
  return "SIMPLE";
}

void Coordinator::JoinCluster(const ClusterServices& services, paxos::BallotGenerator& ballots) {
  SIBYL_CHECK(writes_ == nullptr, "a coordinator joins its cluster once");
  views_ = services.views;
  writes_ = std::make_unique<WriteCoordinator>(services, engine_, clock_);
  reads_ = std::make_unique<ReadCoordinator>(services, engine_, clock_);
  acceptor_ = std::make_unique<paxos::PaxosAcceptor>(
      engine_, clock_, [views = services.views](const types::Uuid& table_id) {
        return paxos::PaxosTtlSeconds(views->Get(), table_id);
      });
  paxos::RegisterPaxosHandlers(*services.messaging, *acceptor_, services.blocking);
  const ClusterViewPtr view = services.views->Get();
  const uint64_t seed = view ? paxos::BallotNodeBits(view->local_id()) : 0;
  paxos_ = std::make_unique<paxos::PaxosCoordinator>(services, *reads_, *writes_, *acceptor_,
                                                     ballots, seed);
}

void Coordinator::VisitStuffedOrFullReplicas(
    const types::Uuid& table_id, int64_t token,
    const std::function<void(guardrails::DiskUsageState)>& visit) const {
  if (!AnyReplicaStuffedOrFull()) return;
  const auto report = [&](guardrails::DiskUsageState state) {
    if (guardrails::IsStuffedOrFull(state)) visit(state);
  };
  if (views_ == nullptr) {
    report(disk_usage_states_->local());
    return;
  }
  const ClusterViewPtr view = views_->Get();
  const KeyspaceReplication* replication = view ? view->ReplicationOfTable(table_id) : nullptr;
  if (replication == nullptr) return;
  for (const locator::NodeId& replica : replication->placement->ReplicasFor(dht::Token{token})) {
    report(replica == view->local_id() ? disk_usage_states_->local()
                                       : disk_usage_states_->PeerState(replica));
  }
}

namespace {

// Waits for a cluster path's callback. The paths' own timeouts end every
// request, so the wait always ends.
class Completion {
 public:
  void Set(std::exception_ptr error) {
    std::lock_guard lock(mutex_);
    error_ = std::move(error);
    done_ = true;
    cv_.notify_all();
  }
  void Wait() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return done_; });
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::exception_ptr error_;
};

}  // namespace

void Coordinator::Mutate(const std::vector<storage::Mutation>& mutations,
                         const WriteOptions& options) {
  if (writes_ != nullptr) {
    auto completion = std::make_shared<Completion>();
    writes_->Mutate(mutations, options,
                    [completion](std::exception_ptr error) { completion->Set(std::move(error)); });
    completion->Wait();
    return;
  }
  if (mutations.size() == 1) {
    engine_.Apply(mutations.front());
    return;
  }
  // One node applies every batch (and a counter statement's partitions) as
  // one write: cheaper than a write per partition, and all-or-nothing, which
  // Cassandra promises only for logged batches. A plain statement over
  // several partitions (k IN ...) applies each on its own, as Cassandra does.
  if (options.type != WriteType::kSimple) {
    std::vector<const storage::Mutation*> all;
    all.reserve(mutations.size());
    for (const auto& m : mutations) all.push_back(&m);
    engine_.ApplyAll(all);
    return;
  }
  for (const auto& m : mutations) engine_.Apply(m);
}

storage::ReadResult Coordinator::Read(const storage::ReadCommand& command,
                                      uint16_t consistency) const {
  if (reads_ != nullptr) {
    auto completion = std::make_shared<Completion>();
    auto result = std::make_shared<storage::ReadResult>();
    auto done = [completion, result](storage::ReadResult r, std::exception_ptr error) {
      *result = std::move(r);
      completion->Set(std::move(error));
    };
    if (consistency == kConsistencySerial || consistency == kConsistencyLocalSerial) {
      if (command.partitions.size() > 1) {
        throw CqlError(ErrorCode::kInvalid,
                       "SERIAL/LOCAL_SERIAL consistency may only be requested for one partition "
                       "at a time");
      }
      if (command.partitions.empty()) {
        paxos_->SerialRangeRead(command, consistency, std::move(done));
      } else {
        paxos_->SerialRead(command, consistency, std::move(done));
      }
    } else {
      reads_->Read(command, consistency, std::move(done));
    }
    completion->Wait();
    return std::move(*result);
  }
  try {
    return engine_.Read(command);
  } catch (const storage::IndexNotAvailable&) {
    // As a cluster reports a replica's failure (replica_read.cc).
    throw CqlError(ErrorCode::kReadFailure,
                   "Operation failed - received 0 responses and 1 failures",
                   ReadFailureInfo{consistency, 0, 1, {{Bytes("\x7f\x00\x00\x01", 4), 0}}, false});
  }
}

namespace {

// A decision's mutations as one update of the transaction's partition.
std::optional<storage::Mutation> OneUpdate(std::vector<storage::Mutation> mutations,
                                           const storage::ReadCommand& read) {
  std::optional<storage::Mutation> update;
  for (storage::Mutation& m : mutations) {
    SIBYL_CHECK(m.table_id == read.table_id && m.partition == read.partitions.front(),
                "a lightweight transaction may only write the partition it read");
    if (!update) {
      update = std::move(m);
    } else {
      storage::MergeMutation(*update, std::move(m));
    }
  }
  return update;
}

}  // namespace

std::vector<storage::ReadResult> Coordinator::ReadThenMutate(
    const std::vector<storage::ReadCommand>& reads, const CasDecision& decide,
    const CasOptions& options) {
  SIBYL_CHECK(!reads.empty() && reads.front().partitions.size() == 1,
              "a lightweight transaction must read exactly one partition");
  const storage::ReadCommand& first = reads.front();
  const storage::PartitionKey& partition = first.partitions.front();
  if (paxos_ != nullptr) {
    paxos::CasOperation operation;
    operation.table_id = first.table_id;
    operation.partition = partition;
    operation.reads = reads;
    operation.serial_consistency = options.serial_consistency;
    operation.commit_consistency = options.commit_consistency;
    operation.decide = [&decide, &first](const std::vector<storage::ReadResult>& results,
                                         int64_t timestamp) {
      return OneUpdate(decide(results, timestamp), first);
    };
    auto completion = std::make_shared<Completion>();
    auto seen = std::make_shared<std::vector<storage::ReadResult>>();
    paxos_->Cas(std::move(operation),
                [completion, seen](std::vector<storage::ReadResult> r, std::exception_ptr error) {
                  *seen = std::move(r);
                  completion->Set(std::move(error));
                });
    completion->Wait();
    return std::move(*seen);
  }
  std::unique_lock<std::mutex> lock = lwt_locks_.Lock(first.table_id, partition);
  std::vector<storage::ReadResult> current;
  current.reserve(reads.size());
  for (const storage::ReadCommand& read : reads) current.push_back(engine_.Read(read));
  std::optional<storage::Mutation> update =
      OneUpdate(decide(current, clock_.NextTimestampMicros()), first);
  if (update) engine_.Apply(*update);
  return current;
}

void Coordinator::Truncate(const types::Uuid& table_id) {
  if (writes_ != nullptr) {
    auto completion = std::make_shared<Completion>();
    writes_->Truncate(
        table_id, [completion](std::exception_ptr error) { completion->Set(std::move(error)); });
    completion->Wait();
    return;
  }
  engine_.Truncate(table_id);
}

}  // namespace sibyl::cluster
