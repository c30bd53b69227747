#include "schema/system_keyspaces.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "schema/table_builder.h"

namespace sibyl::schema {
namespace {

// "name type kind position order" for each column, in TableMetadata order.
std::vector<std::string> Describe(const TableMetadata& table) {
  std::vector<std::string> out;
  for (const auto& c : table.columns) {
    out.push_back(c.name + " " + c.type->ToCql() + " " + ColumnKindName(c.kind) + " " +
                  std::to_string(c.position) + " " + ClusteringOrderName(c.order));
  }
  return out;
}

TablePtr Table(const Schema& schema, std::string_view keyspace, std::string_view name) {
  TablePtr table = schema.FindTable(keyspace, name);
  EXPECT_NE(table, nullptr) << keyspace << "." << name;
  return table;
}

TEST(SystemKeyspacesTest, FreshNodeListsFiveKeyspacesWithTheirReplication) {
  SchemaPtr schema = MakeInitialSchema();
  std::vector<std::string> names;
  for (const auto& [name, keyspace] : schema->keyspaces()) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"system", "system_auth", "system_distributed",
                                             "system_schema", "system_traces"}));
  using Replication = std::map<std::string, std::string>;
  const Replication local{{"class", "org.apache.cassandra.locator.LocalStrategy"}};
  auto simple = [](const char* rf) {
    return Replication{{"class", "org.apache.cassandra.locator.SimpleStrategy"},
                       {"replication_factor", rf}};
  };
  EXPECT_EQ(schema->FindKeyspace("system")->replication, local);
  EXPECT_EQ(schema->FindKeyspace("system_schema")->replication, local);
  EXPECT_EQ(schema->FindKeyspace("system_auth")->replication, simple("1"));
  EXPECT_EQ(schema->FindKeyspace("system_distributed")->replication, simple("3"));
  EXPECT_EQ(schema->FindKeyspace("system_traces")->replication, simple("2"));
  for (const auto& [name, keyspace] : schema->keyspaces()) EXPECT_TRUE(keyspace->durable_writes);
}

TEST(SystemKeyspacesTest, SystemLocalHasCassandra41Columns) {
  SchemaPtr schema = MakeInitialSchema();
  TablePtr local = Table(*schema, "system", "local");
  EXPECT_EQ(
      Describe(*local),
      (std::vector<std::string>{
          "key text partition_key 0 none",          "bootstrapped text regular -1 none",
          "broadcast_address inet regular -1 none", "broadcast_port int regular -1 none",
          "cluster_name text regular -1 none",      "cql_version text regular -1 none",
          "data_center text regular -1 none",       "gossip_generation int regular -1 none",
          "host_id uuid regular -1 none",           "listen_address inet regular -1 none",
          "listen_port int regular -1 none",        "native_protocol_version text regular -1 none",
          "partitioner text regular -1 none",       "rack text regular -1 none",
          "release_version text regular -1 none",   "rpc_address inet regular -1 none",
          "rpc_port int regular -1 none",           "schema_version uuid regular -1 none",
          "tokens set<text> regular -1 none",       "truncated_at map<uuid, blob> regular -1 none",
      }));
  EXPECT_EQ(local->params.comment, "information about the local node");
  EXPECT_EQ(local->params.gc_grace_seconds, 0);
  EXPECT_EQ(local->params.memtable_flush_period_in_ms, 3600000);
}

TEST(SystemKeyspacesTest, PeersTablesHaveCassandra41Columns) {
  SchemaPtr schema = MakeInitialSchema();
  EXPECT_EQ(Describe(*Table(*schema, "system", "peers")),
            (std::vector<std::string>{
                "peer inet partition_key 0 none", "data_center text regular -1 none",
                "host_id uuid regular -1 none", "preferred_ip inet regular -1 none",
                "rack text regular -1 none", "release_version text regular -1 none",
                "rpc_address inet regular -1 none", "schema_version uuid regular -1 none",
                "tokens set<text> regular -1 none"}));
  EXPECT_EQ(Describe(*Table(*schema, "system", "peers_v2")),
            (std::vector<std::string>{
                "peer inet partition_key 0 none", "peer_port int clustering 0 asc",
                "data_center text regular -1 none", "host_id uuid regular -1 none",
                "native_address inet regular -1 none", "native_port int regular -1 none",
                "preferred_ip inet regular -1 none", "preferred_port int regular -1 none",
                "rack text regular -1 none", "release_version text regular -1 none",
                "schema_version uuid regular -1 none", "tokens set<text> regular -1 none"}));
}

TEST(SystemKeyspacesTest, SystemSchemaHasItsTenTables) {
  SchemaPtr schema = MakeInitialSchema();
  std::vector<std::string> tables;
  for (const auto& [name, table] : schema->FindKeyspace("system_schema")->tables) {
    tables.push_back(name);
    EXPECT_EQ(table->params.gc_grace_seconds, 604800) << name;
    EXPECT_EQ(table->params.memtable_flush_period_in_ms, 3600000) << name;
    EXPECT_EQ(table->columns[0].name, "keyspace_name") << name;
  }
  EXPECT_EQ(tables, (std::vector<std::string>{"aggregates", "columns", "dropped_columns",
                                              "functions", "indexes", "keyspaces", "tables",
                                              "triggers", "types", "views"}));
}

TEST(SystemKeyspacesTest, SystemSchemaTablesHasMemtableButNoLaterColumns) {
  SchemaPtr schema = MakeInitialSchema();
  TablePtr tables = Table(*schema, "system_schema", "tables");
  std::vector<std::string> names;
  for (const auto& c : tables->columns) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"keyspace_name",
                                             "table_name",
                                             "additional_write_policy",
                                             "bloom_filter_fp_chance",
                                             "caching",
                                             "cdc",
                                             "comment",
                                             "compaction",
                                             "compression",
                                             "crc_check_chance",
                                             "dclocal_read_repair_chance",
                                             "default_time_to_live",
                                             "extensions",
                                             "flags",
                                             "gc_grace_seconds",
                                             "id",
                                             "max_index_interval",
                                             "memtable",
                                             "memtable_flush_period_in_ms",
                                             "min_index_interval",
                                             "read_repair",
                                             "read_repair_chance",
                                             "speculative_retry"}));
  EXPECT_EQ(tables->FindColumn("flags")->type->ToCql(), "frozen<set<text>>");
  EXPECT_EQ(tables->FindColumn("extensions")->type->ToCql(), "frozen<map<text, blob>>");
  EXPECT_NE(Table(*schema, "system_schema", "views")->FindColumn("memtable"), nullptr);
}

TEST(SystemKeyspacesTest, FunctionsAreClusteredByNameAndArgumentTypes) {
  SchemaPtr schema = MakeInitialSchema();
  EXPECT_EQ(Describe(*Table(*schema, "system_schema", "functions")),
            (std::vector<std::string>{
                "keyspace_name text partition_key 0 none", "function_name text clustering 0 asc",
                "argument_types frozen<list<text>> clustering 1 asc",
                "argument_names frozen<list<text>> regular -1 none", "body text regular -1 none",
                "called_on_null_input boolean regular -1 none", "language text regular -1 none",
                "return_type text regular -1 none"}));
}

TEST(SystemKeyspacesTest, ReplicatedSystemTablesCarryTheirOptions) {
  SchemaPtr schema = MakeInitialSchema();
  EXPECT_EQ(Table(*schema, "system_auth", "roles")->params.gc_grace_seconds, 7776000);
  EXPECT_EQ(Table(*schema, "system_traces", "sessions")->params.gc_grace_seconds, 0);
  TablePtr repair_history = Table(*schema, "system_distributed", "repair_history");
  EXPECT_EQ(repair_history->params.default_time_to_live, 2592000);
  EXPECT_EQ(repair_history->params.compaction.at("class"),
            "org.apache.cassandra.db.compaction.TimeWindowCompactionStrategy");
  EXPECT_EQ(repair_history->partition_key_size(), 2u);
  EXPECT_EQ(Table(*schema, "system", "compaction_history")->params.default_time_to_live, 604800);
  EXPECT_EQ(Table(*schema, "system", "batches")->params.compaction.at("min_threshold"), "2");
  EXPECT_NE(schema->FindTable("system", "IndexInfo"), nullptr);
  EXPECT_EQ(schema->FindTable("system", "indexinfo"), nullptr);
}

TEST(SystemKeyspacesTest, TableIdsAreCassandrasNameBasedIds) {
  // Cassandra names a table's data directory <table>-<id without dashes>.
  SchemaPtr schema = MakeInitialSchema();
  EXPECT_EQ(Table(*schema, "system", "local")->id.ToString(),
            "7ad54392-bcdd-35a6-8417-4e047860b377");
  EXPECT_EQ(Table(*schema, "system", "peers")->id.ToString(),
            "37f71aca-7dc2-383b-a706-72528af04d4f");
  EXPECT_EQ(Table(*schema, "system_schema", "keyspaces")->id.ToString(),
            "abac5682-dea6-31c5-b535-b3d6cffd0fb6");
  EXPECT_EQ(Table(*schema, "system_schema", "tables")->id.ToString(),
            "afddfb9d-bc1e-3068-8056-eed6c302ba09");
  EXPECT_EQ(Table(*schema, "system_schema", "columns")->id.ToString(),
            "24101c25-a2ae-3af7-87c1-b40ee1aca33f");
}

TEST(SystemKeyspacesTest, EveryTableIsCompoundAndKeyed) {
  SchemaPtr schema = MakeInitialSchema();
  for (const auto& [ks_name, keyspace] : schema->keyspaces()) {
    for (const auto& [name, table] : keyspace->tables) {
      EXPECT_EQ(table->flags, std::set<std::string>{"compound"}) << ks_name << "." << name;
      EXPECT_GT(table->partition_key_size(), 0u) << ks_name << "." << name;
      EXPECT_EQ(table->id, SystemTableId(ks_name, name));
      EXPECT_FALSE(table->params.comment.empty()) << ks_name << "." << name;
    }
  }
}

TEST(SchemaTest, VersionIsStableAndFollowsContents) {
  SchemaPtr a = MakeInitialSchema();
  SchemaPtr b = MakeInitialSchema();
  EXPECT_EQ(a->version(), b->version());
  EXPECT_EQ(a->version().version(), 3);

  Schema::KeyspaceMap keyspaces = a->keyspaces();
  auto ks = std::make_shared<KeyspaceMetadata>();
  ks->name = "ks";
  ks->replication = {{"class", "org.apache.cassandra.locator.SimpleStrategy"},
                     {"replication_factor", "1"}};
  keyspaces.emplace("ks", ks);
  Schema with_keyspace(keyspaces);
  EXPECT_NE(with_keyspace.version(), a->version());

  auto ks2 = std::make_shared<KeyspaceMetadata>(*ks);
  ks2->tables.emplace("t", TableBuilder("ks", "t").PartitionKey("k", "int").Build());
  keyspaces["ks"] = ks2;
  Schema with_table(keyspaces);
  EXPECT_NE(with_table.version(), with_keyspace.version());
}

TEST(SchemaTest, FindsKeyspacesAndTables) {
  SchemaPtr schema = MakeInitialSchema();
  EXPECT_EQ(schema->FindKeyspace("nope"), nullptr);
  EXPECT_EQ(schema->FindTable("nope", "local"), nullptr);
  EXPECT_EQ(schema->FindTable("system", "nope"), nullptr);
  EXPECT_EQ(schema->FindTable("system", "local")->QualifiedName(), "system.local");
  EXPECT_EQ(schema->FindTable("system", "IndexInfo")->QualifiedName(), "system.\"IndexInfo\"");
}

}  // namespace
}  // namespace sibyl::schema
