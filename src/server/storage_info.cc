#include "server/storage_info.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace sibyl::server {
namespace {

// When each table was last flushed over CQL.
struct FlushRecord {
  std::mutex mutex;
  // GUARDED_BY(mutex): (keyspace, table) → milliseconds since the epoch.
  std::map<std::pair<std::string, std::string>, int64_t> flushed_at;
};

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void ShowStorage(storage::Engine& engine, schema::LocalNodeInfo& node_info) {
  auto record = std::make_shared<FlushRecord>();
  node_info.storage_statistics = [&engine] { return engine.Statistics(); };
  node_info.large_data = [&engine] { return engine.LargeData(); };
  node_info.flush_table = [&engine, record](const std::string& keyspace, const std::string& table,
                                            const std::vector<types::Uuid>& table_ids) {
    for (const types::Uuid& id : table_ids) engine.Flush(id);
    const std::lock_guard lock(record->mutex);
    record->flushed_at[{keyspace, table}] = NowMillis();
  };
  node_info.table_flushes = [record] {
    std::vector<schema::TableFlushInfo> flushes;
    const std::lock_guard lock(record->mutex);
    for (const auto& [name, millis] : record->flushed_at) {
      flushes.push_back(
          {.keyspace = name.first, .table = name.second, .flushed_at_millis = millis});
    }
    return flushes;
  };
}

}  // namespace sibyl::server
