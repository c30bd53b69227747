#pragma once
// The command line of `sibyl admin`:
//
//   sibyl admin [--host H] [--port P] status [KEYSPACE]
//   sibyl admin [--host H] [--port P] ring [KEYSPACE]
//   sibyl admin [--host H] [--port P] describering KEYSPACE
//   sibyl admin [--host H] [--port P] indexes [KEYSPACE]
//   sibyl admin [--host H] [--port P] views [KEYSPACE]
//   sibyl admin [--host H] [--port P] verify-view KEYSPACE.VIEW [--repair]
//   sibyl admin [--host H] [--port P] flush [KEYSPACE [TABLE...]]
//   sibyl admin [--host H] [--port P] tablestats [KEYSPACE[.TABLE]...]
//   sibyl admin [--host H] [--port P] tablehistograms KEYSPACE TABLE | KEYSPACE.TABLE
//   sibyl admin [--host H] [--port P] decommission [--force]
//   sibyl admin [--host H] [--port P] removenode <host id> | status | force

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/admin/cluster_members_reader.h"

namespace sibyl::tools::admin {

enum class AdminView {
  kStatus,
  kRing,
  kDescribeRing,
  kIndexes,
  kViews,
  kVerifyView,
  kFlush,
  kTableStats,
  kTableHistograms,
  kDecommission,
  kRemoveNode,
};

// A keyspace, or one table of it (tablestats' KEYSPACE[.TABLE]).
struct TableSelection {
  std::string keyspace;
  std::string table;  // empty: every table of the keyspace
  friend bool operator==(const TableSelection&, const TableSelection&) = default;
};

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
  // removenode: the dead node's host id, or "status" or "force".
  std::string removal;
  // verify-view: rewrite the rows that differ from the base. Default: false.
  bool repair = false;
  // decommission --force (-f): leave even below a keyspace's replication
  // factor. Default: false.
  bool force = false;
  // flush: the tables of `keyspace` to flush (every table when empty, and
  // every keyspace's when `keyspace` is not given); tablehistograms: the
  // one table of `keyspace`.
  std::vector<std::string> tables;
  // tablestats: what to show; everything when empty.
  std::vector<TableSelection> selections;
};

class AdminUsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Throws AdminUsageError saying what is wrong.
[[nodiscard]] AdminOptions ParseAdminArguments(const std::vector<std::string>& args);

std::string AdminUsage();

}  // namespace sibyl::tools::admin
