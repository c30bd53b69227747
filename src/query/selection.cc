#include "query/selection.h"

#include <string>

#include "common/error.h"

namespace sibyl::query {
namespace {

using Kind = cql::Selector::Kind;

const schema::ColumnMetadata& RequireColumn(const schema::TableMetadata& table,
                                            const std::string& name, size_t& index) {
  const int i = table.ColumnIndex(name);
  if (i < 0) {
    ThrowInvalid("Undefined column name " + name + " in table " + table.QualifiedName());
  }
  index = static_cast<size_t>(i);
  return table.columns[index];
}

// A literal 1 (or any constant) in count(1) counts rows like count(*).
bool IsCountOfConstant(const cql::Selector& selector) {
  return selector.args.size() == 1 && selector.args[0].kind == Kind::kTerm;
}

[[noreturn]] void ThrowUnsupported(const cql::Selector& selector) {
  switch (selector.kind) {
    case Kind::kFunction:
      ThrowInvalid("Selecting " + selector.name + "(...) is not supported by Sibyl yet");
    case Kind::kCast:
      ThrowInvalid("CAST in a selection is not supported by Sibyl yet");
    case Kind::kTerm:
      ThrowInvalid("Selecting a literal is not supported by Sibyl yet");
    case Kind::kFieldAccess:
      ThrowInvalid("Selecting a user type field is not supported by Sibyl yet");
    case Kind::kElement:
    case Kind::kSlice:
      ThrowInvalid("Selecting collection elements is not supported by Sibyl yet");
    case Kind::kArithmetic:
      ThrowInvalid("Arithmetic in a selection is not supported by Sibyl yet");
    default:
      ThrowInvalid("This selector is not supported by Sibyl yet");
  }
}

// writetime(c) / ttl(c) as Cassandra 4.1 checks them (Selectable.WritetimeOrTTL).
CellMetadata PrepareCellMetadata(const schema::TableMetadata& table, const cql::Selector& selector,
                                 bool is_writetime) {
  const char* function = is_writetime ? "writeTime" : "ttl";
  if (selector.args.size() != 1 || selector.args[0].kind != Kind::kColumn) {
    ThrowInvalid(std::string("Selecting ") + selector.name +
                 "() of anything but a column is not supported by Sibyl yet");
  }
  size_t index = 0;
  const auto& column = RequireColumn(table, selector.args[0].name, index);
  if (column.is_primary_key()) {
    ThrowInvalid(std::string("Cannot use selection function ") + function +
                 " on PRIMARY KEY part " + column.name);
  }
  if (column.type->is_collection()) {
    ThrowInvalid(std::string("Cannot use selection function ") + function + " on collections");
  }
  if (column.type->kind() == types::Kind::kUdt && !column.type->frozen()) {
    ThrowInvalid(std::string("Cannot use selection function ") + function + " on non-frozen UDT " +
                 column.name);
  }
  return CellMetadata{is_writetime ? CellMetadata::Kind::kWritetime : CellMetadata::Kind::kTtl,
                      index};
}

}  // namespace

Selection Selection::Prepare(const schema::TableMetadata& table,
                             const cql::SelectStatement& select) {
  Selection selection;
  auto columns = std::make_shared<std::vector<protocol::ColumnSpec>>();
  auto add_result = [&](std::string name, types::TypePtr type) {
    columns->push_back(
        protocol::ColumnSpec{table.keyspace, table.name, std::move(name), std::move(type)});
  };

  if (select.select_star) {
    for (size_t i = 0; i < table.columns.size(); ++i) {
      selection.selected_.push_back({Selected::Kind::kColumn, i});
      add_result(table.columns[i].name, table.columns[i].type);
    }
  }
  for (const cql::Selector& selector : select.selectors) {
    const bool is_count = selector.kind == Kind::kCountStar ||
                          (selector.kind == Kind::kFunction && selector.name == "count");
    if (selector.kind == Kind::kColumn) {
      size_t index = 0;
      const auto& column = RequireColumn(table, selector.name, index);
      selection.selected_.push_back({Selected::Kind::kColumn, index});
      add_result(selector.alias.value_or(column.name), column.type);
    } else if (selector.kind == Kind::kFunction &&
               (selector.name == "writetime" || selector.name == "ttl")) {
      const bool is_writetime = selector.name == "writetime";
      const CellMetadata metadata = PrepareCellMetadata(table, selector, is_writetime);
      selection.selected_.push_back(
          {Selected::Kind::kColumn, table.columns.size() + selection.cell_metadata_.size()});
      selection.cell_metadata_.push_back(metadata);
      add_result(
          selector.alias.value_or(selector.name + "(" + table.columns[metadata.column].name + ")"),
          types::CqlType::Native(is_writetime ? types::Kind::kBigint : types::Kind::kInt));
    } else if (selector.kind == Kind::kCountStar || (is_count && IsCountOfConstant(selector))) {
      selection.is_aggregate_ = true;
      selection.selected_.push_back({Selected::Kind::kCountRows, 0});
      add_result(selector.alias.value_or("count"), types::CqlType::Native(types::Kind::kBigint));
    } else if (is_count && selector.args.size() == 1 && selector.args[0].kind == Kind::kColumn) {
      size_t index = 0;
      const auto& column = RequireColumn(table, selector.args[0].name, index);
      selection.is_aggregate_ = true;
      selection.selected_.push_back({Selected::Kind::kCountValues, index});
      add_result(selector.alias.value_or("system.count(" + column.name + ")"),
                 types::CqlType::Native(types::Kind::kBigint));
    } else {
      ThrowUnsupported(selector);
    }
  }
  selection.result_columns_ = std::move(columns);
  return selection;
}

schema::Row Selection::Project(const schema::Row& row) const {
  schema::Row out;
  out.reserve(selected_.size());
  for (const Selected& s : selected_) out.push_back(row[s.column]);
  return out;
}

}  // namespace sibyl::query
