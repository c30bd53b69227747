#pragma once
// The ids Cassandra gives prepared statements and result metadata, both MD5
// digests (16 bytes):
//  - statement id (QueryProcessor.computeId): MD5 of the UTF-8 query text,
//    prefixed by the keyspace the statement was prepared in when there is
//    one and the statement does not name its keyspace itself;
//  - result metadata id (v5, ResultSet.ResultMetadata.computeResultMetadataId):
//    MD5 over each result column's name, a 0 byte, its type's class name
//    (AbstractType.toString), two 0 bytes — so it changes exactly when the
//    columns a statement returns change.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/hex.h"
#include "protocol/response.h"

namespace sibyl::query {

[[nodiscard]] Bytes ComputeStatementId(std::optional<std::string_view> keyspace,
                                       std::string_view query);
[[nodiscard]] Bytes ComputeResultMetadataId(const std::vector<protocol::ColumnSpec>& columns);

}  // namespace sibyl::query
