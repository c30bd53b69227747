#pragma once
// Asking every member of the cluster the same question over CQL, each at
// the native address and port it announces (system_views.gossip_info), one
// after the other: what `indexes`, `views` and `verify-view` do.

#include <string>
#include <vector>

#include "tools/admin/admin_error.h"
#include "tools/admin/cluster_members.h"
#include "tools/admin/node_connection.h"
#include "tools/admin/node_sections.h"

namespace sibyl::tools::admin {

// Where to ask `member`: its native address and port; its internode address
// when it announced no native address (or a wildcard one), `fallback_port`
// when no port.
[[nodiscard]] NodeAddress NativeAddressOf(const MemberState& member, uint16_t fallback_port);

// `ask(node)`'s answer of every member in `cluster.members`' order. A member
// down by the contacted node's failure detector is not asked ("DOWN: not
// asked"); one for which `ask` throws AdminError is named with the reason
// ("Unreachable: <why>"). Never throws AdminError. `ask` is called with
// `contacted.port` as the port of members that announced none.
template <typename Ask>
[[nodiscard]] auto AskEveryMember(const ClusterMembers& cluster, const NodeAddress& contacted,
                                  const Ask& ask) {
  using Answer = decltype(ask(contacted));
  std::vector<MemberAnswer<Answer>> answers;
  for (const MemberState& member : cluster.members) {
    MemberAnswer<Answer>& answer = answers.emplace_back();
    answer.address = member.address;
    if (member.alive == false) {
      answer.unavailable = "DOWN: not asked";
      continue;
    }
    try {
      answer.answer = ask(NativeAddressOf(member, contacted.port));
    } catch (const AdminError& e) {
      answer.unavailable = std::string("Unreachable: ") + e.what();
    }
  }
  return answers;
}

}  // namespace sibyl::tools::admin
