#include "cluster/read/ring_ranges.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace sibyl::cluster {
namespace {

locator::TokenRing ThreeTokenRing() {
  const auto a = *types::Uuid::Parse("00000000-0000-4000-8000-000000000001");
  const auto b = *types::Uuid::Parse("00000000-0000-4000-8000-000000000002");
  return locator::TokenRing(
      std::map<locator::NodeId, std::vector<dht::Token>>{{a, {-100, 100}}, {b, {0}}});
}

std::vector<std::tuple<dht::Token, dht::Token, size_t>> Flat(const std::vector<RingPiece>& pieces) {
  std::vector<std::tuple<dht::Token, dht::Token, size_t>> flat;
  for (const RingPiece& piece : pieces) {
    flat.emplace_back(piece.range.left(), piece.range.right(), piece.ring_index);
  }
  return flat;
}

TEST(RingRangesTest, TheWholeRingInTokenOrder) {
  const auto pieces = SplitAlongRing(ThreeTokenRing(), dht::TokenRange::FullRing());
  const dht::Token min = dht::kMinimumToken;
  EXPECT_EQ(Flat(pieces), (std::vector<std::tuple<dht::Token, dht::Token, size_t>>{
                              {min, -100, 0}, {-100, 0, 1}, {0, 100, 2}, {100, min, 0}}));
}

TEST(RingRangesTest, PartOfTheRing) {
  EXPECT_EQ(Flat(SplitAlongRing(ThreeTokenRing(), dht::TokenRange(-50, 50))),
            (std::vector<std::tuple<dht::Token, dht::Token, size_t>>{{-50, 0, 1}, {0, 50, 2}}));
  // A range wrapping past the end of the ring comes from the ring's start.
  const dht::Token min = dht::kMinimumToken;
  EXPECT_EQ(
      Flat(SplitAlongRing(ThreeTokenRing(), dht::TokenRange(150, -150))),
      (std::vector<std::tuple<dht::Token, dht::Token, size_t>>{{min, -150, 0}, {150, min, 0}}));
  EXPECT_TRUE(SplitAlongRing(locator::TokenRing(), dht::TokenRange::FullRing()).empty());
}

}  // namespace
}  // namespace sibyl::cluster
