#include "schema/flushes_table.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "schema/schema_test_util.h"
#include "schema/system_keyspaces.h"
#include "schema/table_builder.h"
#include "schema/virtual_tables.h"

namespace sibyl::schema {
namespace {

using testing::kShopByNameId;
using testing::kShopUsersId;
using testing::ShopSchema;

// INSERT INTO system_views.flushes (keyspace_name, table_name) VALUES (k, t).
storage::Mutation Insert(const std::string& keyspace, const std::string& table) {
  storage::Mutation mutation;
  mutation.partition.key = Bytes(keyspace);
  storage::RowWrite& row = mutation.rows.emplace_back();
  row.clustering = {Bytes(table)};
  row.marker.timestamp = 1;
  return mutation;
}

class FlushesTableTest : public ::testing::Test {
 protected:
  FlushesTableTest()
      : schema_(ShopSchema()),
        table_(*schema_->FindTable("system_views", "flushes")),
        tables_(VirtualTables::SystemTables()) {
    node_.flush_table = [this](const std::string& keyspace, const std::string& table,
                               const std::vector<types::Uuid>& ids) {
      flushed_.push_back(keyspace + "." + table);
      flushed_ids_ = ids;
    };
    node_.table_flushes = [] {
      return std::vector<TableFlushInfo>{{"shop", "users", 1764000000000}};
    };
  }

  void Apply(const storage::Mutation& mutation) {
    tables_.Find("system_views", "flushes")->Apply(table_, mutation, {*schema_, node_});
  }
  std::string Refusal(const storage::Mutation& mutation) {
    try {
      Apply(mutation);
    } catch (const CqlError& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalid);
      return e.what();
    }
    return "accepted";
  }

  SchemaPtr schema_;
  const TableMetadata& table_;
  VirtualTables tables_;
  LocalNodeInfo node_;
  std::vector<std::string> flushed_;
  std::vector<types::Uuid> flushed_ids_;
};

TEST_F(FlushesTableTest, InsertFlushesTheTableAndItsIndexes) {
  Apply(Insert("shop", "users"));
  EXPECT_EQ(flushed_, (std::vector<std::string>{"shop.users"}));
  EXPECT_EQ(flushed_ids_, (std::vector<types::Uuid>{kShopUsersId, kShopByNameId}));
}

TEST_F(FlushesTableTest, ATableTheEngineDoesNotStoreHasNothingToFlush) {
  Apply(Insert("system", "local"));
  EXPECT_EQ(flushed_, (std::vector<std::string>{"system.local"}));
  EXPECT_TRUE(flushed_ids_.empty());
}

TEST_F(FlushesTableTest, UnknownNamesAndOtherWritesAreInvalid) {
  EXPECT_EQ(Refusal(Insert("nosuch", "users")), "Keyspace nosuch does not exist");
  EXPECT_EQ(Refusal(Insert("system_views", "flushes")), "Keyspace system_views does not exist");
  EXPECT_EQ(Refusal(Insert("shop", "nosuch")), "Unknown keyspace/cf pair (shop.nosuch)");
  storage::Mutation with_cell = Insert("shop", "users");
  with_cell.rows[0].cells.push_back({.column = "flushed_at", .path = {}, .cell = {}});
  EXPECT_NE(Refusal(with_cell).find("Only INSERT of keyspace_name and table_name"),
            std::string::npos);
  storage::Mutation deletion = Insert("shop", "users");
  deletion.partition_deletion.marked_for_delete_at = 5;
  deletion.partition_deletion.local_deletion_time = 5;
  EXPECT_NE(Refusal(deletion).find("Only INSERT"), std::string::npos);
  EXPECT_TRUE(flushed_.empty());

  node_.flush_table = nullptr;
  EXPECT_EQ(Refusal(Insert("shop", "users")), "Tables cannot be flushed on this node");
}

TEST_F(FlushesTableTest, RowsShowTheLastFlushes) {
  const std::vector<Row> rows =
      tables_.Find("system_views", "flushes")->Rows(table_, {*schema_, node_});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(*rows[0][0], "shop");
  EXPECT_EQ(*rows[0][1], "users");
}

}  // namespace
}  // namespace sibyl::schema
