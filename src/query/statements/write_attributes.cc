#include "query/statements/write_attributes.h"

#include <string>

#include "common/error.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

// ExpirationDateOverflowHandling with the REJECT policy (4.1's default).
void RejectExpirationOverflow(const schema::TableMetadata& table, int32_t ttl, bool is_default,
                              int32_t now_seconds) {
  if (ttl == 0) return;
  if (int64_t{now_seconds} + ttl <= kMaxDeletionTime) return;
  ThrowInvalid("Request on table " + table.keyspace + "." + table.name + " with " +
               (is_default ? "default " : "") + "ttl of " + std::to_string(ttl) +
               " seconds exceeds maximum supported expiration date of 2038-01-19T03:14:06+00:00. "
               "In order to avoid this use a lower TTL, change the expiration date overflow "
               "policy or upgrade to a version where this limitation is fixed. See "
               "CASSANDRA-14092 for more details.");
}

}  // namespace

WriteAttributes WriteAttributes::Prepare(const cql::Attributes& raw, BindSpecCollector& binds) {
  WriteAttributes attributes;
  if (raw.timestamp) {
    attributes.timestamp_ = PrepareTerm(*raw.timestamp, "[timestamp]",
                                        types::CqlType::Native(types::Kind::kBigint), binds);
  }
  if (raw.ttl) {
    attributes.ttl_ =
        PrepareTerm(*raw.ttl, "[ttl]", types::CqlType::Native(types::Kind::kInt), binds);
  }
  return attributes;
}

std::optional<int64_t> BindTimestamp(const PreparedTerm& term, const BoundValues& values) {
  const Value value = term.Bind(values);
  if (value.is_null()) ThrowInvalid("Invalid null value of timestamp");
  if (value.is_unset()) return std::nullopt;
  // An empty bigint passes validation; Cassandra then fails unboxing it.
  if (value.bytes.size() != 8) ThrowInvalid("Invalid timestamp value");
  return types::DecodeBigint(value.bytes);
}

int64_t WriteAttributes::Timestamp(const BoundValues& values, int64_t fallback) const {
  if (!timestamp_) return fallback;
  return BindTimestamp(*timestamp_, values).value_or(fallback);
}

int32_t WriteAttributes::TimeToLive(const BoundValues& values, const schema::TableMetadata& table,
                                    int32_t now_seconds) const {
  const int32_t default_ttl = table.params.default_time_to_live;
  if (!ttl_) {
    RejectExpirationOverflow(table, default_ttl, /*is_default=*/true, now_seconds);
    return default_ttl;
  }
  const Value value = ttl_->Bind(values);
  if (value.is_null()) return 0;
  if (value.is_unset()) return default_ttl;
  if (value.bytes.size() != 4) ThrowInvalid("Invalid timestamp value");
  const int32_t ttl = types::DecodeInt(value.bytes);
  if (ttl < 0) ThrowInvalid("A TTL must be greater or equal to 0, but was " + std::to_string(ttl));
  if (ttl > kMaxTtlSeconds) {
    ThrowInvalid("ttl is too large. requested (" + std::to_string(ttl) + ") maximum (" +
                 std::to_string(kMaxTtlSeconds) + ")");
  }
  RejectExpirationOverflow(table, ttl, /*is_default=*/false, now_seconds);
  return ttl;
}

}  // namespace sibyl::query
