#include "cluster/write/write_coordinator.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

#include "cluster/batchlog/batchlog_endpoints.h"
#include "cluster/consistency_level.h"
#include "cluster/write/counter_leader.h"
#include "common/error.h"
#include "dht/token.h"
#include "protocol/request.h"

namespace sibyl::cluster {

using messaging::Reply;
using messaging::Verb;

struct WriteCoordinator::PartitionWrite {
  std::vector<types::Uuid> live;  // replicas believed alive, this node included
  std::vector<types::Uuid> dead;  // replicas believed down
  WriteCounting counting;
};

namespace {

// One request over several partitions: done once every partition's write
// completed (each does, by its timeout at worst), with the first error any
// of them met, so that a client never hears back while a partition of its
// request is still being decided.
class RequestCompletion {
 public:
  RequestCompletion(size_t partitions, WriteCoordinator::Callback done)
      : remaining_(partitions), done_(std::move(done)) {}

  void PartitionDone(std::exception_ptr error) {
    WriteCoordinator::Callback done;
    {
      std::lock_guard lock(mutex_);
      if (error != nullptr && first_error_ == nullptr) first_error_ = std::move(error);
      if (--remaining_ > 0) return;
      done = std::move(done_);
    }
    done(first_error_);  // no partition is left to write first_error_
  }

 private:
  std::mutex mutex_;
  size_t remaining_;                 // GUARDED_BY(mutex_)
  std::exception_ptr first_error_;   // GUARDED_BY(mutex_)
  WriteCoordinator::Callback done_;  // GUARDED_BY(mutex_); called when remaining_ reaches 0
};

// One TRUNCATE sent to every member: done once all answered, at the first
// failure, or at the timeout.
class TruncateCompletion {
 public:
  TruncateCompletion(size_t members, WriteCoordinator::Callback done)
      : members_(members), done_(std::move(done)) {}

  void Arm(messaging::Scheduler& scheduler, messaging::Duration timeout,
           const std::shared_ptr<TruncateCompletion>& self) {
    scheduler_ = &scheduler;
    const messaging::TimerHandle timer = scheduler.RunAfter(timeout, [self] {
      size_t responses;
      {
        std::lock_guard lock(self->mutex_);
        responses = self->responses_;
      }
      self->Complete(
          Error("Truncate timed out - received only " + std::to_string(responses) + " responses"));
    });
    std::lock_guard lock(mutex_);
    timer_ = timer;
  }
  void Ack() {
    {
      std::lock_guard lock(mutex_);
      if (++responses_ < members_) return;
    }
    Complete(nullptr);
  }
  void Fail(const messaging::PeerAddress& replica) {
    Complete(Error("Truncate failed on replica /" + replica.ToString()));
  }

  static std::exception_ptr Error(const std::string& cause) {
    return std::make_exception_ptr(
        CqlError(ErrorCode::kTruncateError, "Error during truncate: " + cause));
  }

 private:
  void Complete(std::exception_ptr error) {
    WriteCoordinator::Callback done;
    messaging::TimerHandle timer;
    {
      std::lock_guard lock(mutex_);
      if (!done_) return;
      done = std::move(done_);
      done_ = nullptr;
      timer = timer_;
    }
    if (timer.id != 0) scheduler_->Cancel(timer);
    done(std::move(error));
  }

  const size_t members_;
  messaging::Scheduler* scheduler_ = nullptr;  // set before any reply can come
  std::mutex mutex_;
  size_t responses_ = 0;             // GUARDED_BY(mutex_)
  WriteCoordinator::Callback done_;  // GUARDED_BY(mutex_); empty once called
  messaging::TimerHandle timer_;     // GUARDED_BY(mutex_)
};

constexpr auto kAny = static_cast<uint16_t>(protocol::Consistency::kAny);
constexpr auto kEachQuorum = static_cast<uint16_t>(protocol::Consistency::kEachQuorum);

void ApplyAndReply(storage::Engine& engine, const messaging::Message& message,
                   messaging::Responder responder) {
  try {
    engine.Apply(storage::Mutation::Deserialize(message.payload));
  } catch (const std::exception&) {
    // Why it failed stays on the replica; the coordinator needs only the
    // reason code a WriteFailure carries.
    if (responder.expects_reply()) responder.Fail(messaging::FailureReason::kUnknown);
    return;
  }
  if (responder.expects_reply()) responder.Reply({});
}

}  // namespace

WriteCoordinator::WriteCoordinator(const ClusterServices& services, storage::Engine& engine,
                                   Clock& clock)
    : services_(services), engine_(engine), clock_(clock) {
  services_.messaging->RegisterHandler(
      Verb::kCounterMutation,
      [this](const messaging::Message& message, messaging::Responder responder) {
        OnCounterMutation(message, std::move(responder));
      });
}

void WriteCoordinator::Mutate(std::vector<storage::Mutation> mutations, const WriteOptions& options,
                              Callback done) {
  const ClusterViewPtr view = services_.views->Get();
  // Every partition is planned before anything is sent, so an Unavailable
  // leaves no partition written.
  std::vector<PartitionWrite> plans;
  plans.reserve(mutations.size());
  try {
    for (const auto& mutation : mutations) plans.push_back(Plan(*view, mutation, options));
  } catch (...) {
    done(std::current_exception());
    return;
  }
  if (mutations.empty()) {
    done(nullptr);
    return;
  }
  if (options.type == WriteType::kCounter) {
    MutateCounters(*view, plans, mutations, options, std::move(done));
    return;
  }
  if (options.type == WriteType::kBatch && mutations.size() > 1) {
    MutateAtomically(view, std::move(plans), std::move(mutations), options, std::move(done));
    return;
  }
  ExecuteAll(*view, plans, mutations, std::move(done));
}

void WriteCoordinator::ExecuteAll(const ClusterView& view, const std::vector<PartitionWrite>& plans,
                                  const std::vector<storage::Mutation>& mutations, Callback done,
                                  std::function<void()> on_replica_ack) {
  auto request = std::make_shared<RequestCompletion>(mutations.size(), std::move(done));
  for (size_t i = 0; i < mutations.size(); ++i) {
    Execute(
        view, plans[i], mutations[i],
        [request](std::exception_ptr error) { request->PartitionDone(std::move(error)); },
        on_replica_ack);
  }
}

void WriteCoordinator::MutateAtomically(ClusterViewPtr view, std::vector<PartitionWrite> plans,
                                        std::vector<storage::Mutation> mutations,
                                        const WriteOptions& options, Callback done) {
  StoredBatch batch;
  batch.id = types::Uuid::Random();
  batch.creation_micros = clock_.NowMicros();
  std::vector<types::Uuid> endpoints;
  try {
    endpoints = BatchlogEndpoints(*view, *services_.liveness, options.consistency == kAny,
                                  LoadBE64(batch.id.View().data()));
  } catch (...) {
    done(std::current_exception());
    return;
  }
  for (const auto& mutation : mutations) mutation.SerializeTo(batch.mutations.emplace_back());
  // The batch is removed once every live replica of every partition applied
  // it; short of that it stays, and a batchlog node replays it.
  size_t replicas = 0;
  for (const auto& plan : plans) replicas += plan.live.size();
  auto shared = std::make_shared<std::vector<storage::Mutation>>(std::move(mutations));
  auto shared_plans = std::make_shared<std::vector<PartitionWrite>>(std::move(plans));
  StoreBatch(*view, endpoints, batch,
             [this, view, endpoints, id = batch.id, replicas, shared, shared_plans,
              done = std::move(done)](std::exception_ptr error) mutable {
               if (error != nullptr) {
                 done(std::move(error));
                 return;
               }
               auto remaining = std::make_shared<std::atomic<size_t>>(replicas);
               ExecuteAll(*view, *shared_plans, *shared, std::move(done),
                          [this, view, endpoints, id, remaining] {
                            if (remaining->fetch_sub(1) == 1) RemoveBatch(*view, endpoints, id);
                          });
             });
}

void WriteCoordinator::StoreBatch(const ClusterView& view,
                                  const std::vector<types::Uuid>& endpoints,
                                  const StoredBatch& batch, WriteResponseHandler::Done done) {
  WriteCounting counting;
  // Cassandra stores at ONE with one endpoint, TWO with two.
  counting.consistency = static_cast<uint16_t>(endpoints.size() == 1 ? protocol::Consistency::kOne
                                                                     : protocol::Consistency::kTwo);
  counting.type = WriteType::kBatchLog;
  counting.block_for = static_cast<int>(endpoints.size());
  counting.local_dc = view.DatacenterOf(view.local_id());
  counting.candidates_per_dc[counting.local_dc] = counting.block_for;
  auto handler = std::make_shared<WriteResponseHandler>(counting, std::move(done));
  handler->ArmTimeout(*services_.scheduler, services_.timeouts.write);
  const Bytes payload = EncodeBatch(batch);
  for (const types::Uuid& endpoint : endpoints) {
    if (endpoint == view.local_id()) {
      // ANY with nobody else alive: this node keeps it.
      try {
        if (services_.batches == nullptr) throw std::runtime_error("no batch store");
        services_.batches->Store(batch);
      } catch (const std::exception&) {
        handler->OnFailure(counting.local_dc, services_.messaging->local_address(),
                           messaging::FailureReason::kUnknown);
        continue;
      }
      handler->OnAck(counting.local_dc);
      continue;
    }
    const messaging::PeerAddress address = view.AddressOf(endpoint);
    services_.messaging->SendRequest(address, Verb::kBatchStore, payload, services_.timeouts.write,
                                     [handler, address, dc = counting.local_dc](Reply reply) {
                                       if (reply.ok()) {
                                         handler->OnAck(dc);
                                       } else if (reply.status == Reply::Status::kFailure) {
                                         handler->OnFailure(dc, address, reply.reason);
                                       }
                                     });
  }
}

void WriteCoordinator::RemoveBatch(const ClusterView& view,
                                   const std::vector<types::Uuid>& endpoints,
                                   const types::Uuid& id) {
  for (const types::Uuid& endpoint : endpoints) {
    if (endpoint == view.local_id()) {
      if (services_.batches != nullptr) services_.batches->Remove(id);
      continue;
    }
    // One-way, as in Cassandra: a lost removal only costs a harmless replay.
    services_.messaging->SendOneWay(view.AddressOf(endpoint), Verb::kBatchRemove, Bytes(id.View()));
  }
}

void WriteCoordinator::Truncate(const types::Uuid& table_id, Callback done) {
  const ClusterViewPtr view = services_.views->Get();
  const auto& members = view->directory().nodes();
  size_t alive = 0;
  for (const auto& [id, record] : members) {
    if (id == view->local_id() || services_.liveness->IsAlive(id)) ++alive;
  }
  if (alive < members.size()) {
    done(TruncateCompletion::Error("Cannot achieve consistency level ALL"));
    return;
  }
  auto completion = std::make_shared<TruncateCompletion>(members.size(), std::move(done));
  completion->Arm(*services_.scheduler, services_.timeouts.truncate, completion);
  bool local = false;
  for (const auto& [id, record] : members) {
    if (id == view->local_id()) {
      local = true;
      continue;
    }
    const messaging::PeerAddress address = view->AddressOf(id);
    services_.messaging->SendRequest(address, Verb::kTruncate, Bytes(table_id.View()),
                                     services_.timeouts.truncate,
                                     [completion, address](Reply reply) {
                                       if (reply.ok()) {
                                         completion->Ack();
                                       } else if (reply.status == Reply::Status::kFailure) {
                                         completion->Fail(address);
                                       }
                                     });
  }
  if (!local) return;
  try {
    engine_.Truncate(table_id);
  } catch (const std::exception&) {
    completion->Fail(services_.messaging->local_address());
    return;
  }
  completion->Ack();
}

WriteCoordinator::PartitionWrite WriteCoordinator::Plan(const ClusterView& view,
                                                        const storage::Mutation& mutation,
                                                        const WriteOptions& options) const {
  const KeyspaceReplication* replication = view.ReplicationOfTable(mutation.table_id);
  if (replication == nullptr) {
    throw CqlError(ErrorCode::kServerError,
                   "The cluster's schema has no table with id " + mutation.table_id.ToString());
  }
  const auto replicas = replication->placement->ReplicasFor(dht::Token{mutation.partition.token});
  const locator::ReplicationStrategy& strategy = replication->strategy();
  PartitionWrite plan;
  plan.counting.consistency = options.consistency;
  plan.counting.type = options.type;
  plan.counting.local_dc = view.DatacenterOf(view.local_id());
  plan.counting.block_for = BlockFor(options.consistency, strategy, plan.counting.local_dc);
  std::vector<std::string_view> live_dcs;
  auto add = [&](const types::Uuid& replica) {
    const bool alive = replica == view.local_id() || services_.liveness->IsAlive(replica);
    (alive ? plan.live : plan.dead).push_back(replica);
    if (!alive) return;
    live_dcs.push_back(view.DatacenterOf(replica));
    ++plan.counting.candidates_per_dc[view.DatacenterOf(replica)];
  };
  for (const types::Uuid& replica : replicas) add(replica);
  // Replicas gaining the range ("write both") count on top (4.1's
  // blockForWrite), so that a quorum of the new owners has every write.
  std::vector<std::string_view> pending_dcs;
  if (replication->also_written) {
    for (const types::Uuid& replica :
         replication->PendingReplicasFor(dht::Token{mutation.partition.token})) {
      add(replica);
      pending_dcs.push_back(view.DatacenterOf(replica));
    }
    plan.counting.block_for +=
        PendingBlockFor(options.consistency, pending_dcs, plan.counting.local_dc);
  }
  AssureSufficientLiveReplicas(options.consistency, strategy, plan.counting.local_dc, live_dcs,
                               plan.counting.block_for);
  if (options.consistency == kEachQuorum &&
      strategy.kind() == locator::ReplicationStrategy::Kind::kNetworkTopology) {
    for (const auto& [dc, rf] : strategy.datacenter_factors()) {
      plan.counting.quorum_per_dc[dc] = LocalQuorumFor(strategy, dc);
    }
    // 4.1's DatacenterSyncWriteResponseHandler: each pending replica raises
    // its datacenter's count.
    for (const std::string_view dc : pending_dcs) ++plan.counting.quorum_per_dc[std::string(dc)];
  }
  return plan;
}

void WriteCoordinator::Execute(const ClusterView& view, const PartitionWrite& plan,
                               const storage::Mutation& mutation, WriteResponseHandler::Done done,
                               std::function<void()> on_replica_ack) {
  auto payload = std::make_shared<Bytes>();
  mutation.SerializeTo(*payload);
  const messaging::Duration timeout = TimeoutOf(plan.counting.type);
  auto handler = std::make_shared<WriteResponseHandler>(plan.counting, std::move(done));
  handler->ArmTimeout(*services_.scheduler, timeout);

  // Counter writes too reach replicas as the leader's shards
  // (counter_leader.h), which count once however often they arrive: every
  // write is hinted.
  bool hinted = false;
  for (const types::Uuid& replica : plan.dead) {
    if (services_.liveness->Downtime(replica) < services_.max_hint_window) {
      hinted = Hint(replica, *payload) || hinted;
    }
  }
  // ANY is satisfied by a hint: the coordinator itself will deliver it.
  if (hinted && plan.counting.consistency == kAny) handler->OnAck(plan.counting.local_dc);

  bool local = false;
  for (const types::Uuid& replica : plan.live) {
    if (replica == view.local_id()) {
      local = true;
      continue;
    }
    const messaging::PeerAddress address = view.AddressOf(replica);
    services_.messaging->SendRequest(address, Verb::kMutation, *payload, timeout,
                                     [this, handler, payload, replica, address, on_replica_ack,
                                      dc = view.DatacenterOf(replica)](Reply reply) {
                                       switch (reply.status) {
                                         case Reply::Status::kSuccess:
                                           handler->OnAck(dc);
                                           if (on_replica_ack) on_replica_ack();
                                           break;
                                         case Reply::Status::kFailure:
                                           handler->OnFailure(dc, address, reply.reason);
                                           break;
                                         case Reply::Status::kTimeout:
                                         case Reply::Status::kUnreachable:
                                           // Believed alive but silent: it may have missed the
                                           // write.
                                           Hint(replica, *payload);
                                           break;
                                       }
                                     });
  }
  if (local) {
    // A local engine Apply is short; doing it here saves a hop.
    try {
      engine_.Apply(mutation);
    } catch (const std::exception&) {
      handler->OnFailure(plan.counting.local_dc, services_.messaging->local_address(),
                         messaging::FailureReason::kUnknown);
      return;
    }
    handler->OnAck(plan.counting.local_dc);
    if (on_replica_ack) on_replica_ack();
  }
}

void WriteCoordinator::CommitPaxos(const storage::Mutation& update, Bytes decision,
                                   uint16_t consistency, bool allow_hints, LocalCommit local,
                                   Callback done) {
  const ClusterViewPtr view = services_.views->Get();
  PartitionWrite plan;
  try {
    plan = Plan(*view, update, {.consistency = consistency, .type = WriteType::kSimple});
  } catch (...) {
    done(std::current_exception());
    return;
  }
  const bool block = consistency != kAny;
  std::shared_ptr<WriteResponseHandler> handler;
  if (block) {
    handler = std::make_shared<WriteResponseHandler>(plan.counting, std::move(done));
    handler->ArmTimeout(*services_.scheduler, services_.timeouts.write);
  }
  auto mutation = std::make_shared<Bytes>();
  if (allow_hints) update.SerializeTo(*mutation);
  for (const types::Uuid& replica : plan.dead) {
    if (allow_hints && services_.liveness->Downtime(replica) < services_.max_hint_window) {
      Hint(replica, *mutation);
    }
  }
  const auto payload = std::make_shared<const Bytes>(std::move(decision));
  for (const types::Uuid& replica : plan.live) {
    const std::string& dc = view->DatacenterOf(replica);
    if (replica == view->local_id()) {
      local([handler, dc, address = services_.messaging->local_address()](bool ok) {
        if (handler == nullptr) return;
        if (ok) {
          handler->OnAck(dc);
        } else {
          handler->OnFailure(dc, address, messaging::FailureReason::kUnknown);
        }
      });
      continue;
    }
    const messaging::PeerAddress address = view->AddressOf(replica);
    services_.messaging->SendRequest(
        address, Verb::kPaxosCommit, *payload, services_.timeouts.write,
        [this, handler, mutation, allow_hints, replica, address, dc](Reply reply) {
          switch (reply.status) {
            case Reply::Status::kSuccess:
              if (handler) handler->OnAck(dc);
              break;
            case Reply::Status::kFailure:
              if (handler) handler->OnFailure(dc, address, reply.reason);
              break;
            case Reply::Status::kTimeout:
            case Reply::Status::kUnreachable:
              if (allow_hints) Hint(replica, *mutation);
              break;
          }
        });
  }
  if (!block) done(nullptr);
}

void WriteCoordinator::MutateCounters(const ClusterView& view,
                                      const std::vector<PartitionWrite>& plans,
                                      const std::vector<storage::Mutation>& mutations,
                                      const WriteOptions& options, Callback done) {
  auto request = std::make_shared<RequestCompletion>(mutations.size(), std::move(done));
  for (size_t i = 0; i < mutations.size(); ++i) {
    auto partition_done = [request](std::exception_ptr error) {
      request->PartitionDone(std::move(error));
    };
    const std::optional<types::Uuid> leader = CounterLeader(view, plans[i]);
    if (!leader) {
      // ANY with every replica down (the statement layer refuses ANY for
      // counters, as Cassandra does): no replica can lead.
      const uint16_t level = plans[i].counting.consistency;
      partition_done(std::make_exception_ptr(CqlError(
          ErrorCode::kUnavailable,
          "Cannot achieve consistency level " + std::string(protocol::ConsistencyName(level)),
          UnavailableInfo{level, 1, 0})));
      continue;
    }
    if (*leader == view.local_id()) {
      LeadCounterUpdate(mutations[i], options, std::move(partition_done));
    } else {
      ForwardCounterUpdate(view, *leader, mutations[i], options, std::move(partition_done));
    }
  }
}

std::optional<types::Uuid> WriteCoordinator::CounterLeader(const ClusterView& view,
                                                           const PartitionWrite& plan) {
  // Cassandra's findSuitableReplica: this node when it is a replica, else
  // a live replica of this datacenter, else any live one. Plan() made sure
  // enough are alive for every level but ANY.
  const std::string_view local_dc = view.DatacenterOf(view.local_id());
  const types::Uuid* other_dc = nullptr;
  for (const types::Uuid& replica : plan.live) {
    if (replica == view.local_id()) return replica;
  }
  for (const types::Uuid& replica : plan.live) {
    if (view.DatacenterOf(replica) == local_dc) return replica;
    if (other_dc == nullptr) other_dc = &replica;
  }
  if (other_dc != nullptr) return *other_dc;
  return std::nullopt;
}

void WriteCoordinator::LeadCounterUpdate(const storage::Mutation& deltas,
                                         const WriteOptions& options,
                                         WriteResponseHandler::Done done) {
  const ClusterViewPtr view = services_.views->Get();
  std::unique_lock<std::mutex> lock = counter_locks_.Lock(deltas.table_id, deltas.partition);
  PartitionWrite plan;
  storage::Mutation shards;
  try {
    shards = CounterShardsForUpdate(engine_, deltas, view->local_id(),
                                    static_cast<int32_t>(clock_.NowMicros() / 1'000'000));
    plan = Plan(*view, shards, options);
  } catch (...) {
    lock.unlock();
    done(std::current_exception());
    return;
  }
  // Applied here before the lock goes (Execute applies a local replica's
  // write at once), so the next update of these counters reads this one.
  Execute(*view, plan, shards, std::move(done));
}

void WriteCoordinator::ForwardCounterUpdate(const ClusterView& view, const types::Uuid& leader,
                                            const storage::Mutation& deltas,
                                            const WriteOptions& options,
                                            WriteResponseHandler::Done done) {
  // The leader answers once its own write met the level; here it counts as
  // the one acknowledgement awaited (Cassandra's forwarding counter write).
  WriteCounting counting;
  counting.consistency = options.consistency;
  counting.type = WriteType::kCounter;
  counting.block_for = 1;
  counting.local_dc = std::string(view.DatacenterOf(leader));
  counting.candidates_per_dc[counting.local_dc] = 1;
  auto handler = std::make_shared<WriteResponseHandler>(counting, std::move(done));
  handler->ArmTimeout(*services_.scheduler, services_.timeouts.counter_write);
  Bytes payload;
  AppendBE16(payload, options.consistency);
  deltas.SerializeTo(payload);
  const messaging::PeerAddress address = view.AddressOf(leader);
  services_.messaging->SendRequest(
      address, Verb::kCounterMutation, payload, services_.timeouts.counter_write,
      [handler, address, dc = counting.local_dc](Reply reply) {
        if (reply.ok()) {
          handler->OnAck(dc);
        } else if (reply.reason == messaging::FailureReason::kTimeout) {
          // The leader's replicas timed out: so does this write.
          handler->OnTimeout();
        } else if (reply.status == Reply::Status::kFailure) {
          handler->OnFailure(dc, address, reply.reason);
        }
      });
}

void WriteCoordinator::OnCounterMutation(const messaging::Message& message,
                                         messaging::Responder responder) {
  auto shared_responder = std::make_shared<messaging::Responder>(std::move(responder));
  WriteOptions options;
  options.type = WriteType::kCounter;
  storage::Mutation deltas;
  try {
    if (message.payload.size() < 2) throw std::runtime_error("a counter mutation without a level");
    options.consistency = LoadBE16(message.payload.data());
    deltas = storage::Mutation::Deserialize(message.payload.substr(2));
  } catch (const std::exception&) {
    if (shared_responder->expects_reply()) {
      shared_responder->Fail(messaging::FailureReason::kUnknown);
    }
    return;
  }
  LeadCounterUpdate(deltas, options, [shared_responder](std::exception_ptr error) {
    if (!shared_responder->expects_reply()) return;
    if (error == nullptr) {
      shared_responder->Reply({});
      return;
    }
    messaging::FailureReason reason = messaging::FailureReason::kUnknown;
    try {
      std::rethrow_exception(error);
    } catch (const CqlError& e) {
      if (e.code() == ErrorCode::kWriteTimeout) reason = messaging::FailureReason::kTimeout;
    } catch (...) {
    }
    shared_responder->Fail(reason);
  });
}

bool WriteCoordinator::Hint(const types::Uuid& target, BytesView mutation) {
  if (services_.hints == nullptr) return false;
  try {
    services_.hints->Append(target, clock_.NowMicros(), mutation);
  } catch (const std::exception&) {
    // A hint the disk refused is a write the replica may miss until repair,
    // as when hinted handoff is off; the client's write does not fail for it.
    return false;
  }
  return true;
}

messaging::Duration WriteCoordinator::TimeoutOf(WriteType type) const {
  return type == WriteType::kCounter ? services_.timeouts.counter_write : services_.timeouts.write;
}

void WriteCoordinator::RegisterReplicaHandlers(messaging::MessagingService& messaging,
                                               storage::Engine& engine) {
  messaging.RegisterHandler(Verb::kTruncate, [&engine](const messaging::Message& message,
                                                       messaging::Responder responder) {
    try {
      if (message.payload.size() != 16) throw std::runtime_error("not a table id");
      engine.Truncate(types::Uuid::FromBytes(message.payload));
    } catch (const std::exception&) {
      if (responder.expects_reply()) responder.Fail(messaging::FailureReason::kUnknown);
      return;
    }
    if (responder.expects_reply()) responder.Reply({});
  });
  for (Verb verb : {Verb::kMutation, Verb::kHint}) {
    messaging.RegisterHandler(
        verb, [&engine](const messaging::Message& message, messaging::Responder responder) {
          ApplyAndReply(engine, message, std::move(responder));
        });
  }
}

}  // namespace sibyl::cluster
