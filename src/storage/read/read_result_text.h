#pragma once
// ReadResults and ReadCommands as text, for test failures and the statement
// fuzzer's reports: every field that a comparison looks at, values in hex,
// one line per row and one per cell.

#include <string>

#include "storage/data/read_command.h"

namespace sibyl::storage {

// "(0001,ab)": the clustering values in hex.
[[nodiscard]] std::string DescribeClustering(const Clustering& clustering);
// Partitions, static rows, rows with their markers and cells, and the next position.
[[nodiscard]] std::string DescribeReadResult(const ReadResult& result);
// What a command asks for, on one line.
[[nodiscard]] std::string DescribeReadCommand(const ReadCommand& command);

}  // namespace sibyl::storage
