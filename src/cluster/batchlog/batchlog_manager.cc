#include "cluster/batchlog/batchlog_manager.h"

#include <exception>
#include <utility>
#include <vector>

#include "protocol/request.h"
#include "storage/data/mutation.h"

namespace sibyl::cluster {

BatchlogManager::BatchlogManager(const ClusterServices& services, BatchStore& store,
                                 WriteCoordinator& writes, Clock& clock, Options options)
    : services_(services),
      store_(store),
      writes_(writes),
      clock_(clock),
      options_(options),
      rounds_(*services.scheduler, options.period, [this] { RunOnce(); }) {}

void BatchlogManager::RegisterReplicaHandlers(messaging::MessagingService& messaging,
                                              BatchStore& store) {
  messaging.RegisterHandler(messaging::Verb::kBatchStore,
                            [&store](const messaging::Message& message, messaging::Responder r) {
                              try {
                                store.Store(DecodeBatch(message.payload));
                              } catch (const std::exception&) {
                                if (r.expects_reply()) r.Fail(messaging::FailureReason::kUnknown);
                                return;
                              }
                              if (r.expects_reply()) r.Reply({});
                            });
  messaging.RegisterHandler(messaging::Verb::kBatchRemove,
                            [&store](const messaging::Message& message, messaging::Responder r) {
                              // One-way from the coordinator; a bad id removes nothing.
                              if (message.payload.size() == 16) {
                                store.Remove(types::Uuid::FromBytes(message.payload));
                              }
                              if (r.expects_reply()) r.Reply({});
                            });
}

void BatchlogManager::Start() { rounds_.Start(); }

void BatchlogManager::Stop() { rounds_.Stop(); }

size_t BatchlogManager::replays_in_flight() const {
  std::lock_guard lock(mutex_);
  return in_flight_.size();
}

void BatchlogManager::RunOnce() {
  if (stopped()) return;
  // A live coordinator removes its batch within a write timeout of the
  // mutations' acknowledgements; twice the timeout means it will not.
  const int64_t timeout_micros =
      std::chrono::duration_cast<std::chrono::microseconds>(services_.timeouts.write).count();
  const int64_t now = clock_.NowMicros();
  for (const StoredBatch& batch : store_.List()) {
    if (now - batch.creation_micros < 2 * timeout_micros) continue;
    {
      std::lock_guard lock(mutex_);
      if (!in_flight_.insert(batch.id).second) continue;
    }
    Replay(batch);
  }
}

void BatchlogManager::Replay(const StoredBatch& batch) {
  std::vector<storage::Mutation> mutations;
  try {
    for (const Bytes& bytes : batch.mutations)
      mutations.push_back(storage::Mutation::Deserialize(bytes));
  } catch (const std::exception&) {
    // From a newer or broken node: kept for an operator rather than lost.
    std::lock_guard lock(mutex_);
    in_flight_.erase(batch.id);
    return;
  }
  const types::Uuid id = batch.id;
  writes_.Mutate(std::move(mutations),
                 WriteOptions{.consistency = static_cast<uint16_t>(protocol::Consistency::kAny),
                              .type = WriteType::kUnloggedBatch},
                 [this, id](std::exception_ptr error) {
                   // Failed: the batch stays for the next round.
                   if (error == nullptr) store_.Remove(id);
                   std::lock_guard lock(mutex_);
                   in_flight_.erase(id);
                 });
}

}  // namespace sibyl::cluster
