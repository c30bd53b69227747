#pragma once
// A result's names and values as cqlsh shows them: the text types::Format
// gives each value, "null" for a missing one, and on a colour terminal
// cqlsh's colours (displaying.py: DEFAULT_VALUE_COLORS and
// COLUMN_NAME_COLORS, keys as myformat_colname colours them).

#include <string>

#include "common/bytes.h"
#include "types/cql_type.h"

namespace sibyl::tools::shell {

enum class ColumnRole { kPartitionKey, kClustering, kStatic, kRegular };

std::string CellText(const types::CqlType& type, const OptBytes& value, bool color);
std::string ColumnNameText(const std::string& name, ColumnRole role, bool color);

// ANSI codes, as cqlsh spells them.
inline constexpr const char* kRed = "\033[0;1;31m";
inline constexpr const char* kReset = "\033[0m";

}  // namespace sibyl::tools::shell
