#pragma once
// The select clause of a SELECT, prepared against its table: which values
// each result column takes, and the result metadata.
//
// Supported: `*`, columns, aliases, writetime(c) and ttl(c), and the
// aggregates count(*) / count(1) / count(column). Other functions, casts,
// arithmetic and element access fail with an honest error naming them.

#include <memory>
#include <vector>

#include "cql/ast.h"
#include "protocol/response.h"
#include "query/row_source.h"
#include "schema/row_order.h"
#include "schema/table_metadata.h"

namespace sibyl::query {

class Selection {
 public:
  struct Selected {
    enum class Kind { kColumn, kCountRows, kCountValues };
    Kind kind = Kind::kColumn;
    // kColumn, kCountValues: index in the source's rows: a column of
    // TableMetadata::columns, or columns.size() + k for cell_metadata()[k].
    size_t column = 0;
  };

  // Throws CqlError(kInvalid), e.g. "Undefined column name x in table ks.t".
  static Selection Prepare(const schema::TableMetadata& table, const cql::SelectStatement& select);

  const std::shared_ptr<const std::vector<protocol::ColumnSpec>>& result_columns() const {
    return result_columns_;
  }
  const std::vector<Selected>& selected() const { return selected_; }
  // The writetime() / ttl() values the rows must carry (ReadRequest::cell_metadata).
  const std::vector<CellMetadata>& cell_metadata() const { return cell_metadata_; }
  // Any count(): the query returns one row aggregating every matching row.
  bool is_aggregate() const { return is_aggregate_; }

  // The result row of a matching table row (not for aggregates).
  schema::Row Project(const schema::Row& row) const;

 private:
  std::shared_ptr<const std::vector<protocol::ColumnSpec>> result_columns_;
  std::vector<Selected> selected_;
  std::vector<CellMetadata> cell_metadata_;
  bool is_aggregate_ = false;
};

}  // namespace sibyl::query
