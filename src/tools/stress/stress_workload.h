#pragma once
// The schema and statements of each workload, and how operation n becomes the
// bound values of one EXECUTE.
//
//   standard1 (pk bigint, [ck bigint,] v0 blob, ..., v{C-1} blob,
//              PRIMARY KEY (pk[, ck]))      ck only when rows_per_partition > 1
//   counter1  (pk bigint, [ck bigint,] v0 counter, ..., PRIMARY KEY (pk[, ck]))
//
//   write    INSERT INTO t (pk, [ck,] v0, ...) VALUES (?, ...)   sequential rows
//   read     SELECT * FROM t WHERE pk = ? [AND ck = ?]          (--slice 1)
//            SELECT * FROM t WHERE pk = ? LIMIT K                (--slice K > 1)
//   mixed    the write and the read, keys uniform over the key space
//   counter  UPDATE t SET v0 = v0 + 1, ... WHERE pk = ? [AND ck = ?]
//   lwt      UPDATE t SET v0 = ?, ... WHERE pk = ? [AND ck = ?] IF v0 != 0x
//            (never an empty value: it always applies), keys uniform
//   scan     SELECT * FROM t, 1000 rows a page (token order)

#include <array>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "client/client_connection.h"
#include "common/bytes.h"
#include "tools/stress/row_generator.h"
#include "tools/stress/stress_options.h"

namespace sibyl::tools {

// A failure that ends the run before or outside the measurement (the node is
// down, the schema is missing, a statement does not prepare); what() is one line.
class StressError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PreparedStatement {
  std::string cql;
  Bytes id;
  Bytes result_metadata_id;  // v5
};

// The CQL text of the workload's DDL and statements.
struct WorkloadStatements {
  std::string create_keyspace;
  std::string create_table;
  std::string write;  // INSERT, or the counter or lwt UPDATE
  std::string read;   // point or slice SELECT; empty for write and counter
  std::string scan;   // empty unless the workload is scan
};
[[nodiscard]] WorkloadStatements StatementsFor(const StressOptions& options);

// The statements prepared on the node.
struct PreparedWorkload {
  PreparedStatement write;
  PreparedStatement read;
  PreparedStatement scan;
};

// Creates the keyspace and table (unless --no-schema, which checks they exist
// instead) and prepares what the run and --populate need, through
// `connection` from a thread that does not run it. Throws StressError.
[[nodiscard]] PreparedWorkload SetUpWorkload(client::Connection& connection,
                                             const StressOptions& options);
// Prepares the statements only (on another node of the cluster: each node
// keeps its own prepared statements). Throws StressError.
[[nodiscard]] PreparedWorkload PrepareWorkload(client::Connection& connection,
                                               const StressOptions& options);

// What one operation sends.
enum class OperationKind { kWrite, kRead, kScanPage };
struct BoundOperation {
  OperationKind kind;
  const PreparedStatement* statement;
  std::span<const Value> values;
};

// Binds operations for one worker; the values view the binder's buffers and
// stay valid until the next Bind. `workload` is the phase's (--populate
// writes before a read run).
class OperationBinder {
 public:
  OperationBinder(const StressOptions& options, Workload workload, const PreparedWorkload& prepared,
                  const RowGenerator& rows);

  [[nodiscard]] BoundOperation Bind(uint64_t n);

 private:
  void BindKey(const RowKey& key, bool with_clustering);

  const StressOptions& options_;
  Workload workload_;
  const PreparedWorkload& prepared_;
  const RowGenerator& rows_;
  bool clustered_;
  char partition_bytes_[8] = {};
  char clustering_bytes_[8] = {};
  std::vector<Value> values_;
};

}  // namespace sibyl::tools
