#include "schema/flushes_table.h"

#include "common/error.h"
#include "schema/storage_layout.h"
#include "schema/virtual_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

constexpr const char* kOnlyInsert =
    "Only INSERT of keyspace_name and table_name into system_views.flushes asks for a flush";

// The stored column families of `table`: its own and its stored indexes'
// (not, say, system.paxos's custom index, which Cassandra keeps and Sibyl
// does not). None for a table the engine does not store.
std::vector<types::Uuid> FamiliesOf(const TableMetadata& table) {
  std::vector<types::Uuid> ids;
  if (!IsStoredTable(table)) return ids;
  ids.push_back(table.id);
  for (const storage::IndexLayout& index : MakeTableLayout(table).indexes) ids.push_back(index.id);
  return ids;
}

class FlushesTable final : public VirtualTable {
 public:
  FlushesTable() : VirtualTable(std::string(kViewsKeyspace), "flushes") {}

  void Apply(const TableMetadata&, const storage::Mutation& mutation,
             const VirtualTableContext& context) const override {
    if (!context.node.flush_table) ThrowInvalid("Tables cannot be flushed on this node");
    if (!mutation.partition_deletion.is_live() || !mutation.range_tombstones.empty()) {
      ThrowInvalid(kOnlyInsert);
    }
    const std::string keyspace =
        std::string(mutation.partition.key.begin(), mutation.partition.key.end());
    const KeyspaceMetadata* found = context.schema.FindKeyspace(keyspace);
    if (found == nullptr || found->is_virtual) {
      ThrowInvalid("Keyspace " + keyspace + " does not exist");
    }
    for (const storage::RowWrite& row : mutation.rows) {
      if (row.is_static || row.clustering.size() != 1) continue;
      if (!row.deletion.is_live() || !row.cells.empty()) ThrowInvalid(kOnlyInsert);
      const std::string name(row.clustering.front().begin(), row.clustering.front().end());
      const TablePtr table = context.schema.FindTable(keyspace, name);
      if (!table) ThrowInvalid("Unknown keyspace/cf pair (" + keyspace + "." + name + ")");
      context.node.flush_table(keyspace, name, FamiliesOf(*table));
    }
  }

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    if (!context.node.table_flushes) return;
    for (const TableFlushInfo& flush : context.node.table_flushes()) {
      RowWriter row(table);
      row.Set("keyspace_name", types::EncodeText(flush.keyspace))
          .Set("table_name", types::EncodeText(flush.table))
          .Set("flushed_at", types::EncodeTimestamp(flush.flushed_at_millis));
      rows.push_back(row.Take());
    }
  }
};

}  // namespace

std::unique_ptr<VirtualTable> MakeFlushesTable() { return std::make_unique<FlushesTable>(); }

}  // namespace sibyl::schema
