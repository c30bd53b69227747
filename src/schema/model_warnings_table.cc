#include "schema/model_warnings_table.h"

#include "guardrails/model_warnings.h"
#include "schema/virtual_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

class ModelWarningsTable final : public VirtualTable {
 public:
  ModelWarningsTable() : VirtualTable(std::string(kViewsKeyspace), "model_warnings") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    if (context.node.model_warnings == nullptr) return;
    for (const guardrails::ModelWarning& w : context.node.model_warnings->Entries()) {
      RowWriter row(table);
      row.Set("rule", types::EncodeText(w.rule))
          .Set("keyspace_name", types::EncodeText(w.keyspace))
          .Set("table_name", types::EncodeText(w.table))
          .Set("count", types::EncodeBigint(static_cast<int64_t>(w.count)))
          .Set("example", types::EncodeText(w.example))
          .Set("last_warning", types::EncodeText(w.last_message))
          .Set("first_seen", types::EncodeTimestamp(w.first_seen_millis))
          .Set("last_seen", types::EncodeTimestamp(w.last_seen_millis));
      rows.push_back(row.Take());
    }
  }
};

}  // namespace

std::unique_ptr<VirtualTable> MakeModelWarningsTable() {
  return std::make_unique<ModelWarningsTable>();
}

}  // namespace sibyl::schema
