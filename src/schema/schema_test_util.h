#pragma once
// Helpers of the schema tests.

#include <memory>

#include "schema/schema.h"
#include "schema/system_keyspaces.h"
#include "schema/table_builder.h"
#include "types/uuid.h"

namespace sibyl::schema::testing {

inline const types::Uuid kShopUsersId = *types::Uuid::Parse("11111111-1111-4111-8111-111111111111");
inline const types::Uuid kShopByNameId =
    *types::Uuid::Parse("22222222-2222-4222-8222-222222222222");

// The system keyspaces and shop.users (id int, name text) with an index by_name.
inline SchemaPtr ShopSchema() {
  Schema::KeyspaceMap keyspaces = MakeInitialSchema()->keyspaces();
  auto shop = std::make_shared<KeyspaceMetadata>();
  shop->name = "shop";
  IndexMetadata index;
  index.name = "by_name";
  index.kind = "COMPOSITES";
  index.options = {{"target", "name"}};
  index.id = kShopByNameId;
  shop->tables.emplace("users", TableBuilder("shop", "users")
                                    .Id(kShopUsersId)
                                    .PartitionKey("id", "int")
                                    .Column("name", "text")
                                    .Index(index)
                                    .Build());
  keyspaces.emplace("shop", shop);
  return std::make_shared<const Schema>(std::move(keyspaces));
}

}  // namespace sibyl::schema::testing
