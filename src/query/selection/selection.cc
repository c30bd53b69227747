#include "query/selection/selection.h"

#include <algorithm>

#include "common/error.h"
#include "query/functions/function_registry.h"
#include "query/selection/selector_preparation.h"

namespace sibyl::query {
namespace {

using SelectorKind = cql::Selector::Kind;

// SELECT *'s columns as Cassandra lists them: the partition key, the
// clustering columns, then static columns and then regular ones, each by
// name (RegularAndStaticColumns.selectOrderIterator). TableMetadata::columns
// holds the non-key columns by name, statics and regulars mixed.
std::vector<size_t> WildcardOrder(const schema::TableMetadata& table) {
  std::vector<size_t> order;
  order.reserve(table.columns.size());
  for (auto wanted : {schema::ColumnKind::kPartitionKey, schema::ColumnKind::kClustering,
                      schema::ColumnKind::kStatic, schema::ColumnKind::kRegular}) {
    for (size_t i = 0; i < table.columns.size(); ++i) {
      if (table.columns[i].kind == wanted) order.push_back(i);
    }
  }
  return order;
}

}  // namespace

Selection Selection::Prepare(const schema::TableMetadata& table, const cql::SelectStatement& select,
                             BindSpecCollector& binds) {
  Selection selection;
  selection.is_json_ = select.json;
  selection.is_wildcard_ = select.select_star;
  auto add_column = [&](std::string name, types::TypePtr type) {
    selection.selector_columns_.push_back(
        protocol::ColumnSpec{table.keyspace, table.name, std::move(name), std::move(type)});
  };

  if (select.select_star) {
    for (size_t i : WildcardOrder(table)) {
      selection.factories_.push_back(
          ColumnSelectorFactory(table.columns[i].name, table.columns[i].type, i));
      selection.columns_read_.push_back(i);
      add_column(table.columns[i].name, table.columns[i].type);
    }
  }
  SelectorPreparation preparation{table, binds, selection.cell_metadata_, selection.columns_read_};
  for (const cql::Selector& selector : select.selectors) {
    SelectorFactoryPtr factory = PrepareSelector(selector, nullptr, preparation);
    selection.is_aggregate_ = selection.is_aggregate_ || factory->is_aggregate();
    add_column(selector.alias.value_or(factory->column_name()), factory->type());
    selection.factories_.push_back(std::move(factory));
  }
  std::sort(selection.columns_read_.begin(), selection.columns_read_.end());
  selection.columns_read_.erase(
      std::unique(selection.columns_read_.begin(), selection.columns_read_.end()),
      selection.columns_read_.end());

  if (selection.is_json_) {
    // Selection.getResultMetadata(isJson): one text column named [json].
    selection.result_columns_ = std::make_shared<std::vector<protocol::ColumnSpec>>(
        std::vector<protocol::ColumnSpec>{protocol::ColumnSpec{
            table.keyspace, table.name, "[json]", types::CqlType::Native(types::Kind::kText)}});
  } else {
    selection.result_columns_ =
        std::make_shared<std::vector<protocol::ColumnSpec>>(selection.selector_columns_);
  }
  return selection;
}

Selection::Selectors Selection::NewSelectors(const BoundValues& values,
                                             FunctionContext& context) const {
  Selectors selectors(*this);
  const SelectorContext selector_context{values, context};
  selectors.selectors_.reserve(factories_.size());
  for (const auto& factory : factories_) {
    selectors.selectors_.push_back(factory->NewSelector(selector_context));
  }
  return selectors;
}

void Selection::Selectors::AddRow(const schema::Row& input) {
  if (!selection_->is_aggregate_) {
    for (auto& s : selectors_) s->Reset();
  }
  for (auto& s : selectors_) s->AddInput(input);
}

schema::Row Selection::Selectors::Output() {
  schema::Row row;
  row.reserve(selectors_.size());
  for (auto& s : selectors_) {
    row.push_back(s->is_unset() ? std::nullopt : s->Output());
    s->Reset();
  }
  if (!selection_->is_json_) return row;
  schema::Row json;
  json.push_back(RowToJson(selection_->selector_columns_, row));
  return json;
}

}  // namespace sibyl::query
