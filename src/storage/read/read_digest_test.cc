#include "storage/read/read_digest.h"

#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "storage/storage_test_util.h"

namespace sibyl::storage {
namespace {

using namespace testing;  // NOLINT

ReadResult Sample() {
  ReadResult result;
  ReadPartition& p = result.partitions.emplace_back();
  p.key = Pk(1);
  p.static_row = ReadRow{{}, {}, {{"s", std::nullopt, Int(4), 3, 0, kNoDeletionTime}}};
  ReadRow& row = p.rows.emplace_back();
  row.clustering = {Int(1)};
  row.marker = {10, 0, kNoDeletionTime};
  row.cells.push_back({"m", Int(2), Int(7), 11, 0, kNoDeletionTime});
  row.cells.push_back({"v", std::nullopt, Int(5), 10, 60, 1'700'000'060});
  ReadRow& second = p.rows.emplace_back();
  second.clustering = {Int(2)};
  second.cells.push_back({"v", std::nullopt, Int(6), 10, 0, kNoDeletionTime});
  result.partitions.push_back({Pk(2), std::nullopt, {second}});
  return result;
}

TEST(ReadDigestTest, EqualResultsGiveEqualDigests) {
  ReadResult a = Sample();
  ReadResult b = Sample();
  // What two replicas with the same data may differ in.
  b.tombstones_scanned = 17;
  b.next = ReadPosition{Pk(2), Clustering{Int(2)}, false, 1};
  EXPECT_EQ(ReadDigest(a), ReadDigest(b));
  EXPECT_EQ(ReadDigest(a).size(), kReadDigestSize);
  EXPECT_EQ(ReadDigest(ReadResult{}), ReadDigest(ReadResult{}));
}

TEST(ReadDigestTest, AnyDifferenceInTheDataChangesTheDigest) {
  const std::vector<std::function<void(ReadResult&)>> changes = {
      [](ReadResult& r) { r.partitions[0].rows[0].cells[1].value = Int(6); },
      [](ReadResult& r) { r.partitions[0].rows[0].cells[1].timestamp = 9; },
      [](ReadResult& r) { r.partitions[0].rows[0].cells[1].ttl = 61; },
      [](ReadResult& r) { r.partitions[0].rows[0].cells[1].local_expiration_time += 1; },
      [](ReadResult& r) { r.partitions[0].rows[0].cells[0].path = Int(3); },
      [](ReadResult& r) { r.partitions[0].rows[0].cells[0].path.reset(); },
      [](ReadResult& r) { r.partitions[0].rows[0].cells[0].column = "n"; },
      [](ReadResult& r) { r.partitions[0].rows[0].cells.pop_back(); },
      [](ReadResult& r) { r.partitions[0].rows[0].marker = {}; },
      [](ReadResult& r) { r.partitions[0].rows[0].marker.timestamp = 11; },
      [](ReadResult& r) { r.partitions[0].rows[0].clustering = {Int(3)}; },
      [](ReadResult& r) { r.partitions[0].rows.pop_back(); },
      [](ReadResult& r) { r.partitions[0].static_row.reset(); },
      [](ReadResult& r) { r.partitions[0].static_row->cells[0].timestamp = 4; },
      [](ReadResult& r) { r.partitions[1].key = Pk(3); },
      [](ReadResult& r) { r.partitions[1].key.token += 1; },
      [](ReadResult& r) { r.partitions.pop_back(); },
      // The same bytes split differently between fields.
      [](ReadResult& r) {
        r.partitions[0].rows[0].cells[0].column = std::string("m\0", 2);
        r.partitions[0].rows[0].cells[0].path = Int(2).substr(1);
      },
      // A row moved from one partition to the other.
      [](ReadResult& r) {
        r.partitions[1].rows.insert(r.partitions[1].rows.begin(), r.partitions[0].rows.back());
        r.partitions[0].rows.pop_back();
      },
  };
  std::set<Bytes> digests = {ReadDigest(Sample())};
  for (size_t i = 0; i < changes.size(); ++i) {
    ReadResult changed = Sample();
    changes[i](changed);
    EXPECT_TRUE(digests.insert(ReadDigest(changed)).second) << "change " << i;
  }
}

TEST(ReadDigestTest, LargeValuesAreDigestedWhole) {
  ReadResult a = Sample();
  a.partitions[0].rows[0].cells[1].value = Bytes(100'000, 'a');
  ReadResult b = a;
  b.partitions[0].rows[0].cells[1].value.back() = 'b';
  EXPECT_NE(ReadDigest(a), ReadDigest(b));
}

}  // namespace
}  // namespace sibyl::storage
