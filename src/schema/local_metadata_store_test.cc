#include "schema/local_metadata_store.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "common/error.h"
#include "schema/system_keyspaces.h"
#include "schema/table_builder.h"
#include "types/type_compatibility.h"

namespace sibyl::schema {
namespace {

class TempDir {
 public:
  TempDir() {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() /
            ("sibyl-schema-store-" + std::to_string(random()) + std::to_string(random()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// A keyspace with two user types (one using the other), a table using them
// with every kind of column, non-default options and a dropped column.
Schema::KeyspaceMap WithUserKeyspace(const Schema& current) {
  auto ks = std::make_shared<KeyspaceMetadata>();
  ks->name = "app";
  ks->durable_writes = false;
  ks->replication = {{"class", "org.apache.cassandra.locator.NetworkTopologyStrategy"},
                     {"datacenter1", "3"}};
  auto phone =
      types::CqlType::Udt("app", "phone", {"number"}, {types::CqlType::Native(types::Kind::kText)});
  auto address =
      types::CqlType::Udt("app", "Address", {"street", "phones"},
                          {types::CqlType::Native(types::Kind::kText),
                           types::CqlType::List(types::CqlType::Frozen(phone), /*frozen=*/true)});
  ks->user_types = {{"phone", phone}, {"Address", address}};

  auto table = std::make_shared<TableMetadata>();
  table->keyspace = "app";
  table->name = "events";
  table->id = *types::Uuid::Parse("0a1b2c3d-0000-1000-8000-00aabbccddee");
  table->columns = {
      {"day", types::CqlType::Native(types::Kind::kText), ColumnKind::kPartitionKey, 0,
       ClusteringOrder::kNone},
      {"ts", types::CqlType::Native(types::Kind::kTimeuuid), ColumnKind::kClustering, 0,
       ClusteringOrder::kDesc},
      {"home", types::CqlType::Frozen(address), ColumnKind::kRegular, -1, ClusteringOrder::kNone},
      {"owner", types::CqlType::Native(types::Kind::kText), ColumnKind::kStatic, -1,
       ClusteringOrder::kNone},
      {"tags", types::CqlType::Set(types::CqlType::Native(types::Kind::kText)),
       ColumnKind::kRegular, -1, ClusteringOrder::kNone},
  };
  table->params.comment = "events by day";
  table->params.default_time_to_live = 86400;
  table->params.memtable = "trie";
  table->params.cdc = true;
  table->dropped_columns["old"] = DroppedColumn{
      "old", types::ExpandUserTypes(types::CqlType::Frozen(phone)), ColumnKind::kRegular, 42};
  ks->tables["events"] = table;

  Schema::KeyspaceMap next = current.keyspaces();
  next["app"] = ks;
  auto auth = std::make_shared<KeyspaceMetadata>(*next.at(std::string(kAuthKeyspace)));
  auth->replication["replication_factor"] = "3";
  next[std::string(kAuthKeyspace)] = auth;
  return next;
}

TEST(LocalMetadataStoreTest, StartsWithTheBuiltInKeyspaces) {
  TempDir dir;
  auto store = LocalMetadataStore::Open(dir.path() / "schema");
  EXPECT_EQ(store->epoch(), 0u);
  EXPECT_EQ(store->schemas().snapshot()->version(), MakeInitialSchema()->version());
  EXPECT_FALSE(std::filesystem::exists(store->snapshot_path()));
}

TEST(LocalMetadataStoreTest, ChangesSurviveAReopen) {
  TempDir dir;
  types::Uuid version;
  {
    auto store = LocalMetadataStore::Open(dir.path());
    auto result = store->Commit([](const Schema& current) { return WithUserKeyspace(current); });
    EXPECT_TRUE(result.changed);
    EXPECT_EQ(result.epoch, 1u);
    EXPECT_EQ(store->schemas().snapshot(), result.after);
    version = result.after->version();
  }
  auto reopened = LocalMetadataStore::Open(dir.path());
  EXPECT_EQ(reopened->epoch(), 1u);
  const SchemaPtr schema = reopened->schemas().snapshot();
  EXPECT_EQ(schema->version(), version);
  const TablePtr events = schema->FindTable("app", "events");
  ASSERT_TRUE(events);
  EXPECT_EQ(events->FindColumn("home")->type->ToCql(), "frozen<\"Address\">");
  EXPECT_EQ(events->FindColumn("home")->type->params()[1]->ToCql(), "frozen<list<frozen<phone>>>");
  EXPECT_EQ(events->FindColumn("ts")->order, ClusteringOrder::kDesc);
  EXPECT_EQ(events->params.memtable, "trie");
  EXPECT_EQ(events->dropped_columns.at("old").type->ToCql(), "frozen<tuple<text>>");
  EXPECT_EQ(schema->FindKeyspace(kAuthKeyspace)->replication.at("replication_factor"), "3");
  // Built-in tables still come from the code.
  EXPECT_TRUE(schema->FindTable(kAuthKeyspace, "roles"));
}

TEST(LocalMetadataStoreTest, NoOpsAndEqualContentsKeepTheEpoch) {
  TempDir dir;
  auto store = LocalMetadataStore::Open(dir.path());
  auto none = store->Commit([](const Schema&) { return std::optional<Schema::KeyspaceMap>(); });
  EXPECT_FALSE(none.changed);
  auto same = store->Commit([](const Schema& current) {
    return std::optional<Schema::KeyspaceMap>(current.keyspaces());
  });
  EXPECT_FALSE(same.changed);
  EXPECT_EQ(store->epoch(), 0u);
  EXPECT_FALSE(std::filesystem::exists(store->snapshot_path()));
}

TEST(LocalMetadataStoreTest, AFailedTransformationChangesNothing) {
  TempDir dir;
  auto store = LocalMetadataStore::Open(dir.path());
  const SchemaPtr before = store->schemas().snapshot();
  EXPECT_THROW((void)store->Commit([](const Schema&) -> std::optional<Schema::KeyspaceMap> {
    ThrowInvalid("nope");
  }),
               CqlError);
  EXPECT_EQ(store->schemas().snapshot(), before);
  EXPECT_EQ(store->epoch(), 0u);
}

TEST(LocalMetadataStoreTest, ACorruptSnapshotStopsTheStart) {
  TempDir dir;
  {
    auto store = LocalMetadataStore::Open(dir.path());
    (void)store->Commit([](const Schema& current) { return WithUserKeyspace(current); });
  }
  {
    std::fstream file(dir.path() / "schema.db", std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(40);
    file.put('\x7f');
  }
  try {
    (void)LocalMetadataStore::Open(dir.path());
    ADD_FAILURE() << "expected the corrupt snapshot to be refused";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("schema.db"), std::string::npos) << e.what();
  }
}

TEST(LocalMetadataStoreTest, PersistingLeavesNoTemporaryFile) {
  TempDir dir;
  auto store = LocalMetadataStore::Open(dir.path());
  (void)store->Commit([](const Schema& current) { return WithUserKeyspace(current); });
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "schema.db"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "schema.db.tmp"));
}

}  // namespace
}  // namespace sibyl::schema
