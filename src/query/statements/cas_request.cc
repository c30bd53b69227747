#include "query/statements/cas_request.h"

#include <algorithm>
#include <optional>
#include <string>

#include "cluster/paxos/paxos_store.h"
#include "common/check.h"
#include "common/error.h"
#include "dht/token.h"
#include "query/read/row_source.h"
#include "query/read/storage_row_source.h"
#include "query/statements/consistency_rules.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using schema::ColumnKind;
using schema::TableMetadata;

// What must hold of one row (CQL3CasRequest.RowCondition).
struct RowConditions {
  enum class Kind { kNotExists, kExists, kColumns };
  Kind kind = Kind::kColumns;
  std::vector<BoundCondition> conditions;  // kColumns
};

const schema::Schema& NoSchema() {
  // StorageRowSource::ToRows reads only the table; ReadRequest still wants a schema.
  static const schema::Schema* const kEmpty = new schema::Schema(schema::Schema::KeyspaceMap{});
  return *kEmpty;
}

// The rows of `result` in TableMetadata::columns layout, a partition with
// only static values giving one row (as a SELECT without restrictions does).
std::vector<schema::Row> ToRows(const TableMetadata& table, const storage::ReadResult& result,
                                int32_t now_seconds) {
  const ReadRequest request{
      .schema = NoSchema(), .table = table, .static_only_rows = true, .now_seconds = now_seconds};
  return StorageRowSource::ToRows(request, result);
}

// The values of one row read (nullopt: the row is missing).
schema::Row RowValues(const TableMetadata& table, const storage::PartitionKey& key,
                      const storage::ReadRow* row, bool is_static, int32_t now_seconds) {
  if (row == nullptr) return schema::Row(table.columns.size());
  storage::ReadResult one;
  storage::ReadPartition& partition = one.partitions.emplace_back();
  partition.key = key;
  if (is_static) {
    partition.static_row = *row;
  } else {
    partition.rows.push_back(*row);
  }
  std::vector<schema::Row> rows = ToRows(table, one, now_seconds);
  if (rows.empty()) return schema::Row(table.columns.size());
  return std::move(rows.front());
}

bool RowApplies(const RowConditions& conditions, const TableMetadata& table,
                const storage::PartitionKey& key, const storage::ReadRow* row, bool is_static,
                int32_t now_seconds) {
  switch (conditions.kind) {
    case RowConditions::Kind::kNotExists:
      return row == nullptr;
    case RowConditions::Kind::kExists:
      return row != nullptr;
    case RowConditions::Kind::kColumns:
      break;
  }
  const schema::Row values = RowValues(table, key, row, is_static, now_seconds);
  for (const BoundCondition& condition : conditions.conditions) {
    if (!condition.AppliesTo(values[condition.column()])) return false;
  }
  return true;
}

// The levels of the transaction's Paxos round and of its commit.
cluster::Coordinator::CasOptions CasOptions(const protocol::QueryParameters& params) {
  return {.serial_consistency = SerialConsistencyOf(params),
          .commit_consistency = params.consistency};
}

// The transaction being assembled from its statements (CQL3CasRequest).
class CasRequest {
 public:
  CasRequest(const TableMetadata& table, bool is_batch) : table_(table), is_batch_(is_batch) {}

  void Add(const CasStatement& entry) {
    const ModificationStatement& statement = *entry.statement;
    const BoundValues& values = *entry.values;
    const TableMetadata& table = *statement.table();
    if (table.id != table_.id) ThrowInvalid("Batch with conditions cannot span multiple tables");
    const char* what =
        statement.kind() == ModificationStatement::Kind::kDelete ? "deletions" : "updates";
    // The keys are evaluated once: what is read is what is written.
    BoundWrite write = statement.Bind(values);
    const std::vector<storage::PartitionKey>& keys = write.partition_keys();
    if (statement.partition_key_has_in()) {
      ThrowInvalid(is_batch_ ? std::string("Batch with conditions cannot span multiple partitions "
                                           "(you cannot use IN on the partition key)")
                             : std::string("IN on the partition key is not supported with "
                                           "conditional ") +
                                   what);
    }
    if (keys.empty()) ThrowInvalid("Invalid empty partition key");  // not reachable without IN
    if (!key_) {
      key_ = keys.front();
    } else if (key_->key != keys.front().key) {
      ThrowInvalid("Batch with conditions cannot span multiple partitions");
    }
    if (statement.clustering_has_in()) {
      ThrowInvalid(std::string("IN on the clustering key columns is not supported with "
                               "conditional ") +
                   what);
    }
    // The row the statement's conditions are about (nullopt: the static row).
    std::optional<storage::Clustering> clustering;
    if (!statement.static_only()) {
      clustering =
          write.clusterings().empty() ? storage::Clustering() : write.clusterings().front();
    }
    writes_.push_back(BoundStatement{&statement, std::move(write)});
    updates_regular_rows_ |= statement.updates_regular_rows();
    if (!statement.has_conditions()) return;

    updates_static_row_ |= statement.updates_static_row();
    if (statement.if_not_exists() || statement.if_exists()) {
      AddExists(clustering, statement.if_not_exists());
      wildcard_ = true;
      return;
    }
    auto [regular, statics] = statement.BindConditions(values);
    for (const BoundCondition& c : regular) condition_regulars_.push_back(c.column());
    for (const BoundCondition& c : statics) condition_statics_.push_back(c.column());
    // Cassandra lists the regular condition columns first, then the static ones.
    for (const auto* group : {&regular, &statics}) {
      for (const BoundCondition& c : *group) result_columns_.push_back(c.column());
    }
    if (!regular.empty()) AddConditions(clustering, std::move(regular));
    if (!statics.empty()) AddConditions(std::nullopt, std::move(statics));
  }

  RowsResult Execute(const protocol::QueryParameters& params, Clock& clock,
                     cluster::Coordinator& coordinator) const {
    const int32_t now = params.now_in_seconds.value_or(clock.NowSeconds());
    bool applied = false;
    std::vector<storage::ReadCommand> reads = {ReadCommand(now)};
    if (std::optional<storage::ReadCommand> statics = StaticRead(reads.front())) {
      reads.push_back(std::move(*statics));
    }
    storage::ReadResult seen;  // what the transaction saw
    auto decide = [&](const std::vector<storage::ReadResult>& current, int64_t timestamp) {
      seen = current.front();
      AddStaticRow(current, seen);
      applied = Applies(seen, now);
      std::vector<storage::Mutation> mutations;
      if (!applied) return mutations;
      for (const BoundStatement& entry : writes_) {
        for (storage::Mutation& m :
             entry.statement->BuildTransactionMutations(entry.write, timestamp, now, clock, seen)) {
          if (m.empty()) continue;
          cluster::paxos::StampWithBallot(m, timestamp);
          mutations.push_back(std::move(m));
        }
      }
      return mutations;
    };
    (void)coordinator.ReadThenMutate(reads, decide, CasOptions(params));
    return BuildResult(applied, seen, now);
  }

 private:
  RowConditions* Find(const std::optional<storage::Clustering>& clustering) {
    if (!clustering) return static_conditions_ ? &*static_conditions_ : nullptr;
    for (auto& [c, conditions] : row_conditions_) {
      if (c == *clustering) return &conditions;
    }
    return nullptr;
  }

  RowConditions& Insert(const std::optional<storage::Clustering>& clustering) {
    if (!clustering) return static_conditions_.emplace();
    return row_conditions_.emplace_back(*clustering, RowConditions()).second;
  }

  // CQL3CasRequest.addExistsCondition.
  void AddExists(const std::optional<storage::Clustering>& clustering, bool not_exists) {
    const auto kind = not_exists ? RowConditions::Kind::kNotExists : RowConditions::Kind::kExists;
    if (RowConditions* previous = Find(clustering)) {
      if (previous->kind == kind) return;  // the same condition twice in a batch
      if (previous->kind != RowConditions::Kind::kColumns) {
        ThrowInvalid("Cannot mix IF EXISTS and IF NOT EXISTS conditions for the same row");
      }
      ThrowInvalid(std::string("Cannot mix IF conditions and IF ") + (not_exists ? "NOT " : "") +
                   "EXISTS for the same row");
    }
    Insert(clustering).kind = kind;
  }

  // CQL3CasRequest.addConditions.
  void AddConditions(const std::optional<storage::Clustering>& clustering,
                     std::vector<BoundCondition> conditions) {
    RowConditions* row = Find(clustering);
    if (row == nullptr) {
      row = &Insert(clustering);
    } else if (row->kind != RowConditions::Kind::kColumns) {
      ThrowInvalid("Cannot mix IF conditions and IF NOT EXISTS for the same row");
    }
    for (BoundCondition& c : conditions) row->conditions.push_back(std::move(c));
  }

  bool Applies(const storage::ReadResult& current, int32_t now) const {
    const storage::ReadPartition* partition =
        current.partitions.empty() ? nullptr : &current.partitions.front();
    if (static_conditions_) {
      const storage::ReadRow* row =
          partition != nullptr && partition->static_row ? &*partition->static_row : nullptr;
      if (!RowApplies(*static_conditions_, table_, *key_, row, true, now)) return false;
    }
    for (const auto& [clustering, conditions] : row_conditions_) {
      const storage::ReadRow* row = nullptr;
      if (partition != nullptr) {
        for (const storage::ReadRow& r : partition->rows) {
          if (r.clustering == clustering) row = &r;
        }
      }
      if (!RowApplies(conditions, table_, *key_, row, false, now)) return false;
    }
    return true;
  }

  // A read of named rows returns no partition when none of them exists,
  // even if the partition has static values; Cassandra's read of the rows
  // returns the static row then, so the transaction reads it too, on its
  // own: nullopt when no condition is about a row or no static column is read.
  std::optional<storage::ReadCommand> StaticRead(const storage::ReadCommand& command) const {
    if (row_conditions_.empty()) return std::nullopt;
    std::vector<std::string> statics;
    for (const std::string& name : *command.columns) {
      const int index = table_.ColumnIndex(name);
      if (index >= 0 && table_.columns[static_cast<size_t>(index)].kind == ColumnKind::kStatic) {
        statics.push_back(name);
      }
    }
    if (statics.empty()) return std::nullopt;
    storage::ReadCommand static_read = command;
    static_read.slices.clear();
    static_read.columns = std::move(statics);
    static_read.per_partition_limit = 1;
    return static_read;
  }

  // The static row StaticRead read, when the rows' read found nothing.
  static void AddStaticRow(const std::vector<storage::ReadResult>& reads,
                           storage::ReadResult& result) {
    if (reads.size() < 2 || !result.partitions.empty()) return;
    const storage::ReadResult& read = reads[1];
    if (read.partitions.empty() || !read.partitions.front().static_row) return;
    storage::ReadPartition& partition = result.partitions.emplace_back();
    partition.key = read.partitions.front().key;
    partition.static_row = read.partitions.front().static_row;
  }

  // CQL3CasRequest.readCommand / columnsToRead.
  storage::ReadCommand ReadCommand(int32_t now) const {
    storage::ReadCommand command;
    command.table_id = table_.id;
    command.partitions = {*key_};
    command.now_seconds = now;
    std::vector<std::string> columns;
    auto named = [](const std::vector<size_t>& list, size_t i) {
      return std::find(list.begin(), list.end(), i) != list.end();
    };
    for (size_t i = 0; i < table_.columns.size(); ++i) {
      const schema::ColumnMetadata& column = table_.columns[i];
      const bool wanted = column.kind == ColumnKind::kStatic
                              ? updates_static_row_ || named(condition_statics_, i)
                              : column.kind == ColumnKind::kRegular &&
                                    (updates_regular_rows_ || named(condition_regulars_, i));
      if (wanted) columns.push_back(column.name);
    }
    command.columns = std::move(columns);
    if (row_conditions_.empty()) {
      // Only static conditions: the first live row tells an existing
      // partition without static values from a missing one.
      command.per_partition_limit = 1;
      return command;
    }
    std::vector<storage::Clustering> clusterings;
    for (const auto& entry : row_conditions_) clusterings.push_back(entry.first);
    std::sort(clusterings.begin(), clusterings.end(), [&](const auto& a, const auto& b) {
      return schema::CompareClusterings(table_, a, b) < 0;
    });
    for (storage::Clustering& clustering : clusterings) {
      storage::ClusteringSlice slice;
      slice.start = storage::ClusteringBound{clustering, true};
      slice.end = storage::ClusteringBound{std::move(clustering), true};
      command.slices.push_back(std::move(slice));
    }
    return command;
  }

  // ModificationStatement.buildCasResultSet.
  RowsResult BuildResult(bool applied, const storage::ReadResult& current, int32_t now) const {
    auto specs = std::make_shared<std::vector<protocol::ColumnSpec>>();
    specs->push_back(protocol::ColumnSpec{table_.keyspace, table_.name, "[applied]",
                                          types::CqlType::Native(types::Kind::kBoolean)});
    RowsResult result;
    if (applied) {
      result.rows.push_back(schema::Row{types::EncodeBoolean(true)});
      result.columns = std::move(specs);
      return result;
    }
    const std::vector<schema::Row> rows = ToRows(table_, current, now);
    if (rows.empty()) {
      result.rows.push_back(schema::Row{types::EncodeBoolean(false)});
      result.columns = std::move(specs);
      return result;
    }
    std::vector<size_t> selected;
    auto select = [&](size_t index) {
      if (std::find(selected.begin(), selected.end(), index) == selected.end()) {
        selected.push_back(index);
      }
    };
    if (wildcard_) {
      for (size_t i = 0; i < table_.columns.size(); ++i) select(i);
    } else {
      if (is_batch_) {
        for (size_t i = 0; i < table_.columns.size(); ++i) {
          if (table_.columns[i].is_primary_key()) select(i);
        }
      }
      for (size_t index : result_columns_) select(index);
    }
    for (size_t index : selected) {
      const schema::ColumnMetadata& column = table_.columns[index];
      specs->push_back(
          protocol::ColumnSpec{table_.keyspace, table_.name, column.name, column.type});
    }
    for (const schema::Row& row : rows) {
      schema::Row out;
      out.reserve(selected.size() + 1);
      out.push_back(types::EncodeBoolean(false));
      for (size_t index : selected) out.push_back(row[index]);
      result.rows.push_back(std::move(out));
    }
    result.columns = std::move(specs);
    return result;
  }

  const TableMetadata& table_;
  const bool is_batch_;
  std::optional<storage::PartitionKey> key_;
  // The transaction's statements, each bound once.
  struct BoundStatement {
    const ModificationStatement* statement;
    BoundWrite write;
  };
  std::vector<BoundStatement> writes_;
  std::optional<RowConditions> static_conditions_;
  std::vector<std::pair<storage::Clustering, RowConditions>> row_conditions_;
  bool updates_regular_rows_ = false;
  bool updates_static_row_ = false;
  std::vector<size_t> condition_regulars_;
  std::vector<size_t> condition_statics_;
  bool wildcard_ = false;               // some IF EXISTS / IF NOT EXISTS: every column
  std::vector<size_t> result_columns_;  // else the conditioned columns, in Cassandra's order
};

}  // namespace

RowsResult ExecuteCas(const std::vector<CasStatement>& statements, bool is_batch,
                      const protocol::QueryParameters& params, const schema::Schema& schema,
                      Clock& clock, cluster::Coordinator& coordinator) {
  SIBYL_CHECK(!statements.empty(), "a lightweight transaction needs a statement");
  const TableMetadata& table = *statements.front().statement->table();
  CasRequest request(table, is_batch);
  bool has_conditions = false;
  for (const CasStatement& statement : statements) {
    request.Add(statement);
    has_conditions |= statement.statement->has_conditions();
  }
  SIBYL_CHECK(has_conditions, "a lightweight transaction needs a condition");
  // StorageProxy.cas (doPaxos): once the request is made, before Paxos starts.
  ValidateConsistencyForCas(params, table, schema);
  return request.Execute(params, clock, coordinator);
}

RowsResult ExecuteConditionalBatch(
    const std::vector<std::pair<const ModificationStatement*, const BoundValues*>>& statements,
    const protocol::QueryParameters& params, const schema::Schema& schema, Clock& clock,
    cluster::Coordinator& coordinator) {
  std::vector<const ModificationStatement*> prepared;
  std::vector<CasStatement> entries;
  for (const auto& [statement, values] : statements) {
    prepared.push_back(statement);
    entries.push_back(CasStatement{statement, values});
  }
  ValidateConditionalBatch(prepared);
  return ExecuteCas(entries, /*is_batch=*/true, params, schema, clock, coordinator);
}

void ValidateConditionalBatch(const std::vector<const ModificationStatement*>& statements) {
  const bool has_conditions =
      std::any_of(statements.begin(), statements.end(),
                  [](const ModificationStatement* s) { return s->has_conditions(); });
  if (!has_conditions) return;
  for (const ModificationStatement* statement : statements) {
    const auto& first = *statements.front()->table();
    const auto& table = *statement->table();
    if (table.keyspace != first.keyspace || table.name != first.name) {
      ThrowInvalid("Batch with conditions cannot span multiple tables");
    }
  }
}

}  // namespace sibyl::query
