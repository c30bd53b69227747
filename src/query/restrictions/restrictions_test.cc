// What Restrictions accepts and refuses, with Cassandra 4.1's messages.

#include "query/restrictions/restrictions.h"

#include <gtest/gtest.h>

#include "query/restrictions/restrictions_test_util.h"

namespace sibyl::query {
namespace {

using schema::ClusteringOrder;
using schema::TableBuilder;
using testing::ErrorOf;
using testing::PreparedWhere;

class RestrictionsTest : public ::testing::Test {
 protected:
  RestrictionsTest()
      : table_(TableBuilder("ks", "t")
                   .PartitionKey("k", "int")
                   .Clustering("a", "int")
                   .Clustering("b", "int")
                   .Clustering("c", "int")
                   .Column("v", "int")
                   .Static("s", "int")
                   .Column("m", "map<text, int>")
                   .Column("fm", "frozen<map<text, int>>")
                   .Column("l", "list<int>")
                   .Column("d", "duration")
                   .Build()),
        composite_(TableBuilder("ks", "c")
                       .PartitionKey("k1", "int")
                       .PartitionKey("k2", "int")
                       .Clustering("a", "int")
                       .Column("v", "int")
                       .Build()) {}

  std::string PrepareError(const schema::TableMetadata& table, const std::string& where) {
    return ErrorOf([&] { PreparedWhere prepared(table, "SELECT * FROM t WHERE " + where); });
  }
  std::string PrepareError(const std::string& where) { return PrepareError(*table_, where); }
  void Accepts(const schema::TableMetadata& table, const std::string& where) {
    EXPECT_NO_THROW(PreparedWhere(table, "SELECT * FROM t WHERE " + where)) << where;
  }
  void Accepts(const std::string& where) { Accepts(*table_, where); }

  schema::TablePtr table_;
  schema::TablePtr composite_;
};

const std::string kFiltering(kRequiresAllowFilteringMessage);

TEST_F(RestrictionsTest, AcceptsKeyShapes) {
  Accepts("k = 1");
  Accepts("k IN (1, 2)");
  Accepts("k IN ?");
  Accepts("k = 1 AND a = 1 AND b IN (1, 2) AND c > 3");
  Accepts("k = 1 AND a IN (1, 2) AND b > 3 AND b <= 5");
  Accepts("k = 1 AND (a, b) > (1, 2)");
  Accepts("k = 1 AND (a, b) > (1, 2) AND (a) < (3)");
  Accepts("k = 1 AND (a, b) > (1, 2) AND a < 3");
  Accepts("k = 1 AND a = 1 AND (b, c) IN ((1, 2), (3, 4))");
  Accepts("k = 1 AND (a, b) = (1, 2) AND c >= 3");
  Accepts("token(k) > 5");
  Accepts("token(k) > 5 AND token(k) <= 10");
  Accepts("token(k) > 5 AND k = 3");
  Accepts(*composite_, "k1 = 1 AND k2 IN (1, 2)");
  Accepts(*composite_, "token(k1, k2) = 5");
  Accepts("k = 1 AND b = 2 ALLOW FILTERING");
  Accepts("k > 1 ALLOW FILTERING");
  Accepts("v = 1 ALLOW FILTERING");
  Accepts("m CONTAINS 1 AND m CONTAINS KEY 'a' AND m['a'] = 1 ALLOW FILTERING");
  Accepts("a = 1 ALLOW FILTERING");
}

TEST_F(RestrictionsTest, Accessors) {
  PreparedWhere in(*table_, "SELECT * FROM t WHERE k IN (1, 2) AND a = 1 AND (b, c) = (1, 2)");
  EXPECT_TRUE(in.restrictions().selects_partitions());
  EXPECT_FALSE(in.restrictions().selects_one_partition());
  EXPECT_TRUE(in.restrictions().partition_key_in());
  EXPECT_TRUE(in.restrictions().has_clustering_restrictions());
  EXPECT_FALSE(in.restrictions().has_non_key_restrictions());
  EXPECT_TRUE(in.restrictions().IsRestrictedByEq(1));
  EXPECT_TRUE(in.restrictions().IsRestrictedByEq(3));
  EXPECT_FALSE(in.restrictions().IsRestrictedByEq(0));

  PreparedWhere token(*table_, "SELECT * FROM t WHERE token(k) > 1 AND k = 2");
  EXPECT_TRUE(token.restrictions().selects_one_partition());
  EXPECT_TRUE(token.restrictions().has_token_restriction());

  PreparedWhere markers(*composite_, "SELECT * FROM t WHERE k2 = ? AND k1 = ?");
  EXPECT_EQ(markers.restrictions().PartitionKeyMarkers(*composite_), (std::vector<uint16_t>{1, 0}));
}

TEST_F(RestrictionsTest, RefusesFilteringWithoutAllowFiltering) {
  EXPECT_EQ(PrepareError("v = 1"), kFiltering);
  EXPECT_EQ(PrepareError("k > 1"), kFiltering);
  EXPECT_EQ(PrepareError(*composite_, "k1 = 1"), kFiltering);
  EXPECT_EQ(PrepareError("a = 1"), kFiltering);
  EXPECT_EQ(PrepareError("token(k) > 1 AND a = 1"), kFiltering);
  EXPECT_EQ(PrepareError("k = 1 AND m CONTAINS 1"), kFiltering);
}

TEST_F(RestrictionsTest, RefusesClusteringOrder) {
  EXPECT_EQ(PrepareError("k = 1 AND b = 1"),
            "PRIMARY KEY column \"b\" cannot be restricted as preceding column \"a\" is not "
            "restricted");
  EXPECT_EQ(PrepareError("k = 1 AND a > 1 AND b = 1"),
            "Clustering column \"b\" cannot be restricted (preceding column \"a\" is restricted "
            "by a non-EQ relation)");
  EXPECT_EQ(PrepareError("k = 1 AND a > 1 AND (b, c) IN ((1, 2))"),
            "Clustering column \"b\" cannot be restricted (preceding column \"a\" is restricted "
            "by a non-EQ relation)");
  EXPECT_EQ(PrepareError("k = 1 AND (b, c) > (1, 2) AND a > 1"),
            "PRIMARY KEY column \"b\" cannot be restricted (preceding column \"a\" is restricted "
            "by a non-EQ relation)");
  EXPECT_EQ(PrepareError("k = 1 AND (b, c) = (1, 2)"),
            "PRIMARY KEY column \"b\" cannot be restricted as preceding column \"a\" is not "
            "restricted");
}

TEST_F(RestrictionsTest, RefusesMultiColumnShapes) {
  EXPECT_EQ(PrepareError("(k, a) = (1, 2)"),
            "Multi-column relations can only be applied to clustering columns but was applied "
            "to: k");
  EXPECT_EQ(PrepareError("k = 1 AND (b, a) = (1, 2)"),
            "Clustering columns must appear in the PRIMARY KEY order in multi-column relations: "
            "(b, a) = (1, 2)");
  EXPECT_EQ(PrepareError("k = 1 AND (a, a) = (1, 2)"),
            "Column \"a\" appeared twice in a relation: (a, a) = (1, 2)");
  EXPECT_EQ(PrepareError("k = 1 AND (a, b) > (1, 2, 3)"),
            "Expected 2 elements in value tuple, but got 3: (1, 2, 3)");
  EXPECT_EQ(PrepareError("k = 1 AND (a, b, c) > (1, 2, 3) AND b < 1"),
            "Column \"b\" cannot be restricted by two inequalities not starting with the same "
            "column");
  EXPECT_EQ(PrepareError("k = 1 AND (a, b) > (1, 2) AND (b) < (1) AND a < 3"),
            "Column \"b\" cannot be restricted by two inequalities not starting with the same "
            "column");
  EXPECT_EQ(PrepareError("k = 1 AND a = 1 AND (a, b) > (1, 2)"),
            "a cannot be restricted by more than one relation if it includes an Equal");
  EXPECT_EQ(PrepareError("k = 1 AND (a, b) IN ((1, 2), (3, 4)) AND a = 1"),
            "a cannot be restricted by more than one relation if it includes a IN");
  EXPECT_EQ(PrepareError("k = 1 AND (a, b) > (1, 2) AND (a, b) > (0, 0)"),
            "More than one restriction was found for the start bound on a ,b");
  EXPECT_EQ(PrepareError("k = 1 AND (a, b) > (1, 2) AND a = 1"),
            "Column \"a\" cannot be restricted by both an equality and an inequality relation");
}

TEST_F(RestrictionsTest, RefusesSingleColumnMerges) {
  EXPECT_EQ(PrepareError("k = 1 AND k = 2"),
            "k cannot be restricted by more than one relation if it includes an Equal");
  EXPECT_EQ(PrepareError("k IN (1, 2) AND k = 2"),
            "k cannot be restricted by more than one relation if it includes a IN");
  EXPECT_EQ(PrepareError("k = 1 AND a > 1 AND a = 2"),
            "Column \"a\" cannot be restricted by both an equality and an inequality relation");
  EXPECT_EQ(PrepareError("k = 1 AND a > 1 AND a >= 2"),
            "More than one restriction was found for the start bound on a");
  EXPECT_EQ(PrepareError("k = 1 AND a < 1 AND a <= 2"),
            "More than one restriction was found for the end bound on a");
  EXPECT_EQ(PrepareError("m CONTAINS 1 AND m = {'a': 1} ALLOW FILTERING"),
            "Collection column 'm' (map<text, int>) cannot be restricted by a '=' relation");
  EXPECT_EQ(PrepareError("fm CONTAINS 1 AND fm = {'a': 1} ALLOW FILTERING"),
            "Collection column fm can only be restricted by CONTAINS, CONTAINS KEY, or map-entry "
            "equality");
}

TEST_F(RestrictionsTest, RefusesOperators) {
  EXPECT_EQ(PrepareError("k = 1 AND v != 1"), "Unsupported \"!=\" relation: v != 1");
  EXPECT_EQ(PrepareError("k = 1 AND v IS NOT NULL"), "Unsupported restriction: v IS NOT NULL");
  EXPECT_EQ(PrepareError("k = 1 AND v LIKE 'a%'"),
            "LIKE restriction is only supported on properly indexed columns. v LIKE 'a%' is not "
            "valid.");
  EXPECT_EQ(PrepareError("k = 1 AND v IN (1, 2)"),
            "IN predicates on non-primary-key columns (v) is not yet supported");
  EXPECT_EQ(PrepareError("k = 1 AND v CONTAINS 1"),
            "Cannot use CONTAINS on non-collection column v");
  EXPECT_EQ(PrepareError("k = 1 AND l CONTAINS KEY 1"),
            "Cannot use CONTAINS KEY on non-map column l");
  EXPECT_EQ(PrepareError("k = 1 AND l[1] = 1"),
            "Indexes on list entries (l[index] = value) are not currently supported.");
  EXPECT_EQ(PrepareError("k = 1 AND v['a'] = 1"), "Column v cannot be used as a map");
  EXPECT_EQ(PrepareError("k = 1 AND fm['a'] = 1"),
            "Map-entry equality predicates on frozen map column fm are not supported");
  EXPECT_EQ(PrepareError("k = 1 AND m['a'] > 1"), "Only EQ relations are supported on map entries");
  EXPECT_EQ(PrepareError("k = 1 AND d > 1h ALLOW FILTERING"),
            "Slice restrictions are not supported on duration columns");
  EXPECT_EQ(PrepareError("k = 1 AND x = 1"), "Undefined column name x in table ks.t");
}

TEST_F(RestrictionsTest, RefusesTokenShapes) {
  EXPECT_EQ(PrepareError(*composite_, "token(k1) > 1"),
            "The token() function must be applied to all partition key components or none of "
            "them");
  EXPECT_EQ(PrepareError(*composite_, "token(k1, k2, k1) > 1"),
            "The token() function contains duplicate partition key components");
  EXPECT_EQ(PrepareError(*composite_, "token(k1, k2, a) > 1"),
            "The token() function must contains only partition key components");
  EXPECT_EQ(PrepareError(*composite_, "token(k2, k1) > 1"),
            "The token function arguments must be in the partition key order: k1, k2");
  EXPECT_EQ(PrepareError("token(k) = 1 AND token(k) > 0"),
            "k cannot be restricted by more than one relation if it includes an Equal");
  EXPECT_EQ(PrepareError("token(k) > 1 AND token(k) = 0"),
            "Columns \"k\" cannot be restricted by both an equality and an inequality relation");
  EXPECT_EQ(PrepareError("token(k) > 1 AND token(k) >= 0"),
            "More than one restriction was found for the start bound on k");
  EXPECT_EQ(PrepareError("token(k) != 1"), "Unsupported \"!=\" relation: token(k) != 1");
}

TEST_F(RestrictionsTest, RefusesClusteringContainsWithoutFiltering) {
  auto table =
      TableBuilder("ks", "f").PartitionKey("k", "int").Clustering("c", "frozen<list<int>>").Build();
  EXPECT_EQ(PrepareError(*table, "k = 1 AND c CONTAINS 1"),
            "Clustering columns can only be restricted with CONTAINS with a secondary index or "
            "filtering");
  Accepts(*table, "k = 1 AND c CONTAINS 1 ALLOW FILTERING");
}

TEST_F(RestrictionsTest, RefusesValuesAtBind) {
  PreparedWhere eq(*table_, "SELECT * FROM t WHERE k = ?");
  EXPECT_EQ(ErrorOf([&] { (void)eq.Bind({std::nullopt}); }),
            "Invalid null value in condition for column k");
  EXPECT_EQ(ErrorOf([&] { (void)eq.Bind({Bytes()}, 0); }), "Invalid unset value for column k");

  PreparedWhere in(*table_, "SELECT * FROM t WHERE k IN ?");
  EXPECT_EQ(ErrorOf([&] { (void)in.Bind({std::nullopt}); }), "Invalid null value for column k");

  PreparedWhere filtered(*table_, "SELECT * FROM t WHERE v = ? ALLOW FILTERING");
  EXPECT_EQ(ErrorOf([&] { (void)filtered.Bind({std::nullopt}); }),
            "Unsupported null value for column v");
  EXPECT_EQ(ErrorOf([&] { (void)filtered.Bind({Bytes()}, 0); }),
            "Unsupported unset value for column v");

  PreparedWhere token(*table_, "SELECT * FROM t WHERE token(k) > ?");
  EXPECT_EQ(ErrorOf([&] { (void)token.Bind({std::nullopt}); }), "Invalid null token value");

  PreparedWhere tuple(*table_, "SELECT * FROM t WHERE k = 1 AND (a, b) > (?, ?)");
  EXPECT_EQ(ErrorOf([&] {
              (void)tuple.Bind({types::EncodeInt(1), std::nullopt});
            }),
            "Invalid null value in condition for column b");

  PreparedWhere tuple_in(*table_, "SELECT * FROM t WHERE k = 1 AND (a, b) IN ((?, ?), (1, 2))");
  EXPECT_EQ(ErrorOf([&] {
              (void)tuple_in.Bind({types::EncodeInt(1), std::nullopt});
            }),
            "Invalid null value in condition for columns: [a, b]");

  PreparedWhere filtered_in(*composite_, "SELECT * FROM t WHERE k1 IN (1, 2) ALLOW FILTERING");
  EXPECT_EQ(ErrorOf([&] { (void)filtered_in.Bind(); }),
            "IN restrictions are not supported on indexed columns");

  PreparedWhere filtered_slice(*table_,
                               "SELECT * FROM t WHERE k = 1 AND (b, c) > (1, 2) ALLOW FILTERING");
  EXPECT_EQ(ErrorOf([&] { (void)filtered_slice.Bind(); }),
            "Slice restrictions are not supported on indexed columns");

  auto text_key = TableBuilder("ks", "x").PartitionKey("k", "text").Build();
  PreparedWhere empty(*text_key, "SELECT * FROM t WHERE k = ''");
  EXPECT_EQ(ErrorOf([&] { (void)empty.Bind(); }), "Key may not be empty");
  PreparedWhere big(*text_key, "SELECT * FROM t WHERE k = ?");
  EXPECT_EQ(ErrorOf([&] { (void)big.Bind({Bytes(65536, 'x')}); }),
            "Key length of 65536 is longer than maximum of 65535");
  // An empty bigint is a valid value but no token.
  PreparedWhere empty_token(*text_key, "SELECT * FROM t WHERE token(k) > ?");
  EXPECT_EQ(ErrorOf([&] { (void)empty_token.Bind({Bytes()}); }), "Invalid empty token value");
  // A component too long for a composite key's 16-bit length is refused
  // before the key is built (it would have been cut to a wrong key).
  auto two_part_key =
      TableBuilder("ks", "y").PartitionKey("k1", "int").PartitionKey("k2", "text").Build();
  PreparedWhere big_component(*two_part_key, "SELECT * FROM t WHERE k1 = 1 AND k2 = ?");
  EXPECT_EQ(ErrorOf([&] { (void)big_component.Bind({Bytes(70000, 'x')}); }),
            "Key length of 70010 is longer than maximum of 65535");
}

}  // namespace
}  // namespace sibyl::query
