#include "cluster/batchlog/batchlog_endpoints.h"

#include <algorithm>
#include <map>
#include <string>

#include "common/error.h"
#include "protocol/request.h"

namespace sibyl::cluster {

std::vector<types::Uuid> BatchlogEndpoints(const ClusterView& view, const Liveness& liveness,
                                           bool consistency_is_any, uint64_t spread) {
  const metadata::NodeRecord& local = view.local();
  // Live candidates of the local datacenter, by rack (host id order within).
  std::map<std::string, std::vector<types::Uuid>> by_rack;
  size_t candidates = 0;
  for (const auto& [id, record] : view.directory().nodes()) {
    if (id == view.local_id() || record.datacenter != local.datacenter || !liveness.IsAlive(id)) {
      continue;
    }
    by_rack[record.rack].push_back(id);
    ++candidates;
  }
  if (candidates == 0) {
    if (consistency_is_any) return {view.local_id()};
    throw CqlError(ErrorCode::kUnavailable, "Cannot achieve consistency level ONE",
                   UnavailableInfo{static_cast<uint16_t>(protocol::Consistency::kOne), 1, 0});
  }
  // Other racks first: a rack failure then loses the batch's copies only
  // with the coordinator's own rack spared.
  std::vector<std::vector<types::Uuid>*> racks;
  for (auto& [rack, nodes] : by_rack) {
    if (rack != local.rack) racks.push_back(&nodes);
  }
  const size_t other_racks = racks.size();
  const auto own = by_rack.find(local.rack);
  if (own != by_rack.end()) racks.push_back(&own->second);
  std::vector<types::Uuid> chosen;
  if (other_racks >= 2) {
    // Two other racks: one node from each.
    for (size_t r = 0; r < 2; ++r) chosen.push_back((*racks[r])[spread % racks[r]->size()]);
    return chosen;
  }
  // One other rack (or only ours): two of its nodes, then any.
  std::vector<types::Uuid> ordered;
  for (auto* nodes : racks) {
    const size_t start = spread % nodes->size();
    for (size_t i = 0; i < nodes->size(); ++i)
      ordered.push_back((*nodes)[(start + i) % nodes->size()]);
  }
  ordered.resize(std::min<size_t>(ordered.size(), 2));
  return ordered;
}

}  // namespace sibyl::cluster
