#include "schema/table_metric_tables.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "schema/schema_test_util.h"
#include "schema/system_keyspaces.h"
#include "schema/table_builder.h"
#include "schema/virtual_tables.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

using testing::kShopByNameId;
using testing::kShopUsersId;
using testing::ShopSchema;
const types::Uuid kDropped = *types::Uuid::Parse("33333333-3333-4333-8333-333333333333");

class TableMetricTablesTest : public ::testing::Test {
 protected:
  TableMetricTablesTest() : schema_(ShopSchema()), tables_(VirtualTables::SystemTables()) {
    storage::TableLatency reads;
    reads.Observe(std::chrono::microseconds(100));
    reads.Observe(std::chrono::microseconds(300));
    storage::TableLatency writes;
    writes.Observe(std::chrono::microseconds(20));
    storage::StorageStatistics stats;
    storage::TableStorageStatistics& users = stats.tables.emplace_back();
    users.table_id = kShopUsersId;
    users.sstables_per_level = {2, 1};
    users.live_sstable_bytes = (1 << 20) + 1;
    users.sstable_bytes = (1 << 20) + 1;
    users.memtable_entries = 12;
    users.read_latency = reads.snapshot();
    users.write_latency = writes.snapshot();
    storage::TableStorageStatistics& index = stats.tables.emplace_back();
    index.table_id = kShopByNameId;
    index.sstable_bytes = 1;
    // A family the schema does not name (being dropped) is left out.
    stats.tables.emplace_back().table_id = kDropped;
    node_.storage_statistics = [stats] { return stats; };
  }

  std::vector<Row> Rows(const char* name) {
    return tables_.Find("system_views", name)
        ->Rows(*schema_->FindTable("system_views", name), {*schema_, node_});
  }
  OptBytes Value(const char* table, const Row& row, std::string_view column) {
    return row.at(
        static_cast<size_t>(schema_->FindTable("system_views", table)->ColumnIndex(column)));
  }
  int64_t Bigint(const char* table, const Row& row, std::string_view column) {
    return types::DecodeBigint(*Value(table, row, column));
  }
  std::string Text(const char* table, const Row& row, std::string_view column) {
    return *Value(table, row, column);
  }

  SchemaPtr schema_;
  VirtualTables tables_;
  LocalNodeInfo node_;
};

TEST_F(TableMetricTablesTest, TableStatsNameTablesAndIndexes) {
  const std::vector<Row> rows = Rows("table_stats");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(Text("table_stats", rows[0], "table_name"), "users");
  EXPECT_EQ(Text("table_stats", rows[0], "kind"), "table");
  EXPECT_EQ(Bigint("table_stats", rows[0], "sstables"), 3);
  EXPECT_EQ(Bigint("table_stats", rows[0], "memtable_entries"), 12);
  EXPECT_EQ(Bigint("table_stats", rows[0], "read_count"), 2);
  EXPECT_EQ(Bigint("table_stats", rows[0], "read_total_micros"), 400);
  EXPECT_EQ(Bigint("table_stats", rows[0], "write_count"), 1);
  EXPECT_EQ(Text("table_stats", rows[1], "table_name"), "users.by_name");
  EXPECT_EQ(Text("table_stats", rows[1], "kind"), "index");
}

TEST_F(TableMetricTablesTest, DiskUsageIsInMebibytesRoundedUp) {
  const std::vector<Row> rows = Rows("disk_usage");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(Bigint("disk_usage", rows[0], "mebibytes"), 2);
  EXPECT_EQ(Bigint("disk_usage", rows[1], "mebibytes"), 1);
}

TEST_F(TableMetricTablesTest, LatencyTablesInMillisecondsAsCassandras) {
  const std::vector<Row> rows = Rows("local_read_latency");
  ASSERT_EQ(rows.size(), 2u);
  // By (keyspace_name, table_name): "users" before "users.by_name".
  const Row& index = rows[1];
  ASSERT_EQ(Text("local_read_latency", rows[0], "table_name"), "users");
  EXPECT_EQ(Bigint("local_read_latency", rows[0], "count"), 2);
  EXPECT_DOUBLE_EQ(types::DecodeDouble(*Value("local_read_latency", rows[0], "max_ms")), 0.3);
  const double p50 = types::DecodeDouble(*Value("local_read_latency", rows[0], "50th_ms"));
  EXPECT_GE(p50, 0.1);
  EXPECT_LT(p50, 0.121);
  EXPECT_FALSE(Value("local_read_latency", rows[0], "per_second").has_value());
  EXPECT_EQ(Bigint("local_read_latency", index, "count"), 0);
}

TEST_F(TableMetricTablesTest, TableLatenciesPerOperationNullWithoutAny) {
  const std::vector<Row> rows = Rows("table_latencies");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(Text("table_latencies", rows[0], "table_name"), "users");
  EXPECT_EQ(Text("table_latencies", rows[0], "operation"), "read");
  EXPECT_EQ(Bigint("table_latencies", rows[0], "min"), 100);
  EXPECT_EQ(Bigint("table_latencies", rows[0], "max"), 300);
  EXPECT_EQ(Bigint("table_latencies", rows[0], "p99"), 300);
  EXPECT_EQ(Text("table_latencies", rows[1], "operation"), "write");
  EXPECT_EQ(Bigint("table_latencies", rows[1], "p50"), 20);
  EXPECT_EQ(Text("table_latencies", rows[2], "table_name"), "users.by_name");
  EXPECT_EQ(Bigint("table_latencies", rows[2], "count"), 0);
  EXPECT_FALSE(Value("table_latencies", rows[2], "p50").has_value());
}

TEST_F(TableMetricTablesTest, EmptyWithoutAnEngine) {
  node_.storage_statistics = nullptr;
  EXPECT_TRUE(Rows("table_stats").empty());
  EXPECT_TRUE(Rows("local_write_latency").empty());
}

}  // namespace
}  // namespace sibyl::schema
