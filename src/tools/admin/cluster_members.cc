#include "tools/admin/cluster_members.h"

#include "common/check.h"

namespace sibyl::tools::admin {

locator::TokenRing ClusterMembers::Ring() const {
  std::map<locator::NodeId, std::vector<dht::Token>> tokens;
  for (const MemberState& member : members) tokens[member.host_id] = member.tokens;
  return locator::TokenRing(tokens);
}

locator::Topology ClusterMembers::Placement() const {
  std::map<locator::NodeId, locator::Location> locations;
  for (const MemberState& member : members) {
    locations[member.host_id] = {member.datacenter, member.rack};
  }
  return locator::Topology(std::move(locations));
}

const MemberState& ClusterMembers::Member(const types::Uuid& host_id) const {
  for (const MemberState& member : members) {
    if (member.host_id == host_id) return member;
  }
  SIBYL_CHECK(false);
  return members.front();
}

}  // namespace sibyl::tools::admin
