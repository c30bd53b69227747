#include "schema/schema_diff.h"

#include <gtest/gtest.h>

#include "schema/table_builder.h"
#include "types/cql_type.h"

namespace sibyl::schema {
namespace {

using protocol::SchemaChange;

KeyspacePtr KeyspaceWithTables(const std::string& name, std::vector<TablePtr> tables,
                               std::vector<std::string> types = {}, std::string rf = "1") {
  auto keyspace = std::make_shared<KeyspaceMetadata>();
  keyspace->name = name;
  keyspace->replication = {{"class", "org.apache.cassandra.locator.SimpleStrategy"},
                           {"replication_factor", rf}};
  for (auto& table : tables) keyspace->tables[table->name] = table;
  for (const auto& type : types) {
    keyspace->user_types[type] =
        types::CqlType::Udt(name, type, {"f"}, {types::CqlType::Native(types::Kind::kInt)});
  }
  return keyspace;
}

TablePtr Table(const std::string& keyspace, const std::string& name, bool extra_column = false) {
  TableBuilder builder(keyspace, name);
  builder.PartitionKey("k", "int").Column("v", "text");
  if (extra_column) builder.Column("w", "int");
  return builder.Build();
}

Schema Of(std::vector<KeyspacePtr> keyspaces) {
  Schema::KeyspaceMap map;
  for (auto& keyspace : keyspaces) map[keyspace->name] = keyspace;
  return Schema(std::move(map));
}

std::vector<std::string> Describe(const std::vector<SchemaChange>& changes) {
  std::vector<std::string> out;
  for (const auto& change : changes) {
    static const char* kTypes[] = {"CREATED", "UPDATED", "DROPPED"};
    static const char* kTargets[] = {"KEYSPACE", "TABLE", "TYPE", "FUNCTION", "AGGREGATE"};
    std::string line = std::string(kTypes[static_cast<int>(change.type)]) + " " +
                       kTargets[static_cast<int>(change.target)] + " " + change.keyspace;
    if (!change.name.empty()) line += "." + change.name;
    out.push_back(line);
  }
  return out;
}

TEST(SchemaDiffTest, NothingChangedSendsNothing) {
  const Schema schema = Of({KeyspaceWithTables("ks", {Table("ks", "t")})});
  EXPECT_TRUE(SchemaChangesBetween(schema, schema).empty());
}

TEST(SchemaDiffTest, CreatedKeyspaceComesBeforeItsTypesAndTables) {
  const Schema before = Of({});
  const Schema after = Of({KeyspaceWithTables("ks", {Table("ks", "t")}, {"address"})});
  EXPECT_EQ(Describe(SchemaChangesBetween(before, after)),
            (std::vector<std::string>{"CREATED KEYSPACE ks", "CREATED TYPE ks.address",
                                      "CREATED TABLE ks.t"}));
}

TEST(SchemaDiffTest, DroppedKeyspaceComesAfterItsTablesAndTypes) {
  const Schema before = Of({KeyspaceWithTables("ks", {Table("ks", "t")}, {"address"})});
  const Schema after = Of({});
  EXPECT_EQ(Describe(SchemaChangesBetween(before, after)),
            (std::vector<std::string>{"DROPPED TABLE ks.t", "DROPPED TYPE ks.address",
                                      "DROPPED KEYSPACE ks"}));
}

TEST(SchemaDiffTest, TablesCreatedDroppedAndAlteredInAKeyspace) {
  const Schema before = Of({KeyspaceWithTables("ks", {Table("ks", "gone"), Table("ks", "kept")})});
  const Schema after = Of({KeyspaceWithTables(
      "ks", {Table("ks", "kept", /*extra_column=*/true), Table("ks", "new")}, {}, "3")});
  EXPECT_EQ(Describe(SchemaChangesBetween(before, after)),
            (std::vector<std::string>{"DROPPED TABLE ks.gone", "CREATED TABLE ks.new",
                                      "UPDATED KEYSPACE ks", "UPDATED TABLE ks.kept"}));
}

}  // namespace
}  // namespace sibyl::schema
