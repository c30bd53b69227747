#include "schema/virtual_table.h"

#include "common/check.h"
#include "common/error.h"
#include "types/value_codec.h"

namespace sibyl::schema {

RowWriter& RowWriter::Set(std::string_view column, Bytes value) {
  int index = table_.ColumnIndex(column);
  SIBYL_CHECK(index >= 0);
  if (index >= 0) row_[static_cast<size_t>(index)] = std::move(value);
  return *this;
}

RowWriter& RowWriter::SetNull(std::string_view column) {
  int index = table_.ColumnIndex(column);
  SIBYL_CHECK(index >= 0);
  if (index >= 0) row_[static_cast<size_t>(index)].reset();
  return *this;
}

std::vector<Row> VirtualTable::Rows(const TableMetadata& table,
                                    const VirtualTableContext& context) const {
  std::vector<Row> rows;
  Produce(table, context, rows);
  SortRows(table, rows);
  return rows;
}

void VirtualTable::Apply(const TableMetadata& table, const storage::Mutation&,
                         const VirtualTableContext&) const {
  ThrowInvalid("Modification is not supported by table " + table.QualifiedName());
}

bool SetFlagOf(const storage::Mutation& mutation, std::string_view column) {
  bool flag = false;
  for (const storage::RowWrite& row : mutation.rows) {
    for (const storage::CellWrite& cell : row.cells) {
      if (cell.column != column) ThrowInvalid("Column " + cell.column + " cannot be set");
      flag = cell.cell.kind != storage::Cell::Kind::kTombstone && !cell.cell.value.empty() &&
             types::DecodeBoolean(cell.cell.value);
    }
  }
  return flag;
}

}  // namespace sibyl::schema
