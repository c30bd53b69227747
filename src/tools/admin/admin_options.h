#pragma once
// The command line of `sibyl admin`:
//
//   sibyl admin [--host H] [--port P] status [KEYSPACE]
//   sibyl admin [--host H] [--port P] ring [KEYSPACE]
//   sibyl admin [--host H] [--port P] describering KEYSPACE
//   sibyl admin [--host H] [--port P] indexes [KEYSPACE]
//   sibyl admin [--host H] [--port P] views [KEYSPACE]
//   sibyl admin [--host H] [--port P] verify-view KEYSPACE.VIEW [--repair]

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/admin/cluster_members_reader.h"

namespace sibyl::tools::admin {

enum class AdminView { kStatus, kRing, kDescribeRing, kIndexes, kViews, kVerifyView };

struct AdminOptions {
  bool help = false;
  NodeAddress node;
  AdminView view = AdminView::kStatus;
  // status and ring: the keyspace whose effective ownership to show;
  // describering: the keyspace (required); indexes and views: the keyspace
  // whose builds to show (all when none); verify-view: the view's keyspace.
  std::optional<std::string> keyspace;
  // verify-view: the view to check, in `keyspace`.
  std::string view_name;
  // verify-view: rewrite the rows that differ from the base. Default: false.
  bool repair = false;
};

class AdminUsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Throws AdminUsageError saying what is wrong.
[[nodiscard]] AdminOptions ParseAdminArguments(const std::vector<std::string>& args);

std::string AdminUsage();

}  // namespace sibyl::tools::admin
