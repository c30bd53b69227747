#pragma once
// INSERT, UPDATE and DELETE, prepared against a schema snapshot, and the
// storage::Mutations one request's values turn them into (see
// docs/dev/write-path.md).
//
// Lifecycle: cql::ModificationStatement (raw AST) → Prepare (resolves the
// table and columns, prepares USING, the WHERE clause and each column
// operation, checking what Cassandra 4.1 checks at prepare time) →
// Bind once per request (bound_write.h: the keys and clusterings written) →
// BuildMutations.
//
// Conditional statements (IF ..., IF EXISTS, IF NOT EXISTS: lightweight
// transactions) run through ExecuteConditional (cas_request.h), never
// BuildMutations.
//
// INSERT JSON: every column of the table takes its value from the document
// (insert_json.h). Internally each column is bound to a marker of its own
// (index = column index) whose values come from the parsed document, so the
// key and column logic is the same as for INSERT ... VALUES. The WHERE
// clause and the column operations of such a statement read those values,
// never the request's: BoundWrite::data() is the one to give them.

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "cluster/coordinator.h"
#include "common/clock.h"
#include "cql/ast.h"
#include "protocol/request.h"
#include "protocol/response.h"
#include "query/restrictions/restrictions.h"
#include "query/statements/bound_write.h"
#include "query/statements/column_condition.h"
#include "query/statements/insert_json.h"
#include "query/statements/result.h"
#include "query/statements/update_operation.h"
#include "query/statements/write_attributes.h"
#include "query/terms/bind_variables.h"
#include "schema/schema.h"
#include "storage/data/mutation.h"

namespace sibyl::query {

class ModificationStatement {
 public:
  enum class Kind { kInsert, kUpdate, kDelete };

  // `keyspace` is the keyspace unqualified table names resolve in (USE, or
  // the request's keyspace); `marker_count` the statement's bind markers.
  // Throws CqlError(kInvalid) with Cassandra's messages.
  static std::shared_ptr<const ModificationStatement> Prepare(
      const cql::ModificationStatement& statement, int marker_count, const schema::Schema& schema,
      std::optional<std::string_view> keyspace);

  Kind kind() const { return kind_; }
  const schema::TablePtr& table() const { return table_; }
  const std::vector<protocol::ColumnSpec>& bind_specs() const { return bind_specs_; }
  // For PREPARED's pk_index; empty unless every partition key column is bound by a marker.
  std::vector<uint16_t> partition_key_markers() const {
    if (json_) return {};  // INSERT JSON binds one document, not the key columns
    return where_.PartitionKeyMarkers(*table_);
  }
  // True when the statement names its keyspace (keyspace.table).
  bool fully_qualified() const { return fully_qualified_; }
  // The table has counter columns: writes go in COUNTER batches only.
  bool is_counter() const { return is_counter_; }
  // IF conditions, IF EXISTS or IF NOT EXISTS (a lightweight transaction).
  bool has_conditions() const { return has_conditions_; }
  bool if_exists() const { return if_exists_; }
  bool if_not_exists() const { return if_not_exists_; }
  // The IF conditions on columns bound to one request's values, regular
  // columns' and static columns' apart, each in the order written.
  struct BoundConditions {
    std::vector<BoundCondition> regular;
    std::vector<BoundCondition> statics;
  };
  [[nodiscard]] BoundConditions BindConditions(const BoundValues& values) const;
  // Some partition key column is restricted by IN with several values (or
  // IN ?): Cassandra's keyIsInRelation(), which conditional writes refuse.
  bool partition_key_has_in() const { return where_.partition_key_in(); }
  // Some clustering column is restricted by IN (clusteringKeyRestrictionsHasIN()).
  bool clustering_has_in() const { return where_.clustering_has_in(); }
  // Cassandra's appliesOnlyToStaticColumns(): the row written is the static row.
  bool static_only() const { return static_only_; }
  // Cassandra's updatesRegularRows(): the full clustering is known, or the table has none.
  bool updates_regular_rows() const {
    return table_->clustering_size() == 0 || where_.has_clustering_restrictions();
  }
  // Cassandra's updatesStaticRow(): some operation writes a static column.
  bool updates_static_row() const { return !static_operations_.empty(); }
  // Some operation reads the current row first (list set-by-index / remove / delete-by-index).
  bool requires_read() const { return requires_read_; }
  // USING TIMESTAMP and TTL; the column operations, regular and static.
  const WriteAttributes& attributes() const { return attributes_; }
  const std::vector<UpdateOperation>& regular_operations() const { return regular_operations_; }
  const std::vector<UpdateOperation>& static_operations() const { return static_operations_; }

  // Binds one execution: evaluates the key terms (and, for INSERT JSON,
  // parses the document) once, for BuildMutations or a lightweight
  // transaction to use. `values` must outlive the result.
  // Throws CqlError(kInvalid) with Cassandra's messages for bad values:
  // "Invalid null value in condition for column k", "Key may not be empty",
  // "Got null for INSERT JSON values", the document's errors (insert_json.h).
  [[nodiscard]] BoundWrite Bind(const BoundValues& values) const;

  // The mutations of one execution, one per partition written (none when an
  // IN is empty). The timestamp is USING TIMESTAMP's, else the request's
  // default timestamp, else clock.NextTimestampMicros(); `now` is the
  // request's now_in_seconds, else clock.NowSeconds(). `reader` serves the
  // reads requires_read() needs (may be null otherwise).
  // REQUIRES: !has_conditions(); `write` bound by this statement from values
  // built from `params` and bind_specs().
  // Throws CqlError(kInvalid) with Cassandra's messages for bad values, and
  // when requires_read() and params.consistency is a level 4.1 cannot read
  // at (ValidateConsistencyForReadBeforeWrite, consistency_rules.h).
  [[nodiscard]] std::vector<storage::Mutation> BuildMutations(
      const BoundWrite& write, const protocol::QueryParameters& params, Clock& clock,
      const cluster::Coordinator* reader) const;
  // Bind and BuildMutations in one.
  [[nodiscard]] std::vector<storage::Mutation> BuildMutations(
      const BoundValues& values, const protocol::QueryParameters& params, Clock& clock,
      const cluster::Coordinator* reader) const {
    return BuildMutations(Bind(values), params, clock, reader);
  }

  // Runs a conditional statement as a lightweight transaction on its one
  // partition (cas_request.h): reads the partition under its LWT lock,
  // checks the conditions, writes at a fresh clock.NextTimestampMicros()
  // when they hold, and returns Cassandra's result: `[applied]`, and when
  // not applied the current values of the conditioned columns (the whole
  // row for IF NOT EXISTS / IF EXISTS). `now` is the request's
  // now_in_seconds, else clock.NowSeconds(); the request's default
  // timestamp is ignored, as Paxos ignores it.
  // `params` brings the consistency levels and `schema` the keyspace's
  // replication strategy, checked as ExecuteCas says.
  // REQUIRES: has_conditions(). Throws CqlError(kInvalid) with Cassandra's
  // messages ("IN on the partition key is not supported with conditional updates", ...).
  [[nodiscard]] RowsResult ExecuteConditional(const BoundValues& values,
                                              const protocol::QueryParameters& params,
                                              const schema::Schema& schema, Clock& clock,
                                              cluster::Coordinator& coordinator) const;

  // The mutations of an unconditional statement on a mutable virtual table
  // (schema::VirtualTable::Apply): no list reads, no size checks.
  [[nodiscard]] std::vector<storage::Mutation> BuildVirtualMutations(
      const BoundValues& values, const protocol::QueryParameters& params, Clock& clock) const;
  // The mutations of a statement of a lightweight transaction, built as
  // BuildMutations does but for conditional statements too, with `timestamp`
  // as the default write timestamp and `now_seconds` as now. For the LWT
  // path (cas_request.cc), once the transaction read `current`: list
  // operations that need the list find it there, and a row the read did not
  // return has none (4.1's CQL3CasRequest hands its read to the updates).
  [[nodiscard]] std::vector<storage::Mutation> BuildTransactionMutations(
      const BoundWrite& write, int64_t timestamp, int32_t now_seconds, Clock& clock,
      const storage::ReadResult& current) const;

 private:
  // Which kinds of columns the IF conditions name (ColumnConditions.appliesTo*Columns).
  struct ConditionedColumns {
    bool regular = false;
    bool statics = false;
  };
  // Where list operations that need the current list (requires_read()) get
  // it: read through `reader`, or found in what a transaction read.
  struct CurrentRows {
    const cluster::Coordinator* reader = nullptr;
    const storage::ReadResult* prefetched = nullptr;
  };
  // The column operations and where the WHERE clause comes from.
  struct PreparedOperations {
    StatementType type = StatementType::kInsert;
    const std::vector<cql::Relation>* where = nullptr;  // UPDATE's or DELETE's
    std::vector<cql::Relation> insert_where;            // INSERT: its key columns as `=` relations
    bool clustering_set = false;                        // INSERT names a clustering column
    std::optional<BindSpecCollector> json_binds;        // INSERT JSON: one marker per column

    const std::vector<cql::Relation>& Where() const { return where ? *where : insert_where; }
  };

  // The steps of Prepare, in Cassandra's order.
  ConditionedColumns PrepareConditions(const cql::ModificationStatement& raw,
                                       BindSpecCollector& binds);
  PreparedOperations PrepareOperations(const cql::ModificationStatement& raw,
                                       BindSpecCollector& binds);
  void PrepareInsert(const cql::InsertStatement& insert, BindSpecCollector& binds,
                     PreparedOperations& prepared);
  void AddOperation(UpdateOperation operation);
  void CheckConditionalRules(const ConditionedColumns& conditioned,
                             bool operations_apply_to_regular) const;
  void CheckAttributes() const;
  // InvalidRequest "Modification is not supported by table ks.t" for a virtual table.
  void RefuseVirtualTable() const;
  // BuildMutations without the check that the statement is unconditional,
  // nor the refusal of virtual tables.
  // `read_consistency`: the level list operations read at (nullopt: none,
  // in a lightweight transaction).
  std::vector<storage::Mutation> Build(const BoundWrite& write,
                                       const protocol::QueryParameters& params,
                                       std::optional<uint16_t> read_consistency, Clock& clock,
                                       const CurrentRows& current_rows) const;
  // INSERT JSON: the document term, checked now when written in the query.
  static void PrepareJson(ModificationStatement& s, const cql::InsertStatement& insert,
                          BindSpecCollector& binds);
  // Writes the operations (or the row deletion) of one clustering into `mutation`.
  void AddRowWrites(storage::Mutation& mutation, const storage::Clustering& clustering,
                    bool updates_regular_row, const BoundValues& data, const WriteContext& context,
                    const CurrentRows& current_rows) const;
  // The row (or the static row) as it is before the write, for list operations.
  std::optional<storage::ReadRow> ReadCurrent(const storage::PartitionKey& partition,
                                              const storage::Clustering* clustering,
                                              int32_t now_seconds,
                                              const CurrentRows& current_rows) const;

  Kind kind_ = Kind::kInsert;
  schema::TablePtr table_;
  WriteAttributes attributes_;
  Restrictions where_;
  std::vector<UpdateOperation> regular_operations_;
  std::vector<UpdateOperation> static_operations_;
  bool fully_qualified_ = false;
  bool is_counter_ = false;
  bool has_conditions_ = false;
  bool if_exists_ = false;
  bool if_not_exists_ = false;
  std::vector<ColumnCondition> conditions_;
  bool requires_read_ = false;
  bool static_only_ = false;
  std::vector<protocol::ColumnSpec> bind_specs_;
  // INSERT JSON.
  bool json_ = false;
  bool json_default_unset_ = false;            // DEFAULT UNSET: missing columns are left alone
  std::optional<PreparedTerm> json_document_;  // the document: a constant or the `[json]` marker
  std::optional<JsonColumnValues> json_literal_values_;  // a constant document, parsed once
  std::vector<protocol::ColumnSpec> json_column_specs_;  // one per table column
};

}  // namespace sibyl::query
