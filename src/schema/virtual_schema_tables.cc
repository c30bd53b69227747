#include "schema/virtual_schema_tables.h"

#include <string>

#include "schema/schema_tables.h"
#include "schema/virtual_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

class VirtualKeyspacesTable final : public VirtualTable {
 public:
  VirtualKeyspacesTable() : VirtualTable(std::string(kVirtualSchemaKeyspace), "keyspaces") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext&,
               std::vector<Row>& rows) const override {
    for (const auto& [name, keyspace] : VirtualKeyspaces()) {
      rows.push_back(RowWriter(table).Set("keyspace_name", types::EncodeText(name)).Take());
    }
  }
};

class VirtualTablesTable final : public VirtualTable {
 public:
  VirtualTablesTable() : VirtualTable(std::string(kVirtualSchemaKeyspace), "tables") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext&,
               std::vector<Row>& rows) const override {
    for (const auto& [keyspace_name, keyspace] : VirtualKeyspaces()) {
      for (const auto& [table_name, described] : keyspace->tables) {
        rows.push_back(RowWriter(table)
                           .Set("keyspace_name", types::EncodeText(keyspace_name))
                           .Set("table_name", types::EncodeText(table_name))
                           .Set("comment", types::EncodeText(described->params.comment))
                           .Take());
      }
    }
  }
};

class VirtualColumnsTable final : public VirtualTable {
 public:
  VirtualColumnsTable() : VirtualTable(std::string(kVirtualSchemaKeyspace), "columns") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext&,
               std::vector<Row>& rows) const override {
    for (const auto& [keyspace_name, keyspace] : VirtualKeyspaces()) {
      for (const auto& [table_name, described] : keyspace->tables) {
        AppendColumnRows(table, *described, rows);
      }
    }
  }
};

}  // namespace

std::vector<std::unique_ptr<VirtualTable>> MakeVirtualSchemaTables() {
  std::vector<std::unique_ptr<VirtualTable>> tables;
  tables.push_back(std::make_unique<VirtualKeyspacesTable>());
  tables.push_back(std::make_unique<VirtualTablesTable>());
  tables.push_back(std::make_unique<VirtualColumnsTable>());
  return tables;
}

}  // namespace sibyl::schema
