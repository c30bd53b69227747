#include "cluster/consistency_level.h"

#include <algorithm>
#include <string>

#include "common/error.h"
#include "protocol/request.h"

namespace sibyl::cluster {

using protocol::Consistency;

namespace {

int QuorumFor(const ReplicationFactors& factors) { return factors.all / 2 + 1; }

[[noreturn]] void ThrowUnavailable(uint16_t consistency, std::string message, int required,
                                   int alive) {
  throw CqlError(ErrorCode::kUnavailable, std::move(message),
                 UnavailableInfo{consistency, required, alive});
}

std::string CannotAchieve(uint16_t consistency) {
  return std::string("Cannot achieve consistency level ") + protocol::ConsistencyName(consistency);
}

int CountIn(std::span<const std::string_view> live, std::string_view dc) {
  return static_cast<int>(std::count(live.begin(), live.end(), dc));
}

}  // namespace

int ReplicationFactors::InDatacenter(std::string_view dc) const {
  const auto it = per_datacenter.find(dc);
  return it == per_datacenter.end() ? 0 : it->second;
}

int LocalQuorumFor(const ReplicationFactors& factors, std::string_view dc) {
  return factors.network_topology ? factors.InDatacenter(dc) / 2 + 1 : QuorumFor(factors);
}

bool IsDatacenterLocal(uint16_t consistency) {
  switch (static_cast<Consistency>(consistency)) {
    case Consistency::kLocalQuorum:
    case Consistency::kLocalOne:
    case Consistency::kNodeLocal:
      return true;
    default:
      return false;
  }
}

int BlockFor(uint16_t consistency, const ReplicationFactors& factors, std::string_view local_dc) {
  switch (static_cast<Consistency>(consistency)) {
    case Consistency::kAny:
    case Consistency::kOne:
    case Consistency::kLocalOne:
    case Consistency::kNodeLocal:
      return 1;
    case Consistency::kTwo:
      return 2;
    case Consistency::kThree:
      return 3;
    case Consistency::kQuorum:
    case Consistency::kSerial:
      return QuorumFor(factors);
    case Consistency::kAll:
      return factors.all;
    case Consistency::kLocalQuorum:
    case Consistency::kLocalSerial:
      return LocalQuorumFor(factors, local_dc);
    case Consistency::kEachQuorum: {
      if (!factors.network_topology) return QuorumFor(factors);
      int total = 0;
      for (const auto& [dc, rf] : factors.per_datacenter) total += LocalQuorumFor(factors, dc);
      return total;
    }
  }
  ThrowProtocol("Unknown code " + std::to_string(consistency) + " for a consistency level");
}

void AssureSufficientLiveReplicas(uint16_t consistency, const ReplicationFactors& factors,
                                  std::string_view local_dc, std::span<const std::string_view> live,
                                  int block_for) {
  switch (static_cast<Consistency>(consistency)) {
    case Consistency::kAny:
      return;
    case Consistency::kLocalOne:
    case Consistency::kLocalQuorum: {
      const int local_live = CountIn(live, local_dc);
      if (local_live < block_for) {
        ThrowUnavailable(consistency, CannotAchieve(consistency), block_for, local_live);
      }
      return;
    }
    case Consistency::kEachQuorum:
      if (factors.network_topology) {
        for (const auto& [dc, rf] : factors.per_datacenter) {
          const int dc_block_for = LocalQuorumFor(factors, dc);
          const int dc_live = CountIn(live, dc);
          if (dc_live < dc_block_for) {
            ThrowUnavailable(consistency, CannotAchieve(consistency) + " in DC " + dc, dc_block_for,
                             dc_live);
          }
        }
        return;
      }
      [[fallthrough]];
    default: {
      const int alive = static_cast<int>(live.size());
      if (alive < block_for) {
        ThrowUnavailable(consistency, CannotAchieve(consistency), block_for, alive);
      }
    }
  }
}

}  // namespace sibyl::cluster
