#pragma once
// `sibyl admin status`: what `nodetool status` 4.1 prints, from the members
// the contacted node knows. Per datacenter (sorted by name), a header, the
// legend and one line per member in the order given:
//
//   Datacenter: datacenter1
//   =======================
//   Status=Up/Down
//   |/ State=Normal/Leaving/Joining/Moving
//   --  Address    Load       Tokens  Owns (effective)  Host ID                               Rack
//   UN  127.0.0.1  70.52 KiB  16      100.0%            6d194555-f6eb-41d0-c000-000000000001  rack1
//
// then an empty line, and the ownership note when the ownership is raw.
// Status is U (up), D (down) or ? (unknown); the state is always N: Sibyl
// has no joining, leaving or moving nodes yet. Load is "?" when unknown.
// As in nodetool, the Owns column shows "?" unless the ownership is
// effective, and a "Token" column (the member's first token) replaces
// "Tokens" only when there are no more tokens than datacenters.

#include <string>

#include "tools/admin/cluster_members.h"
#include "tools/admin/ownership_choice.h"

namespace sibyl::tools::admin {

std::string FormatStatus(const ClusterMembers& cluster, const OwnershipChoice& ownership);

}  // namespace sibyl::tools::admin
