#include "messaging/peer_address.h"

#include <gtest/gtest.h>

#include <unordered_set>

namespace sibyl::messaging {
namespace {

TEST(PeerAddressTest, PrintsAndParsesBack) {
  const PeerAddress v4{"127.0.0.2", 7000};
  EXPECT_EQ(v4.ToString(), "127.0.0.2:7000");
  EXPECT_EQ(PeerAddress::Parse("127.0.0.2:7000"), v4);
  const PeerAddress v6{"::1", 7001};
  EXPECT_EQ(v6.ToString(), "[::1]:7001");
  EXPECT_EQ(PeerAddress::Parse("[::1]:7001"), v6);
  // Normalised as Asio prints addresses, so equal nodes compare equal.
  EXPECT_EQ(PeerAddress::Parse("[0:0:0:0:0:0:0:1]:7001"), v6);
}

TEST(PeerAddressTest, RefusesWhatIsNotANumericAddressAndPort) {
  for (const char* text : {"", "127.0.0.1", "127.0.0.1:", "127.0.0.1:70000", "127.0.0.1:7x",
                           "localhost:7000", "::1:7000", "[::1]", "1.2.3:7000"}) {
    EXPECT_FALSE(PeerAddress::Parse(text).has_value()) << text;
  }
}

TEST(PeerAddressTest, HashesAndOrders) {
  std::unordered_set<PeerAddress, PeerAddressHash> set = {{"10.0.0.1", 1}, {"10.0.0.1", 2}};
  EXPECT_EQ(set.size(), 2u);
  EXPECT_TRUE(set.contains(PeerAddress{"10.0.0.1", 2}));
  EXPECT_LT((PeerAddress{"10.0.0.1", 9}), (PeerAddress{"10.0.0.2", 1}));
}

}  // namespace
}  // namespace sibyl::messaging
