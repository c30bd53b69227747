#include "schema/system_keyspaces.h"

#include <memory>

namespace sibyl::schema {

SchemaPtr MakeInitialSchema() {
  Schema::KeyspaceMap keyspaces;
  for (KeyspacePtr keyspace : {MakeSystemKeyspace(), MakeSchemaKeyspace(), MakeAuthKeyspace(),
                               MakeDistributedKeyspace(), MakeTracesKeyspace()}) {
    keyspaces.emplace(keyspace->name, keyspace);
  }
  return std::make_shared<const Schema>(std::move(keyspaces));
}

bool IsLocalSystemKeyspace(std::string_view keyspace) {
  return keyspace == kSystemKeyspace || keyspace == kSchemaKeyspace;
}

bool IsSystemKeyspace(std::string_view keyspace) {
  return IsLocalSystemKeyspace(keyspace) || keyspace == kAuthKeyspace ||
         keyspace == kDistributedKeyspace || keyspace == kTracesKeyspace;
}

}  // namespace sibyl::schema
