#pragma once
// USING TIMESTAMP and USING TTL of INSERT, UPDATE and DELETE, prepared once
// and bound per request with Cassandra 4.1's rules (cql3/Attributes.java):
//   - no timestamp, or an unset one: the request's default timestamp, else the clock's;
//   - a null timestamp is refused ("Invalid null value of timestamp");
//   - no TTL, or an unset one: the table's default_time_to_live; a null TTL
//     means no TTL; USING TTL 0 disables the table's default;
//   - a TTL must be 0..630720000 (20 years), and now + TTL must not pass
//     2038-01-19T03:14:06Z (the REJECT expiration overflow policy).

#include <cstdint>
#include <optional>

#include "cql/ast_dml.h"
#include "query/terms/bind_variables.h"
#include "query/terms/term.h"
#include "schema/table_metadata.h"

namespace sibyl::query {

// Cassandra's Attributes.MAX_TTL: 20 years in seconds.
inline constexpr int32_t kMaxTtlSeconds = 20 * 365 * 24 * 60 * 60;
// Cassandra's Cell.MAX_DELETION_TIME: the last expiry a cell can have.
inline constexpr int64_t kMaxDeletionTime = 2147483646;

// A bound USING TIMESTAMP (of a statement or a batch): nullopt when unset.
// Throws CqlError(kInvalid) "Invalid null value of timestamp", "Invalid
// timestamp value" (an empty value).
[[nodiscard]] std::optional<int64_t> BindTimestamp(const PreparedTerm& term,
                                                   const BoundValues& values);

class WriteAttributes {
 public:
  // Markers receive `[timestamp]` (bigint) and `[ttl]` (int), as in Cassandra.
  static WriteAttributes Prepare(const cql::Attributes& raw, BindSpecCollector& binds);

  bool has_timestamp() const { return timestamp_.has_value(); }
  bool has_ttl() const { return ttl_.has_value(); }

  // The write timestamp in microseconds; `fallback` when none is given.
  [[nodiscard]] int64_t Timestamp(const BoundValues& values, int64_t fallback) const;
  // The TTL in seconds (0: none). Throws CqlError(kInvalid) with Cassandra's
  // messages for negative, too large and overflowing TTLs.
  [[nodiscard]] int32_t TimeToLive(const BoundValues& values, const schema::TableMetadata& table,
                                   int32_t now_seconds) const;

 private:
  std::optional<PreparedTerm> timestamp_;
  std::optional<PreparedTerm> ttl_;
};

}  // namespace sibyl::query
