#pragma once
// The columns system_views.index_builds and view_builds share: a build's
// status ('built', 'building' or 'failed'), partitions built, the last
// token while building, and a failure's reason.

#include <cstdint>
#include <optional>
#include <string>

#include "schema/virtual_table.h"

namespace sibyl::schema {

void SetBuildProgress(RowWriter& row, bool built, const std::string& failure,
                      int64_t partitions_built, const std::optional<int64_t>& last_token);

}  // namespace sibyl::schema
