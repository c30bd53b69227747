#include "tools/admin/admin_command.h"

#include <cstdio>

#include "common/error.h"
#include "tools/admin/admin_error.h"
#include "tools/admin/admin_options.h"
#include "tools/admin/cluster_members_reader.h"
#include "tools/admin/describe_ring_format.h"
#include "tools/admin/index_builds.h"
#include "tools/admin/index_builds_reader.h"
#include "tools/admin/ownership_choice.h"
#include "tools/admin/ring_format.h"
#include "tools/admin/status_format.h"

namespace sibyl::tools::admin {
namespace {

std::string View(const AdminOptions& options) {
  const ClusterMembers cluster = ReadClusterMembers(options.node);
  switch (options.view) {
    case AdminView::kStatus:
      return FormatStatus(cluster, ChooseOwnership(cluster, options.keyspace));
    case AdminView::kRing:
      return FormatRing(cluster, ChooseOwnership(cluster, options.keyspace));
    case AdminView::kDescribeRing:
      return FormatDescribeRing(cluster, *options.keyspace);
    case AdminView::kIndexes:
      if (options.keyspace && !cluster.keyspaces.contains(*options.keyspace)) {
        throw AdminError("The keyspace " + *options.keyspace + ", does not exist");
      }
      return FormatIndexBuilds(ReadClusterIndexBuilds(cluster, options.node), options.keyspace);
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
    const std::string view = View(options);
    std::fputs(view.c_str(), stdout);
    std::fflush(stdout);
    return 0;
  } catch (const AdminError& e) {
    // nodetool's form for a request it cannot answer.
    std::fprintf(stderr, "\nError: %s\n", e.what());
  } catch (const CqlError& e) {
    std::fprintf(stderr, "\nError: %s\n", e.what());
  }
  return 1;
}

}  // namespace sibyl::tools::admin
