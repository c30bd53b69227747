// Streaming (cluster/streaming/): token ranges cut into slices that cover
// them exactly; STREAM_PULL's payload; on a simulated cluster, a stream
// that leaves the receiver holding the source's rows exactly as stored
// (timestamps, TTLs, row and partition tombstones), resumes after its
// source died without fetching again what it applied, and is paced by the
// source's stream_throughput_outbound.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <stdexcept>

#include "cluster/streaming/range_streamer.h"
#include "cluster/streaming/stream_messages.h"
#include "cluster/streaming/stream_sources.h"
#include "cluster/streaming/token_slices.h"
#include "cluster/write/write_test_util.h"
#include "storage/storage_test_util.h"

namespace sibyl::cluster::streaming {
namespace {

using testing::KeyOf;
using testing::RowMutation;
using testing::SimulatedCluster;

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

void ExpectCovers(const std::vector<storage::TokenRange>& slices,
                  const storage::TokenRange& range) {
  ASSERT_FALSE(slices.empty());
  EXPECT_EQ(slices.front().start, range.start);
  EXPECT_EQ(slices.back().end, range.end);
  for (size_t i = 0; i + 1 < slices.size(); ++i) {
    EXPECT_EQ(slices[i].end, slices[i + 1].start) << i;
    // No slice wraps around the ring's end.
    EXPECT_TRUE(slices[i].end == kMin || slices[i].start < slices[i].end) << i;
  }
}

TEST(TokenSlicesTest, SlicesCoverTheRangeInOrderWithoutWrapping) {
  for (const storage::TokenRange& range :
       {storage::TokenRange{kMin, kMin}, storage::TokenRange{-100, 100},
        storage::TokenRange{100, -100}, storage::TokenRange{kMin, 0}, storage::TokenRange{0, kMin},
        storage::TokenRange{kMax - 3, kMin}, storage::TokenRange{5, 5}}) {
    SCOPED_TRACE(std::to_string(range.start) + ", " + std::to_string(range.end));
    for (int count : {1, 4, 7}) ExpectCovers(SliceTokenRange(range, count), range);
  }
  // Equal widths: the whole ring in four quarters.
  const auto quarters = SliceTokenRange({kMin, kMin}, 4);
  ASSERT_EQ(quarters.size(), 4u);
  EXPECT_LE(std::abs(quarters[1].start - kMin / 2), 1);
  EXPECT_LE(std::abs(quarters[2].start), 1);
  // A range around the ring's end is cut there.
  const auto wrapped = SliceTokenRange({100, -100}, 1);
  ASSERT_EQ(wrapped.size(), 2u);
  EXPECT_EQ(wrapped[0].end, kMin);
  // A range of two tokens has two slices at most.
  EXPECT_EQ(SliceTokenRange({10, 12}, 4).size(), 2u);
}

TEST(StreamMessagesTest, PullRequestsRoundTripAndRefuseMalformedBytes) {
  const StreamPullRequest request{
      .plan_id = types::Uuid::Random(), .table_id = types::Uuid::Random(), .slice = {-5, kMax}};
  const Bytes bytes = EncodeStreamPullRequest(request);
  EXPECT_EQ(DecodeStreamPullRequest(bytes), request);
  EXPECT_THROW((void)DecodeStreamPullRequest(BytesView(bytes).substr(1)), std::runtime_error);
  EXPECT_THROW((void)DecodeStreamPullRequest(bytes + "x"), std::runtime_error);
}

bool InRange(int64_t token, const storage::TokenRange& range) {
  if (range.start < range.end) return range.start < token && token <= range.end;
  return token > range.start || token <= range.end;  // wraps
}

// The joiner's sources: for each range it is pending for, the natural
// replica that loses it; every pending key is in one of the ranges, and no
// other key.
TEST(StreamSourcesTest, AJoinerStreamsEachRangeFromTheReplicaLosingIt) {
  SimulatedCluster cluster(
      {.nodes = 4, .seed = 94, .states = {{3, metadata::NodeState::kJoining}}});
  const ClusterViewPtr view = cluster.node(0).views.Get();
  const types::Uuid joiner = cluster.node(3).id;
  const std::vector<RangeSource> sources =
      SourcesFor(*cluster.node(3).views.Get(), joiner, cluster.node(3).liveness);
  std::vector<RangeSource> ks;
  for (const RangeSource& source : sources) {
    if (source.keyspace == "ks") ks.push_back(source);
  }
  ASSERT_FALSE(ks.empty());
  const KeyspaceReplication* replication = view->ReplicationOf("ks");
  for (const RangeSource& source : ks) {
    const auto natural = replication->placement->ReplicasFor(source.range.end);
    const auto written = replication->also_written->ReplicasFor(source.range.end);
    EXPECT_NE(std::find(natural.begin(), natural.end(), source.source), natural.end());
    EXPECT_EQ(std::find(written.begin(), written.end(), source.source), written.end());
  }
  for (int32_t k = 0; k < 300; ++k) {
    const bool pending = !testing::PendingIndexes(cluster, k).empty();
    const int64_t token = KeyOf(k).token;
    const bool covered = std::any_of(ks.begin(), ks.end(), [&](const RangeSource& source) {
      return InRange(token, source.range);
    });
    EXPECT_EQ(covered, pending) << k;
  }
  // A losing replica down, as the joiner sees it: no consistent stream.
  cluster.node(3).liveness.SetDown(ks.front().source);
  try {
    (void)SourcesFor(*cluster.node(3).views.Get(), joiner, cluster.node(3).liveness);
    ADD_FAILURE() << "a down source was chosen";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "Necessary replicas for strict consistency were removed by source filters: /"),
              std::string::npos)
        << e.what();
  }
}

// A leave: the members taking its ranges stream them from the leaver.
TEST(StreamSourcesTest, ALeaversRangesComeFromTheLeaver) {
  SimulatedCluster cluster(
      {.nodes = 4, .seed = 95, .states = {{3, metadata::NodeState::kLeaving}}});
  size_t ranges = 0;
  for (int i = 0; i < 3; ++i) {
    for (const RangeSource& source :
         SourcesFor(*cluster.node(i).views.Get(), cluster.node(i).id, cluster.node(i).liveness)) {
      EXPECT_EQ(source.source, cluster.node(3).id);
      ++ranges;
    }
  }
  EXPECT_GT(ranges, 0u);
  EXPECT_TRUE(SourcesFor(*cluster.node(3).views.Get(), cluster.node(3).id, cluster.node(3).liveness)
                  .empty());
}

// A removal: node 3 is dead and leaving; the members taking its ranges
// stream each from a live replica that keeps the range, never from node 3,
// and the same ranges as a leave would, but those of an RF 1 keyspace.
TEST(StreamSourcesTest, ARemovedNodesRangesComeFromTheReplicasThatRemain) {
  SimulatedCluster cluster(
      {.nodes = 4, .seed = 95, .states = {{3, metadata::NodeState::kLeaving}}});
  const types::Uuid removed = cluster.node(3).id;
  const testing::SettableLiveness all_alive;
  size_t ranges = 0;
  for (int i = 0; i < 3; ++i) {
    const ClusterView& view = *cluster.node(i).views.Get();
    cluster.node(i).liveness.SetDown(removed);
    EXPECT_THROW((void)SourcesFor(view, cluster.node(i).id, cluster.node(i).liveness),
                 std::runtime_error);
    // The strict sources' ranges but those only node 3 held (RF 1): gone with it.
    std::vector<RangeSource> strict;
    for (const RangeSource& source : SourcesFor(view, cluster.node(i).id, all_alive)) {
      if (view.ReplicationOf(source.keyspace)->strategy().replication_factor() > 1) {
        strict.push_back(source);
      }
    }
    const auto remaining = SourcesFor(view, cluster.node(i).id, cluster.node(i).liveness,
                                      SourceRule::kRemainingReplica);
    ASSERT_EQ(remaining.size(), strict.size());
    for (size_t r = 0; r < remaining.size(); ++r) {
      EXPECT_EQ(remaining[r].range.start, strict[r].range.start);
      EXPECT_EQ(remaining[r].range.end, strict[r].range.end);
      EXPECT_NE(remaining[r].source, removed);
      EXPECT_NE(remaining[r].source, cluster.node(i).id);
      const auto replicas = view.ReplicationOf(remaining[r].keyspace)
                                ->also_written->ReplicasFor(remaining[r].range.end);
      EXPECT_NE(std::find(replicas.begin(), replicas.end(), remaining[r].source), replicas.end());
      ++ranges;
    }
  }
  EXPECT_GT(ranges, 0u);
}

class StreamingTest : public ::testing::Test {
 protected:
  // Node 0 holds rows nobody else has: values, one with a TTL, a deleted
  // row, a deleted partition and rows the deletion does not cover.
  void WriteSourceRows(SimulatedCluster& cluster, int partitions) {
    const int32_t now = cluster.node(0).clock.NowSeconds();
    for (int32_t k = 0; k < partitions; ++k) {
      storage::Mutation m = RowMutation(cluster, k, 0, k, 1000 + k);
      if (k % 3 == 0) {
        storage::Cell& cell = m.rows[0].cells[0].cell;
        cell.kind = storage::Cell::Kind::kExpiring;
        cell.ttl = 86400;
        cell.local_deletion_time = now + 86400;
      }
      if (k % 5 == 0) {
        storage::RowWrite deleted;
        deleted.clustering = {types::EncodeInt(1)};
        deleted.deletion = {.marked_for_delete_at = 2000, .local_deletion_time = now};
        m.rows.push_back(deleted);
      }
      if (k % 7 == 0)
        m.partition_deletion = {.marked_for_delete_at = 500, .local_deletion_time = now};
      cluster.node(0).engine.Apply(m);
    }
  }

  std::vector<storage::Mutation> Everything(SimulatedCluster& cluster, int i) {
    storage::ReadCommand all;
    all.table_id = cluster.table().id;
    all.now_seconds = cluster.node(i).clock.NowSeconds();
    return cluster.node(i).engine.ReadUnfiltered(all);
  }

  std::shared_ptr<RangeStreamer> Stream(SimulatedCluster& cluster, const types::Uuid& plan,
                                        std::optional<std::exception_ptr>& outcome) {
    return RangeStreamer::Start(
        cluster.node(1).services, cluster.node(1).store(),
        {.plan_id = plan, .progress_dir = dir_.path(), .slices_per_range = 16},
        {{.table_id = cluster.table().id, .range = {kMin, kMin}, .source = cluster.node(0).id}},
        [&outcome](std::exception_ptr error) { outcome = error; });
  }

  storage::testing::ScratchDir dir_;
};

TEST_F(StreamingTest, TheReceiverHoldsTheRowsAsTheSourceStoresThem) {
  SimulatedCluster cluster({.nodes = 2, .seed = 91});
  WriteSourceRows(cluster, 60);
  std::optional<std::exception_ptr> outcome;
  const auto streamer = Stream(cluster, types::Uuid::Random(), outcome);
  cluster.RunUntil([&] { return outcome.has_value(); });
  ASSERT_EQ(*outcome, nullptr);
  EXPECT_EQ(Everything(cluster, 1), Everything(cluster, 0));
  EXPECT_EQ(streamer->counters().slices_total, 16u);
  EXPECT_EQ(streamer->counters().slices_received, 16u);
  EXPECT_EQ(streamer->counters().bytes_received, cluster.node(0).stream_source->bytes_sent());
}

// Its source dies half-way: the stream fails, naming it; run again once the
// source is back, it fetches only the slices it had not applied.
TEST_F(StreamingTest, AStreamRunAgainResumesAfterTheSlicesItApplied) {
  SimulatedCluster cluster({.nodes = 2, .seed = 92, .timeouts = {}});
  WriteSourceRows(cluster, 200);
  const types::Uuid plan = types::Uuid::Random();
  std::optional<std::exception_ptr> first;
  const auto interrupted = Stream(cluster, plan, first);
  cluster.RunUntil([&] { return interrupted->counters().slices_received >= 8; });
  cluster.Kill(0);
  cluster.RunUntil([&] { return first.has_value(); });
  ASSERT_NE(*first, nullptr);
  EXPECT_NE(std::string(testing::ErrorOf(*first).what()).find("Stream failed: slice ("),
            std::string::npos);
  const uint64_t applied = interrupted->counters().slices_received;
  const uint64_t sent_before = cluster.node(0).stream_source->bytes_sent();
  EXPECT_LT(applied, 16u);

  cluster.Revive(0);
  std::optional<std::exception_ptr> second;
  const auto resumed = Stream(cluster, plan, second);
  cluster.RunUntil([&] { return second.has_value(); });
  ASSERT_EQ(*second, nullptr);
  EXPECT_EQ(resumed->counters().slices_skipped, applied);
  EXPECT_EQ(resumed->counters().slices_received, 16u - applied);
  EXPECT_EQ(Everything(cluster, 1), Everything(cluster, 0));
  // What the second run fetched is what the first had not (a slice in
  // flight when the source died may be sent twice, nothing more).
  const uint64_t total = cluster.node(0).stream_source->bytes_sent();
  EXPECT_LE(interrupted->counters().bytes_received + resumed->counters().bytes_received, total);
  EXPECT_GT(sent_before, 0u);
}

TEST_F(StreamingTest, TheSourcePacesItsRepliesToItsThroughput) {
  constexpr uint64_t kBytesPerSecond = 2'000;
  SimulatedCluster cluster({.nodes = 2, .seed = 93, .stream_throughput_bytes = kBytesPerSecond});
  WriteSourceRows(cluster, 300);
  const auto started = cluster.scheduler().Now();
  std::optional<std::exception_ptr> outcome;
  const auto streamer = Stream(cluster, types::Uuid::Random(), outcome);
  cluster.RunUntil([&] { return outcome.has_value(); });
  ASSERT_EQ(*outcome, nullptr);
  const double seconds = std::chrono::duration<double>(cluster.scheduler().Now() - started).count();
  const double bytes = static_cast<double>(streamer->counters().bytes_received);
  EXPECT_GT(bytes, 3 * kBytesPerSecond);  // several seconds' worth
  // The first reply goes at once; every later one waits its turn.
  EXPECT_GE(seconds, (bytes - bytes / 16 * 2) / kBytesPerSecond);
  EXPECT_LE(seconds, bytes / kBytesPerSecond + 2);
}

}  // namespace
}  // namespace sibyl::cluster::streaming
