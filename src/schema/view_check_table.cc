#include "schema/view_check_table.h"

#include "common/error.h"
#include "schema/virtual_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

class ViewChecksTable final : public VirtualTable {
 public:
  ViewChecksTable() : VirtualTable(std::string(kViewsKeyspace), "view_checks") {}

  void Apply(const TableMetadata&, const storage::Mutation& mutation,
             const VirtualTableContext& context) const override {
    if (!context.node.check_view) {
      ThrowInvalid("Materialized views cannot be checked on this node");
    }
    if (!mutation.partition_deletion.is_live() || !mutation.range_tombstones.empty()) {
      ThrowInvalid("Only INSERT or UPDATE of system_views.view_checks asks for a check");
    }
    const std::string keyspace =
        std::string(mutation.partition.key.begin(), mutation.partition.key.end());
    for (const storage::RowWrite& row : mutation.rows) {
      if (row.is_static || row.clustering.size() != 1) continue;
      if (!row.deletion.is_live()) {
        ThrowInvalid("Only INSERT or UPDATE of system_views.view_checks asks for a check");
      }
      const std::string view =
          std::string(row.clustering.front().begin(), row.clustering.front().end());
      bool repair = false;
      for (const storage::CellWrite& cell : row.cells) {
        // An empty value (blobAsBoolean(0x)) is no value, as null: no repair.
        if (cell.column == "repair" && cell.cell.kind != storage::Cell::Kind::kTombstone &&
            !cell.cell.value.empty()) {
          repair = types::DecodeBoolean(cell.cell.value);
        } else if (cell.column != "repair") {
          ThrowInvalid("Only repair can be set in system_views.view_checks (got " + cell.column +
                       ")");
        }
      }
      if (!context.node.check_view(keyspace, view, repair)) {
        ThrowInvalid("Materialized view '" + keyspace + "." + view + "' doesn't exist");
      }
    }
  }

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    if (!context.node.view_checks) return;
    for (const ViewCheckInfo& check : context.node.view_checks()) {
      RowWriter row(table);
      row.Set("keyspace_name", types::EncodeText(check.keyspace))
          .Set("view_name", types::EncodeText(check.view))
          .Set("repair", types::EncodeBoolean(check.repair))
          .Set("checked_at", types::EncodeBigint(check.checked_at_millis))
          .Set("rows_expected", types::EncodeBigint(check.rows_expected))
          .Set("missing", types::EncodeBigint(check.missing))
          .Set("unexpected", types::EncodeBigint(check.unexpected))
          .Set("different", types::EncodeBigint(check.different))
          .Set("repaired", types::EncodeBigint(check.repaired));
      rows.push_back(row.Take());
    }
  }
};

}  // namespace

std::unique_ptr<VirtualTable> MakeViewChecksTable() { return std::make_unique<ViewChecksTable>(); }

}  // namespace sibyl::schema
