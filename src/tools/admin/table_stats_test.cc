#include "tools/admin/table_stats.h"

#include <gtest/gtest.h>

#include "tools/admin/admin_error.h"

namespace sibyl::tools::admin {
namespace {

NodeTableStatsAnswer Answer() {
  NodeTableStatsAnswer answer;
  answer.tables.push_back({.keyspace = "ks",
                           .table = "t",
                           .kind = "table",
                           .sstables = 1,
                           .live_bytes = 5120,
                           .total_bytes = 6144,
                           .compressed_bytes = 500,
                           .uncompressed_bytes = 1000,
                           .memtable_entries = 4,
                           .memtable_bytes = 2048,
                           .pending_flushes = 0,
                           .bloom_filter_bytes = 96,
                           .read_count = 3,
                           .read_total_micros = 150,
                           .write_count = 10,
                           .write_total_micros = 213});
  answer.tables.push_back({.keyspace = "ks",
                           .table = "t.by_v",
                           .kind = "index",
                           .pending_flushes = 1,
                           .write_count = 10,
                           .write_total_micros = 100});
  answer.tables.push_back({.keyspace = "other", .table = "u", .kind = "table"});
  answer.partitions.available = true;
  answer.partitions.tables[{"ks", "t"}]["bytes"] = {.count = 7, .min = 100, .max = 900};
  return answer;
}

TEST(TableStatsTest, KeyspaceTotalsThenEachTableInNodetoolsLayout) {
  EXPECT_EQ(FormatTableStats({{"ks", ""}}, Answer()),
            "Total number of tables: 3\n"
            "----------------\n"
            "Keyspace : ks\n"
            "\tRead Count: 3\n"
            "\tRead Latency: 0.05 ms\n"
            "\tWrite Count: 20\n"
            "\tWrite Latency: 0.01565 ms\n"
            "\tPending Flushes: 1\n"
            "\t\tTable: t\n"
            "\t\tSSTable count: 1\n"
            "\t\tSpace used (live): 5120\n"
            "\t\tSpace used (total): 6144\n"
            "\t\tSpace used by snapshots (total): 0\n"
            "\t\tSSTable Compression Ratio: 0.5\n"
            "\t\tNumber of partitions (estimate): 7\n"
            "\t\tMemtable cell count: 4\n"
            "\t\tMemtable data size: 2048\n"
            "\t\tLocal read count: 3\n"
            "\t\tLocal read latency: 0.050 ms\n"
            "\t\tLocal write count: 10\n"
            "\t\tLocal write latency: 0.021 ms\n"
            "\t\tPending flushes: 0\n"
            "\t\tBloom filter space used: 96\n"
            "\t\tCompacted partition minimum bytes: 100\n"
            "\t\tCompacted partition maximum bytes: 900\n"
            "\n"
            "\t\tTable (index): t.by_v\n"
            "\t\tSSTable count: 0\n"
            "\t\tSpace used (live): 0\n"
            "\t\tSpace used (total): 0\n"
            "\t\tSpace used by snapshots (total): 0\n"
            "\t\tSSTable Compression Ratio: -1.0\n"
            "\t\tNumber of partitions (estimate): 0\n"
            "\t\tMemtable cell count: 0\n"
            "\t\tMemtable data size: 0\n"
            "\t\tLocal read count: 0\n"
            "\t\tLocal read latency: NaN ms\n"
            "\t\tLocal write count: 10\n"
            "\t\tLocal write latency: 0.010 ms\n"
            "\t\tPending flushes: 1\n"
            "\t\tBloom filter space used: 0\n"
            "\t\tCompacted partition minimum bytes: 0\n"
            "\t\tCompacted partition maximum bytes: 0\n"
            "\n"
            "----------------\n");
}

TEST(TableStatsTest, OneTableKeepsItsKeyspacesTotals) {
  const std::string out = FormatTableStats({{"ks", "t"}}, Answer());
  EXPECT_NE(out.find("\tWrite Count: 20\n"), std::string::npos);
  EXPECT_NE(out.find("\t\tTable: t\n"), std::string::npos);
  EXPECT_EQ(out.find("t.by_v"), std::string::npos);
  EXPECT_EQ(out.find("other"), std::string::npos);
}

TEST(TableStatsTest, EveryKeyspaceSortedWithoutSelections) {
  const std::string out = FormatTableStats({}, Answer());
  const size_t ks = out.find("Keyspace : ks\n");
  const size_t other = out.find("Keyspace : other\n");
  ASSERT_NE(ks, std::string::npos);
  ASSERT_NE(other, std::string::npos);
  EXPECT_LT(ks, other);
  EXPECT_NE(out.find("\tRead Latency: NaN ms\n", other), std::string::npos);
}

TEST(TableStatsTest, WithoutPartitionStatsTheirLinesAreLeftOut) {
  NodeTableStatsAnswer answer = Answer();
  answer.partitions = {};
  const std::string out = FormatTableStats({{"ks", "t"}}, answer);
  EXPECT_EQ(out.find("Number of partitions"), std::string::npos);
  EXPECT_EQ(out.find("Compacted partition"), std::string::npos);
  EXPECT_NE(out.find("\t\tMemtable cell count: 4\n"), std::string::npos);
}

TEST(TableStatsTest, UnknownKeyspaceOrTablesInNodetoolsWords) {
  const SchemaTables schema = {{"ks", {"t"}}, {"other", {"u"}}};
  EXPECT_NO_THROW(CheckSelections({{"ks", ""}, {"other", "u"}}, schema));
  auto error = [&](const std::vector<TableSelection>& selections) {
    try {
      CheckSelections(selections, schema);
    } catch (const AdminError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error({{"nope", ""}}), "Unknown keyspace: nope");
  EXPECT_EQ(error({{"ks", "a"}, {"ks", "t"}, {"ks", "b"}}),
            "Unknown tables: [a, b] in keyspace: ks");
}

TEST(TableStatsTest, EveryNodeUnderItsHeader) {
  std::vector<NodeTableStats> nodes(2);
  nodes[0].address = "127.0.0.1";
  nodes[0].answer = Answer();
  nodes[1].address = "127.0.0.2";
  nodes[1].unavailable = "DOWN: not asked";
  const std::string out = FormatClusterTableStats({{"other", ""}}, nodes);
  EXPECT_EQ(out,
            "Node: 127.0.0.1\n"
            "===============\n"
            "Total number of tables: 3\n"
            "----------------\n"
            "Keyspace : other\n"
            "\tRead Count: 0\n"
            "\tRead Latency: NaN ms\n"
            "\tWrite Count: 0\n"
            "\tWrite Latency: NaN ms\n"
            "\tPending Flushes: 0\n"
            "\t\tTable: u\n"
            "\t\tSSTable count: 0\n"
            "\t\tSpace used (live): 0\n"
            "\t\tSpace used (total): 0\n"
            "\t\tSpace used by snapshots (total): 0\n"
            "\t\tSSTable Compression Ratio: -1.0\n"
            "\t\tNumber of partitions (estimate): 0\n"
            "\t\tMemtable cell count: 0\n"
            "\t\tMemtable data size: 0\n"
            "\t\tLocal read count: 0\n"
            "\t\tLocal read latency: NaN ms\n"
            "\t\tLocal write count: 0\n"
            "\t\tLocal write latency: NaN ms\n"
            "\t\tPending flushes: 0\n"
            "\t\tBloom filter space used: 0\n"
            "\t\tCompacted partition minimum bytes: 0\n"
            "\t\tCompacted partition maximum bytes: 0\n"
            "\n"
            "----------------\n"
            "\n"
            "Node: 127.0.0.2\n"
            "===============\n"
            "DOWN: not asked\n");
}

}  // namespace
}  // namespace sibyl::tools::admin
