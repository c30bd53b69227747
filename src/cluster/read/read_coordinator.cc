#include "cluster/read/read_coordinator.h"

#include "common/error.h"

namespace sibyl::cluster {

ReadCoordinator::ReadCoordinator(const ClusterServices& services, storage::Engine& engine,
                                 Clock& clock)
    : services_(services), engine_(engine), clock_(clock) {}

void ReadCoordinator::Read(storage::ReadCommand command, uint16_t consistency, Callback done) {
  done({}, std::make_exception_ptr(
               CqlError(ErrorCode::kServerError,
                        "Reads on a cluster of several nodes are not implemented yet")));
}

void ReadCoordinator::RegisterReplicaHandlers(messaging::MessagingService&, storage::Engine&) {}

}  // namespace sibyl::cluster
