// EtcdMetadataStore over a real etcd: several stores (each its own client,
// as nodes would have) share one log.

#include "metadata/etcd_metadata_store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "common/error.h"
#include "metadata/etcd_test_util.h"
#include "schema/system_keyspaces.h"

namespace sibyl::metadata {
namespace {

using schema::Schema;

Schema::KeyspaceMap WithKeyspace(const Schema& current, const std::string& name,
                                 const std::string& order = "") {
  Schema::KeyspaceMap next = current.keyspaces();
  auto keyspace = std::make_shared<schema::KeyspaceMetadata>();
  keyspace->name = name;
  keyspace->replication = {{"class", schema::kSimpleStrategy}, {"replication_factor", "1"}};
  if (!order.empty()) keyspace->replication["order"] = order;
  next[name] = keyspace;
  return next;
}

std::vector<std::string> UserKeyspaces(const Schema& schema) {
  std::vector<std::string> names;
  for (const auto& [name, keyspace] : schema.keyspaces()) {
    if (!name.starts_with("system")) names.push_back(name);
  }
  return names;
}

NodeRecord Node(const std::string& name, dht::Token token) {
  NodeRecord node;
  node.host_id = types::Uuid::NameBased(name);
  node.broadcast_address = "10.0.0.1";
  node.native_address = "10.0.0.1";
  node.datacenter = "dc1";
  node.rack = "rack1";
  node.tokens = {token};
  node.release_version = kReleaseVersion;
  return node;
}

// Polls `done` for 30 s at most: a bound for failures, not a speed test.
template <typename Predicate>
bool Eventually(Predicate done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

class EtcdMetadataStoreTest : public ::testing::Test {
 protected:
  EtcdMetadataStoreOptions Options(bool watch = true) {
    EtcdMetadataStoreOptions options;
    options.etcd = etcd_.options();
    options.etcd.connect_timeout = std::chrono::milliseconds(300);
    options.etcd.request_timeout = std::chrono::milliseconds(2000);
    options.watch = watch;
    return options;
  }

  static schema::MetadataStore::CommitResult Add(EtcdMetadataStore& store,
                                                 const std::string& name) {
    return store.Commit(
        [&](const Schema& current) { return std::optional(WithKeyspace(current, name)); });
  }

  testing::EtcdServer etcd_;
};

TEST_F(EtcdMetadataStoreTest, AnotherStoreFollowsThroughTheWatchInEpochOrder) {
  const auto a = EtcdMetadataStore::Open(Options());
  const auto b = EtcdMetadataStore::Open(Options());
  std::vector<std::vector<std::string>> seen;  // user keyspaces after each change b applied
  b->AddListener([&](const Schema& before, const Schema& after) {
    EXPECT_EQ(b->schemas().snapshot()->version(), before.version());  // not yet published
    seen.push_back(UserKeyspaces(after));
  });
  int directory_changes = 0;
  b->AddDirectoryListener([&](const Directory& before, const Directory& after) {
    EXPECT_TRUE(before.empty());
    EXPECT_EQ(after.size(), 1u);
    ++directory_changes;
  });

  EXPECT_EQ(Add(*a, "ks1").epoch, 1u);
  EXPECT_EQ(Add(*a, "ks2").epoch, 2u);
  const auto joined = a->CommitDirectory(
      [](const Directory& current) { return std::optional(current.With(Node("n1", 5))); });
  EXPECT_TRUE(joined.changed);
  EXPECT_EQ(joined.epoch, 3u);
  const auto dropped = a->Commit([](const Schema& current) {
    Schema::KeyspaceMap next = WithKeyspace(current, "ks3");
    next.erase("ks1");
    return std::optional(std::move(next));
  });
  EXPECT_EQ(dropped.epoch, 4u);

  ASSERT_TRUE(Eventually([&] { return b->epoch() == 4; })) << "b is at epoch " << b->epoch();
  EXPECT_EQ(seen, (std::vector<std::vector<std::string>>{{"ks1"}, {"ks1", "ks2"}, {"ks2", "ks3"}}));
  EXPECT_EQ(directory_changes, 1);
  EXPECT_EQ(*b->directory(), *a->directory());
  EXPECT_EQ(b->schemas().snapshot()->version(), a->schemas().snapshot()->version());
  // No change, no epoch.
  EXPECT_FALSE(Add(*b, "ks2").changed);
  EXPECT_EQ(b->epoch(), 4u);
}

TEST_F(EtcdMetadataStoreTest, ConcurrentCommitsOnTwoStoresMakeOneHistory) {
  constexpr int kPerThread = 15;
  std::unique_ptr<EtcdMetadataStore> stores[2] = {EtcdMetadataStore::Open(Options()),
                                                  EtcdMetadataStore::Open(Options())};
  std::vector<types::Uuid> seen[2];  // the schema versions each store's listener saw
  for (int s = 0; s < 2; ++s) {
    stores[s]->AddListener(
        [&seen, s](const Schema&, const Schema& after) { seen[s].push_back(after.version()); });
  }
  std::atomic<int> runs{0};
  auto commit_all = [&](int s) {
    for (int i = 0; i < kPerThread; ++i) {
      const std::string name = std::string(1, static_cast<char>('a' + s)) + std::to_string(i);
      const auto result = stores[s]->Commit([&](const Schema& current) {
        ++runs;
        // The keyspace records how many there were before it: two changes
        // computed from the same state would record the same number.
        const std::string order = std::to_string(UserKeyspaces(current).size());
        return std::optional(WithKeyspace(current, name, order));
      });
      EXPECT_TRUE(result.changed) << name;
    }
  };
  std::thread first(commit_all, 0);
  std::thread second(commit_all, 1);
  first.join();
  second.join();
  for (auto& store : stores) store->CatchUp();

  const Schema& final_schema = *stores[0]->schemas().snapshot();
  EXPECT_EQ(stores[1]->schemas().snapshot()->version(), final_schema.version());
  EXPECT_EQ(stores[0]->epoch(), 2u * kPerThread);
  EXPECT_EQ(stores[1]->epoch(), 2u * kPerThread);
  std::vector<int> orders;
  for (const std::string& name : UserKeyspaces(final_schema)) {
    orders.push_back(std::stoi(final_schema.FindKeyspace(name)->replication.at("order")));
  }
  std::sort(orders.begin(), orders.end());
  std::vector<int> expected(2 * kPerThread);
  for (int i = 0; i < 2 * kPerThread; ++i) expected[i] = i;
  EXPECT_EQ(orders, expected);  // each change applied once, over the state before it
  EXPECT_GE(runs.load(), 2 * kPerThread);
  // Both stores published the same history, every epoch once, in order.
  ASSERT_EQ(seen[0].size(), 2u * kPerThread);
  EXPECT_EQ(seen[0], seen[1]);
}

TEST_F(EtcdMetadataStoreTest, AConflictRerunsTheTransformationOnTheNewState) {
  const auto a = EtcdMetadataStore::Open(Options(/*watch=*/false));
  const auto b = EtcdMetadataStore::Open(Options(/*watch=*/false));
  ASSERT_TRUE(Add(*a, "same").changed);
  int runs = 0;
  // b has not seen epoch 1: its first attempt loses the race for the epoch,
  // and the second, over the new schema, finds nothing to do (IF NOT EXISTS).
  const auto result = b->Commit([&](const Schema& current) -> std::optional<Schema::KeyspaceMap> {
    ++runs;
    if (current.FindKeyspace("same") != nullptr) return std::nullopt;
    return WithKeyspace(current, "same");
  });
  EXPECT_EQ(runs, 2);
  EXPECT_FALSE(result.changed);
  EXPECT_EQ(b->epoch(), 1u);
  EXPECT_NE(b->schemas().snapshot()->FindKeyspace("same"), nullptr);
}

TEST_F(EtcdMetadataStoreTest, ARestartedStoreGetsItsStateBack) {
  types::Uuid version;
  {
    const auto store = EtcdMetadataStore::Open(Options());
    (void)Add(*store, "kept");
    (void)store->CommitDirectory(
        [](const Directory& current) { return std::optional(current.With(Node("n1", 7))); });
    version = store->schemas().snapshot()->version();
  }
  const auto again = EtcdMetadataStore::Open(Options());
  EXPECT_EQ(again->epoch(), 2u);
  EXPECT_EQ(again->schemas().snapshot()->version(), version);
  ASSERT_NE(again->directory()->Find(types::Uuid::NameBased("n1")), nullptr);
  EXPECT_EQ(again->directory()->Find(types::Uuid::NameBased("n1"))->tokens,
            std::vector<dht::Token>{7});
  EXPECT_EQ(Add(*again, "more").epoch, 3u);
}

TEST_F(EtcdMetadataStoreTest, WithEtcdDownDdlFailsClearlyAndReadsGoOn) {
  testing::TempDirectory cache("sibyl-metadata-store");
  EtcdMetadataStoreOptions options = Options();
  options.cache_directory = cache.path();
  const auto store = EtcdMetadataStore::Open(options);
  (void)Add(*store, "before");
  const types::Uuid version = store->schemas().snapshot()->version();

  etcd_.Kill();
  try {
    (void)Add(*store, "during");
    ADD_FAILURE() << "expected an error";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kServerError);
    const std::string expected =
        "Schema change failed: etcd unavailable (endpoints " + etcd_.endpoint() + "): ";
    EXPECT_TRUE(std::string(e.what()).starts_with(expected)) << e.what();
  }
  try {
    (void)store->CommitDirectory(
        [](const Directory& current) { return std::optional(current.With(Node("n", 1))); });
    ADD_FAILURE() << "expected an error";
  } catch (const CqlError& e) {
    EXPECT_TRUE(std::string(e.what()).starts_with("Membership change failed: etcd unavailable"))
        << e.what();
  }
  EXPECT_EQ(store->epoch(), 1u);
  EXPECT_EQ(store->schemas().snapshot()->version(), version);
  EXPECT_EQ(store->schemas().snapshot()->FindKeyspace("during"), nullptr);

  // A node restarting now starts from its local copy; one without a copy cannot.
  EXPECT_THROW((void)EtcdMetadataStore::Open(Options()), EtcdUnavailable);
  const auto restarted = EtcdMetadataStore::Open(options);
  EXPECT_EQ(restarted->epoch(), 1u);
  EXPECT_EQ(restarted->schemas().snapshot()->version(), version);

  // etcd is back: DDL works again and the restarted node catches up by itself.
  etcd_.Start();
  EXPECT_EQ(Add(*store, "after").epoch, 2u);
  ASSERT_TRUE(Eventually([&] { return restarted->epoch() == 2; }));
  EXPECT_NE(restarted->schemas().snapshot()->FindKeyspace("after"), nullptr);
}

TEST_F(EtcdMetadataStoreTest, ANodeBehindCompactionJumpsToTheLatestState) {
  EtcdMetadataStoreOptions options = Options(/*watch=*/false);
  options.retained_entries = 10;
  const auto writer = EtcdMetadataStore::Open(options);
  const auto behind = EtcdMetadataStore::Open(options);
  std::vector<size_t> seen;
  behind->AddListener(
      [&](const Schema&, const Schema& after) { seen.push_back(UserKeyspaces(after).size()); });
  for (int i = 1; i <= 64; ++i) {
    if (i == 60) {
      (void)writer->CommitDirectory(
          [](const Directory& current) { return std::optional(current.With(Node("n", 3))); });
    } else {
      (void)Add(*writer, "k" + std::to_string(i));
    }
  }
  // Compaction at epoch 64 kept 55 to 64 (and 60, the directory).
  EXPECT_EQ(writer->log().EntryKey(55),
            EtcdClient(options.etcd)
                .Range({.key = writer->log().LogPrefix(),
                        .range_end = PrefixEnd(writer->log().LogPrefix()),
                        .limit = 1})
                .kvs.at(0)
                .key);
  behind->CatchUp();
  EXPECT_EQ(behind->epoch(), 64u);
  EXPECT_EQ(seen, std::vector<size_t>{63});  // one jump, not 63 steps
  EXPECT_EQ(behind->schemas().snapshot()->version(), writer->schemas().snapshot()->version());
  EXPECT_EQ(*behind->directory(), *writer->directory());
  // A node starting now reads the latest state too.
  EXPECT_EQ(EtcdMetadataStore::Open(options)->epoch(), 64u);
}

TEST_F(EtcdMetadataStoreTest, WaitForEpochCatchesUp) {
  const auto a = EtcdMetadataStore::Open(Options(/*watch=*/false));
  const auto b = EtcdMetadataStore::Open(Options(/*watch=*/false));
  (void)Add(*a, "x");
  (void)Add(*a, "y");
  EXPECT_TRUE(b->WaitForEpoch(2, std::chrono::seconds(10)));
  EXPECT_EQ(b->epoch(), 2u);
  EXPECT_FALSE(b->WaitForEpoch(3, std::chrono::milliseconds(50)));
}

TEST_F(EtcdMetadataStoreTest, ARefusedRemoteChangeIsRetriedNotSkipped) {
  const auto a = EtcdMetadataStore::Open(Options(/*watch=*/false));
  const auto b = EtcdMetadataStore::Open(Options(/*watch=*/false));
  bool refuse = true;
  b->AddListener([&](const Schema&, const Schema&) {
    if (refuse) throw std::runtime_error("disk full");
  });
  (void)Add(*a, "x");
  try {
    b->CatchUp();
    ADD_FAILURE() << "expected an error";
  } catch (const CqlError& e) {
    EXPECT_STREQ(e.what(), "Failed to apply the schema change: disk full");
  }
  EXPECT_EQ(b->epoch(), 0u);
  EXPECT_EQ(b->schemas().snapshot()->FindKeyspace("x"), nullptr);
  refuse = false;
  b->CatchUp();
  EXPECT_EQ(b->epoch(), 1u);
  EXPECT_NE(b->schemas().snapshot()->FindKeyspace("x"), nullptr);
}

}  // namespace
}  // namespace sibyl::metadata
