#pragma once
// `sibyl admin`: nodetool's status, ring and describering views of a cluster,
// as a CQL client of one of its nodes, every node's index and view builds,
// a check of a view on every node, and nodetool's flush, tablestats and
// tablehistograms on every node (admin_options.h for the command line).

#include <string>
#include <vector>

namespace sibyl::tools::admin {

// Prints the view on stdout. Returns 0, 1 when the node cannot answer or the
// request cannot be answered (the reason on stderr) and when verify-view
// leaves rows differing or a node unchecked, and when flush leaves a node
// not flushed (its report on stdout), 2 on a usage error.
int RunAdminCommand(const std::vector<std::string>& args);

}  // namespace sibyl::tools::admin
