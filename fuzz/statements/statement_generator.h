#pragma once
// Random statements over the fuzzer's keyspace, read off the live schema:
// every DML form (INSERT with VALUES or JSON, UPDATE with every operation
// of every column kind, DELETE of cells, elements, rows, ranges and
// partitions, BATCH of each type as text or as a BATCH message, lightweight
// transactions with every condition form, USING TTL and TIMESTAMP), SELECT
// with every clause (selectors and functions, DISTINCT, JSON, restrictions
// on keys, token ranges, clustering slices and tuples, filtering, GROUP BY,
// ORDER BY, LIMIT and PER PARTITION LIMIT), and DDL (CREATE and DROP of
// tables and types, ALTER TABLE ADD / DROP / WITH, TRUNCATE).
//
// Statements are mostly well typed, so they get past preparation and reach
// the storage; a small share is wrong on purpose (a missing key column, a
// wrong-typed value) so refusals run too. A prepared statement's values may
// be replaced by null, unset, empty, oversized or wrongly typed bytes.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "fuzz/statements/choices.h"
#include "protocol/request.h"
#include "schema/schema.h"

namespace sibyl::fuzz {

// A value a prepared statement binds to one marker.
struct BoundValue {
  Value::Kind kind = Value::Kind::kBytes;
  Bytes bytes;
};

struct GeneratedStatement {
  std::string text;
  // PREPARE then EXECUTE with `values` (one per marker), rather than QUERY.
  bool prepared = false;
  std::vector<BoundValue> values;
  // A SELECT whose paged result must equal its unpaged one.
  bool is_select = false;
  // A BATCH message (not BEGIN BATCH text): each child is a statement of
  // its own, prepared or not; `text` is only for the transcript.
  bool is_batch_message = false;
  protocol::BatchType batch_type = protocol::BatchType::kLogged;
  std::vector<GeneratedStatement> children;
};

class StatementGenerator {
 public:
  // `now_micros` is the node clock's time, so that USING TIMESTAMP values
  // land around the server's own write timestamps.
  StatementGenerator(Choices& choices, const schema::Schema& schema, int64_t now_micros);

  // A random statement: DDL while the keyspace has no table, else any kind.
  [[nodiscard]] GeneratedStatement Next();

 private:
  class Writer;
  Writer NewWriter();

  GeneratedStatement Ddl();
  GeneratedStatement Insert(const schema::TableMetadata& table, bool allow_conditions);
  GeneratedStatement Update(const schema::TableMetadata& table, bool allow_conditions);
  GeneratedStatement Delete(const schema::TableMetadata& table, bool allow_conditions);
  GeneratedStatement Modification(const schema::TableMetadata& table, bool allow_conditions);
  GeneratedStatement Batch();
  GeneratedStatement Select(const schema::TableMetadata& table);

  void Using(Writer& w, bool ttl, bool timestamp);
  // WHERE on the primary key: every partition key column, then the
  // clustering columns an UPDATE (all) or DELETE (a prefix, maybe a slice)
  // restricts, none when `partition_only`.
  void WherePrimaryKey(Writer& w, const schema::TableMetadata& table, bool is_delete,
                       bool partition_only = false);
  void SetOperation(Writer& w, const schema::ColumnMetadata& column);
  void Deletion(Writer& w, const schema::ColumnMetadata& column);
  // IF EXISTS, or IF and conditions on columns, elements and fields.
  void Conditions(Writer& w, const schema::TableMetadata& table);
  void SelectRestrictions(Writer& w, const schema::TableMetadata& table, bool& filtering,
                          bool& keyed);
  std::string Selector(const schema::TableMetadata& table);

  const schema::TableMetadata& RandomTable();
  // The table's name as a statement writes it: mostly fz.<name>.
  std::string Name(const schema::TableMetadata& table);
  // A column of the table that is not part of the primary key, if any.
  const schema::ColumnMetadata* RandomValueColumn(const schema::TableMetadata& table);

  Choices& choices_;
  const schema::Schema& schema_;
  const int64_t now_micros_;
  std::vector<schema::TablePtr> tables_;
  std::vector<std::string> user_types_;
  std::optional<bool> force_prepared_;  // set while a BEGIN BATCH's children are made
};

}  // namespace sibyl::fuzz
