#pragma once
// The command line of `sibyl admin`:
//
//   sibyl admin [--host H] [--port P] status [KEYSPACE]
//   sibyl admin [--host H] [--port P] ring [KEYSPACE]
//   sibyl admin [--host H] [--port P] describering KEYSPACE
//   sibyl admin [--host H] [--port P] indexes [KEYSPACE]

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/admin/cluster_members_reader.h"

namespace sibyl::tools::admin {

enum class AdminView { kStatus, kRing, kDescribeRing, kIndexes };

struct AdminOptions {
  bool help = false;
  NodeAddress node;
  AdminView view = AdminView::kStatus;
  // status and ring: the keyspace whose effective ownership to show;
  // describering: the keyspace (required); indexes: the keyspace whose
  // index builds to show (all when none).
  std::optional<std::string> keyspace;
};

class AdminUsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Throws AdminUsageError saying what is wrong.
[[nodiscard]] AdminOptions ParseAdminArguments(const std::vector<std::string>& args);

std::string AdminUsage();

}  // namespace sibyl::tools::admin
