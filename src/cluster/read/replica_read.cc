#include "cluster/read/replica_read.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "cluster/read/read_request_codec.h"
#include "cluster/read/replica_read_handler.h"
#include "cluster/read/replica_reconciliation.h"
#include "common/error.h"
#include "storage/codec/read_command_codec.h"
#include "storage/data/clustering_order.h"
#include "storage/read/read_digest.h"

namespace sibyl::cluster {

namespace {

using messaging::Reply;

// Sends `payload` to `node`, or answers it from this node's engine when
// `node` is this node (posted: a callback never runs inside its sender).
void SendToReplica(const ReadContext& context, const locator::NodeId& node, messaging::Verb verb,
                   Bytes payload, messaging::ReplyCallback callback) {
  const ClusterServices& services = *context.services;
  if (node == context.view->local_id()) {
    services.scheduler->Post([engine = context.engine, verb, payload = std::move(payload),
                              callback = std::move(callback)] {
      Reply reply;
      try {
        if (verb == messaging::Verb::kReadRepair) {
          ApplyReadRepair(*engine, payload);
        } else {
          reply.payload = AnswerReadRequest(*engine, payload);
        }
        reply.status = Reply::Status::kSuccess;
      } catch (const std::exception& error) {
        reply.status = Reply::Status::kFailure;
        reply.reason = messaging::FailureReason::kUnknown;
        reply.payload = error.what();
      }
      callback(std::move(reply));
    });
    return;
  }
  const messaging::Duration remaining =
      std::max(context.deadline - services.scheduler->Now(), messaging::Duration::zero());
  services.messaging->SendRequest(context.view->AddressOf(node), verb, std::move(payload),
                                  remaining, std::move(callback));
}

class ReplicaRead : public std::enable_shared_from_this<ReplicaRead> {
 public:
  ReplicaRead(std::shared_ptr<const ReadContext> context, messaging::Verb verb,
              storage::ReadCommand command, ReadReplicaPlan plan, ReadStepCallback done)
      : context_(std::move(context)),
        verb_(verb),
        command_(std::move(command)),
        plan_(std::move(plan)),
        // Scans do not speculate, as in Cassandra.
        block_for_(plan_.block_for),
        can_speculate_(verb_ == messaging::Verb::kRead &&
                       context_->speculative_retry.kind != SpeculativeRetry::Kind::kNever &&
                       plan_.contacts.size() > static_cast<size_t>(block_for_)),
        done_(std::move(done)) {}

  void Start();

 private:
  enum class Phase { kData, kReconcile, kRepair };

  void SendDataRequests(int from, int to, int data_requests);
  void OnSpeculate();
  void OnDataReply(int index, ReadRequestKind kind, Reply reply);
  void SendUnfilteredRequests();
  void OnUnfilteredReply(int index, Reply reply);
  void Reconciled(const std::vector<int>& contacts,
                  const std::vector<std::vector<storage::Mutation>>& answers);
  void OnRepairAck(int contact, const Reply& reply);
  void OnDeadline();
  void Finish(storage::ReadResult result, std::exception_ptr error);

  // REQUIRES: mutex_ held. Records a replica's failure; true when too few
  // answers remain possible (then `*error` is the ReadFailure).
  bool FailedLocked(int index, const Reply& reply, std::exception_ptr* error);
  std::exception_ptr TimeoutLocked() const;  // REQUIRES: mutex_ held

  const std::shared_ptr<const ReadContext> context_;
  const messaging::Verb verb_;
  const storage::ReadCommand command_;
  const ReadReplicaPlan plan_;
  const int block_for_;  // answers awaited
  const bool can_speculate_;

  std::mutex mutex_;
  ReadStepCallback done_;                    // GUARDED_BY(mutex_); null once finished
  messaging::TimerHandle timer_;             // GUARDED_BY(mutex_)
  messaging::TimerHandle speculation_;       // GUARDED_BY(mutex_)
  int asked_ = 0;                            // the first asked_ contacts; GUARDED_BY(mutex_)
  Phase phase_ = Phase::kData;               // GUARDED_BY(mutex_)
  int received_ = 0;                         // answers in this phase; GUARDED_BY(mutex_)
  bool data_present_ = false;                // GUARDED_BY(mutex_)
  std::optional<storage::ReadResult> data_;  // the first data answer; GUARDED_BY(mutex_)
  std::vector<Bytes> digests_;               // the other answers' digests; GUARDED_BY(mutex_)
  // By contact: the unfiltered answers of the reconcile phase.
  std::vector<std::optional<std::vector<storage::Mutation>>> unfiltered_;  // GUARDED_BY(mutex_)
  std::vector<FailureReason> failures_;                                    // GUARDED_BY(mutex_)
  int pending_repairs_ = 0;                                                // GUARDED_BY(mutex_)
  std::vector<int>
      pending_by_contact_;      // repairs unacknowledged; GUARDED_BY(mutex_) // GUARDED_BY(mutex_)
  storage::ReadResult answer_;  // awaiting its repairs; GUARDED_BY(mutex_)
  // An index read's second reconcile round: the found rows by key.
  std::optional<storage::ReadCommand> found_rows_;  // GUARDED_BY(mutex_)
};

void ReplicaRead::Start() {
  const SpeculativeRetry& retry = context_->speculative_retry;
  // ALWAYS asks one replica more at once, the first two for data
  // (Cassandra's AlwaysSpeculatingReadExecutor).
  const bool always = can_speculate_ && retry.kind == SpeculativeRetry::Kind::kAlways;
  const int asked = block_for_ + (always ? 1 : 0);
  {
    std::lock_guard lock(mutex_);
    asked_ = asked;
  }
  messaging::Scheduler& scheduler = *context_->services->scheduler;
  const messaging::TimerHandle timer = scheduler.RunAfter(
      context_->deadline - scheduler.Now(), [self = shared_from_this()] { self->OnDeadline(); });
  messaging::TimerHandle speculation;
  if (can_speculate_ && retry.kind == SpeculativeRetry::Kind::kAfter) {
    speculation =
        scheduler.RunAfter(retry.after, [self = shared_from_this()] { self->OnSpeculate(); });
  }
  {
    std::lock_guard lock(mutex_);
    timer_ = timer;
    speculation_ = speculation;
  }
  SendDataRequests(0, asked, always ? 2 : 1);
}

void ReplicaRead::SendDataRequests(int from, int to, int data_requests) {
  for (int i = from; i < to; ++i) {
    const ReadRequestKind kind =
        i < data_requests ? ReadRequestKind::kData : ReadRequestKind::kDigest;
    SendToReplica(*context_, plan_.contacts[static_cast<size_t>(i)], verb_,
                  EncodeReadRequest(kind, command_),
                  [self = shared_from_this(), i, kind](Reply reply) {
                    self->OnDataReply(i, kind, std::move(reply));
                  });
  }
}

// Cassandra's SpeculatingReadExecutor.maybeTryAdditionalReplicas: answers
// still missing after the threshold; the next contact gets a digest request
// if the data came, else a data request.
void ReplicaRead::OnSpeculate() {
  int index = 0;
  int data_requests = 0;
  {
    std::lock_guard lock(mutex_);
    if (!done_ || phase_ != Phase::kData) return;
    if (received_ >= block_for_ && data_present_) return;
    if (static_cast<size_t>(asked_) >= plan_.contacts.size()) return;
    index = asked_++;
    data_requests = data_present_ ? 0 : index + 1;
  }
  SendDataRequests(index, index + 1, data_requests);
}

void ReplicaRead::OnDataReply(int index, ReadRequestKind kind, Reply reply) {
  std::exception_ptr error;
  std::optional<storage::ReadResult> answer;
  bool mismatch = false;
  {
    std::lock_guard lock(mutex_);
    if (!done_ || phase_ != Phase::kData) return;
    if (!reply.ok()) {
      if (reply.status != Reply::Status::kFailure || !FailedLocked(index, reply, &error)) return;
    } else {
      try {
        if (kind == ReadRequestKind::kDigest) {
          digests_.push_back(std::move(reply.payload));
        } else if (data_) {
          digests_.push_back(storage::ReadDigest(storage::DeserializeReadResult(reply.payload)));
        } else {
          data_ = storage::DeserializeReadResult(reply.payload);
          data_present_ = true;
        }
        ++received_;
      } catch (const std::exception& decode) {
        reply.status = Reply::Status::kFailure;
        if (!FailedLocked(index, reply, &error)) return;
      }
    }
    if (!error) {
      if (received_ < block_for_ || !data_present_) return;
      const Bytes expected = storage::ReadDigest(*data_);
      mismatch = std::any_of(digests_.begin(), digests_.end(),
                             [&](const Bytes& digest) { return digest != expected; });
      if (mismatch) {
        phase_ = Phase::kReconcile;
        received_ = 0;
      } else {
        answer = std::move(data_);
      }
    }
  }
  if (error) return Finish({}, error);
  if (mismatch) return SendUnfilteredRequests();
  Finish(std::move(*answer), nullptr);
}

// The rows replicas' indexes found (their unfiltered answers to an index
// read), as a read of those rows by key: Cassandra 4.0's replica filtering
// protection. A replica whose index does not find a row (it lacks the
// newest value, or holds a newer one) still has its version of the row
// merged, so a stale replica's row never wins for want of the others'.
static storage::ReadCommand FoundRows(const storage::TableLayout& layout,
                                      const storage::ReadCommand& command,
                                      const std::vector<std::vector<storage::Mutation>>& answers) {
  storage::ReadCommand rows;
  rows.table_id = command.table_id;
  rows.columns = command.columns;
  rows.now_seconds = command.now_seconds;
  const auto column = storage::ClusteringColumnsOf(layout);
  auto before = [&](const storage::Clustering& a, const storage::Clustering& b) {
    return storage::CompareClusterings(column, a, b) < 0;
  };
  std::set<storage::Clustering, decltype(before)> clusterings(before);
  bool whole_partitions = layout.clustering.empty();
  for (const auto& answer : answers) {
    for (const storage::Mutation& partition : answer) {
      if (std::find(rows.partitions.begin(), rows.partitions.end(), partition.partition) ==
          rows.partitions.end()) {
        rows.partitions.push_back(partition.partition);
      }
      bool has_row = false;
      for (const storage::RowWrite& row : partition.rows) {
        if (row.is_static) continue;
        has_row = true;
        clusterings.insert(row.clustering);
      }
      if (!has_row) whole_partitions = true;  // an index on a static column
    }
  }
  if (whole_partitions) {
    rows.slices = command.slices;
  } else {
    for (const storage::Clustering& clustering : clusterings) {
      rows.slices.push_back(storage::ClusteringSlice::Point(clustering));
    }
  }
  return rows;
}

// Every contact asked so far is asked for its unfiltered data; the first
// block_for answers are reconciled (Cassandra's DataResolver).
void ReplicaRead::SendUnfilteredRequests() {
  int asked = 0;
  {
    std::lock_guard lock(mutex_);
    asked = asked_;
    unfiltered_.assign(static_cast<size_t>(asked), std::nullopt);
  }
  for (int i = 0; i < asked; ++i) {
    SendToReplica(*context_, plan_.contacts[static_cast<size_t>(i)], verb_,
                  EncodeReadRequest(ReadRequestKind::kUnfiltered, command_),
                  [self = shared_from_this(), i](Reply reply) {
                    self->OnUnfilteredReply(i, std::move(reply));
                  });
  }
}

void ReplicaRead::OnUnfilteredReply(int index, Reply reply) {
  std::exception_ptr error;
  std::vector<int> contacts;
  std::vector<std::vector<storage::Mutation>> answers;
  {
    std::lock_guard lock(mutex_);
    if (!done_ || phase_ != Phase::kReconcile) return;
    if (!reply.ok()) {
      if (reply.status != Reply::Status::kFailure || !FailedLocked(index, reply, &error)) return;
    } else {
      try {
        unfiltered_[static_cast<size_t>(index)] = DecodeUnfiltered(reply.payload);
        ++received_;
      } catch (const std::exception&) {
        reply.status = Reply::Status::kFailure;
        if (!FailedLocked(index, reply, &error)) return;
      }
    }
    if (!error) {
      if (received_ < block_for_) return;
      for (size_t i = 0; i < unfiltered_.size(); ++i) {
        if (!unfiltered_[i]) continue;
        contacts.push_back(static_cast<int>(i));
        answers.push_back(std::move(*unfiltered_[i]));
      }
      if (command_.index && !found_rows_) {
        // Replica filtering protection: every replica's version of every
        // row any index found, before anything is reconciled.
        found_rows_ = FoundRows(context_->layout, command_, answers);
        if (!found_rows_->partitions.empty()) {
          received_ = 0;
          unfiltered_.assign(unfiltered_.size(), std::nullopt);
        }
      } else {
        found_rows_.reset();
      }
      if (!found_rows_ || found_rows_->partitions.empty()) {
        phase_ = Phase::kRepair;  // later answers are ignored
        pending_repairs_ = 0;
      }
    }
  }
  if (error) return Finish({}, error);
  if (found_rows_ && !found_rows_->partitions.empty()) {
    for (int i : contacts) {
      SendToReplica(*context_, plan_.contacts[static_cast<size_t>(i)], verb_,
                    EncodeReadRequest(ReadRequestKind::kUnfiltered, *found_rows_),
                    [self = shared_from_this(), i](Reply reply) {
                      self->OnUnfilteredReply(i, std::move(reply));
                    });
    }
    return;
  }
  Reconciled(contacts, answers);
}

// The merged partitions a read's answer covers: a scan's page ends at its
// `next` position, and Cassandra repairs only what the page read.
std::vector<storage::Mutation> RepairedPartitions(std::vector<storage::Mutation> merged,
                                                  const storage::ReadResult& result) {
  if (!result.next) return merged;
  const int64_t last = result.next->partition.token;
  std::erase_if(merged, [&](const storage::Mutation& m) { return m.partition.token > last; });
  return merged;
}

void ReplicaRead::Reconciled(const std::vector<int>& contacts,
                             const std::vector<std::vector<storage::Mutation>>& answers) {
  Reconciliation reconciliation;
  std::vector<std::pair<int, storage::Mutation>> repairs;  // by contact
  try {
    reconciliation = Reconcile(context_->layout, command_, answers);
    if (context_->blocking_repair) {  // 'NONE' repairs nothing
      const std::vector<storage::Mutation> repaired =
          RepairedPartitions(std::move(reconciliation.merged), reconciliation.result);
      for (size_t i = 0; i < answers.size(); ++i) {
        for (auto& repair : RepairsFor(context_->layout, repaired, answers[i])) {
          repairs.emplace_back(contacts[i], std::move(repair));
        }
      }
    }
  } catch (const std::exception& failure) {
    return Finish({}, std::make_exception_ptr(CqlError(ErrorCode::kServerError, failure.what())));
  }
  if (repairs.empty()) return Finish(std::move(reconciliation.result), nullptr);
  {
    std::lock_guard lock(mutex_);
    if (!done_) return;
    pending_repairs_ = static_cast<int>(repairs.size());
    pending_by_contact_.assign(plan_.contacts.size(), 0);
    for (const auto& repair : repairs) ++pending_by_contact_[static_cast<size_t>(repair.first)];
    answer_ = std::move(reconciliation.result);
  }
  for (auto& [contact, mutation] : repairs) {
    Bytes payload;
    mutation.SerializeTo(payload);
    SendToReplica(*context_, plan_.contacts[static_cast<size_t>(contact)],
                  messaging::Verb::kReadRepair, std::move(payload),
                  [self = shared_from_this(), contact = contact](Reply reply) {
                    self->OnRepairAck(contact, reply);
                  });
  }
}

void ReplicaRead::OnRepairAck(int contact, const Reply& reply) {
  storage::ReadResult answer;
  {
    std::lock_guard lock(mutex_);
    // A repair that failed is not acknowledged: the read then times out, as
    // Cassandra's BlockingPartitionRepair does.
    if (!done_ || phase_ != Phase::kRepair || pending_repairs_ == 0 || !reply.ok()) return;
    --pending_by_contact_[static_cast<size_t>(contact)];
    if (--pending_repairs_ > 0) return;
    answer = std::move(answer_);
  }
  Finish(std::move(answer), nullptr);
}

void ReplicaRead::OnDeadline() {
  std::exception_ptr error;
  {
    std::lock_guard lock(mutex_);
    if (!done_) return;
    error = TimeoutLocked();
  }
  Finish({}, error);
}

std::exception_ptr ReplicaRead::TimeoutLocked() const {
  int received = received_;
  bool data_present = data_present_;
  if (phase_ == Phase::kReconcile) data_present = received_ > 0;
  if (phase_ == Phase::kRepair) {
    // Replicas whose repairs are all acknowledged, as Cassandra's
    // BlockingPartitionRepair counts them.
    const auto pending = std::count_if(pending_by_contact_.begin(), pending_by_contact_.end(),
                                       [](int count) { return count > 0; });
    received = std::max(0, block_for_ - static_cast<int>(pending));
    data_present = true;
  }
  return std::make_exception_ptr(
      CqlError(ErrorCode::kReadTimeout,
               "Operation timed out - received only " + std::to_string(received) + " responses.",
               ReadTimeoutInfo{context_->consistency, received, block_for_, data_present}));
}

bool ReplicaRead::FailedLocked(int index, const Reply& reply, std::exception_ptr* error) {
  const auto& node = plan_.contacts[static_cast<size_t>(index)];
  failures_.push_back(FailureReason{context_->view->AddressOf(node).IpBytes(),
                                    static_cast<uint16_t>(reply.reason)});
  // Cassandra's ReadCallback.onFailure: block_for + failures > contacts.
  if (block_for_ + static_cast<int>(failures_.size()) <= asked_) return false;
  *error = std::make_exception_ptr(CqlError(
      ErrorCode::kReadFailure,
      "Operation failed - received " + std::to_string(received_) + " responses and " +
          std::to_string(failures_.size()) + " failures",
      ReadFailureInfo{context_->consistency, received_, block_for_, failures_, data_present_}));
  return true;
}

void ReplicaRead::Finish(storage::ReadResult result, std::exception_ptr error) {
  ReadStepCallback done;
  messaging::TimerHandle timer;
  messaging::TimerHandle speculation;
  {
    std::lock_guard lock(mutex_);
    if (!done_) return;
    done = std::move(done_);
    done_ = nullptr;
    timer = timer_;
    speculation = speculation_;
  }
  context_->services->scheduler->Cancel(timer);
  if (speculation.id != 0) context_->services->scheduler->Cancel(speculation);
  done(std::move(result), std::move(error));
}

}  // namespace

void ReadFromReplicas(std::shared_ptr<const ReadContext> context, messaging::Verb verb,
                      storage::ReadCommand command, ReadReplicaPlan plan, ReadStepCallback done) {
  std::make_shared<ReplicaRead>(std::move(context), verb, std::move(command), std::move(plan),
                                std::move(done))
      ->Start();
}

}  // namespace sibyl::cluster
