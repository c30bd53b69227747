#pragma once
// Has every member of the cluster check a materialized view against its
// base, over CQL: on each member (member_queries.h), one after the other,
//
//   INSERT INTO system_views.view_checks (keyspace_name, view_name, repair)
//   VALUES (?, ?, ?)
//
// makes the node check the view (and rewrite the differing rows with
// repair); it answers once done. Then
//
//   SELECT keyspace_name, view_name, repair, checked_at, rows_expected,
//          missing, unexpected, different, repaired
//   FROM system_views.view_checks WHERE keyspace_name = ? AND view_name = ?
//
// reads what it found. The names are bound values, so no quoting is needed.

#include <chrono>
#include <string>
#include <vector>

#include "tools/admin/cluster_members.h"
#include "tools/admin/node_connection.h"
#include "tools/admin/view_check.h"

namespace sibyl::tools::admin {

// A check reads the whole base table and view: on a big table that takes
// far longer than a read of a system table. An hour bounds a node that never
// answers.
inline constexpr std::chrono::milliseconds kViewCheckTimeout = std::chrono::hours(1);

// One row of the SELECT's answer (checked_at a timestamp; repair a boolean;
// the counts bigints). Throws AdminError on a null or malformed value.
[[nodiscard]] ViewCheck ViewCheckOfRow(const AdminRow& row);

// `node`'s check of `keyspace`.`view`. An InvalidRequest answering the
// INSERT (no such view there) is the answer's refusal. Throws AdminError
// naming the node and the cause when it cannot be reached, another error
// answers, or it answers no check.
[[nodiscard]] ViewCheckAnswer CheckView(const NodeAddress& node, const std::string& keyspace,
                                        const std::string& view, bool repair);

// The check of every member in `cluster.members`' order (AskEveryMember).
// Never throws AdminError.
[[nodiscard]] std::vector<NodeViewCheck> CheckViewOnEveryMember(const ClusterMembers& cluster,
                                                                const NodeAddress& contacted,
                                                                const std::string& keyspace,
                                                                const std::string& view,
                                                                bool repair);

}  // namespace sibyl::tools::admin
