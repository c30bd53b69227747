// The log's key layout and its compare-and-swap append, against a real etcd.

#include "metadata/metadata_log.h"

#include <gtest/gtest.h>

#include "metadata/etcd_test_util.h"

namespace sibyl::metadata {
namespace {

LogEntry Entry(uint64_t epoch, EntryKind kind, uint64_t schema_epoch, uint64_t directory_epoch) {
  return {epoch, kind, schema_epoch, directory_epoch, "state of epoch " + std::to_string(epoch)};
}

class MetadataLogTest : public ::testing::Test {
 protected:
  testing::EtcdServer etcd_;
  EtcdClient client_{etcd_.options()};
  MetadataLog log_{client_, "Test Cluster"};
};

TEST_F(MetadataLogTest, KeysSortInEpochOrderUnderTheClusterPrefix) {
  EXPECT_EQ(log_.EpochKey(), "/sibyl/Test Cluster/epoch");
  EXPECT_EQ(log_.EntryKey(12), "/sibyl/Test Cluster/log/00000000000000000012");
  EXPECT_LT(log_.EntryKey(9), log_.EntryKey(10));
  EXPECT_EQ(log_.EpochOfKey(log_.EntryKey(18446744073709551615ull)), 18446744073709551615ull);
  EXPECT_EQ(log_.EpochOfKey(log_.EpochKey()), std::nullopt);
  EXPECT_EQ(MetadataLog(client_, "a/b%").prefix(), "/sibyl/a%2Fb%25/");
}

TEST_F(MetadataLogTest, AppendIsACompareAndSwapOnTheEpoch) {
  EXPECT_EQ(log_.ReadLatest().epoch, 0u);
  EXPECT_FALSE(log_.Append(Entry(2, EntryKind::kSchema, 2, 0)));  // epoch 1 is missing
  ASSERT_TRUE(log_.Append(Entry(1, EntryKind::kSchema, 1, 0)));
  EXPECT_FALSE(log_.Append(Entry(1, EntryKind::kDirectory, 0, 1)));  // taken
  ASSERT_TRUE(log_.Append(Entry(2, EntryKind::kDirectory, 1, 2)));
  ASSERT_TRUE(log_.Append(Entry(3, EntryKind::kSchema, 3, 2)));
  EXPECT_EQ(client_.Range({.key = log_.EpochKey()}).kvs.at(0).value, "3");

  const MetadataLog::Entries from_two = log_.ReadFrom(2);
  ASSERT_EQ(from_two.entries.size(), 2u);
  EXPECT_EQ(from_two.entries[0], Entry(2, EntryKind::kDirectory, 1, 2));
  EXPECT_EQ(from_two.entries[1], Entry(3, EntryKind::kSchema, 3, 2));
  EXPECT_TRUE(log_.ReadFrom(4).entries.empty());

  const MetadataLog::Latest latest = log_.ReadLatest();
  EXPECT_EQ(latest.epoch, 3u);
  EXPECT_EQ(latest.schema, Entry(3, EntryKind::kSchema, 3, 2));
  EXPECT_EQ(latest.directory, Entry(2, EntryKind::kDirectory, 1, 2));
}

TEST_F(MetadataLogTest, ReadsPastOnePageAndAfterCompaction) {
  for (uint64_t epoch = 1; epoch <= 150; ++epoch) {
    ASSERT_TRUE(log_.Append(epoch == 1 ? Entry(1, EntryKind::kDirectory, 0, 1)
                                       : Entry(epoch, EntryKind::kSchema, epoch, 1)));
  }
  const MetadataLog::Entries all = log_.ReadFrom(1);
  ASSERT_EQ(all.entries.size(), 150u);
  for (uint64_t i = 0; i < 150; ++i) EXPECT_EQ(all.entries[i].epoch, i + 1);

  EXPECT_EQ(log_.Compact(100), 99);  // entries 1 to 99
  EXPECT_EQ(log_.ReadFrom(1).entries.front().epoch, 100u);
  // The directory entry of epoch 1 is gone: the header names it.
  EXPECT_THROW((void)log_.ReadLatest(), std::runtime_error);
}

TEST_F(MetadataLogTest, RefusesAnEntryUnderTheWrongKey) {
  client_.Put(
      {.key = log_.EntryKey(5), .value = EncodeLogEntry(Entry(6, EntryKind::kSchema, 6, 0))});
  EXPECT_THROW((void)log_.ReadFrom(1), std::runtime_error);
  client_.Put({.key = log_.EntryKey(5), .value = "garbage"});
  EXPECT_THROW((void)log_.ReadFrom(1), std::runtime_error);
}

}  // namespace
}  // namespace sibyl::metadata
