// Secondary indexes in the WHERE clause: which index answers which
// restriction, when ALLOW FILTERING is needed (Cassandra 4.1's
// StatementRestrictions and SelectStatement.checkNeedsFiltering), the
// refusals, and the IndexQuery the plan carries.

#include "query/restrictions/index_support.h"

#include <gtest/gtest.h>

#include "query/restrictions/restrictions_test_util.h"

namespace sibyl::query {
namespace {

using schema::IndexMetadata;
using schema::TableBuilder;
using testing::ErrorOf;
using testing::PreparedWhere;
using types::EncodeInt;

IndexMetadata Index(const std::string& name, const std::string& target,
                    const std::string& kind = "COMPOSITES", const std::string& class_name = "") {
  IndexMetadata index;
  index.name = name;
  index.kind = kind;
  index.options["target"] = target;
  if (!class_name.empty()) index.options["class_name"] = class_name;
  index.id = types::Uuid::NameBased(name);
  return index;
}

types::Uuid IdOf(const std::string& name) { return types::Uuid::NameBased(name); }

class IndexSupportTest : public ::testing::Test {
 protected:
  IndexSupportTest()
      : table_(TableBuilder("ks", "t")
                   .PartitionKey("k", "int")
                   .Clustering("c", "int")
                   .Clustering("d", "int")
                   .Column("v", "int")
                   .Column("w", "int")
                   .Column("u", "int")
                   .Column("x", "int")
                   .Column("txt", "text")
                   .Static("s", "int")
                   .Column("l", "list<int>")
                   .Column("st", "set<int>")
                   .Column("m", "map<int, int>")
                   .Column("m2", "map<int, int>")
                   .Column("m3", "map<int, int>")
                   .Column("f", "frozen<list<int>>")
                   .Index(Index("v_idx", "v"))
                   .Index(Index("w_idx", "w"))
                   .Index(Index("u_idx", "u", "CUSTOM", "org.example.OtherIndex"))
                   .Index(Index("x_idx", "x", "CUSTOM",
                                "org.apache.cassandra.index.sai.StorageAttachedIndex"))
                   .Index(Index("txt_idx", "txt"))
                   .Index(Index("s_idx", "s"))
                   .Index(Index("l_idx", "values(l)"))
                   .Index(Index("st_idx", "values(st)"))
                   .Index(Index("m_idx", "keys(m)"))
                   .Index(Index("m2_idx", "values(m2)"))
                   .Index(Index("m3_idx", "entries(m3)"))
                   .Index(Index("f_idx", "full(f)"))
                   .Build()),
        keys_(TableBuilder("ks", "keys")
                  .PartitionKey("k1", "int")
                  .PartitionKey("k2", "int")
                  .Clustering("c", "int")
                  .Clustering("fc", "frozen<set<int>>")
                  .Column("v", "int")
                  .Column("n", "int")
                  .Index(Index("k1_idx", "k1"))
                  .Index(Index("c_idx", "c"))
                  .Index(Index("kv_idx", "v"))
                  .Build()),
        plain_(TableBuilder("ks", "plain")
                   .PartitionKey("k", "int")
                   .Clustering("fc", "frozen<set<int>>")
                   .Column("v", "int")
                   .Build()) {}

  BoundRestrictions Plan(const schema::TableMetadata& table, const std::string& where,
                         std::vector<std::optional<Bytes>> values = {}) {
    prepared_ = std::make_unique<PreparedWhere>(table, "SELECT * FROM t WHERE " + where);
    return prepared_->Bind(std::move(values));
  }
  BoundRestrictions Plan(const std::string& where, std::vector<std::optional<Bytes>> values = {}) {
    return Plan(*table_, where, std::move(values));
  }
  // The error preparing `where` gives, "" when it prepares.
  std::string Error(const schema::TableMetadata& table, const std::string& where,
                    bool ordered = false) {
    try {
      cql::ParsedStatement parsed = cql::ParseStatement("SELECT * FROM t WHERE " + where);
      const auto& statement = std::get<cql::SelectStatement>(parsed.statement);
      BindSpecCollector binds(table.keyspace, table.name, parsed.bind_marker_count);
      (void)Restrictions::Prepare(table, statement.where, statement.allow_filtering, binds,
                                  ordered);
    } catch (const CqlError& e) {
      return e.what();
    }
    return "";
  }
  std::string Error(const std::string& where, bool ordered = false) {
    return Error(*table_, where, ordered);
  }

  schema::TablePtr table_;
  schema::TablePtr keys_;
  schema::TablePtr plain_;
  std::unique_ptr<PreparedWhere> prepared_;
};

TEST_F(IndexSupportTest, OperatorsEachIndexAnswers) {
  const auto& t = *table_;
  auto answers = [&](const char* column, IndexOperator op) {
    return FindSupportingIndex(t, static_cast<size_t>(t.ColumnIndex(column)), op) != nullptr;
  };
  EXPECT_TRUE(answers("v", IndexOperator::kEq));
  EXPECT_TRUE(answers("s", IndexOperator::kEq));
  EXPECT_FALSE(answers("u", IndexOperator::kEq));  // a CUSTOM class Sibyl cannot query
  EXPECT_TRUE(answers("x", IndexOperator::kEq));   // SAI, served like a plain index
  EXPECT_TRUE(answers("l", IndexOperator::kContains));
  EXPECT_TRUE(answers("st", IndexOperator::kContains));
  EXPECT_TRUE(answers("m", IndexOperator::kContainsKey));
  EXPECT_FALSE(answers("m", IndexOperator::kContains));
  EXPECT_TRUE(answers("m2", IndexOperator::kContains));
  EXPECT_FALSE(answers("m2", IndexOperator::kContainsKey));
  EXPECT_TRUE(answers("m3", IndexOperator::kMapEntry));
  EXPECT_FALSE(answers("m3", IndexOperator::kContains));
  EXPECT_TRUE(answers("f", IndexOperator::kEq));
  EXPECT_FALSE(answers("f", IndexOperator::kContains));
  const auto& k = *keys_;
  EXPECT_TRUE(FindSupportingIndex(k, 0, IndexOperator::kEq) != nullptr);   // k1
  EXPECT_FALSE(FindSupportingIndex(k, 1, IndexOperator::kEq) != nullptr);  // k2
  EXPECT_TRUE(FindSupportingIndex(k, 2, IndexOperator::kEq) != nullptr);   // c
}

TEST_F(IndexSupportTest, OneIndexedRestrictionNeedsNoAllowFiltering) {
  for (const char* where : {"v = 1", "k = 1 AND v = 1", "token(k) > 0 AND v = 1", "s = 1", "x = 1",
                            "l CONTAINS 1", "st CONTAINS 1", "m CONTAINS KEY 1", "m2 CONTAINS 1",
                            "m3[1] = 2", "f = [1, 2]", "k = 1 AND c = 1 AND v = 1",
                            "k = 1 AND c > 1 AND v = 1", "k = 1 AND c = 1 AND d = 1 AND v = 1"}) {
    EXPECT_EQ(Error(where), "") << where;
  }
  // Indexes on key columns.
  for (const char* where : {"k1 = 1", "c = 1", "v = 1", "k1 = 1 AND k2 = 2 AND v = 1"}) {
    EXPECT_EQ(Error(*keys_, where), "") << where;
  }
}

TEST_F(IndexSupportTest, MoreThanOneRestrictionToFilterNeedsAllowFiltering) {
  const std::string message(kRequiresAllowFilteringMessage);
  for (const std::string where :
       {"v = 1 AND w = 1", "v = 1 AND u = 1", "c = 1 AND v = 1", "c > 1 AND v = 1",
        "l CONTAINS 1 AND l CONTAINS 2", "m3[1] = 2 AND m3[2] = 3", "m CONTAINS KEY 1 AND v = 1",
        "v > 1", "m CONTAINS 1", "m2 CONTAINS KEY 1", "f CONTAINS 1", "u = 1",
        "k = 1 AND v = 1 AND w = 1", "k = 1 AND d = 1 AND v = 1", "k > 1 AND v = 1"}) {
    EXPECT_EQ(Error(where), message) << where;
    EXPECT_EQ(Error(where + " ALLOW FILTERING"), "") << where;
  }
  // A partial partition key is a restriction to filter beside the index's.
  for (const std::string where : {"k1 = 1 AND v = 1", "k1 = 1 AND c = 1", "c = 1 AND v = 1"}) {
    EXPECT_EQ(Error(*keys_, where), message) << where;
    EXPECT_EQ(Error(*keys_, where + " ALLOW FILTERING"), "") << where;
  }
}

TEST_F(IndexSupportTest, Refusals) {
  const std::string pk_in =
      "Select on indexed columns and with IN clause for the PRIMARY KEY are not supported";
  EXPECT_EQ(Error("k IN (1, 2) AND v = 1"), pk_in);
  EXPECT_EQ(Error("k IN (1, 2) AND v = 1 ALLOW FILTERING"), pk_in);
  EXPECT_EQ(Error("k IN ? AND l CONTAINS 1"), pk_in);
  // Without an index in use, IN on the partition key filters as before.
  EXPECT_EQ(Error("k IN (1, 2) AND u = 1 ALLOW FILTERING"), "");
  // No index answers v > 1 (4.1's hasQueriableIndex is false).
  EXPECT_EQ(Error("k IN (1, 2) AND v > 1 ALLOW FILTERING"), "");
  EXPECT_EQ(Error("v IN (1, 2)"),
            "IN predicates on non-primary-key columns (v) is not yet supported");
  EXPECT_EQ(Error("v IN (1, 2) ALLOW FILTERING"),
            "IN predicates on non-primary-key columns (v) is not yet supported");
  EXPECT_EQ(Error("v IN (1)"), "");  // an IN of one value is an =
  EXPECT_EQ(Error("k = 1 AND v = 1", /*ordered=*/true),
            "ORDER BY with 2ndary indexes is not supported.");
  EXPECT_EQ(Error("v = 1 AND w = 1", /*ordered=*/true),
            "ORDER BY with 2ndary indexes is not supported.");
  EXPECT_EQ(Error("k = 1 AND u = 1 ALLOW FILTERING", /*ordered=*/true), "");
  const std::string contains =
      "Clustering columns can only be restricted with CONTAINS with a secondary index or "
      "filtering";
  EXPECT_EQ(Error(*plain_, "k = 1 AND fc CONTAINS 1"), contains);
  // An index answering any restriction lifts the CONTAINS refusal (4.1's
  // hasQueriableIndex: here the one on k1); the count of restrictions to
  // filter then decides.
  EXPECT_EQ(Error(*keys_, "k1 = 1 AND k2 = 1 AND fc CONTAINS 1"), "");
  EXPECT_EQ(Error(*keys_, "k1 = 1 AND k2 = 1 AND fc CONTAINS 1 AND v = 1"),
            std::string(kRequiresAllowFilteringMessage));
  EXPECT_EQ(Error(*keys_, "k1 = 1 AND k2 = 1 AND fc CONTAINS 1 AND v = 1 ALLOW FILTERING"), "");
}

TEST_F(IndexSupportTest, PlanReadsThroughTheIndex) {
  auto eq = Plan("v = 5");
  EXPECT_FALSE(eq.plan.partitions);
  ASSERT_TRUE(eq.plan.index);
  EXPECT_EQ(*eq.plan.index, (storage::IndexQuery{IdOf("v_idx"), EncodeInt(5), std::nullopt}));
  ASSERT_EQ(eq.filter.conditions().size(), 1u);  // checked again
  EXPECT_EQ(eq.filter.conditions()[0].column, static_cast<size_t>(table_->ColumnIndex("v")));

  auto marker = Plan("v = ?", {EncodeInt(7)});
  ASSERT_TRUE(marker.plan.index);
  EXPECT_EQ(marker.plan.index->value, EncodeInt(7));

  auto contains = Plan("l CONTAINS 3");
  ASSERT_TRUE(contains.plan.index);
  EXPECT_EQ(*contains.plan.index, (storage::IndexQuery{IdOf("l_idx"), EncodeInt(3), std::nullopt}));

  auto set = Plan("st CONTAINS ?", {EncodeInt(9)});
  ASSERT_TRUE(set.plan.index);
  EXPECT_EQ(*set.plan.index, (storage::IndexQuery{IdOf("st_idx"), EncodeInt(9), std::nullopt}));

  auto key = Plan("m CONTAINS KEY 4");
  ASSERT_TRUE(key.plan.index);
  EXPECT_EQ(*key.plan.index, (storage::IndexQuery{IdOf("m_idx"), EncodeInt(4), std::nullopt}));

  auto values = Plan("m2 CONTAINS 6");
  ASSERT_TRUE(values.plan.index);
  EXPECT_EQ(*values.plan.index, (storage::IndexQuery{IdOf("m2_idx"), EncodeInt(6), std::nullopt}));

  auto entry = Plan("m3[1] = ?", {EncodeInt(2)});
  ASSERT_TRUE(entry.plan.index);
  EXPECT_EQ(*entry.plan.index, (storage::IndexQuery{IdOf("m3_idx"), EncodeInt(1), EncodeInt(2)}));

  auto frozen = Plan("f = [1, 2]");
  ASSERT_TRUE(frozen.plan.index);
  EXPECT_EQ(*frozen.plan.index,
            (storage::IndexQuery{IdOf("f_idx"), types::EncodeList({EncodeInt(1), EncodeInt(2)}),
                                 std::nullopt}));

  auto sai = Plan("x = 3");
  ASSERT_TRUE(sai.plan.index);
  EXPECT_EQ(sai.plan.index->index_id, IdOf("x_idx"));
}

TEST_F(IndexSupportTest, NamedPartitionsAreReadWithoutTheIndex) {
  auto named = Plan("k = 1 AND v = 5");
  ASSERT_TRUE(named.plan.partitions);
  EXPECT_FALSE(named.plan.index);
  EXPECT_EQ(named.filter.conditions().size(), 1u);

  auto full_key = Plan(*keys_, "k1 = 1 AND k2 = 2 AND v = 3");
  ASSERT_TRUE(full_key.plan.partitions);
  EXPECT_FALSE(full_key.plan.index);

  // No index: as before.
  auto plain = Plan("u = 1 ALLOW FILTERING");
  EXPECT_FALSE(plain.plan.partitions);
  EXPECT_FALSE(plain.plan.index);
}

TEST_F(IndexSupportTest, TheFirstAnsweredRestrictionInColumnOrderChoosesTheIndex) {
  auto two = Plan("w = 1 AND v = 2 ALLOW FILTERING");
  ASSERT_TRUE(two.plan.index);
  EXPECT_EQ(*two.plan.index, (storage::IndexQuery{IdOf("v_idx"), EncodeInt(2), std::nullopt}));
  EXPECT_EQ(two.filter.conditions().size(), 2u);

  auto unindexed_first = Plan("u = 1 AND w = 4 AND v > 0 ALLOW FILTERING");
  ASSERT_TRUE(unindexed_first.plan.index);
  EXPECT_EQ(unindexed_first.plan.index->index_id, IdOf("w_idx"));

  auto partial_key = Plan(*keys_, "k1 = 7 AND v = 1 ALLOW FILTERING");
  ASSERT_TRUE(partial_key.plan.index);
  EXPECT_EQ(*partial_key.plan.index,
            (storage::IndexQuery{IdOf("k1_idx"), EncodeInt(7), std::nullopt}));

  auto clustering = Plan(*keys_, "c = 3");
  ASSERT_TRUE(clustering.plan.index);
  EXPECT_EQ(*clustering.plan.index,
            (storage::IndexQuery{IdOf("c_idx"), EncodeInt(3), std::nullopt}));
}

TEST_F(IndexSupportTest, TokenRestrictionsNarrowTheIndexRead) {
  auto read = Plan("token(k) > 10 AND token(k) <= 20 AND v = 1");
  ASSERT_TRUE(read.plan.index);
  EXPECT_EQ(read.plan.range.start, 10);
  EXPECT_EQ(read.plan.range.end, 20);
}

TEST_F(IndexSupportTest, IndexValueChecks) {
  EXPECT_EQ(testing::ErrorOf([&] { (void)Plan("v = ?", {std::nullopt}); }),
            "Unsupported null value for column v");
  EXPECT_EQ(testing::ErrorOf([&] { (void)Plan("txt = ?", {Bytes(70000, 'a')}); }),
            "Index expression values may not be larger than 64K");
  EXPECT_NO_THROW((void)Plan("txt = ?", {Bytes(65535, 'a')}));
}

}  // namespace
}  // namespace sibyl::query
