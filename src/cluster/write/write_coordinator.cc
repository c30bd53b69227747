#include "cluster/write/write_coordinator.h"

#include "common/error.h"

namespace sibyl::cluster {

WriteCoordinator::WriteCoordinator(const ClusterServices& services, storage::Engine& engine,
                                   Clock& clock)
    : services_(services), engine_(engine), clock_(clock) {}

void WriteCoordinator::Mutate(std::vector<storage::Mutation> mutations, const WriteOptions& options,
                              Callback done) {
  done(std::make_exception_ptr(CqlError(
      ErrorCode::kServerError, "Writes on a cluster of several nodes are not implemented yet")));
}

void WriteCoordinator::RegisterReplicaHandlers(messaging::MessagingService&, storage::Engine&) {}

}  // namespace sibyl::cluster
