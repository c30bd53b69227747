#pragma once
// The select clause of a SELECT, prepared against its table: the result
// columns and their metadata, what the rows must carry, and the selectors
// that turn input rows into result rows (selector.h).
//
// Input rows come in the "source layout": one value per
// TableMetadata::columns entry (null = absent), then one value per
// cell_metadata() entry (writetime as bigint, ttl as int).
//
// Every selector of Cassandra 4.1 is supported but those listed in
// selector_preparation.h as "not supported by Sibyl yet" (collection, tuple
// and UDT literals as selectors, type hints naming user types, arithmetic
// with a decimal result, timestamp/date +- duration).
//
// Usage, per request:
//   Selection::Selectors selectors = selection.NewSelectors(values, context);
//   for each matching row: selectors.AddRow(row);
//                          if (!selection.is_aggregate()) emit(selectors.Output());
//   aggregate: at each group end (or end of data) emit(selectors.Output()).

#include <memory>
#include <vector>

#include "cql/ast.h"
#include "protocol/response.h"
#include "query/functions/function_definition.h"
#include "query/read/row_source.h"
#include "query/selection/selector.h"
#include "query/terms/bind_variables.h"
#include "schema/row_order.h"
#include "schema/table_metadata.h"

namespace sibyl::query {

class Selection {
 public:
  class Selectors;

  // Markers in the select clause are received through `binds` (named
  // "[selection]" unless named, or after the parameter or key they fill).
  // Throws CqlError(kInvalid) with Cassandra's messages
  // (selector_preparation.h, function_registry.h).
  static Selection Prepare(const schema::TableMetadata& table, const cql::SelectStatement& select,
                           BindSpecCollector& binds);

  // The result metadata: one column per selector (named by its alias or
  // Cassandra's column name), or for SELECT JSON the one text column "[json]".
  const std::shared_ptr<const std::vector<protocol::ColumnSpec>>& result_columns() const {
    return result_columns_;
  }
  // The writetime() / ttl() values the rows must carry (ReadRequest::cell_metadata).
  const std::vector<CellMetadata>& cell_metadata() const { return cell_metadata_; }
  // Table columns (indexes into TableMetadata::columns) any selector reads;
  // sorted, unique. For `*`, every column.
  const std::vector<size_t>& columns_read() const { return columns_read_; }
  // Some selector aggregates: rows fold into groups.
  bool is_aggregate() const { return is_aggregate_; }
  // SELECT JSON: one "[json]" text column.
  bool is_json() const { return is_json_; }
  // SELECT *.
  bool is_wildcard() const { return is_wildcard_; }

  // One request's evaluation state. `values` and `context` must outlive it.
  // Throws CqlError(kInvalid) for bound values a selector refuses.
  [[nodiscard]] Selectors NewSelectors(const BoundValues& values, FunctionContext& context) const;

 private:
  friend class Selectors;

  std::shared_ptr<const std::vector<protocol::ColumnSpec>> result_columns_;
  std::vector<protocol::ColumnSpec> selector_columns_;  // the columns before SELECT JSON
  std::vector<SelectorFactoryPtr> factories_;
  std::vector<CellMetadata> cell_metadata_;
  std::vector<size_t> columns_read_;
  bool is_aggregate_ = false;
  bool is_json_ = false;
  bool is_wildcard_ = false;
};

class Selection::Selectors {
 public:
  // Takes one input row (source layout). Non-aggregate selections start a
  // new result row with each call.
  void AddRow(const schema::Row& input);
  // Non-aggregate: the result row of the last AddRow. Aggregate: the row of
  // the group added since the last Output (count 0 / nulls when no row was
  // added), then starts the next group.
  [[nodiscard]] schema::Row Output();

 private:
  friend class Selection;
  explicit Selectors(const Selection& selection) : selection_(&selection) {}

  const Selection* selection_;
  std::vector<std::unique_ptr<Selector>> selectors_;
};

// Selection.rowToJson: the result row as one JSON object keyed by the
// result columns' names ("\"Name\"" for names with upper-case letters).
[[nodiscard]] std::string RowToJson(const std::vector<protocol::ColumnSpec>& columns,
                                    const schema::Row& row);

}  // namespace sibyl::query
