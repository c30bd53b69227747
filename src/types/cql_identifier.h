#pragma once
// CQL identifiers as Cassandra prints them back (ColumnIdentifier.maybeQuote):
// a name is written bare when it is lower-case `[a-z][a-z0-9_]*` and not a
// reserved keyword, and otherwise inside double quotes with inner double
// quotes doubled. Used wherever a name goes into generated CQL text (type
// spellings, DESCRIBE, error messages).

#include <string>
#include <string_view>

namespace sibyl::types {

// True for Cassandra 4.1's reserved keywords (any case), the words that can
// never be an unquoted identifier: SELECT, FROM, TABLE, ...
[[nodiscard]] bool IsReservedKeyword(std::string_view word);

// `name` as CQL text: bare if it needs no quoting, else "double-quoted".
[[nodiscard]] std::string MaybeQuoteIdentifier(std::string_view name);

}  // namespace sibyl::types
