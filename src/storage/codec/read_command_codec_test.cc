#include "storage/codec/read_command_codec.h"

#include <gtest/gtest.h>

#include <random>

#include "storage/read/read_result_text.h"
#include "storage/storage_test_util.h"

namespace sibyl::storage {
namespace {

using namespace testing;  // NOLINT

class Random {
 public:
  explicit Random(uint32_t seed) : rng_(seed) {}
  int Pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Chance(int percent) { return Pick(1, 100) <= percent; }
  int64_t Any64() { return static_cast<int64_t>(std::uniform_int_distribution<uint64_t>()(rng_)); }
  int32_t Any32() { return static_cast<int32_t>(Any64()); }
  Bytes Blob() {
    Bytes b(static_cast<size_t>(Pick(0, 6)), '\0');
    for (char& c : b) c = static_cast<char>(Pick(0, 255));
    return b;
  }
  PartitionKey Key() { return {Any64(), Blob()}; }
  Clustering Values() {
    Clustering values(static_cast<size_t>(Pick(0, 3)));
    for (auto& v : values) v = Blob();
    return values;
  }
  ClusteringBound Bound() { return {Values(), Chance(50)}; }
  ReadPosition Position() {
    ReadPosition p;
    p.partition = Key();
    if (Chance(50)) p.last_row = Values();
    p.last_was_static = Chance(30);
    p.rows_in_partition = Any32();
    return p;
  }
  ReadCommand Command() {
    ReadCommand c;
    for (auto& b : c.table_id.bytes) b = static_cast<uint8_t>(Pick(0, 255));
    if (Chance(60)) {
      for (int i = Pick(1, 3); i > 0; --i) c.partitions.push_back(Key());
    } else {
      c.range = {Any64(), Any64()};
    }
    for (int i = Pick(0, 3); i > 0; --i) c.slices.push_back({Bound(), Bound()});
    c.reversed = Chance(50);
    if (Chance(50)) {
      c.columns.emplace();
      for (int i = Pick(0, 3); i > 0; --i) c.columns->push_back(Blob());
    }
    c.row_limit = Any32();
    c.per_partition_limit = Any32();
    c.partition_limit = Any32();
    if (Chance(50)) c.resume_after = Position();
    c.now_seconds = Any32();
    if (c.partitions.empty() && Chance(40)) {
      IndexQuery& index = c.index.emplace();
      for (auto& b : index.index_id.bytes) b = static_cast<uint8_t>(Pick(0, 255));
      index.value = Blob();
      if (Chance(50)) index.entry_value = Blob();
    }
    return c;
  }
  ReadRow Row() {
    ReadRow row;
    row.clustering = Values();
    if (Chance(50)) row.marker = {Any64(), Any32(), Any32()};
    for (int i = Pick(0, 3); i > 0; --i) {
      ReadCell& cell = row.cells.emplace_back();
      cell.column = Blob();
      if (Chance(50)) cell.path = Blob();
      cell.value = Blob();
      cell.timestamp = Any64();
      cell.ttl = Any32();
      cell.local_expiration_time = Any32();
    }
    return row;
  }
  ReadResult Result() {
    ReadResult r;
    for (int i = Pick(0, 3); i > 0; --i) {
      ReadPartition& p = r.partitions.emplace_back();
      p.key = Key();
      if (Chance(40)) p.static_row = Row();
      for (int j = Pick(0, 3); j > 0; --j) p.rows.push_back(Row());
    }
    if (Chance(50)) r.next = Position();
    r.tombstones_scanned = Any64();
    return r;
  }
  // `bytes` truncated, with flipped bytes, or with bytes inserted.
  Bytes Corrupt(Bytes bytes) {
    switch (Pick(0, 2)) {
      case 0:
        bytes.resize(static_cast<size_t>(Pick(0, static_cast<int>(bytes.size()) - 1)));
        break;
      case 1:
        for (int i = Pick(1, 3); i > 0; --i) {
          bytes[static_cast<size_t>(Pick(0, static_cast<int>(bytes.size()) - 1))] =
              static_cast<char>(Pick(0, 255));
        }
        break;
      default:
        bytes.insert(static_cast<size_t>(Pick(0, static_cast<int>(bytes.size()))), Blob() + "x");
    }
    return bytes;
  }

 private:
  std::mt19937 rng_;
};

std::string Describe(const ReadCommand& c) {
  std::string text = DescribeReadCommand(c) + " columns";
  if (c.columns) {
    for (const auto& column : *c.columns) text += " " + column;
  }
  for (const auto& key : c.partitions) text += " key " + std::to_string(key.token) + ":" + key.key;
  for (const auto& slice : c.slices) {
    text += slice.start.inclusive ? " [" : " (";
    text += slice.end.inclusive ? "]" : ")";
  }
  return text;
}

bool Same(const ReadCommand& a, const ReadCommand& b) {
  auto position = [](const std::optional<ReadPosition>& p) {
    ReadResult r;
    r.next = p;
    return DescribeReadResult(r) + (p ? std::to_string(p->partition.token) : "");
  };
  return a.table_id == b.table_id && a.partitions == b.partitions &&
         a.range.start == b.range.start && a.range.end == b.range.end && a.reversed == b.reversed &&
         a.columns == b.columns && a.slices.size() == b.slices.size() &&
         std::equal(
             a.slices.begin(), a.slices.end(), b.slices.begin(),
             [](const auto& x, const auto& y) { return x.start == y.start && x.end == y.end; }) &&
         a.row_limit == b.row_limit && a.per_partition_limit == b.per_partition_limit &&
         a.partition_limit == b.partition_limit &&
         position(a.resume_after) == position(b.resume_after) && a.now_seconds == b.now_seconds &&
         a.index == b.index;
}

std::string Text(const ReadResult& r) {
  std::string text = DescribeReadResult(r) + " tombstones " + std::to_string(r.tombstones_scanned);
  for (const auto& p : r.partitions) text += " token " + std::to_string(p.key.token);
  if (r.next) text += " next token " + std::to_string(r.next->partition.token);
  return text;
}

TEST(ReadCommandCodecTest, CommandsRoundTrip) {
  for (uint32_t seed = 1; seed <= 500; ++seed) {
    Random random(seed);
    const ReadCommand command = random.Command();
    Bytes bytes;
    SerializeReadCommand(command, bytes);
    const ReadCommand decoded = DeserializeReadCommand(bytes);
    ASSERT_TRUE(Same(decoded, command)) << "seed " << seed << "\n"
                                        << Describe(decoded) << "\n"
                                        << Describe(command);
  }
}

TEST(ReadCommandCodecTest, DefaultsRoundTrip) {
  Bytes bytes;
  SerializeReadCommand(ReadCommand{}, bytes);
  EXPECT_TRUE(Same(DeserializeReadCommand(bytes), ReadCommand{}));
  bytes.clear();
  SerializeReadResult(ReadResult{}, bytes);
  EXPECT_EQ(Text(DeserializeReadResult(bytes)), Text(ReadResult{}));
}

TEST(ReadCommandCodecTest, ResultsRoundTrip) {
  for (uint32_t seed = 1; seed <= 500; ++seed) {
    Random random(seed);
    const ReadResult result = random.Result();
    Bytes bytes;
    SerializeReadResult(result, bytes);
    ASSERT_EQ(Text(DeserializeReadResult(bytes)), Text(result)) << "seed " << seed;
  }
}

TEST(ReadCommandCodecTest, RefusesUnknownVersionsAndLeftovers) {
  Bytes bytes;
  SerializeReadCommand(ReadCommand{}, bytes);
  Bytes newer = bytes;
  newer[0] = 2;
  EXPECT_THROW((void)DeserializeReadCommand(newer), std::runtime_error);
  EXPECT_THROW((void)DeserializeReadCommand(bytes + "x"), std::runtime_error);
  EXPECT_THROW((void)DeserializeReadCommand(""), std::runtime_error);
  EXPECT_THROW((void)DeserializeReadResult(""), std::runtime_error);
}

TEST(ReadCommandCodecTest, IndexQueriesRoundTrip) {
  ReadCommand command;
  command.range = {-5, 77};
  IndexQuery& index = command.index.emplace();
  index.index_id = types::Uuid::NameBased("idx");
  index.value = "key";
  Bytes bytes;
  SerializeReadCommand(command, bytes);
  EXPECT_TRUE(Same(DeserializeReadCommand(bytes), command));
  // An empty value is a value (an empty text), distinct from no entry value.
  index.value.clear();
  index.entry_value = Bytes();
  bytes.clear();
  SerializeReadCommand(command, bytes);
  const ReadCommand decoded = DeserializeReadCommand(bytes);
  ASSERT_TRUE(decoded.index.has_value());
  EXPECT_EQ(decoded.index->entry_value, Bytes());
  EXPECT_TRUE(Same(decoded, command));
  // Without an index, the bytes are those of the format before indexes.
  const IndexQuery kept = index;  // `index` refers into command.index
  command.index.reset();
  Bytes plain;
  SerializeReadCommand(command, plain);
  EXPECT_FALSE(DeserializeReadCommand(plain).index.has_value());
  EXPECT_EQ(plain.size() + 16 + 1 + 1, bytes.size());
  // An index read never names partitions.
  command.partitions.push_back({1, "k"});
  command.index = kept;
  bytes.clear();
  SerializeReadCommand(command, bytes);
  EXPECT_THROW((void)DeserializeReadCommand(bytes), std::runtime_error);
}

// Corrupt bytes decode to something or throw std::runtime_error; nothing
// else (the sanitizer build catches reads out of bounds).
TEST(ReadCommandCodecTest, CorruptInputThrowsOrDecodes) {
  int refused = 0;
  for (uint32_t seed = 1; seed <= 3000; ++seed) {
    Random random(seed);
    Bytes command, result;
    SerializeReadCommand(random.Command(), command);
    SerializeReadResult(random.Result(), result);
    const Bytes bad_command = random.Corrupt(command);
    const Bytes bad_result = random.Corrupt(result);
    try {
      (void)DeserializeReadCommand(bad_command);
    } catch (const std::runtime_error&) {
      ++refused;
    }
    try {
      (void)DeserializeReadResult(bad_result);
    } catch (const std::runtime_error&) {
      ++refused;
    }
  }
  EXPECT_GT(refused, 3000);  // most corruptions are caught
}

TEST(ReadCommandCodecTest, HugeCountsAreRefusedBeforeAllocating) {
  Bytes bytes;
  AppendU8(bytes, 1);                               // version
  AppendU8(bytes, 0);                               // flags
  bytes += "\xff\xff\xff\xff\xff\xff\xff\xff\xff";  // 2^64 - 1 partitions
  EXPECT_THROW((void)DeserializeReadResult(bytes), std::runtime_error);
}

}  // namespace
}  // namespace sibyl::storage
