#include "schema/dropped_columns_table.h"

#include "schema/system_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

class DroppedColumnsTable final : public VirtualTable {
 public:
  DroppedColumnsTable() : VirtualTable(std::string(kSchemaKeyspace), "dropped_columns") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    for (const auto& [keyspace_name, keyspace] : context.schema.keyspaces()) {
      // Views' dropped columns too, under the view's name (4.1 writes them
      // for tables and views alike).
      for (const auto* described_tables : {&keyspace->tables, &keyspace->views}) {
        for (const auto& [table_name, described] : *described_tables) {
          for (const auto& [column_name, dropped] : described->dropped_columns) {
            RowWriter row(table);
            row.Set("keyspace_name", types::EncodeText(keyspace_name))
                .Set("table_name", types::EncodeText(table_name))
                .Set("column_name", types::EncodeText(column_name))
                .Set("dropped_time", types::EncodeTimestamp(dropped.dropped_time_micros / 1000))
                .Set("kind", types::EncodeText(ColumnKindName(dropped.kind)))
                .Set("type", types::EncodeText(dropped.type->ToCql()));
            rows.push_back(row.Take());
          }
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<VirtualTable> MakeDroppedColumnsTable() {
  return std::make_unique<DroppedColumnsTable>();
}

}  // namespace sibyl::schema
