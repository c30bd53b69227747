#include "tools/admin/table_histograms.h"

#include <gtest/gtest.h>

namespace sibyl::tools::admin {
namespace {

TEST(TableHistogramsTest, LatenciesAndPartitionsInNodetoolsColumns) {
  TableHistogramsAnswer answer;
  answer.writes = LatencyPercentiles{
      .count = 10, .min = 8, .p50 = 24, .p75 = 29, .p95 = 42, .p98 = 50, .p99 = 60, .max = 152};
  answer.reads = LatencyPercentiles{
      .count = 3, .min = 20, .p50 = 35, .p75 = 35, .p95 = 420, .p98 = 420, .p99 = 420, .max = 420};
  answer.partitions.available = true;
  answer.partitions.tables[{"ks", "t"}]["bytes"] = {.count = 7,
                                                    .min = 61,
                                                    .p50 = 310,
                                                    .p75 = 372,
                                                    .p95 = 1109,
                                                    .p98 = 1331,
                                                    .p99 = 1331,
                                                    .max = 1331};
  answer.partitions.tables[{"ks", "t"}]["cells"] = {
      .count = 7, .min = 1, .p50 = 4, .p75 = 5, .p95 = 10, .p98 = 10, .p99 = 10, .max = 10};
  EXPECT_EQ(FormatTableHistograms("ks", "t", answer),
            "ks/t histograms\n"
            "Percentile     Write Latency      Read Latency    Partition Size        Cell Count\n"
            "                    (micros)          (micros)           (bytes)                  \n"
            "50%                    24.00             35.00               310                 4\n"
            "75%                    29.00             35.00               372                 5\n"
            "95%                    42.00            420.00              1109                10\n"
            "98%                    50.00            420.00              1331                10\n"
            "99%                    60.00            420.00              1331                10\n"
            "Min                     8.00             20.00                61                 1\n"
            "Max                   152.00            420.00              1331                10\n"
            "\n");
}

TEST(TableHistogramsTest, WithoutFlushedDataNodetoolsNoSSTablesLineAndNaN) {
  TableHistogramsAnswer answer;
  answer.writes = LatencyPercentiles{.count = 0};
  answer.partitions.available = true;
  // Another table's rows do not count.
  answer.partitions.tables[{"ks", "other"}]["bytes"] = {.count = 1};
  const std::string expected =
      "No SSTables exists, unable to calculate 'Partition Size' and 'Cell Count' percentiles\n"
      "ks/t histograms\n"
      "Percentile     Write Latency      Read Latency    Partition Size        Cell Count\n"
      "                    (micros)          (micros)           (bytes)                  \n"
      "50%                     0.00              0.00               NaN               NaN\n"
      "75%                     0.00              0.00               NaN               NaN\n"
      "95%                     0.00              0.00               NaN               NaN\n"
      "98%                     0.00              0.00               NaN               NaN\n"
      "99%                     0.00              0.00               NaN               NaN\n"
      "Min                     0.00              0.00               NaN               NaN\n"
      "Max                     0.00              0.00               NaN               NaN\n"
      "\n";
  EXPECT_EQ(FormatTableHistograms("ks", "t", answer), expected);
  // A node without partition_stats reads the same.
  EXPECT_EQ(FormatTableHistograms("ks", "t", TableHistogramsAnswer{}), expected);
}

TEST(TableHistogramsTest, EveryNodeUnderItsHeader) {
  std::vector<NodeTableHistograms> nodes(2);
  nodes[0].address = "127.0.0.1";
  nodes[1].address = "127.0.0.2";
  nodes[1].unavailable = "Unreachable: connection refused";
  const std::string out = FormatClusterTableHistograms("ks", "t", nodes);
  EXPECT_EQ(out.rfind("Node: 127.0.0.1\n===============\nNo SSTables exists", 0), 0u);
  EXPECT_NE(out.find("Max                     0.00              0.00               NaN"
                     "               NaN\n\nNode: 127.0.0.2\n===============\n"
                     "Unreachable: connection refused\n"),
            std::string::npos);
}

}  // namespace
}  // namespace sibyl::tools::admin
