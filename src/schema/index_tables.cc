#include "schema/index_tables.h"

#include "schema/build_progress_columns.h"
#include "schema/system_keyspaces.h"
#include "schema/virtual_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

std::vector<IndexBuildInfo> Builds(const VirtualTableContext& context) {
  return context.node.index_builds ? context.node.index_builds() : std::vector<IndexBuildInfo>{};
}

class IndexInfoTable final : public VirtualTable {
 public:
  IndexInfoTable() : VirtualTable(std::string(kSystemKeyspace), "IndexInfo") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    for (const IndexBuildInfo& build : Builds(context)) {
      if (!build.built) continue;
      RowWriter row(table);
      row.Set("table_name", types::EncodeText(build.keyspace))
          .Set("index_name", types::EncodeText(build.index))
          .SetNull("value");
      rows.push_back(row.Take());
    }
  }
};

class IndexBuildsTable final : public VirtualTable {
 public:
  IndexBuildsTable() : VirtualTable(std::string(kViewsKeyspace), "index_builds") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    for (const IndexBuildInfo& build : Builds(context)) {
      RowWriter row(table);
      row.Set("keyspace_name", types::EncodeText(build.keyspace))
          .Set("table_name", types::EncodeText(build.table))
          .Set("index_name", types::EncodeText(build.index));
      SetBuildProgress(row, build.built, build.failure, build.partitions_built, build.last_token);
      rows.push_back(row.Take());
    }
  }
};

}  // namespace

std::unique_ptr<VirtualTable> MakeIndexInfoTable() { return std::make_unique<IndexInfoTable>(); }
std::unique_ptr<VirtualTable> MakeIndexBuildsTable() {
  return std::make_unique<IndexBuildsTable>();
}

}  // namespace sibyl::schema
