#include "storage/read/read_result_text.h"

#include <sstream>

#include "common/hex.h"

namespace sibyl::storage {
namespace {

std::string DescribeRow(const ReadRow& row) {
  std::ostringstream out;
  out << "    row " << DescribeClustering(row.clustering) << " marker=" << row.marker.timestamp
      << "/" << row.marker.ttl << "/" << row.marker.local_expiration_time << "\n";
  for (const ReadCell& cell : row.cells) {
    out << "      " << cell.column << "[" << (cell.path ? ToHex(*cell.path) : "-")
        << "] = " << ToHex(cell.value) << " ts=" << cell.timestamp << " ttl=" << cell.ttl
        << " exp=" << cell.local_expiration_time << "\n";
  }
  return out.str();
}

}  // namespace

std::string DescribeClustering(const Clustering& clustering) {
  std::string out = "(";
  for (size_t i = 0; i < clustering.size(); ++i) {
    if (i > 0) out += ",";
    out += ToHex(clustering[i]);
  }
  return out + ")";
}

std::string DescribeReadResult(const ReadResult& result) {
  std::ostringstream out;
  for (const ReadPartition& p : result.partitions) {
    out << "  partition " << p.key.token << ":" << ToHex(p.key.key) << "\n";
    if (p.static_row) out << "   static" << DescribeRow(*p.static_row);
    for (const ReadRow& row : p.rows) out << DescribeRow(row);
  }
  if (result.next) {
    out << "  next " << ToHex(result.next->partition.key) << " last_row="
        << (result.next->last_row ? DescribeClustering(*result.next->last_row) : "none")
        << " static=" << result.next->last_was_static
        << " in_partition=" << result.next->rows_in_partition << "\n";
  } else {
    out << "  (no next)\n";
  }
  return out.str();
}

std::string DescribeReadCommand(const ReadCommand& command) {
  std::ostringstream out;
  out << "read of table " << command.table_id.ToString() << ": "
      << (command.partitions.empty()
              ? "token range (" + std::to_string(command.range.start) + ", " +
                    std::to_string(command.range.end) + "]"
              : std::to_string(command.partitions.size()) + " named partition(s)")
      << (command.reversed ? ", reversed" : "") << ", row_limit " << command.row_limit
      << ", per_partition_limit " << command.per_partition_limit << ", partition_limit "
      << command.partition_limit << ", now " << command.now_seconds;
  if (command.resume_after) {
    const ReadPosition& p = *command.resume_after;
    out << ", resuming after partition " << ToHex(p.partition.key) << " row "
        << (p.last_row ? DescribeClustering(*p.last_row) : "none")
        << (p.last_was_static ? " (static)" : "") << " having returned " << p.rows_in_partition
        << " rows in it";
  }
  for (const ClusteringSlice& slice : command.slices) {
    out << ", slice " << (slice.start.inclusive ? "[" : "(")
        << DescribeClustering(slice.start.prefix) << ", " << DescribeClustering(slice.end.prefix)
        << (slice.end.inclusive ? "]" : ")");
  }
  return out.str();
}

}  // namespace sibyl::storage
