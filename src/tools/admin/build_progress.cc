#include "tools/admin/build_progress.h"

#include <algorithm>

namespace sibyl::tools::admin {

BuildProgress ReadBuildProgress(const AdminRow& row, size_t first_column) {
  BuildProgress progress;
  progress.status = RequiredColumn(row, first_column, "status");
  progress.partitions_built = BigintColumn(row, first_column + 1, "partitions_built");
  progress.last_token = OptionalBigintColumn(row, first_column + 2, "last_token");
  progress.failure = OptionalTextColumn(row, first_column + 3);
  return progress;
}

NodeSection BuildsSection(const std::string& address, const std::string& unavailable,
                          const std::vector<std::string>& name_headers, std::vector<BuildRow> rows,
                          const std::string& none, const std::optional<std::string>& keyspace) {
  NodeSection section{.address = address, .table = {}, .line = unavailable};
  if (!unavailable.empty()) return section;
  if (rows.empty()) {
    section.line = keyspace ? none + " in " + *keyspace : none;
    return section;
  }
  std::sort(rows.begin(), rows.end(),
            [](const BuildRow& a, const BuildRow& b) { return a.names < b.names; });
  std::vector<std::string> header = name_headers;
  header.insert(header.end(), {"Status", "Partitions built", "Last token", "Failure"});
  section.table.Add(std::move(header));
  for (BuildRow& row : rows) {
    const BuildProgress& progress = *row.progress;
    std::vector<std::string> cells = std::move(row.names);
    cells.insert(cells.end(), {progress.status, std::to_string(progress.partitions_built),
                               progress.last_token ? std::to_string(*progress.last_token) : "",
                               progress.failure.value_or("")});
    section.table.Add(std::move(cells));
  }
  return section;
}

}  // namespace sibyl::tools::admin
