#include "index/view_outbox.h"

#include "dht/token.h"
#include "types/value_codec.h"

namespace sibyl::index {

const storage::TableLayout& ViewOutboxTable() {
  static const storage::TableLayout layout = [] {
    storage::TableLayout t;
    t.id = types::Uuid::NameBased("sibyl.view_outbox");
    t.keyspace = "system";
    t.name = "view_outbox";
    t.partition_key_types = {types::CqlType::Native(types::Kind::kUuid)};
    t.clustering = {{types::CqlType::Native(types::Kind::kBigint), false}};
    t.columns = {{"mutation", types::CqlType::Native(types::Kind::kBlob), false}};
    // Delivered records are deleted at once: nothing to keep their
    // tombstones for (no replica of this table exists elsewhere).
    t.options.gc_grace_seconds = 0;
    return t;
  }();
  return layout;
}

storage::PartitionKey ViewOutboxPartition(const types::Uuid& target) {
  Bytes key = types::EncodeUuid(target);
  const int64_t token = dht::Murmur3Token(key);
  return {token, std::move(key)};
}

storage::Mutation ViewOutboxRecord(const types::Uuid& target, int64_t sequence,
                                   const storage::Mutation& update, int64_t timestamp) {
  storage::Mutation record;
  record.table_id = ViewOutboxTable().id;
  record.partition = ViewOutboxPartition(target);
  storage::RowWrite& row = record.rows.emplace_back();
  row.clustering = {types::EncodeBigint(sequence)};
  row.marker.timestamp = timestamp;
  storage::CellWrite& cell = row.cells.emplace_back();
  cell.column = "mutation";
  cell.cell.timestamp = timestamp;
  update.SerializeTo(cell.cell.value);
  return record;
}

}  // namespace sibyl::index
