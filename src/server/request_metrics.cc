#include "server/request_metrics.h"

#include <atomic>
#include <cstring>
#include <unordered_map>
#include <vector>

namespace sibyl::server {
namespace {

using metrics::ExpositionWriter;
using metrics::Label;
using metrics::MetricType;

struct ErrorCodeName {
  ErrorCode code;
  const char* name;
};

// Cassandra's ExceptionCode names, in the order of the counters.
constexpr std::array<ErrorCodeName, kCqlErrorCodes> kErrorCodes = {{
    {ErrorCode::kServerError, "SERVER_ERROR"},
    {ErrorCode::kProtocolError, "PROTOCOL_ERROR"},
    {ErrorCode::kBadCredentials, "BAD_CREDENTIALS"},
    {ErrorCode::kUnavailable, "UNAVAILABLE"},
    {ErrorCode::kOverloaded, "OVERLOADED"},
    {ErrorCode::kIsBootstrapping, "IS_BOOTSTRAPPING"},
    {ErrorCode::kTruncateError, "TRUNCATE_ERROR"},
    {ErrorCode::kWriteTimeout, "WRITE_TIMEOUT"},
    {ErrorCode::kReadTimeout, "READ_TIMEOUT"},
    {ErrorCode::kReadFailure, "READ_FAILURE"},
    {ErrorCode::kFunctionFailure, "FUNCTION_FAILURE"},
    {ErrorCode::kWriteFailure, "WRITE_FAILURE"},
    {ErrorCode::kCdcWriteFailure, "CDC_WRITE_FAILURE"},
    {ErrorCode::kCasWriteUnknown, "CAS_WRITE_UNKNOWN"},
    {ErrorCode::kSyntaxError, "SYNTAX_ERROR"},
    {ErrorCode::kUnauthorized, "UNAUTHORIZED"},
    {ErrorCode::kInvalid, "INVALID"},
    {ErrorCode::kConfigError, "CONFIG_ERROR"},
    {ErrorCode::kAlreadyExists, "ALREADY_EXISTS"},
    {ErrorCode::kUnprepared, "UNPREPARED"},
}};

// An unknown code (none is thrown today) counts as a server error.
size_t ErrorIndex(ErrorCode code) {
  for (size_t i = 0; i < kErrorCodes.size(); ++i) {
    if (kErrorCodes[i].code == code) return i;
  }
  return 0;
}

constexpr std::array<const char*, 4> kOperationNames = {"query", "prepare", "execute", "batch"};
constexpr std::array<const char*, 2> kAccessNames = {"read", "write"};

std::atomic<uint64_t> next_instance{1};

struct UuidHash {
  size_t operator()(const types::Uuid& id) const noexcept {
    uint64_t high = 0;
    uint64_t low = 0;
    std::memcpy(&high, id.bytes.data(), 8);
    std::memcpy(&low, id.bytes.data() + 8, 8);
    return static_cast<size_t>(high ^ (low * 0x9E3779B97F4A7C15ull));
  }
};

// A thread's tables seen so far, for the RequestMetrics it last recorded to.
template <typename T>
struct ThreadTableCache {
  uint64_t instance = 0;
  std::unordered_map<types::Uuid, T*, UuidHash> by_id;
};

}  // namespace

RequestMetrics::RequestMetrics() : instance_(next_instance.fetch_add(1)) {}

void RequestMetrics::Counts::Record(std::optional<ErrorCode> error,
                                    std::chrono::nanoseconds elapsed) {
  requests.Add();
  if (error) errors[ErrorIndex(*error)].Add();
  latency.Observe(elapsed);
}

void RequestMetrics::Record(CqlOperation operation, const schema::TableMetadata* table,
                            TableAccess access, std::optional<ErrorCode> error,
                            std::chrono::nanoseconds elapsed) {
  operations_[static_cast<size_t>(operation)].Record(error, elapsed);
  if (table != nullptr)
    ForTable(*table).by_access[static_cast<size_t>(access)].Record(error, elapsed);
}

RequestMetrics::TableCounts& RequestMetrics::ForTable(const schema::TableMetadata& table) {
  thread_local ThreadTableCache<TableCounts> cache;
  if (cache.instance != instance_) {
    cache.by_id.clear();
    cache.instance = instance_;
  }
  if (const auto it = cache.by_id.find(table.id); it != cache.by_id.end()) return *it->second;
  TableCounts* counts = nullptr;
  {
    std::lock_guard lock(tables_mutex_);
    auto& slot = tables_[{table.keyspace, table.name}];
    if (!slot) {
      slot = std::make_unique<TableCounts>();
      slot->keyspace = table.keyspace;
      slot->table = table.name;
    }
    counts = slot.get();
  }
  cache.by_id.emplace(table.id, counts);
  return *counts;
}

void RequestMetrics::Collect(ExpositionWriter& out) const {
  out.Family("sibyl_cql_requests_total",
             "CQL requests (QUERY, PREPARE, EXECUTE, BATCH messages) answered, failed or not.",
             MetricType::kCounter);
  for (size_t op = 0; op < operations_.size(); ++op) {
    out.Sample("sibyl_cql_requests_total", {{"operation", kOperationNames[op]}},
               operations_[op].requests.value());
  }
  out.Family("sibyl_cql_request_errors_total",
             "CQL requests answered with an error, by CQL error code (a series appears with its "
             "first error).",
             MetricType::kCounter);
  for (size_t op = 0; op < operations_.size(); ++op) {
    for (size_t code = 0; code < kCqlErrorCodes; ++code) {
      const uint64_t count = operations_[op].errors[code].value();
      if (count == 0) continue;
      out.Sample("sibyl_cql_request_errors_total",
                 {{"operation", kOperationNames[op]}, {"code", kErrorCodes[code].name}}, count);
    }
  }
  out.Family("sibyl_cql_request_duration_seconds",
             "Time from a CQL request's decoding to its response being queued.",
             MetricType::kHistogram);
  for (size_t op = 0; op < operations_.size(); ++op) {
    out.Histogram("sibyl_cql_request_duration_seconds", {{"operation", kOperationNames[op]}},
                  operations_[op].latency.snapshot());
  }

  std::vector<const TableCounts*> tables;
  {
    std::lock_guard lock(tables_mutex_);
    tables.reserve(tables_.size());
    for (const auto& [name, counts] : tables_) tables.push_back(counts.get());
  }
  out.Family("sibyl_cql_table_requests_total",
             "CQL statements run against one table: reads (SELECT) and writes (INSERT, UPDATE, "
             "DELETE, a BATCH over one table).",
             MetricType::kCounter);
  for (const TableCounts* t : tables) {
    for (size_t access = 0; access < 2; ++access) {
      out.Sample("sibyl_cql_table_requests_total",
                 {{"keyspace", t->keyspace}, {"table", t->table}, {"kind", kAccessNames[access]}},
                 t->by_access[access].requests.value());
    }
  }
  out.Family("sibyl_cql_table_request_errors_total",
             "CQL statements against one table answered with an error, by CQL error code (a "
             "series appears with its first error).",
             MetricType::kCounter);
  for (const TableCounts* t : tables) {
    for (size_t access = 0; access < 2; ++access) {
      for (size_t code = 0; code < kCqlErrorCodes; ++code) {
        const uint64_t count = t->by_access[access].errors[code].value();
        if (count == 0) continue;
        out.Sample("sibyl_cql_table_request_errors_total",
                   {{"keyspace", t->keyspace},
                    {"table", t->table},
                    {"kind", kAccessNames[access]},
                    {"code", kErrorCodes[code].name}},
                   count);
      }
    }
  }
  out.Family("sibyl_cql_table_request_duration_seconds",
             "Latency of CQL statements against one table.", MetricType::kHistogram);
  for (const TableCounts* t : tables) {
    for (size_t access = 0; access < 2; ++access) {
      out.Histogram(
          "sibyl_cql_table_request_duration_seconds",
          {{"keyspace", t->keyspace}, {"table", t->table}, {"kind", kAccessNames[access]}},
          t->by_access[access].latency.snapshot());
    }
  }
}

}  // namespace sibyl::server
