// Paging of SELECT over stored tables, for every query shape: every page
// size gives the unpaged result, pages resume by value while writes go on,
// and GROUP BY, DISTINCT, PER PARTITION LIMIT and aggregates page as
// Cassandra 4.1 pages them. Runs over the reference engine (the model the
// RocksDB engine is held to), so only the query layer is under test.

#include <string>
#include <vector>

#include "query/read/engine_test_util.h"
#include "storage/reference/reference_engine.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using Fixture = testing::StorageQueryTest<storage::ReferenceEngine>;

class SelectPagingTest : public Fixture {
 protected:
  void SetUp() override {
    CreateKeyspace();
    (void)Run(
        "CREATE TABLE ks.t (k int, c int, d int, s int STATIC, v int, "
        "PRIMARY KEY (k, c, d)) WITH CLUSTERING ORDER BY (c DESC, d ASC)");
    // Partitions 0..4: c in 0..3, d in 0..2; v = k*100 + c*10 + d. Partition 5: static only.
    for (int k = 0; k < 5; ++k) {
      (void)Run("INSERT INTO ks.t (k, s) VALUES (" + std::to_string(k) + ", " +
                std::to_string(k * 7) + ")");
      for (int c = 0; c < 4; ++c) {
        for (int d = 0; d < 3; ++d) {
          (void)Run("INSERT INTO ks.t (k, c, d, v) VALUES (" + std::to_string(k) + ", " +
                    std::to_string(c) + ", " + std::to_string(d) + ", " +
                    std::to_string(k * 100 + c * 10 + d) + ")");
        }
      }
    }
    (void)Run("INSERT INTO ks.t (k, s) VALUES (5, 35)");
  }

  // Every page of `query` at `page_size`, concatenated; `pages` counts them.
  std::vector<schema::Row> AllPages(const std::string& query, int page_size, int& pages) {
    std::vector<schema::Row> rows;
    protocol::QueryParameters params;
    params.page_size = page_size;
    pages = 0;
    std::optional<Bytes> state;
    do {
      if (state) params.paging_state = BytesView(*state);
      RowsResult page = Rows(query, params);
      ++pages;
      EXPECT_LE(page.rows.size(), static_cast<size_t>(page_size)) << query;
      for (auto& row : page.rows) rows.push_back(std::move(row));
      state = std::move(page.paging_state);
      if (pages > 1000) {
        ADD_FAILURE() << "paging does not end: " << query;
        break;
      }
    } while (state);
    return rows;
  }

  void ExpectEveryPageSizeGivesTheSameRows(const std::string& query) {
    const std::vector<schema::Row> all = Rows(query).rows;
    for (int page_size : {1, 2, 3, 5, 7, 1000}) {
      int pages = 0;
      EXPECT_EQ(AllPages(query, page_size, pages), all) << query << " at page size " << page_size;
    }
  }

  static OptBytes Int(int32_t v) { return types::EncodeInt(v); }
  static OptBytes Bigint(int64_t v) { return types::EncodeBigint(v); }
};

TEST_F(SelectPagingTest, EveryShapePagesToTheUnpagedResult) {
  for (const char* query : {
           "SELECT * FROM ks.t",
           "SELECT * FROM ks.t WHERE k = 2",
           "SELECT * FROM ks.t WHERE k IN (3, 1, 5)",
           "SELECT * FROM ks.t WHERE k = 1 AND c = 2",
           "SELECT * FROM ks.t WHERE k = 1 AND c >= 1 AND c < 3",
           "SELECT * FROM ks.t WHERE k = 1 AND c IN (0, 3) AND d > 0",
           "SELECT * FROM ks.t WHERE k = 1 ORDER BY c ASC, d DESC",
           "SELECT * FROM ks.t WHERE v > 150 AND v < 330 ALLOW FILTERING",
           "SELECT * FROM ks.t WHERE d = 1 ALLOW FILTERING",
           "SELECT * FROM ks.t PER PARTITION LIMIT 2",
           "SELECT * FROM ks.t WHERE v > 120 PER PARTITION LIMIT 2 ALLOW FILTERING",
           "SELECT * FROM ks.t LIMIT 13",
           "SELECT k, s FROM ks.t WHERE k IN (0, 4) LIMIT 5",
           "SELECT DISTINCT k, s FROM ks.t",
           "SELECT DISTINCT k FROM ks.t WHERE k IN (1, 2, 5)",
           "SELECT k, c, count(*) FROM ks.t GROUP BY k, c",
           "SELECT k, max(v) FROM ks.t GROUP BY k",
           "SELECT k, c FROM ks.t WHERE k IN (1, 2) GROUP BY k, c",
           "SELECT k, c, d FROM ks.t GROUP BY k, c PER PARTITION LIMIT 2 LIMIT 7",
       }) {
    ExpectEveryPageSizeGivesTheSameRows(query);
  }
}

TEST_F(SelectPagingTest, RowsComeInClusteringOrderAndInSortedPartitionOrder) {
  const std::vector<schema::Row> rows = Rows("SELECT k, c, d FROM ks.t WHERE k = 1").rows;
  ASSERT_EQ(rows.size(), 12u);
  EXPECT_EQ(rows.front(), (schema::Row{Int(1), Int(3), Int(0)}));  // c DESC, d ASC
  EXPECT_EQ(rows[1], (schema::Row{Int(1), Int(3), Int(1)}));
  EXPECT_EQ(rows.back(), (schema::Row{Int(1), Int(0), Int(2)}));
  // IN answers partitions in the order of their values, as Cassandra does.
  const std::vector<schema::Row> in = Rows("SELECT DISTINCT k FROM ks.t WHERE k IN (4, 0, 2)").rows;
  EXPECT_EQ(in, (std::vector<schema::Row>{{Int(0)}, {Int(2)}, {Int(4)}}));
}

TEST_F(SelectPagingTest, LimitsCountAsCassandraCounts) {
  EXPECT_EQ(Rows("SELECT * FROM ks.t LIMIT 13").rows.size(), 13u);
  // Six partitions: five with 12 rows, one shown by its static row alone.
  EXPECT_EQ(Rows("SELECT * FROM ks.t").rows.size(), 61u);
  EXPECT_EQ(Rows("SELECT * FROM ks.t PER PARTITION LIMIT 2").rows.size(), 11u);
  EXPECT_EQ(Rows("SELECT DISTINCT k, s FROM ks.t").rows.size(), 6u);
  // GROUP BY: LIMIT and PER PARTITION LIMIT count groups.
  EXPECT_EQ(Rows("SELECT k, c FROM ks.t GROUP BY k, c").rows.size(), 21u);
  EXPECT_EQ(Rows("SELECT k, c FROM ks.t GROUP BY k, c PER PARTITION LIMIT 1").rows.size(), 6u);
  EXPECT_EQ(Rows("SELECT k, c FROM ks.t GROUP BY k, c LIMIT 3").rows.size(), 3u);
}

TEST_F(SelectPagingTest, AggregatesReadEverythingAndAnswerOneRow) {
  RowsResult count = Rows("SELECT count(*) FROM ks.t");
  ASSERT_EQ(count.rows.size(), 1u);
  EXPECT_EQ(count.rows[0][0], Bigint(61));
  EXPECT_FALSE(count.paging_state);
  protocol::QueryParameters params;
  params.page_size = 4;  // pages internally, still one row
  RowsResult paged = Rows("SELECT count(*), max(v) FROM ks.t WHERE k = 3", params);
  ASSERT_EQ(paged.rows.size(), 1u);
  EXPECT_EQ(paged.rows[0][0], Bigint(12));
  EXPECT_EQ(paged.rows[0][1], Int(332));
  EXPECT_FALSE(paged.paging_state);
  // Without rows an aggregate still answers, with count 0.
  RowsResult none = Rows("SELECT count(*) FROM ks.t WHERE k = 42");
  ASSERT_EQ(none.rows.size(), 1u);
  EXPECT_EQ(none.rows[0][0], Bigint(0));
  // GROUP BY without rows answers nothing.
  EXPECT_TRUE(Rows("SELECT k, count(*) FROM ks.t WHERE k = 42 GROUP BY k").rows.empty());
}

TEST_F(SelectPagingTest, GroupByShowsTheFirstRowOfEachGroup) {
  const std::vector<schema::Row> rows =
      Rows("SELECT k, c, d, count(*) FROM ks.t WHERE k = 2 GROUP BY k, c").rows;
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0], (schema::Row{Int(2), Int(3), Int(0), Bigint(3)}));
  EXPECT_EQ(rows[3], (schema::Row{Int(2), Int(0), Int(0), Bigint(3)}));
}

TEST_F(SelectPagingTest, PagesResumeByValueWhileWritesGoOn) {
  protocol::QueryParameters params;
  params.page_size = 5;
  RowsResult first = Rows("SELECT k, c, d FROM ks.t WHERE k = 1", params);
  ASSERT_EQ(first.rows.size(), 5u);
  ASSERT_TRUE(first.paging_state);
  // The fifth row is (1, 2, 1). Rows written before and after the position.
  (void)Run("INSERT INTO ks.t (k, c, d, v) VALUES (1, 3, 9, 0)");  // before: not seen
  (void)Run("INSERT INTO ks.t (k, c, d, v) VALUES (1, 2, 5, 0)");  // after: seen
  (void)Run("DELETE FROM ks.t WHERE k = 1 AND c = 2 AND d = 2");   // after: gone
  params.paging_state = BytesView(*first.paging_state);
  RowsResult second = Rows("SELECT k, c, d FROM ks.t WHERE k = 1", params);
  ASSERT_GE(second.rows.size(), 2u);
  EXPECT_EQ(second.rows[0], (schema::Row{Int(1), Int(2), Int(5)}));
  EXPECT_EQ(second.rows[1], (schema::Row{Int(1), Int(1), Int(0)}));
}

TEST_F(SelectPagingTest, OrderByWithInSortsUnpagedAndRefusesPaging) {
  const std::vector<schema::Row> rows =
      Rows("SELECT k, c, d FROM ks.t WHERE k IN (1, 2) AND c = 3 ORDER BY c ASC, d DESC").rows;
  ASSERT_EQ(rows.size(), 6u);
  // Sorted across partitions by clustering: d DESC within c = 3.
  EXPECT_EQ(rows[0][2], Int(2));
  EXPECT_EQ(rows[1][2], Int(2));
  EXPECT_EQ(rows[5][2], Int(0));
  protocol::QueryParameters params;
  params.page_size = 100;
  EXPECT_EQ(Error("SELECT * FROM ks.t WHERE k IN (1, 2) ORDER BY c ASC", params).what(),
            std::string("Cannot page queries with both ORDER BY and a IN restriction on the "
                        "partition key; you must either remove the ORDER BY or the IN and sort "
                        "client side, or disable paging for this query"));
}

TEST_F(SelectPagingTest, PrepareRefusalsOfLimitsGroupByAndOrderBy) {
  EXPECT_STREQ(Error("SELECT DISTINCT k FROM ks.t PER PARTITION LIMIT 2").what(),
               "PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries");
  EXPECT_STREQ(Error("SELECT count(*) FROM ks.t PER PARTITION LIMIT 2").what(),
               "PER PARTITION LIMIT is not allowed with aggregate queries.");
  EXPECT_STREQ(Error("SELECT k FROM ks.t GROUP BY v").what(),
               "Group by is currently only supported on the columns of the PRIMARY KEY, got v");
  EXPECT_STREQ(Error("SELECT k FROM ks.t GROUP BY k, d").what(),
               "Group by currently only support groups of columns following their declared "
               "order in the PRIMARY KEY");
  EXPECT_NO_THROW((void)Rows("SELECT k FROM ks.t WHERE k = 1 AND c = 2 GROUP BY k, d"));
  EXPECT_STREQ(Error("SELECT DISTINCT k FROM ks.t GROUP BY k, c").what(),
               "Grouping on clustering columns is not allowed for SELECT DISTINCT queries");
  EXPECT_STREQ(Error("SELECT k FROM ks.t WHERE k = 1 ORDER BY d ASC").what(),
               "Order by currently only supports the ordering of columns following their "
               "declared order in the PRIMARY KEY");
  // A column restricted by equality may be skipped.
  EXPECT_NO_THROW((void)Rows("SELECT k FROM ks.t WHERE k = 1 AND c = 1 ORDER BY d DESC"));
  EXPECT_STREQ(Error("SELECT * FROM ks.t LIMIT 0").what(), "LIMIT must be strictly positive");
}

// Tombstone thresholds, over a processor with small ones.
class TombstoneThresholdTest : public Fixture {
 protected:
  TombstoneThresholdTest()
      : Fixture(QueryProcessorOptions{
            .read_thresholds = {.tombstone_warn = 5, .tombstone_failure = 20}}) {}
};

TEST_F(TombstoneThresholdTest, WarnsThenFails) {
  CreateKeyspace();
  (void)Run("CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
  for (int c = 0; c < 8; ++c) {
    (void)Run("INSERT INTO ks.t (k, c, v) VALUES (1, " + std::to_string(c) + ", null)");
  }
  client_.warnings.clear();
  EXPECT_NO_THROW((void)Run("SELECT * FROM ks.t WHERE k = 1"));
  ASSERT_EQ(client_.warnings.size(), 1u);
  EXPECT_NE(client_.warnings[0].find("1 nodes scanned up to 8 tombstones and issued tombstone "
                                     "warnings for query SELECT * FROM ks.t"),
            std::string::npos)
      << client_.warnings[0];

  for (int c = 8; c < 30; ++c) {
    (void)Run("INSERT INTO ks.t (k, c, v) VALUES (1, " + std::to_string(c) + ", null)");
  }
  client_.warnings.clear();
  try {
    (void)Run("SELECT * FROM ks.t WHERE k = 1");
    ADD_FAILURE() << "expected a ReadFailure";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kReadFailure);
    EXPECT_NE(std::string(e.what()).find("READ_TOO_MANY_TOMBSTONES"), std::string::npos);
    const auto* info = std::get_if<ReadFailureInfo>(&e.detail());
    ASSERT_NE(info, nullptr);
    ASSERT_EQ(info->failures.size(), 1u);
    EXPECT_EQ(info->failures[0].code, 0x0001);
  }
}

}  // namespace
}  // namespace sibyl::query
