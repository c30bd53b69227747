#pragma once
// The CQL request metrics (docs/metrics.md): requests, errors by CQL error
// code and latency, per operation (QUERY, PREPARE, EXECUTE, BATCH) and per
// table for a statement over one table, split into reads (SELECT) and
// writes (INSERT, UPDATE, DELETE, a BATCH over one table).
//
//   RequestMetrics metrics;
//   registry.Add("cql requests", [&](auto& out) { metrics.Collect(out); });
//   metrics.Record(CqlOperation::kExecute, table.get(), TableAccess::kRead, std::nullopt, took);
//
// Record() is on every request's path, so it takes no lock and allocates
// nothing: the counters are relaxed atomics, and a table's metrics are found
// by its id in a cache of the recording thread's own. Only a thread's first
// request to a table takes the mutex (to find or create the table's metrics
// by keyspace and name: a table dropped and created again, with a new id,
// keeps its series).
//
// Tables' series stay until the node stops, dropped tables' included, as
// counters should: a series that vanishes looks like a reset.
//
// Thread-safety: every method from any thread.

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "common/error.h"
#include "metrics/counter.h"
#include "metrics/duration_histogram.h"
#include "metrics/exposition_writer.h"
#include "schema/table_metadata.h"

namespace sibyl::server {

enum class CqlOperation : uint8_t { kQuery, kPrepare, kExecute, kBatch };
enum class TableAccess : uint8_t { kRead, kWrite };

// The CQL error codes, by index in the error counters; Cassandra's names
// (ExceptionCode) are the `code` label.
inline constexpr size_t kCqlErrorCodes = 20;

class RequestMetrics {
 public:
  RequestMetrics();
  RequestMetrics(const RequestMetrics&) = delete;
  RequestMetrics& operator=(const RequestMetrics&) = delete;

  // Counts one request that took `elapsed`; `error` is the code it was
  // answered with, if it failed. `table` (may be null) is the one table
  // the statement ran against, with `access` saying how.
  void Record(CqlOperation operation, const schema::TableMetadata* table, TableAccess access,
              std::optional<ErrorCode> error, std::chrono::nanoseconds elapsed);

  // Writes the families sibyl_cql_requests_total, sibyl_cql_request_errors_total,
  // sibyl_cql_request_duration_seconds and their sibyl_cql_table_* counterparts.
  void Collect(metrics::ExpositionWriter& out) const;

 private:
  struct Counts {
    metrics::Counter requests;
    std::array<metrics::Counter, kCqlErrorCodes> errors;
    metrics::DurationHistogram latency;

    void Record(std::optional<ErrorCode> error, std::chrono::nanoseconds elapsed);
  };
  struct TableCounts {
    std::string keyspace;
    std::string table;
    std::array<Counts, 2> by_access;  // by TableAccess
  };

  // REQUIRES: not holding tables_mutex_.
  TableCounts& ForTable(const schema::TableMetadata& table);

  // Tells apart the instances a thread's table cache has seen, so that one
  // made at the address of a destroyed one finds no stale entries.
  const uint64_t instance_;
  std::array<Counts, 4> operations_;  // by CqlOperation

  mutable std::mutex tables_mutex_;
  // GUARDED_BY(tables_mutex_): the map; the TableCounts themselves never
  // move or go away, and their counters are atomics.
  std::map<std::pair<std::string, std::string>, std::unique_ptr<TableCounts>> tables_;
};

}  // namespace sibyl::server
