#include "storage/data/mutation.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <stdexcept>

namespace sibyl::storage {
namespace {

Mutation EveryField() {
  Mutation m;
  m.table_id = *types::Uuid::Parse("5a1c395e-b41f-11e5-9f22-ba0be0483c18");
  m.partition = {-42, Bytes("pk\0bytes", 8)};
  m.partition_deletion = {1'700'000'000'000'000, 1'700'000'000};
  m.range_tombstones.push_back(
      {{{"a", Bytes("\0", 1)}, true}, {{"b"}, false}, {1'700'000'000'000'005, 1'700'000'001}});
  m.range_tombstones.push_back({{{}, true}, {{"z"}, true}, {1'700'000'000'000'006, 17}});

  RowWrite row;
  row.clustering = {"c1", ""};
  row.marker = {1'700'000'000'000'010, 3600, 1'700'003'600};
  row.deletion = {1'700'000'000'000'001, 1'700'000'000};
  row.collection_deletions.push_back({"tags", {1'700'000'000'000'009, 1'700'000'000}});
  row.cells.push_back({"v",
                       std::nullopt,
                       {Cell::Kind::kRegular, 1'700'000'000'000'010, 0, kNoDeletionTime, "value"}});
  row.cells.push_back(
      {"e", std::nullopt, {Cell::Kind::kExpiring, 1'700'000'000'000'011, 60, 1'700'000'060, "x"}});
  row.cells.push_back(
      {"t", std::nullopt, {Cell::Kind::kTombstone, 1'700'000'000'000'012, 0, 1'700'000'000, ""}});
  row.cells.push_back({"tags",
                       Bytes("elem"),
                       {Cell::Kind::kRegular, 1'700'000'000'000'010, 0, kNoDeletionTime, ""}});
  row.cells.push_back(
      {"n",
       std::nullopt,
       {Cell::Kind::kCounter, 1'700'000'000'000'013, 0, kNoDeletionTime, Bytes(8, '\xff')}});
  m.rows.push_back(row);

  RowWrite stat;
  stat.is_static = true;
  stat.cells.push_back(
      {"s",
       std::nullopt,
       {Cell::Kind::kRegular, std::numeric_limits<int64_t>::max(), 0, kNoDeletionTime, "static"}});
  stat.cells.push_back(
      {"s2", std::nullopt, {Cell::Kind::kRegular, kNoTimestamp + 1, 0, kNoDeletionTime, ""}});
  m.rows.push_back(stat);
  return m;
}

Bytes Serialize(const Mutation& m) {
  Bytes out;
  m.SerializeTo(out);
  return out;
}

TEST(MutationSerializationTest, RoundTripsEveryField) {
  const Mutation m = EveryField();
  EXPECT_EQ(Mutation::Deserialize(Serialize(m)), m);
}

TEST(MutationSerializationTest, RoundTripsEmptyAndOddMutations) {
  Mutation empty;
  EXPECT_EQ(Mutation::Deserialize(Serialize(empty)), empty);

  // Fields that the query layer never builds still survive.
  Mutation odd;
  odd.partition.token = std::numeric_limits<int64_t>::min();
  odd.partition_deletion = {kNoTimestamp, 5};
  RowWrite row;
  row.marker = {kNoTimestamp, 7, 8};
  row.cells.push_back({"c", Bytes(), {Cell::Kind::kExpiring, kNoTimestamp, -1, -2, "v"}});
  odd.rows.push_back(row);
  EXPECT_EQ(Mutation::Deserialize(Serialize(odd)), odd);
}

TEST(MutationSerializationTest, IsCompact) {
  // One INSERT of a small row: timestamps share a base, so a few dozen bytes.
  Mutation m;
  m.partition = {123, "key"};
  RowWrite row;
  row.clustering = {"ck"};
  row.marker = {1'700'000'000'000'000, 0, kNoDeletionTime};
  row.cells.push_back({"v",
                       std::nullopt,
                       {Cell::Kind::kRegular, 1'700'000'000'000'000, 0, kNoDeletionTime, "hello"}});
  m.rows.push_back(row);
  EXPECT_LE(Serialize(m).size(), 60u);  // 24 of them the table id and token
}

TEST(MutationSerializationTest, RejectsBadVersion) {
  Bytes bytes = Serialize(EveryField());
  bytes[0] = 9;
  try {
    (void)Mutation::Deserialize(bytes);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("version 9"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)Mutation::Deserialize(""), std::runtime_error);
}

TEST(MutationSerializationTest, RejectsEveryTruncationAndTrailingBytes) {
  const Bytes bytes = Serialize(EveryField());
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_THROW((void)Mutation::Deserialize(BytesView(bytes).substr(0, n)), std::runtime_error)
        << n;
  }
  EXPECT_THROW((void)Mutation::Deserialize(bytes + "x"), std::runtime_error);
}

TEST(MutationSerializationTest, CorruptBytesThrowOrDecodeNeverCrash) {
  const Bytes good = Serialize(EveryField());
  std::mt19937_64 rng(11);
  for (int i = 0; i < 5000; ++i) {
    Bytes bytes = good;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f)
      bytes[1 + rng() % (bytes.size() - 1)] = static_cast<char>(rng());
    try {
      (void)Mutation::Deserialize(bytes);
    } catch (const std::runtime_error&) {
    }
  }
}

}  // namespace
}  // namespace sibyl::storage
