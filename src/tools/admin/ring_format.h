#pragma once
// `sibyl admin ring`: what `nodetool ring` 4.1 prints: per datacenter (sorted
// by name) every token of its members in ring order, with the token's node,
// rack, status (Up / Down / ?), state (always Normal), load and ownership:
//
//   (empty line)
//   Datacenter: datacenter1
//   ==========
//   Address         Rack        Status State   Load            Owns                Token
//                                                                                  9100...
//   127.0.0.1       rack1       Up     Normal  70.52 KiB       100.00%             -9200...
//
// The first line under the header names the datacenter's last token (where
// its ring closes) when it has more than one. With vnodes a warning follows,
// pointing to status. Nodetool's quirks are kept so that its readers parse
// this too: the address column is as wide as the longest "address:port"
// although addresses print without the port, Owns is "?" unless the
// ownership is effective, and the output ends with two spaces (and the
// ownership note, if any).

#include <string>

#include "tools/admin/cluster_members.h"
#include "tools/admin/ownership_choice.h"

namespace sibyl::tools::admin {

std::string FormatRing(const ClusterMembers& cluster, const OwnershipChoice& ownership);

}  // namespace sibyl::tools::admin
