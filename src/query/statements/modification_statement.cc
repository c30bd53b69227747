#include "query/statements/modification_statement.h"

#include <algorithm>
#include <string>
#include <variant>

#include "common/check.h"
#include "common/error.h"
#include "dht/token.h"
#include "query/statements/cas_request.h"
#include "query/statements/consistency_rules.h"
#include "query/statements/indexed_value_size.h"
#include "query/statements/select_statement.h"
#include "query/statements/table_resolution.h"
#include "types/cql_identifier.h"

namespace sibyl::query {
namespace {

using schema::ColumnKind;
using schema::ColumnMetadata;
using schema::TableMetadata;

cql::Relation EqualityRelation(const std::string& column, const cql::Term& value) {
  cql::Relation relation;
  relation.lhs = cql::Relation::Lhs::kColumn;
  relation.columns = {column};
  relation.op = cql::Relation::Op::kEq;
  relation.terms = {value};
  return relation;
}

}  // namespace

void ModificationStatement::PrepareJson(ModificationStatement& s,
                                        const cql::InsertStatement& insert,
                                        BindSpecCollector& binds) {
  s.json_ = true;
  s.json_default_unset_ = insert.default_unset;
  s.json_document_ = PrepareTerm(insert.json_value.value_or(cql::Term{}), "[json]",
                                 types::CqlType::Native(types::Kind::kText), binds);
  // A document written in the query is checked when the statement is prepared, as Cassandra does.
  if (s.json_document_->kind == PreparedTerm::Kind::kConstant) {
    s.json_literal_values_ = ParseInsertJson(s.json_document_->constant, *s.table_);
  } else if (s.json_document_->kind == PreparedTerm::Kind::kNull) {
    ThrowInvalid("Got null for INSERT JSON values");
  }
}

namespace {

// INSERT's (columns) VALUES (values): key columns become `=` relations, as
// Cassandra synthesizes them; the others become `c = v` operations.
template <typename AddOperation>
void PrepareInsertValues(const cql::InsertStatement& insert, const TableMetadata& table,
                         BindSpecCollector& binds, std::vector<cql::Relation>& insert_where,
                         bool& clustering_set, AddOperation&& add_operation) {
  if (insert.columns.empty()) ThrowInvalid("No columns provided to INSERT");
  if (insert.columns.size() != insert.values.size()) {
    ThrowInvalid("Unmatched column names/values");
  }
  for (size_t i = 0; i < insert.columns.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (insert.columns[i] == insert.columns[j]) {
        ThrowInvalid("The column names contains duplicates");
      }
    }
  }
  for (size_t i = 0; i < insert.columns.size(); ++i) {
    const size_t index = table.ExistingColumnIndex(insert.columns[i]);
    const ColumnMetadata& column = table.columns[index];
    if (column.kind == ColumnKind::kClustering) clustering_set = true;
    if (column.is_primary_key()) {
      insert_where.push_back(EqualityRelation(column.name, insert.values[i]));
    } else {
      add_operation(UpdateOperation::PrepareSetValue(column, index, insert.values[i], binds));
    }
  }
}

bool RowIsEmpty(const storage::RowWrite& row) {
  return row.marker.is_empty() && row.deletion.is_live() && row.collection_deletions.empty() &&
         row.cells.empty();
}

}  // namespace

std::shared_ptr<const ModificationStatement> ModificationStatement::Prepare(
    const cql::ModificationStatement& raw, int marker_count, const schema::Schema& schema,
    std::optional<std::string_view> keyspace) {
  auto statement = std::make_shared<ModificationStatement>();
  ModificationStatement& s = *statement;
  const cql::QualifiedName& name =
      std::visit([](const auto& st) -> const cql::QualifiedName& { return st.table; }, raw);
  const cql::Attributes& raw_attributes =
      std::visit([](const auto& st) -> const cql::Attributes& { return st.attributes; }, raw);
  s.table_ = ResolveTable(name, schema, keyspace);
  s.fully_qualified_ = name.keyspace.has_value();
  const TableMetadata& table = *s.table_;
  for (const auto& column : table.columns) {
    if (column.type->kind() == types::Kind::kCounter) s.is_counter_ = true;
  }

  BindSpecCollector binds(table.keyspace, table.name, marker_count);
  s.attributes_ = WriteAttributes::Prepare(raw_attributes, binds);
  // Cassandra prepares the conditions before the operations.
  const ConditionedColumns conditioned = s.PrepareConditions(raw, binds);
  PreparedOperations prepared = s.PrepareOperations(raw, binds);

  // Cassandra's Operations.appliesToRegularColumns(): a DELETE without
  // columns deletes whole rows, so it applies to the regular columns.
  const bool operations_apply_to_regular =
      !s.regular_operations_.empty() || (s.kind_ == Kind::kDelete && s.static_operations_.empty());
  // Cassandra's appliesOnlyToStaticColumns.
  s.static_only_ = !prepared.clustering_set && !operations_apply_to_regular &&
                   !conditioned.regular && (!s.static_operations_.empty() || conditioned.statics);
  s.where_ =
      Restrictions::PrepareModification(table, prepared.Where(), prepared.type, s.static_only_,
                                        prepared.json_binds ? *prepared.json_binds : binds);
  if (prepared.json_binds) s.json_column_specs_ = prepared.json_binds->Take();

  s.CheckConditionalRules(conditioned, operations_apply_to_regular);
  s.CheckAttributes();
  // ModificationStatement.validate, after everything prepare checks; a
  // BATCH prepares (and so refuses) each of its statements the same way.
  if (table.is_view()) ThrowInvalid("Cannot directly modify a materialized view");
  s.bind_specs_ = binds.Take();
  return statement;
}

ModificationStatement::ConditionedColumns ModificationStatement::PrepareConditions(
    const cql::ModificationStatement& raw, BindSpecCollector& binds) {
  const std::vector<cql::Condition>* conditions = nullptr;
  if (const auto* update = std::get_if<cql::UpdateStatement>(&raw)) {
    if_exists_ = update->if_exists;
    conditions = &update->conditions;
  } else if (const auto* del = std::get_if<cql::DeleteStatement>(&raw)) {
    if_exists_ = del->if_exists;
    conditions = &del->conditions;
  } else {
    if_not_exists_ = std::get<cql::InsertStatement>(raw).if_not_exists;
  }
  has_conditions_ = if_exists_ || if_not_exists_ || (conditions != nullptr && !conditions->empty());
  ConditionedColumns conditioned;
  if (conditions == nullptr || conditions->empty()) return conditioned;
  if (attributes_.has_timestamp()) {
    ThrowInvalid("Cannot provide custom timestamp for conditional updates");
  }
  for (const cql::Condition& raw_condition : *conditions) {
    conditions_.push_back(ColumnCondition::Prepare(*table_, raw_condition, binds));
    (conditions_.back().is_static() ? conditioned.statics : conditioned.regular) = true;
  }
  return conditioned;
}

ModificationStatement::BoundConditions ModificationStatement::BindConditions(
    const BoundValues& values) const {
  BoundConditions bound;
  for (const ColumnCondition& condition : conditions_) {
    (condition.is_static() ? bound.statics : bound.regular).push_back(condition.Bind(values));
  }
  return bound;
}

void ModificationStatement::AddOperation(UpdateOperation operation) {
  requires_read_ |= operation.requires_read();
  if (table_->columns[operation.column()].kind == ColumnKind::kStatic) {
    static_operations_.push_back(std::move(operation));
  } else {
    regular_operations_.push_back(std::move(operation));
  }
}

ModificationStatement::PreparedOperations ModificationStatement::PrepareOperations(
    const cql::ModificationStatement& raw, BindSpecCollector& binds) {
  PreparedOperations prepared;
  if (const auto* insert = std::get_if<cql::InsertStatement>(&raw)) {
    PrepareInsert(*insert, binds, prepared);
  } else if (const auto* update = std::get_if<cql::UpdateStatement>(&raw)) {
    kind_ = Kind::kUpdate;
    prepared.type = StatementType::kUpdate;
    for (const auto& raw_op : update->operations) {
      const size_t index = table_->ExistingColumnIndex(raw_op.column);
      const ColumnMetadata& column = table_->columns[index];
      if (column.is_primary_key()) {
        ThrowInvalid("PRIMARY KEY part " + column.name + " found in SET part");
      }
      AddOperation(UpdateOperation::PrepareUpdate(column, index, raw_op, binds));
    }
    prepared.where = &update->where;
  } else {
    const auto& del = std::get<cql::DeleteStatement>(raw);
    kind_ = Kind::kDelete;
    prepared.type = StatementType::kDelete;
    for (const auto& deletion : del.deletions) {
      const size_t index = table_->ExistingColumnIndex(deletion.column);
      const ColumnMetadata& column = table_->columns[index];
      if (column.is_primary_key()) {
        ThrowInvalid("Invalid identifier " + column.name +
                     " for deletion (should not be a PRIMARY KEY part)");
      }
      AddOperation(UpdateOperation::PrepareDeletion(column, index, deletion, binds));
    }
    prepared.where = &del.where;
  }
  return prepared;
}

void ModificationStatement::PrepareInsert(const cql::InsertStatement& insert,
                                          BindSpecCollector& binds, PreparedOperations& prepared) {
  const TableMetadata& table = *table_;
  kind_ = Kind::kInsert;
  prepared.type = StatementType::kInsert;
  if (is_counter_) {
    ThrowInvalid("INSERT statements are not allowed on counter tables, use UPDATE instead");
  }
  auto add_operation = [&](UpdateOperation op) { AddOperation(std::move(op)); };
  if (!insert.json) {
    PrepareInsertValues(insert, table, binds, prepared.insert_where, prepared.clustering_set,
                        add_operation);
    return;
  }
  PrepareJson(*this, insert, binds);
  // Every column is bound to a marker of its own, whose value the document gives.
  BindSpecCollector& json_binds = prepared.json_binds.emplace(
      table.keyspace, table.name, static_cast<int>(table.columns.size()));
  for (size_t index = 0; index < table.columns.size(); ++index) {
    const ColumnMetadata& column = table.columns[index];
    cql::Term marker;
    marker.kind = cql::Term::Kind::kBindMarker;
    marker.bind_index = static_cast<int>(index);
    if (column.kind == ColumnKind::kClustering) prepared.clustering_set = true;
    if (column.is_primary_key()) {
      prepared.insert_where.push_back(EqualityRelation(column.name, marker));
    } else {
      add_operation(UpdateOperation::PrepareSetValue(column, index, marker, json_binds));
    }
  }
}

void ModificationStatement::CheckConditionalRules(const ConditionedColumns& conditioned,
                                                  bool operations_apply_to_regular) const {
  if (has_conditions_ && is_counter_) {
    ThrowInvalid("Conditional updates are not supported on counter tables");
  }
  if (has_conditions_ && attributes_.has_timestamp()) {
    ThrowInvalid("Cannot provide custom timestamp for conditional updates");
  }
  if (kind_ == Kind::kDelete && has_conditions_ && table_->clustering_size() > 0 &&
      (where_.deletes_ranges() || !where_.has_clustering_restrictions())) {
    if (operations_apply_to_regular) {
      ThrowInvalid(
          "DELETE statements must restrict all PRIMARY KEY columns with equality relations in "
          "order to delete non static columns");
    }
    if (conditioned.regular) {
      ThrowInvalid(
          "DELETE statements must restrict all PRIMARY KEY columns with equality relations in "
          "order to use IF condition on non static columns");
    }
  }
}

// ModificationStatement.validate.
void ModificationStatement::CheckAttributes() const {
  if (is_counter_ && attributes_.has_timestamp()) {
    ThrowInvalid("Cannot provide custom timestamp for counter updates");
  }
  if (is_counter_ && attributes_.has_ttl()) {
    ThrowInvalid("Cannot provide custom TTL for counter updates");
  }
  const bool is_virtual = table_->is_virtual;
  if (is_virtual && attributes_.has_timestamp()) {
    ThrowInvalid("Custom timestamp is not supported by virtual tables");
  }
  if (is_virtual && attributes_.has_ttl()) {
    ThrowInvalid("Expiring columns are not supported by virtual tables");
  }
  if (is_virtual && has_conditions_) {
    ThrowInvalid("Conditional updates are not supported by virtual tables");
  }
}

BoundWrite ModificationStatement::Bind(const BoundValues& values) const {
  const TableMetadata& table = *table_;
  BoundWrite write(values);
  if (json_) {
    JsonColumnValues document;
    if (json_literal_values_) {
      document = *json_literal_values_;
    } else {
      const Value text = json_document_->Bind(values);
      if (text.is_null() || text.is_unset()) ThrowInvalid("Got null for INSERT JSON values");
      document = ParseInsertJson(text.bytes, table);
    }
    write.json_ = std::make_unique<const BoundWrite::JsonValues>(
        std::move(document), json_default_unset_, json_column_specs_);
  }
  const BoundValues& data = write.data();
  write.keys_ = where_.BindWrite(table, data);
  return write;
}

std::vector<storage::Mutation> ModificationStatement::BuildMutations(
    const BoundWrite& write, const protocol::QueryParameters& params, Clock& clock,
    const cluster::Coordinator* reader) const {
  SIBYL_CHECK(!has_conditions_, "a conditional statement must run through ExecuteConditional");
  RefuseVirtualTable();
  std::vector<storage::Mutation> mutations =
      Build(write, params, params.consistency, clock, CurrentRows{.reader = reader});
  CheckIndexedValueSizes(*table_, mutations);
  return mutations;
}

std::vector<storage::Mutation> ModificationStatement::BuildVirtualMutations(
    const BoundValues& values, const protocol::QueryParameters& params, Clock& clock) const {
  SIBYL_CHECK(table_->is_virtual, "BuildVirtualMutations of a stored table");
  return Build(Bind(values), params, std::nullopt, clock, CurrentRows{});
}

void ModificationStatement::RefuseVirtualTable() const {
  if (table_->is_virtual) {
    ThrowInvalid("Modification is not supported by table " + table_->QualifiedName());
  }
}

std::vector<storage::Mutation> ModificationStatement::BuildTransactionMutations(
    const BoundWrite& write, int64_t timestamp, int32_t now_seconds, Clock& clock,
    const storage::ReadResult& current) const {
  protocol::QueryParameters params;
  params.default_timestamp = timestamp;
  params.now_in_seconds = now_seconds;
  RefuseVirtualTable();
  std::vector<storage::Mutation> mutations =
      Build(write, params, std::nullopt, clock, CurrentRows{.prefetched = &current});
  CheckIndexedValueSizes(*table_, mutations);
  return mutations;
}

RowsResult ModificationStatement::ExecuteConditional(const BoundValues& values,
                                                     const protocol::QueryParameters& params,
                                                     const schema::Schema& schema, Clock& clock,
                                                     cluster::Coordinator& coordinator) const {
  return ExecuteCas({CasStatement{this, &values}}, /*is_batch=*/false, params, schema, clock,
                    coordinator);
}

std::vector<storage::Mutation> ModificationStatement::Build(
    const BoundWrite& write, const protocol::QueryParameters& params,
    std::optional<uint16_t> read_consistency, Clock& clock, const CurrentRows& current_rows) const {
  const TableMetadata& table = *table_;
  // 4.1's readRequiredLists reads at the write's consistency level. It runs
  // once the ranges (or rows) written are known not to be empty, whatever
  // the partitions, and before the timestamp and TTL are bound.
  if (read_consistency && requires_read_ &&
      !(where_.deletes_ranges() ? write.ranges().empty() : write.clusterings().empty())) {
    ValidateConsistencyForReadBeforeWrite(*read_consistency, write.partition_keys().size());
  }
  const BoundValues& values = write.request();
  WriteContext context;
  context.clock = &clock;
  context.now_seconds = params.now_in_seconds.value_or(clock.NowSeconds());
  const int64_t fallback =
      params.default_timestamp ? *params.default_timestamp : clock.NextTimestampMicros();
  context.timestamp = attributes_.Timestamp(values, fallback);
  if (kind_ != Kind::kDelete) {
    context.ttl = attributes_.TimeToLive(values, table, context.now_seconds);
  }
  // The values of the key columns and the column operations.
  const BoundValues& data = write.data();

  std::vector<storage::Mutation> mutations;
  auto new_mutation = [&](const storage::PartitionKey& partition) {
    storage::Mutation mutation;
    mutation.table_id = table.id;
    mutation.partition = partition;
    return mutation;
  };

  if (where_.deletes_ranges()) {
    // As DeleteStatement.addUpdateForKey: an empty range (or IN) deletes
    // nothing, and is no error even when columns are named.
    if (write.ranges().empty() || write.partition_keys().empty()) return mutations;
    if (!regular_operations_.empty() || !static_operations_.empty()) {
      ThrowInvalid("Range deletions are not supported for specific columns");
    }
    for (const storage::PartitionKey& key : write.partition_keys()) {
      storage::Mutation mutation = new_mutation(key);
      for (const storage::ClusteringSlice& range : write.ranges()) {
        mutation.range_tombstones.push_back(storage::RangeTombstone{
            range.start, range.end, storage::DeletionTime{context.timestamp, context.now_seconds}});
      }
      mutations.push_back(std::move(mutation));
    }
    return mutations;
  }

  // Cassandra's updatesRegularRows(): the full clustering is known, or the table has none.
  const bool updates_regular_row = updates_regular_rows();
  for (const storage::PartitionKey& key : write.partition_keys()) {
    storage::Mutation mutation = new_mutation(key);
    for (const storage::Clustering& clustering : write.clusterings()) {
      AddRowWrites(mutation, clustering, updates_regular_row, data, context, current_rows);
    }
    if (!mutation.empty()) mutations.push_back(std::move(mutation));
  }
  return mutations;
}

void ModificationStatement::AddRowWrites(storage::Mutation& mutation,
                                         const storage::Clustering& clustering,
                                         bool updates_regular_row, const BoundValues& data,
                                         const WriteContext& context,
                                         const CurrentRows& current_rows) const {
  const TableMetadata& table = *table_;
  const storage::DeletionTime deletion{context.timestamp, context.now_seconds};
  if (kind_ == Kind::kDelete && regular_operations_.empty() && static_operations_.empty()) {
    if (clustering.empty()) {
      mutation.partition_deletion = deletion;  // the whole partition
    } else {
      storage::RowWrite row;
      row.clustering = clustering;
      row.deletion = deletion;
      mutation.rows.push_back(std::move(row));
    }
    return;
  }
  if (kind_ == Kind::kDelete && !regular_operations_.empty() && clustering.empty() &&
      table.clustering_size() > 0) {
    ThrowInvalid("Range deletions are not supported for specific columns");
  }

  auto apply = [&](const std::vector<UpdateOperation>& operations, storage::RowWrite& row,
                   const storage::Clustering* read_clustering) {
    std::optional<storage::ReadRow> current;
    bool read_done = false;
    for (const UpdateOperation& op : operations) {
      if (op.requires_read() && !read_done) {
        current =
            ReadCurrent(mutation.partition, read_clustering, context.now_seconds, current_rows);
        read_done = true;
      }
      op.Apply(table.columns[op.column()], data, context, current ? &*current : nullptr, row);
    }
  };

  const bool writes_regular_row =
      kind_ == Kind::kDelete ? !regular_operations_.empty() : updates_regular_row;
  if (writes_regular_row) {
    storage::RowWrite row;
    row.clustering = clustering;
    // INSERT writes the row's primary key liveness; UPDATE does not (CASSANDRA-6782).
    if (kind_ == Kind::kInsert) {
      row.marker.timestamp = context.timestamp;
      row.marker.ttl = context.ttl;
      row.marker.local_expiration_time =
          context.ttl > 0 ? context.now_seconds + context.ttl : storage::kNoDeletionTime;
    }
    apply(regular_operations_, row, &clustering);
    if (!RowIsEmpty(row)) mutation.rows.push_back(std::move(row));
  }
  if (!static_operations_.empty()) {
    // With IN on the clustering, every row shares the one static row.
    auto it = std::find_if(mutation.rows.begin(), mutation.rows.end(),
                           [](const storage::RowWrite& r) { return r.is_static; });
    if (it != mutation.rows.end()) return;
    storage::RowWrite row;
    row.is_static = true;
    apply(static_operations_, row, nullptr);
    if (!RowIsEmpty(row)) mutation.rows.push_back(std::move(row));
  }
}

std::optional<storage::ReadRow> ModificationStatement::ReadCurrent(
    const storage::PartitionKey& partition, const storage::Clustering* clustering,
    int32_t now_seconds, const CurrentRows& current_rows) const {
  if (current_rows.prefetched != nullptr) {
    for (const storage::ReadPartition& read : current_rows.prefetched->partitions) {
      if (read.key.key != partition.key) continue;
      if (clustering == nullptr) return read.static_row;
      for (const storage::ReadRow& row : read.rows) {
        if (row.clustering == *clustering) return row;
      }
    }
    return std::nullopt;
  }
  const cluster::Coordinator* reader = current_rows.reader;
  SIBYL_CHECK(reader != nullptr,
              "this list operation needs to read the current list, but no reader was given");
  const TableMetadata& table = *table_;
  storage::ReadCommand command;
  command.table_id = table.id;
  command.partitions = {partition};
  command.now_seconds = now_seconds;
  std::vector<std::string> columns;
  for (const auto* operations : {&regular_operations_, &static_operations_}) {
    for (const UpdateOperation& op : *operations) {
      if (op.requires_read()) columns.push_back(table.columns[op.column()].name);
    }
  }
  command.columns = std::move(columns);
  if (clustering != nullptr) {
    storage::ClusteringSlice slice;
    slice.start = storage::ClusteringBound{*clustering, true};
    slice.end = storage::ClusteringBound{*clustering, true};
    command.slices = {std::move(slice)};
  } else {
    command.per_partition_limit = 1;  // only the static row is wanted
  }
  storage::ReadResult result = reader->Read(command);
  if (result.partitions.empty()) return std::nullopt;
  storage::ReadPartition& read = result.partitions.front();
  if (clustering == nullptr) return std::move(read.static_row);
  for (storage::ReadRow& row : read.rows) {
    if (row.clustering == *clustering) return std::move(row);
  }
  return std::nullopt;
}

}  // namespace sibyl::query
