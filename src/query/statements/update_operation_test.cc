// Column operations end to end: statements through the QueryProcessor, their
// mutations applied by storage::ReferenceEngine (the engine semantics'
// model), and read back with SELECT. Checks that the cells, paths and
// tombstones the operations write mean what Cassandra means by them.

#include "query/statements/update_operation.h"

#include "query/read/engine_test_util.h"
#include "storage/reference/reference_engine.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

class UpdateOperationTest : public testing::StorageQueryTest<storage::ReferenceEngine> {
 protected:
  void SetUp() override {
    CreateKeyspace();
    (void)Run(
        "CREATE TABLE ks.c (k int PRIMARY KEY, l list<int>, st set<text>, "
        "m map<text, int>, v int)");
    (void)Run("CREATE TABLE ks.r (k int, c int, v int, s int static, PRIMARY KEY (k, c))");
    (void)Run("CREATE TABLE ks.n (k int PRIMARY KEY, hits counter)");
  }

  // The one value `query` selects (a single row, single column), or nullopt.
  OptBytes Value1(std::string_view query) {
    RowsResult rows = Rows(query);
    if (rows.rows.size() != 1) {
      ADD_FAILURE() << query << " returned " << rows.rows.size() << " rows";
      return std::nullopt;
    }
    return rows.rows[0].at(0);
  }

  std::vector<int32_t> List(std::string_view query) {
    OptBytes value = Value1(query);
    std::vector<int32_t> out;
    if (!value) return out;
    for (BytesView e : types::DecodeListElements(*value)) out.push_back(types::DecodeInt(e));
    return out;
  }

  std::vector<std::string> Texts(std::string_view query) {
    OptBytes value = Value1(query);
    std::vector<std::string> out;
    if (!value) return out;
    for (BytesView e : types::DecodeListElements(*value)) out.emplace_back(e);
    return out;
  }

  std::vector<int32_t> ClusteringsOf(std::string_view query) {
    std::vector<int32_t> out;
    for (const auto& row : Rows(query).rows) out.push_back(types::DecodeInt(*row.at(0)));
    return out;
  }
};

using Ints = std::vector<int32_t>;

TEST_F(UpdateOperationTest, ListAppendAndPrependOrder) {
  (void)Run("INSERT INTO ks.c (k, l) VALUES (1, [1, 2])");
  (void)Run("UPDATE ks.c SET l = l + [3] WHERE k = 1");
  (void)Run("UPDATE ks.c SET l = [0] + l WHERE k = 1");
  (void)Run("UPDATE ks.c SET l = [-2, -1] + l WHERE k = 1");
  EXPECT_EQ(List("SELECT l FROM ks.c WHERE k = 1"), (Ints{-2, -1, 0, 1, 2, 3}));
}

TEST_F(UpdateOperationTest, ListOperationsThatReadFirst) {
  (void)Run("INSERT INTO ks.c (k, l) VALUES (1, [10, 20, 30, 20])");
  (void)Run("UPDATE ks.c SET l[1] = 21 WHERE k = 1");
  EXPECT_EQ(List("SELECT l FROM ks.c WHERE k = 1"), (Ints{10, 21, 30, 20}));
  (void)Run("DELETE l[0] FROM ks.c WHERE k = 1");
  EXPECT_EQ(List("SELECT l FROM ks.c WHERE k = 1"), (Ints{21, 30, 20}));
  (void)Run("UPDATE ks.c SET l = l - [20, 99] WHERE k = 1");
  EXPECT_EQ(List("SELECT l FROM ks.c WHERE k = 1"), (Ints{21, 30}));
  EXPECT_STREQ(Error("UPDATE ks.c SET l[5] = 1 WHERE k = 1").what(),
               "List index 5 out of bound, list has size 2");
  EXPECT_STREQ(Error("UPDATE ks.c SET l[0] = 1 WHERE k = 2").what(),
               "Attempted to set an element on a list which is null");
}

TEST_F(UpdateOperationTest, SettingACollectionReplacesIt) {
  (void)Run("INSERT INTO ks.c (k, l, st) VALUES (1, [1, 2], {'a', 'b'})");
  (void)Run("UPDATE ks.c SET l = [7], st = {'z'} WHERE k = 1");
  EXPECT_EQ(List("SELECT l FROM ks.c WHERE k = 1"), (Ints{7}));
  EXPECT_EQ(Texts("SELECT st FROM ks.c WHERE k = 1"), (std::vector<std::string>{"z"}));
}

TEST_F(UpdateOperationTest, SetAndMapElements) {
  (void)Run("UPDATE ks.c SET st = st + {'b', 'a', 'c'} WHERE k = 1");
  (void)Run("UPDATE ks.c SET st = st - {'a'} WHERE k = 1");
  (void)Run("DELETE st['c'] FROM ks.c WHERE k = 1");
  EXPECT_EQ(Texts("SELECT st FROM ks.c WHERE k = 1"), (std::vector<std::string>{"b"}));

  (void)Run("UPDATE ks.c SET m['x'] = 1, m = m + {'y': 2, 'z': 3} WHERE k = 1");
  (void)Run("UPDATE ks.c SET m = m - {'x'} WHERE k = 1");
  (void)Run("DELETE m['z'] FROM ks.c WHERE k = 1");
  OptBytes m = Value1("SELECT m FROM ks.c WHERE k = 1");
  ASSERT_TRUE(m);
  auto entries = types::DecodeMapEntries(*m);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].first, "y");
  EXPECT_EQ(types::DecodeInt(entries[0].second), 2);
}

TEST_F(UpdateOperationTest, InsertKeepsTheRowUpdateDoesNot) {
  (void)Run("INSERT INTO ks.c (k, v) VALUES (1, 5)");
  (void)Run("UPDATE ks.c SET v = 6 WHERE k = 2");
  (void)Run("DELETE v FROM ks.c WHERE k = 1");
  (void)Run("DELETE v FROM ks.c WHERE k = 2");
  RowsResult rows = Rows("SELECT k, v FROM ks.c");
  ASSERT_EQ(rows.rows.size(), 1u);  // the row marker keeps k = 1
  EXPECT_EQ(rows.rows[0][0], types::EncodeInt(1));
  EXPECT_FALSE(rows.rows[0][1]);
}

TEST_F(UpdateOperationTest, RangeAndRowDeletions) {
  for (int c = 1; c <= 5; ++c) {
    (void)Run("INSERT INTO ks.r (k, c, v) VALUES (1, " + std::to_string(c) + ", 0)");
  }
  (void)Run("DELETE FROM ks.r WHERE k = 1 AND c > 1 AND c <= 3");
  EXPECT_EQ(ClusteringsOf("SELECT c FROM ks.r WHERE k = 1"), (Ints{1, 4, 5}));
  (void)Run("DELETE FROM ks.r WHERE k = 1 AND c = 4");
  EXPECT_EQ(ClusteringsOf("SELECT c FROM ks.r WHERE k = 1"), (Ints{1, 5}));
  (void)Run("DELETE FROM ks.r WHERE k = 1");
  EXPECT_TRUE(Rows("SELECT c FROM ks.r WHERE k = 1").rows.empty());
}

TEST_F(UpdateOperationTest, StaticColumns) {
  (void)Run("INSERT INTO ks.r (k, c, v) VALUES (1, 1, 0)");
  (void)Run("INSERT INTO ks.r (k, c, v) VALUES (1, 2, 0)");
  (void)Run("UPDATE ks.r SET s = 9 WHERE k = 1");
  RowsResult rows = Rows("SELECT s FROM ks.r WHERE k = 1");
  ASSERT_EQ(rows.rows.size(), 2u);
  EXPECT_EQ(rows.rows[1][0], types::EncodeInt(9));
}

TEST_F(UpdateOperationTest, CountersAddUp) {
  (void)Run("UPDATE ks.n SET hits = hits + 5 WHERE k = 1");
  (void)Run("UPDATE ks.n SET hits = hits - 2 WHERE k = 1");
  EXPECT_EQ(Value1("SELECT hits FROM ks.n WHERE k = 1"), types::EncodeBigint(3));
}

TEST_F(UpdateOperationTest, TtlExpires) {
  (void)Run("INSERT INTO ks.c (k, v) VALUES (1, 5) USING TTL 10");
  EXPECT_EQ(Rows("SELECT v FROM ks.c WHERE k = 1").rows.size(), 1u);
  clock_.AdvanceSeconds(11);
  EXPECT_TRUE(Rows("SELECT v FROM ks.c WHERE k = 1").rows.empty());
}

TEST_F(UpdateOperationTest, LaterTimestampWinsWhateverTheOrder) {
  (void)Run("INSERT INTO ks.c (k, v) VALUES (1, 2) USING TIMESTAMP 200");
  (void)Run("INSERT INTO ks.c (k, v) VALUES (1, 1) USING TIMESTAMP 100");
  EXPECT_EQ(Value1("SELECT v FROM ks.c WHERE k = 1"), types::EncodeInt(2));
  (void)Run("DELETE v FROM ks.c USING TIMESTAMP 150 WHERE k = 1");
  EXPECT_EQ(Value1("SELECT v FROM ks.c WHERE k = 1"), types::EncodeInt(2));
}

}  // namespace
}  // namespace sibyl::query
