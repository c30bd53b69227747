#include "schema/settings_table.h"

#include <string>

#include "schema/virtual_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

class SettingsTable final : public VirtualTable {
 public:
  SettingsTable() : VirtualTable(std::string(kViewsKeyspace), "settings") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    for (const auto& [name, value] : context.node.settings) {
      RowWriter row(table);
      row.Set("name", types::EncodeText(name));
      if (value) {
        row.Set("value", types::EncodeText(*value));
      } else {
        row.SetNull("value");
      }
      rows.push_back(row.Take());
    }
  }
};

}  // namespace

std::unique_ptr<VirtualTable> MakeSettingsTable() { return std::make_unique<SettingsTable>(); }

}  // namespace sibyl::schema
