#include "cluster/hints/hint_store.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

namespace sibyl::cluster {
namespace {

class HintStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "sibyl-hints-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  HintStore::Options Options(uint64_t max_segment_bytes = 32 << 20) {
    return {.directory = directory_, .max_segment_bytes = max_segment_bytes};
  }

  std::filesystem::path directory_;
  const types::Uuid a_ = *types::Uuid::Parse("11111111-1111-4111-8111-111111111111");
  const types::Uuid b_ = *types::Uuid::Parse("22222222-2222-4222-8222-222222222222");
};

TEST_F(HintStoreTest, HintsComeBackInOrderPerTarget) {
  HintStore store(Options());
  store.Append(a_, 10, "first");
  store.Append(b_, 11, "other");
  store.Append(a_, 12, "second");
  auto targets = store.Targets();
  std::sort(targets.begin(), targets.end());
  EXPECT_EQ(targets, (std::vector<types::Uuid>{a_, b_}));
  const auto segments = store.SealAndList(a_);
  ASSERT_EQ(segments.size(), 1u);
  const auto hints = HintStore::ReadSegment(segments[0].path);
  ASSERT_EQ(hints.size(), 2u);
  EXPECT_EQ(hints[0].creation_micros, 10);
  EXPECT_EQ(hints[0].mutation, "first");
  EXPECT_EQ(hints[1].mutation, "second");
  store.Remove(segments[0]);
  EXPECT_EQ(store.PendingBytes(a_), 0u);
  EXPECT_EQ(store.Targets(), (std::vector<types::Uuid>{b_}));
}

TEST_F(HintStoreTest, SegmentsRollAndSurviveARestart) {
  {
    HintStore store(Options(64));
    for (int i = 0; i < 10; ++i) store.Append(a_, i, Bytes(30, static_cast<char>('a' + i)));
    store.Sync();
  }
  HintStore reopened(Options(64));
  const auto segments = reopened.SealAndList(a_);
  ASSERT_GT(segments.size(), 1u);
  std::vector<Hint> all;
  for (const auto& segment : segments) {
    for (auto& hint : HintStore::ReadSegment(segment.path)) all.push_back(std::move(hint));
  }
  ASSERT_EQ(all.size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(all[i].creation_micros, i);
  // New hints after the restart go to a later segment, never an older one.
  reopened.Append(a_, 99, "late");
  const auto after = reopened.SealAndList(a_);
  EXPECT_EQ(HintStore::ReadSegment(after.back().path).back().mutation, "late");
}

TEST_F(HintStoreTest, ATornOrCorruptTailEndsTheSegment) {
  HintStore store(Options());
  store.Append(a_, 1, "kept");
  store.Append(a_, 2, "torn");
  const auto segment = store.SealAndList(a_).at(0);
  // A crash in the middle of the second record: its last bytes never landed.
  std::filesystem::resize_file(segment.path, segment.bytes - 2);
  auto hints = HintStore::ReadSegment(segment.path);
  ASSERT_EQ(hints.size(), 1u);
  EXPECT_EQ(hints[0].mutation, "kept");
  // A flipped byte in the first record's payload: nothing is trusted.
  {
    std::fstream file(segment.path, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(16);
    file.put('X');
  }
  EXPECT_TRUE(HintStore::ReadSegment(segment.path).empty());
}

TEST_F(HintStoreTest, DropAllForgetsATarget) {
  HintStore store(Options());
  store.Append(a_, 1, "x");
  EXPECT_GT(store.PendingBytes(a_), 0u);
  store.DropAll(a_);
  EXPECT_EQ(store.PendingBytes(a_), 0u);
  EXPECT_TRUE(store.Targets().empty());
  store.Append(a_, 2, "y");  // the target can get hints again
  EXPECT_EQ(HintStore::ReadSegment(store.SealAndList(a_).at(0).path).at(0).mutation, "y");
}

}  // namespace
}  // namespace sibyl::cluster
