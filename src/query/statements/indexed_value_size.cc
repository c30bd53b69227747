#include "query/statements/indexed_value_size.h"

#include <string>

#include "common/error.h"
#include "schema/index_target.h"

namespace sibyl::query {
namespace {

constexpr size_t kMaxIndexedValueSize = 65535;  // FBUtilities.MAX_UNSIGNED_SHORT

// The bytes `target` indexes of one cell write: the value, or for keys() and
// a set's values() the element's path.
size_t IndexedSize(const schema::IndexTargetSpec& target, const types::CqlType& type,
                   const storage::CellWrite& write) {
  const bool element_in_path =
      write.path &&
      (target.kind == schema::IndexTargetSpec::Kind::kKeys ||
       (target.kind == schema::IndexTargetSpec::Kind::kValues && type.kind() == types::Kind::kSet));
  return element_in_path ? write.path->size() : write.cell.value.size();
}

}  // namespace

void CheckIndexedValueSizes(const schema::TableMetadata& table,
                            const std::vector<storage::Mutation>& mutations) {
  for (const schema::IndexMetadata& index : table.indexes) {
    auto option = index.options.find("target");
    if (option == index.options.end()) continue;
    const auto target = schema::ParseIndexTarget(option->second);
    if (!target) continue;
    const schema::ColumnMetadata* column = table.FindColumn(target->column);
    if (column == nullptr || column->is_primary_key()) continue;
    for (const storage::Mutation& mutation : mutations) {
      for (const storage::RowWrite& row : mutation.rows) {
        for (const storage::CellWrite& write : row.cells) {
          if (write.column != column->name) continue;
          const size_t size = IndexedSize(*target, *column->type, write);
          if (size <= kMaxIndexedValueSize) continue;
          throw CqlError(ErrorCode::kInvalid,
                         "Cannot index value of size " + std::to_string(size) + " for index " +
                             index.name + " on " + table.QualifiedName() + "(" + column->name +
                             ") (maximum allowed size=" + std::to_string(kMaxIndexedValueSize) +
                             ")");
        }
      }
    }
  }
}

}  // namespace sibyl::query
