// Materialized views in the schema: the version digest, the snapshot codec,
// the change events and the DESCRIBE text cover them, and lookups that
// serve reads find them.

#include <gtest/gtest.h>

#include "schema/describe_cql.h"
#include "schema/schema_diff.h"
#include "schema/schema_snapshot_codec.h"
#include "schema/system_keyspaces.h"
#include "schema/table_builder.h"
#include "schema/view_lookup.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

using protocol::SchemaChange;

TablePtr Base() {
  TableBuilder builder("ks", "t");
  builder.Id(*types::Uuid::Parse("00000000-0000-0000-0000-0000000000b1"))
      .PartitionKey("k", "int")
      .Clustering("c", "int")
      .Column("v", "text");
  return builder.Build();
}

// CREATE MATERIALIZED VIEW ks.<name> AS SELECT k, c, v FROM ks.t
// WHERE v IS NOT NULL AND k IS NOT NULL AND c > 5 PRIMARY KEY (v, k, c)
// WITH CLUSTERING ORDER BY (k ASC, c DESC)
TablePtr View(const std::string& name,
              std::string where = "v IS NOT NULL AND k IS NOT NULL AND c > 5") {
  TableBuilder builder("ks", name);
  builder.Id(*types::Uuid::Parse("00000000-0000-0000-0000-0000000000f1"))
      .PartitionKey("v", "text")
      .Clustering("k", "int")
      .Clustering("c", "int", ClusteringOrder::kDesc);
  auto view = std::make_shared<TableMetadata>(*builder.Build());
  ViewDefinition& definition = view->view.emplace();
  definition.base_table = "t";
  definition.base_table_id = Base()->id;
  definition.where_clause = std::move(where);
  using Op = ViewRestriction::Op;
  definition.restrictions = {
      {"v", Op::kIsNotNull, {}}, {"k", Op::kIsNotNull, {}}, {"c", Op::kGt, {types::EncodeInt(5)}}};
  return view;
}

KeyspacePtr Keyspace(std::vector<TablePtr> views) {
  auto keyspace = std::make_shared<KeyspaceMetadata>();
  keyspace->name = "ks";
  keyspace->replication = {{"class", "org.apache.cassandra.locator.SimpleStrategy"},
                           {"replication_factor", "1"}};
  keyspace->tables["t"] = Base();
  for (auto& view : views) keyspace->views[view->name] = view;
  return keyspace;
}

Schema Of(KeyspacePtr keyspace) {
  Schema::KeyspaceMap map = MakeInitialSchema()->keyspaces();
  if (keyspace) map[keyspace->name] = keyspace;
  return Schema(std::move(map));
}

std::vector<std::string> Events(const std::vector<SchemaChange>& changes) {
  std::vector<std::string> out;
  for (const auto& change : changes) {
    static const char* kTypes[] = {"CREATED", "UPDATED", "DROPPED"};
    static const char* kTargets[] = {"KEYSPACE", "TABLE", "TYPE", "FUNCTION", "AGGREGATE"};
    out.push_back(std::string(kTypes[static_cast<int>(change.type)]) + " " +
                  kTargets[static_cast<int>(change.target)] + " " + change.keyspace +
                  (change.name.empty() ? "" : "." + change.name));
  }
  return out;
}

TEST(ViewSchemaTest, LookupsFindViewsForReads) {
  const Schema schema = Of(Keyspace({View("v")}));
  EXPECT_EQ(schema.FindTable("ks", "v")->name, "v");
  EXPECT_TRUE(schema.FindTable("ks", "v")->is_view());
  EXPECT_EQ(schema.FindTable("ks", "t")->name, "t");
  EXPECT_EQ(schema.FindTable("ks", "nope"), nullptr);
  const KeyspaceMetadata& ks = *schema.FindKeyspace("ks");
  ASSERT_EQ(ViewsOfTable(ks, Base()->id).size(), 1u);
  EXPECT_EQ(ViewsOfTable(ks, Base()->id)[0]->name, "v");
  EXPECT_TRUE(ViewsOfTable(ks, View("x")->id).empty());
}

TEST(ViewSchemaTest, TheVersionCoversViews) {
  const types::Uuid without = Of(Keyspace({})).version();
  const types::Uuid with = Of(Keyspace({View("v")})).version();
  EXPECT_NE(without, with);
  EXPECT_EQ(with, Of(Keyspace({View("v")})).version());
  // The WHERE clause is part of the definition.
  EXPECT_NE(with, Of(Keyspace({View("v", "c > 5")})).version());
  EXPECT_FALSE(SameTableDefinition(*View("v"), *View("v", "c > 5")));
}

TEST(ViewSchemaTest, TheSnapshotCodecKeepsViews) {
  const Schema schema = Of(Keyspace({View("v")}));
  const Bytes encoded = EncodeSchemaSnapshot(schema, 7);
  DecodedSchemaSnapshot decoded = DecodeSchemaSnapshot(encoded, MakeInitialSchema()->keyspaces());
  EXPECT_EQ(decoded.epoch, 7u);
  const Schema back(std::move(decoded.keyspaces));
  EXPECT_EQ(back.version(), schema.version());
  const TablePtr view = back.FindTable("ks", "v");
  ASSERT_NE(view, nullptr);
  ASSERT_TRUE(view->view.has_value());
  EXPECT_EQ(*view->view, *View("v")->view);
  EXPECT_EQ(back.FindKeyspace("ks")->tables.count("v"), 0u);
}

TEST(ViewSchemaTest, ViewsAreAnnouncedAsTables) {
  const Schema empty = Of(nullptr);
  const Schema base = Of(Keyspace({}));
  const Schema with_view = Of(Keyspace({View("v")}));
  EXPECT_EQ(Events(SchemaChangesBetween(base, with_view)),
            (std::vector<std::string>{"CREATED TABLE ks.v"}));
  EXPECT_EQ(Events(SchemaChangesBetween(with_view, base)),
            (std::vector<std::string>{"DROPPED TABLE ks.v"}));
  auto altered = std::make_shared<TableMetadata>(*View("v"));
  altered->params.comment = "x";
  EXPECT_EQ(Events(SchemaChangesBetween(with_view, Of(Keyspace({altered})))),
            (std::vector<std::string>{"UPDATED TABLE ks.v"}));
  // A keyspace's views after its tables when created, before them when dropped.
  EXPECT_EQ(Events(SchemaChangesBetween(empty, with_view)),
            (std::vector<std::string>{"CREATED KEYSPACE ks", "CREATED TABLE ks.t",
                                      "CREATED TABLE ks.v"}));
  EXPECT_EQ(Events(SchemaChangesBetween(with_view, empty)),
            (std::vector<std::string>{"DROPPED TABLE ks.v", "DROPPED TABLE ks.t",
                                      "DROPPED KEYSPACE ks"}));
}

TEST(ViewSchemaTest, ViewCqlIsCassandras) {
  EXPECT_EQ(ViewCql(*View("v")),
            "CREATE MATERIALIZED VIEW ks.v AS\n"
            "    SELECT v, k, c\n"
            "    FROM ks.t\n"
            "    WHERE v IS NOT NULL AND k IS NOT NULL AND c > 5\n"
            "    PRIMARY KEY (v, k, c)\n"
            " WITH CLUSTERING ORDER BY (k ASC, c DESC)\n"
            "    AND additional_write_policy = '99p'\n"
            "    AND bloom_filter_fp_chance = 0.01\n"
            "    AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}\n"
            "    AND cdc = false\n"
            "    AND comment = ''\n"
            "    AND compaction = {'class': "
            "'org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy', "
            "'max_threshold': '32', 'min_threshold': '4'}\n"
            "    AND compression = {'chunk_length_in_kb': '16', 'class': "
            "'org.apache.cassandra.io.compress.LZ4Compressor'}\n"
            "    AND memtable = 'default'\n"
            "    AND crc_check_chance = 1.0\n"
            "    AND extensions = {}\n"
            "    AND gc_grace_seconds = 864000\n"
            "    AND max_index_interval = 2048\n"
            "    AND memtable_flush_period_in_ms = 0\n"
            "    AND min_index_interval = 128\n"
            "    AND read_repair = 'BLOCKING'\n"
            "    AND speculative_retry = '99p';");
  auto all = std::make_shared<TableMetadata>(*View("v"));
  all->view->include_all_columns = true;
  const std::string text = ViewCql(*all, {.with_internals = true, .if_not_exists = true});
  EXPECT_EQ(text.substr(0, 60), "CREATE MATERIALIZED VIEW IF NOT EXISTS ks.v AS\n    SELECT *\n");
  EXPECT_NE(text.find(" WITH ID = 00000000-0000-0000-0000-0000000000f1\n    AND CLUSTERING"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace sibyl::schema
