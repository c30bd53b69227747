#include "tools/admin/describe_ring_format.h"

#include <gtest/gtest.h>

#include "tools/admin/admin_error.h"
#include "tools/admin/cluster_members_test_util.h"

namespace sibyl::tools::admin {
namespace {

std::string Range(const char* start, const char* end, int first, int second) {
  const std::string a = std::to_string(first), b = std::to_string(second);
  return std::string("\tTokenRange(start_token:") + start + ", end_token:" + end +
         ", endpoints:[127.0.0." + a + ", 127.0.0." + b + "], rpc_endpoints:[192.168.0." + a +
         ", 192.168.0." + b + "], endpoint_details:[EndpointDetails(host:127.0.0." + a +
         ", datacenter:datacenter1, rack:rack1), EndpointDetails(host:127.0.0." + b +
         ", datacenter:datacenter1, rack:rack1)])\n";
}

TEST(DescribeRingFormatTest, EveryRangeWithItsReplicasInTheStrategysOrder) {
  EXPECT_EQ(FormatDescribeRing(ThreeNodeCluster(), "ks2"),
            "Schema Version:5a3c0b4e-1d2f-3a4b-8c5d-6e7f8091a2b3\n"
            "TokenRange: \n" +
                Range("6000000000000000000", "-6000000000000000000", 1, 2) +
                Range("-6000000000000000000", "-4000000000000000000", 2, 3) +
                Range("-4000000000000000000", "-2000000000000000000", 3, 1) +
                Range("-2000000000000000000", "0", 1, 2) + Range("0", "3000000000000000000", 2, 3) +
                Range("3000000000000000000", "6000000000000000000", 3, 1));
}

TEST(DescribeRingFormatTest, LocalAndUnknownKeyspacesHaveNoRing) {
  try {
    (void)FormatDescribeRing(ThreeNodeCluster(), "system");
    FAIL() << "expected an error";
  } catch (const AdminError& e) {
    EXPECT_STREQ(e.what(), "There is no ring for the keyspace: system");
  }
  try {
    (void)FormatDescribeRing(ThreeNodeCluster(), "nosuch");
    FAIL() << "expected an error";
  } catch (const AdminError& e) {
    EXPECT_STREQ(e.what(), "The keyspace nosuch, does not exist");
  }
}

}  // namespace
}  // namespace sibyl::tools::admin
