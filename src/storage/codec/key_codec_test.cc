#include "storage/codec/key_codec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "storage/codec/clustering_range.h"
#include "storage/storage_test_util.h"

namespace sibyl::storage {
namespace {

using testing::Int;
using types::CqlType;
using types::Kind;

TableLayout TwoClusteringColumns() {
  TableLayout table;
  table.partition_key_types = {CqlType::Native(Kind::kInt)};
  table.clustering = {{CqlType::Native(Kind::kInt), false}, {CqlType::Native(Kind::kText), true}};
  table.columns = {
      {"v", CqlType::Native(Kind::kInt), false},
      {"l", CqlType::List(CqlType::Native(Kind::kInt)), false},
      {"m", CqlType::Map(CqlType::Native(Kind::kInt), CqlType::Native(Kind::kText)), false}};
  return table;
}

TEST(KeyCodecTest, TokensSortAsSignedNumbers) {
  std::vector<int64_t> tokens = {std::numeric_limits<int64_t>::min(), -5, -1, 0, 1, 7,
                                 std::numeric_limits<int64_t>::max()};
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    Bytes a, b;
    AppendToken(tokens[i], a);
    AppendToken(tokens[i + 1], b);
    EXPECT_LT(a, b) << tokens[i];
    EXPECT_EQ(DecodeToken(a), tokens[i]);
  }
}

TEST(KeyCodecTest, EscapedStringsKeepOrderAndRoundTrip) {
  std::vector<Bytes> values = {"",
                               std::string(1, '\0'),
                               std::string("\0\0", 2),
                               std::string("\0\x01", 2),
                               "a",
                               std::string("a\0", 2),
                               "ab",
                               "\xff"};
  std::vector<Bytes> encoded;
  for (const auto& v : values) {
    Bytes e;
    AppendEscaped(v, e);
    BytesView in = e;
    EXPECT_EQ(ReadEscaped(in), v);
    EXPECT_TRUE(in.empty());
    encoded.push_back(e);
  }
  for (size_t i = 0; i + 1 < values.size(); ++i) {
    EXPECT_LT(values[i], values[i + 1]);
    EXPECT_LT(encoded[i], encoded[i + 1]) << i;
  }
}

TEST(KeyCodecTest, PartitionPrefixIsFoundAndDecoded) {
  PartitionKey key{42, std::string("k\0y", 3)};
  Bytes prefix;
  AppendPartitionPrefix(key, prefix);
  Bytes full = prefix + "\x40rest";
  EXPECT_EQ(PartitionPrefixLength(full), prefix.size());
  EXPECT_EQ(DecodePartitionPrefix(prefix), key);
  EXPECT_EQ(PartitionPrefixLength("short"), 0u);
}

TEST(KeyCodecTest, PartitionsSortByTokenThenKeyBytes) {
  auto prefix = [](int64_t token, Bytes key) {
    Bytes out;
    AppendPartitionPrefix({token, std::move(key)}, out);
    return out;
  };
  EXPECT_LT(prefix(-1, "zzz"), prefix(0, "a"));
  EXPECT_LT(prefix(5, "a"), prefix(5, "ab"));
  EXPECT_LT(prefix(5, "ab") + "\x40", prefix(5, "b"));
}

TEST(KeyCodecTest, ClusteringOrderFollowsAscAndDesc) {
  TableLayout table = TwoClusteringColumns();
  // c1 ASC, then c2 DESC.
  std::vector<Clustering> ordered = {{Int(-3), "z"}, {Int(-3), "b"}, {Int(-3), ""},
                                     {Int(0), "b"},  {Int(0), "a"},  {Int(9), "q"}};
  std::vector<Bytes> encoded;
  for (const auto& c : ordered) {
    Bytes e;
    AppendClustering(table, c, e);
    BytesView in = e;
    EXPECT_EQ(ReadClustering(table, in), c);
    EXPECT_TRUE(in.empty());
    encoded.push_back(e);
  }
  for (size_t i = 0; i + 1 < encoded.size(); ++i) EXPECT_LT(encoded[i], encoded[i + 1]) << i;
}

TEST(KeyCodecTest, RowPartsParse) {
  Bytes key;
  AppendU8(key, static_cast<uint8_t>(RowPart::kCell));
  AppendEscaped("m", key);
  AppendU8(key, static_cast<uint8_t>(CellPart::kElement));
  TableLayout table = TwoClusteringColumns();
  AppendCellPath(*table.FindColumn("m"), Int(7), key);
  auto part = ParseRowPart(key);
  ASSERT_TRUE(part);
  EXPECT_EQ(part->part, RowPart::kCell);
  EXPECT_EQ(part->column, "m");
  EXPECT_EQ(part->cell_part, CellPart::kElement);
  BytesView path = part->encoded_path;
  EXPECT_EQ(ReadCellPath(*table.FindColumn("m"), path), Int(7));
  EXPECT_FALSE(ParseRowPart("\x77"));
  EXPECT_TRUE(ParseRowPart("\x10"));
}

TEST(KeyCodecTest, MapPathsSortInKeyTypeOrder) {
  TableLayout table = TwoClusteringColumns();
  Bytes a, b;
  AppendCellPath(*table.FindColumn("m"), Int(-1), a);
  AppendCellPath(*table.FindColumn("m"), Int(1), b);
  EXPECT_LT(a, b);
}

TEST(KeyCodecTest, RangeTombstoneBoundsRoundTrip) {
  ClusteringBound start{{Int(1)}, false};
  ClusteringBound end{{Int(4), "x"}, true};
  Bytes encoded;
  AppendRangeTombstoneBounds(start, end, encoded);
  auto decoded = ReadRangeTombstoneBounds(encoded);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->first, start);
  EXPECT_EQ(decoded->second, end);
  EXPECT_FALSE(ReadRangeTombstoneBounds(encoded.substr(0, encoded.size() - 1)));
}

TEST(KeyCodecTest, PrefixSuccessor) {
  EXPECT_EQ(PrefixSuccessor("ab"), "ac");
  EXPECT_EQ(PrefixSuccessor("a\xff"), "b");
  EXPECT_EQ(PrefixSuccessor("\xff\xff"), "");
}

TEST(ClusteringRangeTest, BoundsIncludeOrExcludePrefixes) {
  TableLayout table = TwoClusteringColumns();
  auto enc = [&](Clustering c) {
    Bytes e;
    AppendClustering(table, c, e);
    return e;
  };
  // (c1 > 1 AND c1 <= 3)
  auto range = EncodeClusteringRange(table, {{Int(1)}, false}, {{Int(3)}, true});
  EXPECT_FALSE(range.Contains(enc({Int(1), "a"})));
  EXPECT_TRUE(range.Contains(enc({Int(2), "a"})));
  EXPECT_TRUE(range.Contains(enc({Int(3), "zz"})));
  EXPECT_TRUE(range.Contains(enc({Int(3), ""})));
  EXPECT_FALSE(range.Contains(enc({Int(4), "a"})));
  // [c1 = 1, c2 < "m") in DESC order means c2 from "m" (excluded) down... the
  // end bound is exclusive: rows sorting before ("1","m") in clustering order.
  auto open = EncodeClusteringRange(table, {{}, true}, {{Int(1), "m"}, false});
  EXPECT_TRUE(open.Contains(enc({Int(1), "z"})));
  EXPECT_FALSE(open.Contains(enc({Int(1), "m"})));
  EXPECT_FALSE(open.Contains(enc({Int(1), "a"})));
  EXPECT_TRUE(open.Contains(enc({Int(0), "a"})));
  auto empty = EncodeClusteringRange(table, {{Int(3)}, true}, {{Int(2)}, true});
  EXPECT_TRUE(empty.empty);
}

}  // namespace
}  // namespace sibyl::storage
