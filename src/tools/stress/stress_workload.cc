#include "tools/stress/stress_workload.h"

#include <algorithm>
#include <cctype>

#include "client/blocking_call.h"
#include "common/ascii_case.h"

namespace sibyl::tools {

namespace {

bool Clustered(const StressOptions& options) { return options.rows_per_partition > 1; }

// "v<c>", built by appending (GCC 12 -O3 warns falsely on "v" + std::to_string(c)).
std::string ValueColumn(int c) {
  std::string name = "v";
  name += std::to_string(c);
  return name;
}

// Throws StressError unless `reply` is a success. A transport failure already
// names the address and the cause.
void Require(const client::Reply& reply, const std::string& what) {
  if (reply.ok()) return;
  if (const auto* failure = std::get_if<client::TransportFailure>(&reply.response)) {
    throw StressError(what + ": " + failure->message);
  }
  const auto& error = std::get<client::ErrorResponse>(reply.response);
  throw StressError(what + ": " + error.message);
}

size_t RowCount(const client::Reply& reply) {
  const auto* rows = std::get_if<client::RowsResult>(&reply.response);
  return rows == nullptr ? 0 : rows->rows.size();
}

PreparedStatement Prepare(client::Connection& connection, const std::string& cql) {
  client::Reply reply = client::BlockingPrepare(connection, cql);
  Require(reply, "cannot prepare '" + cql + "'");
  auto& prepared = std::get<client::PreparedResponse>(reply.response);
  return PreparedStatement{cql, std::move(prepared.id), std::move(prepared.result_metadata_id)};
}

// --no-schema: the keyspace and table must exist; say which one is missing.
void CheckSchemaExists(client::Connection& connection, const StressOptions& options) {
  const std::string keyspace = AsciiLower(options.keyspace);
  const std::string table = AsciiLower(options.table);
  client::Reply keyspaces = client::BlockingQuery(
      connection,
      "SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = '" + keyspace + "'");
  Require(keyspaces, "cannot read system_schema.keyspaces");
  if (RowCount(keyspaces) == 0) {
    throw StressError("keyspace " + keyspace +
                      " does not exist (--no-schema uses an existing keyspace and table; "
                      "leave it out to create them)");
  }
  client::Reply tables = client::BlockingQuery(
      connection, "SELECT table_name FROM system_schema.tables WHERE keyspace_name = '" + keyspace +
                      "' AND table_name = '" + table + "'");
  Require(tables, "cannot read system_schema.tables");
  if (RowCount(tables) == 0) {
    throw StressError("table " + keyspace + "." + table +
                      " does not exist (--no-schema uses an existing keyspace and table; "
                      "leave it out to create them)");
  }
}

}  // namespace

WorkloadStatements StatementsFor(const StressOptions& options) {
  const bool clustered = Clustered(options);
  const bool counter = options.workload == Workload::kCounter;
  const std::string table = options.keyspace + "." + options.table;
  WorkloadStatements s;
  s.create_keyspace = "CREATE KEYSPACE IF NOT EXISTS " + options.keyspace +
                      " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': " +
                      std::to_string(options.replication_factor) + "}";
  s.create_table = "CREATE TABLE IF NOT EXISTS " + table + " (pk bigint, ";
  if (clustered) s.create_table += "ck bigint, ";
  for (int c = 0; c < options.columns; ++c) {
    s.create_table += ValueColumn(c) + (counter ? " counter, " : " blob, ");
  }
  s.create_table += clustered ? "PRIMARY KEY (pk, ck))" : "PRIMARY KEY (pk))";

  const std::string key_match = clustered ? " WHERE pk = ? AND ck = ?" : " WHERE pk = ?";
  if (options.workload == Workload::kLwt) {
    s.write = "UPDATE " + table + " SET ";
    for (int c = 0; c < options.columns; ++c) {
      s.write += (c ? ", " : "") + ValueColumn(c) + " = ?";
    }
    s.write += key_match + (options.lwt_applies ? " IF v0 != 0x" : " IF v0 = 0x");
  } else if (counter) {
    s.write = "UPDATE " + table + " SET ";
    for (int c = 0; c < options.columns; ++c) {
      const std::string column = ValueColumn(c);
      s.write += (c ? ", " : "") + column + " = " + column + " + 1";
    }
    s.write += key_match;
  } else {
    s.write = "INSERT INTO " + table + " (pk, ";
    if (clustered) s.write += "ck, ";
    std::string markers = clustered ? "?, ?" : "?";
    for (int c = 0; c < options.columns; ++c) {
      s.write += ValueColumn(c) + (c + 1 < options.columns ? ", " : "");
      markers += ", ?";
    }
    s.write += ") VALUES (" + markers + ")";
  }
  if (options.workload == Workload::kRead || options.workload == Workload::kMixed) {
    s.read = options.slice > 1
                 ? "SELECT * FROM " + table + " WHERE pk = ? LIMIT " + std::to_string(options.slice)
                 : "SELECT * FROM " + table + key_match;
  }
  if (options.workload == Workload::kScan) s.scan = "SELECT * FROM " + table;
  return s;
}

PreparedWorkload SetUpWorkload(client::Connection& connection, const StressOptions& options) {
  const WorkloadStatements statements = StatementsFor(options);
  if (options.no_schema) {
    CheckSchemaExists(connection, options);
  } else {
    Require(client::BlockingQuery(connection, statements.create_keyspace),
            "cannot create keyspace " + options.keyspace);
    Require(client::BlockingQuery(connection, statements.create_table),
            "cannot create table " + options.keyspace + "." + options.table);
  }
  return PrepareWorkload(connection, options);
}

PreparedWorkload PrepareWorkload(client::Connection& connection, const StressOptions& options) {
  const WorkloadStatements statements = StatementsFor(options);
  PreparedWorkload prepared;
  const bool writes = options.workload == Workload::kWrite ||
                      options.workload == Workload::kMixed ||
                      options.workload == Workload::kCounter ||
                      options.workload == Workload::kLwt || options.populate;
  if (writes) prepared.write = Prepare(connection, statements.write);
  if (!statements.read.empty()) prepared.read = Prepare(connection, statements.read);
  if (!statements.scan.empty()) prepared.scan = Prepare(connection, statements.scan);
  return prepared;
}

OperationBinder::OperationBinder(const StressOptions& options, Workload workload,
                                 const PreparedWorkload& prepared, const RowGenerator& rows)
    : options_(options),
      workload_(workload),
      prepared_(prepared),
      rows_(rows),
      clustered_(Clustered(options)) {
  values_.reserve(2 + static_cast<size_t>(options.columns));
}

void OperationBinder::BindKey(const RowKey& key, bool with_clustering) {
  for (int i = 0; i < 8; ++i) {
    partition_bytes_[i] = static_cast<char>(static_cast<uint64_t>(key.partition) >> (56 - 8 * i));
    clustering_bytes_[i] = static_cast<char>(static_cast<uint64_t>(key.clustering) >> (56 - 8 * i));
  }
  values_.clear();
  values_.push_back(Value::Of(BytesView(partition_bytes_, 8)));
  if (with_clustering) values_.push_back(Value::Of(BytesView(clustering_bytes_, 8)));
}

BoundOperation OperationBinder::Bind(uint64_t n) {
  switch (workload_) {
    case Workload::kScan:
      values_.clear();
      return {OperationKind::kScanPage, &prepared_.scan, {}};
    case Workload::kCounter:
      BindKey(rows_.Sequential(n), clustered_);
      return {OperationKind::kWrite, &prepared_.write, values_};
    case Workload::kLwt: {
      // The values first, then the key: the UPDATE's markers in order.
      const RowKey key = rows_.Uniform(n);
      BindKey(key, clustered_);
      const size_t key_values = values_.size();
      for (int c = 0; c < options_.columns; ++c) values_.push_back(Value::Of(rows_.Value(key, c)));
      std::rotate(values_.begin(), values_.begin() + static_cast<std::ptrdiff_t>(key_values),
                  values_.end());
      return {OperationKind::kWrite, &prepared_.write, values_};
    }
    case Workload::kRead:
    case Workload::kMixed: {
      const uint64_t cycle = static_cast<uint64_t>(options_.write_ratio + options_.read_ratio);
      const bool write =
          workload_ == Workload::kMixed && n % cycle < static_cast<uint64_t>(options_.write_ratio);
      if (!write) {
        if (options_.slice > 1) {
          BindKey(RowKey{rows_.UniformPartition(n), 0}, false);
        } else {
          BindKey(rows_.Uniform(n), clustered_);
        }
        return {OperationKind::kRead, &prepared_.read, values_};
      }
      const RowKey key = rows_.Uniform(n);
      BindKey(key, clustered_);
      for (int c = 0; c < options_.columns; ++c) values_.push_back(Value::Of(rows_.Value(key, c)));
      return {OperationKind::kWrite, &prepared_.write, values_};
    }
    case Workload::kWrite:
      break;
  }
  const RowKey key = rows_.Sequential(n);
  BindKey(key, clustered_);
  for (int c = 0; c < options_.columns; ++c) values_.push_back(Value::Of(rows_.Value(key, c)));
  return {OperationKind::kWrite, &prepared_.write, values_};
}

}  // namespace sibyl::tools
