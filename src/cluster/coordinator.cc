#include "cluster/coordinator.h"

namespace sibyl::cluster {

void Coordinator::Mutate(const std::vector<storage::Mutation>& mutations, bool atomic) {
  if (mutations.size() == 1) {
    engine_.Apply(mutations.front());
    return;
  }
  if (atomic) {
    std::vector<const storage::Mutation*> all;
    all.reserve(mutations.size());
    for (const auto& m : mutations) all.push_back(&m);
    engine_.ApplyAll(all);
    return;
  }
  for (const auto& m : mutations) engine_.Apply(m);
}

storage::ReadResult Coordinator::Read(const storage::ReadCommand& command) const {
  return engine_.Read(command);
}

void Coordinator::Truncate(const types::Uuid& table_id) { engine_.Truncate(table_id); }

}  // namespace sibyl::cluster
