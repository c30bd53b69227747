#include "schema/settings_table.h"

#include <string>

#include "guardrails/guardrails.h"
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
    const auto add = [&](const std::string& name, const std::optional<std::string>& value) {
      RowWriter row(table);
      row.Set("name", types::EncodeText(name));
      if (value) {
        row.Set("value", types::EncodeText(*value));
      } else {
        row.SetNull("value");
      }
      rows.push_back(row.Take());
    };
    for (const auto& [name, value] : context.node.settings) add(name, value);
    // The guardrail keys, live: an UPDATE of system_views.guardrails shows here.
    if (context.node.guardrails == nullptr) return;
    for (const auto& [name, value] : context.node.guardrails->AllSettings()) {
      if (context.node.settings.count(name) == 0) add(name, value);
    }
  }
};

}  // namespace

std::unique_ptr<VirtualTable> MakeSettingsTable() { return std::make_unique<SettingsTable>(); }

}  // namespace sibyl::schema
