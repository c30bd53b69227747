#include "schema/view_build_tables.h"

#include <string>

#include "dht/token.h"
#include "schema/build_progress_columns.h"
#include "schema/system_keyspaces.h"
#include "schema/virtual_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

std::vector<ViewBuildInfo> Builds(const VirtualTableContext& context) {
  return context.node.view_builds ? context.node.view_builds() : std::vector<ViewBuildInfo>{};
}

class BuiltViewsTable final : public VirtualTable {
 public:
  BuiltViewsTable() : VirtualTable(std::string(kSystemKeyspace), "built_views") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    for (const ViewBuildInfo& build : Builds(context)) {
      if (!build.built) continue;
      RowWriter row(table);
      // 4.1 sets status_replicated once the build's success is recorded in
      // system_distributed; a node's built view has nothing left to record.
      row.Set("keyspace_name", types::EncodeText(build.keyspace))
          .Set("view_name", types::EncodeText(build.view))
          .Set("status_replicated", types::EncodeBoolean(true));
      rows.push_back(row.Take());
    }
  }
};

class ViewBuildsInProgressTable final : public VirtualTable {
 public:
  ViewBuildsInProgressTable()
      : VirtualTable(std::string(kSystemKeyspace), "view_builds_in_progress") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    // 4.1 keeps a row per range a build task covers; Sibyl's build walks the
    // node's whole ring in one task, the range (min, min] as 4.1 writes it.
    const std::string ring_bound = std::to_string(dht::kMinimumToken);
    for (const ViewBuildInfo& build : Builds(context)) {
      if (build.built || !build.failure.empty()) continue;
      RowWriter row(table);
      row.Set("keyspace_name", types::EncodeText(build.keyspace))
          .Set("view_name", types::EncodeText(build.view))
          .Set("start_token", types::EncodeText(ring_bound))
          .Set("end_token", types::EncodeText(ring_bound))
          .Set("keys_built", types::EncodeBigint(build.partitions_built));
      if (build.last_token) {
        row.Set("last_token", types::EncodeText(std::to_string(*build.last_token)));
      } else {
        row.SetNull("last_token");
      }
      rows.push_back(row.Take());
    }
  }
};

class ViewBuildsTable final : public VirtualTable {
 public:
  ViewBuildsTable() : VirtualTable(std::string(kViewsKeyspace), "view_builds") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    for (const ViewBuildInfo& build : Builds(context)) {
      RowWriter row(table);
      row.Set("keyspace_name", types::EncodeText(build.keyspace))
          .Set("view_name", types::EncodeText(build.view));
      SetBuildProgress(row, build.built, build.failure, build.partitions_built, build.last_token);
      const TablePtr view = context.schema.FindTable(build.keyspace, build.view);
      if (view != nullptr && view->view) {
        row.Set("base_table_name", types::EncodeText(view->view->base_table));
      } else {
        row.SetNull("base_table_name");
      }
      rows.push_back(row.Take());
    }
  }
};

}  // namespace

std::unique_ptr<VirtualTable> MakeBuiltViewsTable() { return std::make_unique<BuiltViewsTable>(); }
std::unique_ptr<VirtualTable> MakeViewBuildsInProgressTable() {
  return std::make_unique<ViewBuildsInProgressTable>();
}
std::unique_ptr<VirtualTable> MakeViewBuildsTable() { return std::make_unique<ViewBuildsTable>(); }

}  // namespace sibyl::schema
