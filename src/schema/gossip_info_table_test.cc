#include "schema/gossip_info_table.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "schema/system_keyspaces.h"
#include "schema/virtual_tables.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

class GossipInfoTableTest : public ::testing::Test {
 protected:
  GossipInfoTableTest()
      : schema_(MakeInitialSchema()),
        table_(*schema_->FindTable("system_views", "gossip_info")),
        tables_(VirtualTables::SystemTables()) {
    node_.broadcast_address = "127.0.0.1";
    node_.listen_port = 7010;
    node_.rpc_address = "127.0.0.1";
    node_.rpc_port = 9142;
    node_.data_center = "dc1";
    node_.rack = "r1";
    node_.gossip_generation = 1764000000;
    node_.host_id = *types::Uuid::Parse("11111111-1111-4111-8111-111111111111");
    node_.tokens = {"-5", "100"};
    node_.load_bytes = [] { return std::optional<int64_t>(123456); };
  }

  std::vector<Row> Rows() {
    return tables_.Find("system_views", "gossip_info")->Rows(table_, {*schema_, node_});
  }
  // Column `column` of `row` as text, "<null>" for null; ints in decimal.
  std::string Text(const Row& row, std::string_view column) {
    const OptBytes& value = row.at(static_cast<size_t>(table_.ColumnIndex(column)));
    if (!value) return "<null>";
    if (column == "port" || column == "generation" || column == "heartbeat") {
      return std::to_string(types::DecodeInt(*value));
    }
    return *value;
  }

  SchemaPtr schema_;
  const TableMetadata& table_;
  VirtualTables tables_;
  LocalNodeInfo node_;
};

TEST_F(GossipInfoTableTest, ASingleNodeShowsItselfUp) {
  const std::vector<Row> rows = Rows();
  ASSERT_EQ(rows.size(), 1u);
  const Row& row = rows[0];
  EXPECT_EQ(*row[0], types::EncodeInet("127.0.0.1"));
  EXPECT_EQ(Text(row, "port"), "7010");
  EXPECT_EQ(Text(row, "hostname"), "127.0.0.1");
  EXPECT_EQ(Text(row, "generation"), "1764000000");
  EXPECT_EQ(Text(row, "heartbeat"), "<null>");
  EXPECT_EQ(Text(row, "liveness"), "UP");
  EXPECT_EQ(Text(row, "load"), "123456");
  EXPECT_EQ(Text(row, "schema"), schema_->version().ToString());
  EXPECT_EQ(Text(row, "dc"), "dc1");
  EXPECT_EQ(Text(row, "rack"), "r1");
  EXPECT_EQ(Text(row, "release_version"), kReleaseVersion);
  EXPECT_EQ(Text(row, "host_id"), "11111111-1111-4111-8111-111111111111");
  EXPECT_EQ(Text(row, "internal_address_and_port"), "127.0.0.1:7010");
  EXPECT_EQ(Text(row, "native_address_and_port"), "127.0.0.1:9142");
  // Sorted as a set<text> is: "-5" before "100" byte-wise.
  EXPECT_EQ(Text(row, "tokens"), types::EncodeList(std::vector<std::string>{"-5", "100"}));
}

TEST_F(GossipInfoTableTest, PeersShowWhatTheFailureDetectorAndHeartbeatsSay) {
  PeerInfo down;
  down.address = "127.0.0.3";
  down.port = 7010;
  down.native_address = "127.0.0.3";
  down.native_port = 9142;
  down.data_center = "dc1";
  down.rack = "r2";
  down.host_id = *types::Uuid::Parse("33333333-3333-4333-8333-333333333333");
  down.tokens = {"7"};
  down.alive = false;
  down.generation = 1764000100;
  down.heartbeat_counter = 42;
  down.load_bytes = 999;
  PeerInfo unheard = down;
  unheard.address = "127.0.0.2";
  unheard.alive = true;
  unheard.generation.reset();
  unheard.heartbeat_counter.reset();
  unheard.load_bytes.reset();
  node_.peers = {down, unheard};
  node_.load_bytes = nullptr;  // a node that cannot measure its own load

  const std::vector<Row> rows = Rows();
  ASSERT_EQ(rows.size(), 3u);  // by address: .1, .2, .3
  EXPECT_EQ(Text(rows[0], "load"), "<null>");
  EXPECT_EQ(Text(rows[1], "hostname"), "127.0.0.2");
  EXPECT_EQ(Text(rows[1], "liveness"), "UP");
  EXPECT_EQ(Text(rows[1], "generation"), "<null>");
  EXPECT_EQ(Text(rows[1], "load"), "<null>");
  EXPECT_EQ(Text(rows[2], "hostname"), "127.0.0.3");
  EXPECT_EQ(Text(rows[2], "liveness"), "DOWN");
  EXPECT_EQ(Text(rows[2], "generation"), "1764000100");
  EXPECT_EQ(Text(rows[2], "heartbeat"), "42");
  EXPECT_EQ(Text(rows[2], "load"), "999");
  EXPECT_EQ(Text(rows[2], "rack"), "r2");
  // A peer not heard from yet shows the local schema version (one metadata log).
  EXPECT_EQ(Text(rows[1], "schema"), schema_->version().ToString());
  EXPECT_EQ(Text(rows[0], "status"), "NORMAL");
}

// A joining node is in gossip_info (BOOT), not yet in system.peers or
// peers_v2; a leaving one is in both until it left.
TEST_F(GossipInfoTableTest, AJoiningPeerIsGossipedButNotAPeerYet) {
  PeerInfo joining;
  joining.address = "127.0.0.4";
  joining.host_id = *types::Uuid::Parse("44444444-4444-4444-8444-444444444444");
  joining.tokens = {"9"};
  joining.status = "BOOT";
  PeerInfo leaving = joining;
  leaving.address = "127.0.0.5";
  leaving.host_id = *types::Uuid::Parse("55555555-5555-4555-8555-555555555555");
  leaving.status = "LEAVING";
  node_.peers = {joining, leaving};
  const std::vector<Row> rows = Rows();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(Text(rows[1], "status"), "BOOT");
  EXPECT_EQ(Text(rows[2], "status"), "LEAVING");
  for (const char* peers : {"peers", "peers_v2"}) {
    const TableMetadata& table = *schema_->FindTable("system", peers);
    const std::vector<Row> peer_rows =
        tables_.Find("system", peers)->Rows(table, {*schema_, node_});
    ASSERT_EQ(peer_rows.size(), 1u) << peers;
    EXPECT_EQ(*peer_rows[0].at(static_cast<size_t>(table.ColumnIndex("peer"))),
              types::EncodeInet("127.0.0.5"))
        << peers;
  }
}

}  // namespace
}  // namespace sibyl::schema
