// The partition locks (storage/partition_locks.h) and Coordinator::ReadThenMutate: one partition's
// transactions exclude each other, the callback sees the partition and its
// mutations are applied (or nothing is), and read-modify-write under the
// lock never loses an update.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <set>
#include <thread>

#include "cluster/coordinator.h"
#include "common/check.h"
#include "common/error.h"
#include "dht/token.h"
#include "storage/partition_locks.h"
#include "storage/reference/reference_engine.h"
#include "types/value_codec.h"

namespace sibyl::cluster {
using storage::PartitionLocks;
namespace {

storage::PartitionKey Key(int32_t k) {
  Bytes key = types::EncodeInt(k);
  return storage::PartitionKey{dht::Murmur3Token(key), key};
}

TEST(PartitionLocksTest, SamePartitionSameStripeAndKeysSpread) {
  PartitionLocks locks;
  const types::Uuid table = *types::Uuid::Parse("11111111-2222-3333-4444-555555555555");
  EXPECT_EQ(locks.StripeOf(table, Key(7)), locks.StripeOf(table, Key(7)));
  std::set<size_t> stripes;
  for (int k = 0; k < 200; ++k) stripes.insert(locks.StripeOf(table, Key(k)));
  EXPECT_GT(stripes.size(), 150u);  // 200 keys over 4096 stripes rarely collide
}

TEST(PartitionLocksTest, SecondLockerWaitsForTheFirst) {
  PartitionLocks locks(16);
  const types::Uuid table = types::Uuid::Random();
  std::atomic<bool> second_locked{false};
  std::unique_lock<std::mutex> first = locks.Lock(table, Key(1));
  std::thread other([&] {
    std::unique_lock<std::mutex> second = locks.Lock(table, Key(1));
    second_locked = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(second_locked.load());  // cannot be set while `first` is held
  first.unlock();
  other.join();
  EXPECT_TRUE(second_locked.load());
}

class ReadThenMutateTest : public ::testing::Test {
 protected:
  ReadThenMutateTest() : coordinator_(engine_, clock_) {
    table_id_ = types::Uuid::Random();
    storage::TableLayout layout;
    layout.id = table_id_;
    layout.keyspace = "ks";
    layout.name = "kv";
    layout.partition_key_types = {types::CqlType::Native(types::Kind::kInt)};
    layout.columns.push_back(
        storage::ColumnLayout{"v", types::CqlType::Native(types::Kind::kInt), false});
    engine_.SyncTables({layout});
  }

  storage::ReadCommand ReadOf(int32_t k) const {
    storage::ReadCommand command;
    command.table_id = table_id_;
    command.partitions = {Key(k)};
    return command;
  }

  // ReadThenMutate of one read, at the default levels.
  storage::ReadResult Transact(
      const storage::ReadCommand& read,
      const std::function<std::vector<storage::Mutation>(const storage::ReadResult&)>& decide) {
    std::vector<storage::ReadResult> seen =
        coordinator_.ReadThenMutate({read},
                                    [&](const std::vector<storage::ReadResult>& current, int64_t) {
                                      return decide(current.front());
                                    },
                                    {});
    return seen.front();
  }

  storage::Mutation Set(int32_t k, int32_t v) {
    storage::Mutation m;
    m.table_id = table_id_;
    m.partition = Key(k);
    storage::RowWrite& row = m.rows.emplace_back();
    storage::CellWrite& cell = row.cells.emplace_back();
    cell.column = "v";
    cell.cell.timestamp = clock_.NextTimestampMicros();
    cell.cell.value = types::EncodeInt(v);
    return m;
  }

  // The value of v in partition k, or -1.
  int32_t Get(int32_t k) const {
    storage::ReadResult r = coordinator_.Read(ReadOf(k));
    if (r.partitions.empty() || r.partitions[0].rows.empty()) return -1;
    return types::DecodeInt(r.partitions[0].rows[0].cells.at(0).value);
  }

  ManualClock clock_;
  storage::ReferenceEngine engine_;
  Coordinator coordinator_;
  types::Uuid table_id_;
};

TEST_F(ReadThenMutateTest, SeesThePartitionAndAppliesWhatItDecides) {
  storage::ReadResult first = Transact(ReadOf(1), [&](const auto& current) {
    EXPECT_TRUE(current.partitions.empty());
    return std::vector<storage::Mutation>{Set(1, 5)};
  });
  EXPECT_TRUE(first.partitions.empty());  // what was read, before the write
  EXPECT_EQ(Get(1), 5);
  storage::ReadResult second = Transact(ReadOf(1), [&](const auto& current) {
    EXPECT_EQ(current.partitions.size(), 1u);
    return std::vector<storage::Mutation>{};  // nothing to write
  });
  EXPECT_EQ(second.partitions.size(), 1u);
  EXPECT_EQ(Get(1), 5);
}

TEST_F(ReadThenMutateTest, RefusesOtherPartitionsAndWritesNothing) {
  EXPECT_THROW((void)Transact(ReadOf(1),
                              [&](const auto&) {
                                return std::vector<storage::Mutation>{Set(1, 1), Set(2, 2)};
                              }),
               InternalError);
  EXPECT_EQ(Get(1), -1);
  EXPECT_EQ(Get(2), -1);
  storage::ReadCommand two = ReadOf(1);
  two.partitions.push_back(Key(2));
  EXPECT_THROW((void)Transact(two, [&](const auto&) { return std::vector<storage::Mutation>{}; }),
               InternalError);
}

TEST_F(ReadThenMutateTest, ConcurrentIncrementsAreNeverLost) {
  constexpr int kThreads = 8;
  constexpr int kIncrements = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kIncrements; ++i) {
        (void)Transact(ReadOf(3), [&](const storage::ReadResult& current) {
          int32_t value = 0;
          if (!current.partitions.empty() && !current.partitions[0].rows.empty()) {
            value = types::DecodeInt(current.partitions[0].rows[0].cells.at(0).value);
          }
          std::this_thread::yield();  // widen the window a lost update would need
          return std::vector<storage::Mutation>{Set(3, value + 1)};
        });
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(Get(3), kThreads * kIncrements);
}

}  // namespace
}  // namespace sibyl::cluster
