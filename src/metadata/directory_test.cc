#include "metadata/directory.h"

#include <gtest/gtest.h>

#include <random>

namespace sibyl::metadata {
namespace {

NodeRecord Node(int n, int tokens, std::mt19937_64& rng) {
  NodeRecord node;
  node.host_id = types::Uuid::NameBased("node" + std::to_string(n));
  node.broadcast_address = "10.0.0." + std::to_string(n);
  node.storage_port = 7000 + n;
  node.native_address = "192.168.0." + std::to_string(n);
  node.native_port = 9042;
  node.datacenter = n % 2 ? "dc1" : "dc2";
  node.rack = "rack" + std::to_string(n % 3);
  node.tokens = dht::RandomTokens(tokens, rng);
  node.release_version = "4.1.7";
  return node;
}

TEST(DirectoryTest, EncodingRoundTrips) {
  const uint64_t seed = std::random_device()();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  Directory directory;
  EXPECT_EQ(DecodeDirectory(EncodeDirectory(directory)), directory);
  for (int n = 1; n <= 5; ++n) directory = directory.With(Node(n, n == 3 ? 0 : 256, rng));
  const Bytes encoded = EncodeDirectory(directory);
  EXPECT_EQ(DecodeDirectory(encoded), directory);
  // Every truncation and an extra byte are refused, never misread.
  for (size_t size = 0; size < encoded.size(); size += 97) {
    EXPECT_THROW((void)DecodeDirectory(BytesView(encoded).substr(0, size)), std::runtime_error)
        << size;
  }
  EXPECT_THROW((void)DecodeDirectory(encoded + "x"), std::runtime_error);
  Bytes huge_count = encoded;
  huge_count[0] = '\x7f';
  EXPECT_THROW((void)DecodeDirectory(huge_count), std::runtime_error);
}

TEST(DirectoryTest, StatesOtherThanNormalFollowTheMembers) {
  std::mt19937_64 rng(7);
  Directory directory;
  for (int n = 1; n <= 4; ++n) directory = directory.With(Node(n, 16, rng));
  const Bytes all_normal = EncodeDirectory(directory);
  NodeRecord joining = Node(2, 16, rng);
  joining.state = NodeState::kJoining;
  NodeRecord leaving = Node(4, 16, rng);
  leaving.state = NodeState::kLeavingReadNew;
  directory = directory.With(joining).With(leaving);
  const Bytes encoded = EncodeDirectory(directory);
  EXPECT_EQ(DecodeDirectory(encoded), directory);
  EXPECT_EQ(DecodeDirectory(encoded).Find(joining.host_id)->state, NodeState::kJoining);
  // Two states of 17 bytes and their count.
  EXPECT_EQ(encoded.size(), all_normal.size() + 4 + 2 * 17);
  for (size_t cut = encoded.size() - 2 * 17; cut < encoded.size(); ++cut) {
    EXPECT_THROW((void)DecodeDirectory(BytesView(encoded).substr(0, cut)), std::runtime_error)
        << cut;
  }
  Bytes unknown_state = encoded;
  unknown_state.back() = '\x09';
  EXPECT_THROW((void)DecodeDirectory(unknown_state), std::runtime_error);
}

TEST(DirectoryTest, WithReplacesAndWithoutRemoves) {
  std::mt19937_64 rng(1);
  const NodeRecord a = Node(1, 4, rng);
  NodeRecord moved = a;
  moved.rack = "rack9";
  const Directory one = Directory().With(a);
  const Directory replaced = one.With(moved);
  EXPECT_EQ(replaced.size(), 1u);
  EXPECT_EQ(replaced.Find(a.host_id)->rack, "rack9");
  EXPECT_EQ(one.Find(a.host_id)->rack, a.rack);  // the original is untouched
  EXPECT_TRUE(replaced.Without(a.host_id).empty());
  EXPECT_EQ(replaced.Without(types::Uuid::NameBased("other")), replaced);
  EXPECT_EQ(replaced.Find(types::Uuid::NameBased("other")), nullptr);
}

TEST(DirectoryTest, PeerInfoShowsTokensInDecimal) {
  NodeRecord node;
  node.broadcast_address = "10.0.0.2";
  node.datacenter = "dc1";
  node.tokens = {-9223372036854775807LL, 0, 42};
  const schema::PeerInfo peer = ToPeerInfo(node);
  EXPECT_EQ(peer.address, "10.0.0.2");
  EXPECT_EQ(peer.data_center, "dc1");
  EXPECT_EQ(peer.tokens, (std::vector<std::string>{"-9223372036854775807", "0", "42"}));
}

}  // namespace
}  // namespace sibyl::metadata
