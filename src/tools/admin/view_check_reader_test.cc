#include "tools/admin/view_check_reader.h"

#include <gtest/gtest.h>

#include "tools/admin/admin_error.h"
#include "tools/admin/cluster_members_test_util.h"
#include "types/value_codec.h"

namespace sibyl::tools::admin {
namespace {

AdminRow CheckRow() {
  return {"ks",
          "v",
          types::EncodeBoolean(true),
          types::EncodeTimestamp(1795000000123),
          types::EncodeBigint(1200),
          types::EncodeBigint(2),
          types::EncodeBigint(0),
          types::EncodeBigint(1),
          types::EncodeBigint(3)};
}

std::string ReadError(const AdminRow& row) {
  try {
    (void)ViewCheckOfRow(row);
  } catch (const AdminError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ViewCheckReaderTest, RowsAreRead) {
  const ViewCheck check = ViewCheckOfRow(CheckRow());
  EXPECT_EQ(check.keyspace, "ks");
  EXPECT_EQ(check.view, "v");
  EXPECT_TRUE(check.repair);
  EXPECT_EQ(check.checked_at_millis, 1795000000123);
  EXPECT_EQ(check.rows_expected, 1200);
  EXPECT_EQ(check.missing, 2);
  EXPECT_EQ(check.unexpected, 0);
  EXPECT_EQ(check.different, 1);
  EXPECT_EQ(check.repaired, 3);
  EXPECT_EQ(check.remaining(), 0);
}

TEST(ViewCheckReaderTest, ANodesMistakesAreErrorsNotCrashes) {
  AdminRow row = CheckRow();
  row[3] = std::nullopt;
  EXPECT_EQ(ReadError(row), "the node answered a null checked_at");
  row = CheckRow();
  row[2] = types::EncodeBigint(1);
  EXPECT_EQ(ReadError(row), "the node answered a malformed repair (8 bytes)");
  row = CheckRow();
  row.resize(8);
  EXPECT_EQ(ReadError(row), "the node answered a null repaired");
}

TEST(ViewCheckReaderTest, ADownMemberIsNotAsked) {
  ClusterMembers cluster = ThreeNodeCluster();
  cluster.members = {cluster.members[1]};  // .2, down
  const std::vector<NodeViewCheck> nodes =
      CheckViewOnEveryMember(cluster, NodeAddress{}, "ks", "v", false);
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(nodes[0].address, "127.0.0.2");
  EXPECT_EQ(nodes[0].unavailable, "DOWN: not asked");
}

}  // namespace
}  // namespace sibyl::tools::admin
