#include "tools/admin/admin_command.h"

#include <cstdio>

#include "common/error.h"
#include "tools/admin/admin_error.h"
#include "tools/admin/admin_options.h"
#include "tools/admin/cluster_members_reader.h"
#include "tools/admin/decommission.h"
#include "tools/admin/describe_ring_format.h"
#include "tools/admin/flush.h"
#include "tools/admin/flush_reader.h"
#include "tools/admin/index_builds.h"
#include "tools/admin/index_builds_reader.h"
#include "tools/admin/ownership_choice.h"
#include "tools/admin/removenode.h"
#include "tools/admin/ring_format.h"
#include "tools/admin/schema_tables_reader.h"
#include "tools/admin/status_format.h"
#include "tools/admin/table_histograms.h"
#include "tools/admin/table_histograms_reader.h"
#include "tools/admin/table_stats.h"
#include "tools/admin/table_stats_reader.h"
#include "tools/admin/view_builds.h"
#include "tools/admin/view_builds_reader.h"
#include "tools/admin/view_check.h"
#include "tools/admin/view_check_reader.h"

namespace sibyl::tools::admin {
namespace {

// What the command prints on stdout, and its exit status.
struct Output {
  std::string text;
  int status = 0;
};

void RequireKeyspace(const ClusterMembers& cluster, const std::optional<std::string>& keyspace) {
  if (keyspace && !cluster.keyspaces.contains(*keyspace)) {
    throw AdminError("The keyspace " + *keyspace + ", does not exist");
  }
}

Output Flush(const ClusterMembers& cluster, const AdminOptions& options) {
  const std::vector<TableSelection> tables =
      TablesToFlush(ReadSchemaTables(options.node), options.keyspace, options.tables);
  std::string what = "every keyspace";
  if (options.keyspace) {
    what = *options.keyspace;
    if (options.tables.size() == 1) what += "." + options.tables.front();
  }
  const std::vector<NodeFlush> nodes = FlushOnEveryMember(cluster, options.node, tables);
  // A node not flushed fails the command: a script sees the data is not
  // known to be in SSTables everywhere.
  return {FormatFlushes(what, nodes), FlushesComplete(nodes) ? 0 : 1};
}

Output TableHistograms(const ClusterMembers& cluster, const AdminOptions& options) {
  const std::string& keyspace = *options.keyspace;
  const std::string& table = options.tables.front();
  // An unknown keyspace or table gets flush's errors (nodetool's words).
  (void)TablesToFlush(ReadSchemaTables(options.node), keyspace, {table});
  return {FormatClusterTableHistograms(
      keyspace, table, ReadClusterTableHistograms(cluster, options.node, keyspace, table))};
}

Output Run(const AdminOptions& options) {
  if (options.view == AdminView::kDecommission) {
    DecommissionNode(options.node, options.force);
    return {};
  }
  if (options.view == AdminView::kRemoveNode) return {RemoveNode(options.node, options.removal)};
  const ClusterMembers cluster = ReadClusterMembers(options.node);
  switch (options.view) {
    case AdminView::kStatus:
      return {FormatStatus(cluster, ChooseOwnership(cluster, options.keyspace))};
    case AdminView::kRing:
      return {FormatRing(cluster, ChooseOwnership(cluster, options.keyspace))};
    case AdminView::kDescribeRing:
      return {FormatDescribeRing(cluster, *options.keyspace)};
    case AdminView::kIndexes:
      RequireKeyspace(cluster, options.keyspace);
      return {FormatIndexBuilds(ReadClusterIndexBuilds(cluster, options.node), options.keyspace)};
    case AdminView::kViews:
      RequireKeyspace(cluster, options.keyspace);
      return {FormatViewBuilds(ReadClusterViewBuilds(cluster, options.node), options.keyspace)};
    case AdminView::kVerifyView: {
      RequireKeyspace(cluster, options.keyspace);
      const std::vector<NodeViewCheck> checks = CheckViewOnEveryMember(
          cluster, options.node, *options.keyspace, options.view_name, options.repair);
      // Differences left, or a node not checked, fail the command as a
      // request that cannot be answered does: a script sees the view is not
      // known to be sound.
      return {FormatViewChecks(*options.keyspace, options.view_name, options.repair, checks),
              ViewChecksClean(checks) ? 0 : 1};
    }
    case AdminView::kFlush:
      return Flush(cluster, options);
    case AdminView::kTableStats:
      CheckSelections(options.selections, ReadSchemaTables(options.node));
      return {FormatClusterTableStats(options.selections,
                                      ReadClusterTableStats(cluster, options.node))};
    case AdminView::kTableHistograms:
      return TableHistograms(cluster, options);
    case AdminView::kDecommission:
    case AdminView::kRemoveNode:
      break;  // above: they need no member list
  }
  return {};
}

}  // namespace

int RunAdminCommand(const std::vector<std::string>& args) {
  AdminOptions options;
  try {
    options = ParseAdminArguments(args);
  } catch (const AdminUsageError& e) {
    std::fprintf(stderr, "sibyl admin: %s\n", e.what());
    return 2;
  }
  if (options.help) {
    std::fputs(AdminUsage().c_str(), stdout);
    return 0;
  }
  try {
    const Output output = Run(options);
    std::fputs(output.text.c_str(), stdout);
    std::fflush(stdout);
    return output.status;
  } catch (const AdminError& e) {
    // nodetool's form for a request it cannot answer.
    std::fprintf(stderr, "\nError: %s\n", e.what());
  } catch (const CqlError& e) {
    std::fprintf(stderr, "\nError: %s\n", e.what());
  }
  return 1;
}

}  // namespace sibyl::tools::admin
