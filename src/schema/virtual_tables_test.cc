#include "schema/virtual_tables.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "schema/system_keyspaces.h"
#include "schema/table_builder.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

class VirtualTablesTest : public ::testing::Test {
 protected:
  VirtualTablesTest() : schema_(MakeInitialSchema()), tables_(VirtualTables::SystemTables()) {
    node_.host_id = *types::Uuid::Parse("2b3ae4fb-b1d6-4b3c-9d19-3e0a4d8e0f11");
    node_.gossip_generation = 1700000000;
    node_.tokens = {"-9", "100", "-1000", "5"};
  }

  std::vector<Row> Read(std::string_view keyspace, std::string_view table) {
    const VirtualTable* producer = tables_.Find(keyspace, table);
    EXPECT_NE(producer, nullptr) << keyspace << "." << table;
    return producer->Rows(*schema_->FindTable(keyspace, table), {*schema_, node_});
  }

  const OptBytes& Cell(std::string_view keyspace, std::string_view table, const Row& row,
                       std::string_view column) {
    int index = schema_->FindTable(keyspace, table)->ColumnIndex(column);
    EXPECT_GE(index, 0) << column;
    return row.at(static_cast<size_t>(index));
  }

  std::string Text(std::string_view table, const Row& row, std::string_view column,
                   std::string_view keyspace = "system_schema") {
    const OptBytes& cell = Cell(keyspace, table, row, column);
    EXPECT_TRUE(cell.has_value()) << column;
    return cell.value_or("<null>");
  }

  SchemaPtr schema_;
  VirtualTables tables_;
  LocalNodeInfo node_;
};

TEST_F(VirtualTablesTest, LocalHasOneRowDescribingTheNode) {
  std::vector<Row> rows = Read("system", "local");
  ASSERT_EQ(rows.size(), 1u);
  const Row& row = rows[0];
  auto text = [&](const char* column) { return Text("local", row, column, "system"); };
  EXPECT_EQ(text("key"), "local");
  EXPECT_EQ(text("bootstrapped"), "COMPLETED");
  EXPECT_EQ(text("cluster_name"), "Test Cluster");
  EXPECT_EQ(text("cql_version"), "3.4.6");
  EXPECT_EQ(text("data_center"), "datacenter1");
  EXPECT_EQ(text("rack"), "rack1");
  EXPECT_EQ(text("native_protocol_version"), "5");
  EXPECT_EQ(text("partitioner"), "org.apache.cassandra.dht.Murmur3Partitioner");
  EXPECT_TRUE(text("release_version").starts_with("4.1."));
  EXPECT_EQ(text("host_id"), node_.host_id.ToBytes());
  EXPECT_EQ(text("schema_version"), schema_->version().ToBytes());
  EXPECT_EQ(text("rpc_address"), types::EncodeInet("127.0.0.1"));
  EXPECT_EQ(text("rpc_port"), types::EncodeInt(9042));
  EXPECT_EQ(text("listen_port"), types::EncodeInt(7000));
  EXPECT_EQ(text("broadcast_port"), types::EncodeInt(7000));
  EXPECT_EQ(text("gossip_generation"), types::EncodeInt(1700000000));
  // A set<text> is serialized sorted by its text.
  EXPECT_EQ(text("tokens"), types::EncodeList({"-1000", "-9", "100", "5"}));
  EXPECT_FALSE(Cell("system", "local", row, "truncated_at").has_value());
}

TEST_F(VirtualTablesTest, PeersAreEmptyOnASingleNode) {
  EXPECT_TRUE(Read("system", "peers").empty());
  EXPECT_TRUE(Read("system", "peers_v2").empty());
}

TEST_F(VirtualTablesTest, PeersListEveryPeer) {
  PeerInfo peer;
  peer.address = "127.0.0.2";
  peer.native_address = "127.0.0.2";
  peer.data_center = "datacenter1";
  peer.rack = "rack1";
  peer.host_id = types::Uuid::Random();
  peer.tokens = {"42"};
  node_.peers.push_back(peer);
  std::vector<Row> peers = Read("system", "peers");
  ASSERT_EQ(peers.size(), 1u);
  EXPECT_EQ(Text("peers", peers[0], "rpc_address", "system"), types::EncodeInet("127.0.0.2"));
  EXPECT_EQ(Text("peers", peers[0], "tokens", "system"), types::EncodeList({"42"}));
  std::vector<Row> peers_v2 = Read("system", "peers_v2");
  ASSERT_EQ(peers_v2.size(), 1u);
  EXPECT_EQ(Text("peers_v2", peers_v2[0], "native_port", "system"), types::EncodeInt(9042));
  EXPECT_EQ(Text("peers_v2", peers_v2[0], "peer_port", "system"), types::EncodeInt(7000));
}

TEST_F(VirtualTablesTest, PeersFollowTheCurrentMembersAndTheirSchemaVersions) {
  std::vector<PeerInfo> members;
  node_.current_peers = [&members] { return members; };
  EXPECT_TRUE(Read("system", "peers").empty());
  PeerInfo peer;
  peer.address = "127.0.0.3";
  peer.native_address = "127.0.0.3";
  peer.data_center = "dc2";
  peer.rack = "r1";
  peer.host_id = types::Uuid::Random();
  peer.tokens = {"7"};
  members.push_back(peer);
  std::vector<Row> rows = Read("system", "peers_v2");
  ASSERT_EQ(rows.size(), 1u);
  // Not heard from yet: the local version, as every member follows one log.
  EXPECT_EQ(Text("peers_v2", rows[0], "schema_version", "system"), schema_->version().ToBytes());
  const types::Uuid reported = types::Uuid::NameBased("older schema");
  members[0].schema_version = reported;
  rows = Read("system", "peers");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(Text("peers", rows[0], "schema_version", "system"), reported.ToBytes());
  EXPECT_EQ(Text("peers", rows[0], "data_center", "system"), "dc2");
}

TEST_F(VirtualTablesTest, KeyspacesListThemselvesInTokenOrder) {
  std::vector<Row> rows = Read("system_schema", "keyspaces");
  ASSERT_EQ(rows.size(), 5u);
  const TableMetadata& table = *schema_->FindTable("system_schema", "keyspaces");
  std::vector<std::string> names;
  for (size_t i = 0; i < rows.size(); ++i) {
    names.push_back(Text("keyspaces", rows[i], "keyspace_name"));
    if (i > 0) {
      EXPECT_LE(PartitionOf(table, rows[i - 1]).token, PartitionOf(table, rows[i]).token);
    }
  }
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<std::string>{"system", "system_auth", "system_distributed",
                                              "system_schema", "system_traces"}));
  for (const Row& row : rows) {
    if (Text("keyspaces", row, "keyspace_name") != "system_traces") continue;
    EXPECT_EQ(Text("keyspaces", row, "durable_writes"), types::EncodeBoolean(true));
    EXPECT_EQ(Text("keyspaces", row, "replication"),
              types::EncodeMap({{"class", "org.apache.cassandra.locator.SimpleStrategy"},
                                {"replication_factor", "2"}}));
  }
}

TEST_F(VirtualTablesTest, TablesRowsDescribeEveryTable) {
  std::vector<Row> rows = Read("system_schema", "tables");
  size_t expected = 0;
  for (const auto& [name, keyspace] : schema_->keyspaces()) expected += keyspace->tables.size();
  ASSERT_EQ(rows.size(), expected);
  bool saw_local = false;
  for (const Row& row : rows) {
    EXPECT_EQ(Text("tables", row, "flags"), types::EncodeList({"compound"}));
    EXPECT_FALSE(Cell("system_schema", "tables", row, "cdc").has_value());
    EXPECT_FALSE(Cell("system_schema", "tables", row, "memtable").has_value());
    if (Text("tables", row, "keyspace_name") == "system" &&
        Text("tables", row, "table_name") == "local") {
      saw_local = true;
      EXPECT_EQ(Text("tables", row, "id"), schema_->FindTable("system", "local")->id.ToBytes());
      EXPECT_EQ(Text("tables", row, "comment"), "information about the local node");
      EXPECT_EQ(Text("tables", row, "gc_grace_seconds"), types::EncodeInt(0));
      EXPECT_EQ(Text("tables", row, "bloom_filter_fp_chance"), types::EncodeDouble(0.01));
      EXPECT_EQ(Text("tables", row, "speculative_retry"), "99p");
      EXPECT_EQ(Text("tables", row, "caching"),
                types::EncodeMap({{"keys", "ALL"}, {"rows_per_partition", "NONE"}}));
      EXPECT_EQ(Text("tables", row, "extensions"), types::EncodeMap({}));
      EXPECT_EQ(Text("tables", row, "read_repair_chance"), types::EncodeDouble(0.0));
    }
  }
  EXPECT_TRUE(saw_local);
}

TEST_F(VirtualTablesTest, ColumnsRowsDescribeEveryColumn) {
  std::vector<Row> rows = Read("system_schema", "columns");
  size_t expected = 0;
  for (const auto& [name, keyspace] : schema_->keyspaces()) {
    for (const auto& [table_name, table] : keyspace->tables) expected += table->columns.size();
  }
  ASSERT_EQ(rows.size(), expected);
  int checked = 0;
  for (const Row& row : rows) {
    const std::string order = Text("columns", row, "clustering_order");
    EXPECT_TRUE(order == "none" || order == "asc" || order == "desc") << order;
    const std::string kind = Text("columns", row, "kind");
    EXPECT_TRUE(kind == "partition_key" || kind == "clustering" || kind == "regular") << kind;
    EXPECT_EQ(Text("columns", row, "column_name_bytes"), Text("columns", row, "column_name"));
    if (Text("columns", row, "keyspace_name") != "system" ||
        Text("columns", row, "table_name") != "peers_v2") {
      continue;
    }
    const std::string column = Text("columns", row, "column_name");
    if (column == "peer") {
      EXPECT_EQ(kind, "partition_key");
      EXPECT_EQ(Text("columns", row, "position"), types::EncodeInt(0));
      EXPECT_EQ(Text("columns", row, "type"), "inet");
      ++checked;
    } else if (column == "peer_port") {
      EXPECT_EQ(kind, "clustering");
      EXPECT_EQ(order, "asc");
      EXPECT_EQ(Text("columns", row, "position"), types::EncodeInt(0));
      ++checked;
    } else if (column == "tokens") {
      EXPECT_EQ(kind, "regular");
      EXPECT_EQ(Text("columns", row, "position"), types::EncodeInt(-1));
      EXPECT_EQ(Text("columns", row, "type"), "set<text>");
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3);
}

TEST_F(VirtualTablesTest, ColumnsOfAPartitionFollowClusteringOrder) {
  std::vector<Row> rows = Read("system_schema", "columns");
  const TableMetadata& table = *schema_->FindTable("system_schema", "columns");
  for (size_t i = 1; i < rows.size(); ++i) {
    int c = PartitionOf(table, rows[i - 1]).Compare(PartitionOf(table, rows[i]));
    ASSERT_LE(c, 0);
    if (c == 0) {
      EXPECT_LT(CompareClustering(table, rows[i - 1], rows[i]), 0);
    }
  }
}

TEST_F(VirtualTablesTest, IndexesListThePaxosIndex) {
  std::vector<Row> rows = Read("system_schema", "indexes");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(Text("indexes", rows[0], "table_name"), "paxos");
  EXPECT_EQ(Text("indexes", rows[0], "index_name"), "PaxosUncommittedIndex");
  EXPECT_EQ(Text("indexes", rows[0], "kind"), "CUSTOM");
}

TEST_F(VirtualTablesTest, UserTablesAppearOnceInTheSchema) {
  Schema::KeyspaceMap keyspaces = schema_->keyspaces();
  auto ks = std::make_shared<KeyspaceMetadata>();
  ks->name = "shop";
  ks->tables.emplace("carts", TableBuilder("shop", "carts")
                                  .Id(types::Uuid::Random())
                                  .PartitionKey("user", "text")
                                  .Clustering("added", "timeuuid", ClusteringOrder::kDesc)
                                  .Column("item", "text")
                                  .Build());
  keyspaces.emplace("shop", ks);
  schema_ = std::make_shared<const Schema>(keyspaces);
  int found = 0;
  for (const Row& row : Read("system_schema", "columns")) {
    if (Text("columns", row, "keyspace_name") != "shop") continue;
    ++found;
    if (Text("columns", row, "column_name") == "added") {
      EXPECT_EQ(Text("columns", row, "clustering_order"), "desc");
      EXPECT_EQ(Text("columns", row, "type"), "timeuuid");
    }
  }
  EXPECT_EQ(found, 3);
  EXPECT_EQ(Read("system_schema", "keyspaces").size(), 6u);
  EXPECT_EQ(tables_.Find("shop", "carts"), nullptr);
}

TEST_F(VirtualTablesTest, TablesWithoutProducerAreNotRegistered) {
  EXPECT_EQ(tables_.Find("system_schema", "functions"), nullptr);
  EXPECT_EQ(tables_.Find("system", "paxos"), nullptr);
  EXPECT_NE(tables_.Find("system_schema", "columns"), nullptr);
}

TEST(RowOrderTest, SortsByTokenThenClusteringOrder) {
  TablePtr table = TableBuilder("ks", "t")
                       .PartitionKey("k", "int")
                       .Clustering("c", "int", ClusteringOrder::kDesc)
                       .Build();
  auto row = [](int k, int c) { return Row{types::EncodeInt(k), types::EncodeInt(c)}; };
  std::vector<Row> rows{row(1, 1), row(2, 5), row(1, 3), row(2, 7)};
  SortRows(*table, rows);
  // Token of int 1 (00000001) is -4069959284402364209.
  const dht::Token one = dht::Murmur3Token(types::EncodeInt(1));
  const dht::Token two = dht::Murmur3Token(types::EncodeInt(2));
  ASSERT_EQ(one, -4069959284402364209);
  std::vector<Row> expected = one < two
                                  ? std::vector<Row>{row(1, 3), row(1, 1), row(2, 7), row(2, 5)}
                                  : std::vector<Row>{row(2, 7), row(2, 5), row(1, 3), row(1, 1)};
  EXPECT_EQ(rows, expected);
}

}  // namespace
}  // namespace sibyl::schema
