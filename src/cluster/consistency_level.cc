#include "cluster/consistency_level.h"

#include <algorithm>
#include <string>

#include "common/error.h"
#include "protocol/request.h"

namespace sibyl::cluster {

using protocol::Consistency;

namespace {

int QuorumFor(const locator::ReplicationStrategy& strategy) {
  return strategy.replication_factor() / 2 + 1;
}

bool IsNetworkTopology(const locator::ReplicationStrategy& strategy) {
  return strategy.kind() == locator::ReplicationStrategy::Kind::kNetworkTopology;
}

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

int LocalQuorumFor(const locator::ReplicationStrategy& strategy, std::string_view dc) {
  // ReplicationFactorIn answers the total factor for strategies without
  // datacenters, which makes this QUORUM's answer for them, as in Cassandra.
  return strategy.ReplicationFactorIn(dc) / 2 + 1;
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

int PendingBlockFor(uint16_t consistency, std::span<const std::string_view> pending,
                    std::string_view local_dc) {
  switch (static_cast<Consistency>(consistency)) {
    case Consistency::kAny:
      return 0;
    case Consistency::kLocalOne:
    case Consistency::kLocalQuorum:
    case Consistency::kLocalSerial:
      return static_cast<int>(std::count(pending.begin(), pending.end(), local_dc));
    default:
      return static_cast<int>(pending.size());
  }
}

int BlockFor(uint16_t consistency, const locator::ReplicationStrategy& strategy,
             std::string_view local_dc) {
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
      return QuorumFor(strategy);
    case Consistency::kAll:
      return strategy.replication_factor();
    case Consistency::kLocalQuorum:
    case Consistency::kLocalSerial:
      return LocalQuorumFor(strategy, local_dc);
    case Consistency::kEachQuorum: {
      if (!IsNetworkTopology(strategy)) return QuorumFor(strategy);
      int total = 0;
      for (const auto& [dc, rf] : strategy.datacenter_factors())
        total += LocalQuorumFor(strategy, dc);
      return total;
    }
  }
  ThrowProtocol("Unknown code " + std::to_string(consistency) + " for a consistency level");
}

void AssureSufficientLiveReplicas(uint16_t consistency,
                                  const locator::ReplicationStrategy& strategy,
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
      if (IsNetworkTopology(strategy)) {
        for (const auto& [dc, rf] : strategy.datacenter_factors()) {
          const int dc_block_for = LocalQuorumFor(strategy, dc);
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
