#pragma once
// `sibyl admin verify-view KEYSPACE.VIEW [--repair]`: what every node found
// checking the view against its base (system_views.view_checks), one table
// per node headed by its address (node_sections.h), then the verdict:
//
//   Node: 127.0.0.1
//   ===============
//   View  Rows  Missing  Unexpected  Different  Repaired
//   ks.v  1200  0        2           1          0
//
//   Node: 127.0.0.2
//   ===============
//   DOWN: not asked
//
//   ks.v differs from its base: 3 rows on 1 node (run with --repair to rewrite them)
//   ks.v was not checked on 1 node: 127.0.0.2
//
// The verdict's first line is one of
//   KS.V is consistent with its base on every node asked
//   KS.V differs from its base: N rows on M nodes (run with --repair to rewrite them)
//   KS.V: R rows repaired
// ("KS.V still differs from its base: N rows on M nodes" follows a repair
// that left rows differing), or "KS.V was not checked on any node" alone. A
// node that refused the check (the view does not exist there) shows its
// error instead of a table; it, a member down and one that cannot be asked
// are listed as not checked.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/admin/node_sections.h"

namespace sibyl::tools::admin {

// One row of system_views.view_checks: a node's last check of a view.
struct ViewCheck {
  std::string keyspace;
  std::string view;
  bool repair = false;
  int64_t checked_at_millis = 0;  // when, in milliseconds since the epoch
  int64_t rows_expected = 0;      // view rows the base gives
  int64_t missing = 0;            // rows the base gives that the view lacks
  int64_t unexpected = 0;         // rows the view has that the base does not give
  int64_t different = 0;          // rows with other cells, values or expiries
  int64_t repaired = 0;           // rows rewritten from the base (with repair)

  // Rows the check found differing and did not rewrite.
  int64_t remaining() const;
};

// What a node answered: its check, or why it refused to check.
struct ViewCheckAnswer {
  std::optional<ViewCheck> check;
  // Without a check: the node's error (an InvalidRequest: no such view).
  std::string refusal;
};

using NodeViewCheck = MemberAnswer<ViewCheckAnswer>;

// The report for `keyspace`.`view`, checked with `repair` or not.
std::string FormatViewChecks(const std::string& keyspace, const std::string& view, bool repair,
                             const std::vector<NodeViewCheck>& nodes);

// True when every member checked the view and no row differs any more:
// what makes verify-view exit 0.
bool ViewChecksClean(const std::vector<NodeViewCheck>& nodes);

}  // namespace sibyl::tools::admin
