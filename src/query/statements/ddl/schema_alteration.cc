#include "query/statements/ddl/schema_alteration.h"

#include <algorithm>
#include <cctype>
#include <random>

#include "common/ascii_case.h"
#include "common/error.h"
#include "query/statements/ddl/schema_alteration_util.h"
#include "query/statements/select_statement.h"
#include "schema/schema_names.h"
#include "schema/system_keyspaces.h"
#include "schema/virtual_keyspaces.h"

namespace sibyl::query {
namespace ddl {
namespace {

// SchemaConstants.isLocalSystemKeyspace: system, system_schema and the
// virtual keyspaces, compared in lower case.
bool IsLocalOrVirtualKeyspace(std::string_view keyspace) {
  const std::string lower = AsciiLower(keyspace);
  return schema::IsLocalSystemKeyspace(lower) || schema::IsVirtualKeyspace(keyspace);
}

bool IsReplicatedSystemKeyspace(std::string_view keyspace) {
  const std::string lower = AsciiLower(keyspace);
  return schema::IsSystemKeyspace(lower) && !schema::IsLocalSystemKeyspace(lower);
}

[[noreturn]] void ThrowUnauthorized(std::string message) {
  throw CqlError(ErrorCode::kUnauthorized, std::move(message));
}

void PreventSystemModification(std::string_view keyspace, Permission permission,
                               bool keyspace_level, const std::string& resource) {
  if (IsLocalOrVirtualKeyspace(keyspace)) {
    ThrowUnauthorized(std::string(keyspace) + " keyspace is not user-modifiable.");
  }
  if (IsReplicatedSystemKeyspace(keyspace)) {
    // Replication of the replicated system keyspaces may be altered.
    if (permission == Permission::kAlter && keyspace_level) return;
    ThrowUnauthorized(std::string("Cannot ") + cql::PermissionName(permission) + " " + resource);
  }
}

}  // namespace

schema::PropertyDefinitions ToProperties(const cql::Options& options) {
  schema::PropertyDefinitions properties;
  for (const cql::Option& option : options) {
    if (option.value.kind == cql::OptionValue::Kind::kMap) {
      schema::PropertyDefinitions::Map map;
      for (const auto& [key, value] : option.value.entries) map[key] = value;
      properties.AddMap(option.name, std::move(map));
    } else {
      properties.AddString(option.name, option.value.text);
    }
  }
  return properties;
}

void EnsureKeyspacePermission(std::string_view keyspace, Permission permission) {
  PreventSystemModification(keyspace, permission, /*keyspace_level=*/true,
                            "<keyspace " + std::string(keyspace) + ">");
}

void EnsureTablePermission(std::string_view keyspace, std::string_view table,
                           Permission permission) {
  PreventSystemModification(keyspace, permission, /*keyspace_level=*/false,
                            "<table " + std::string(keyspace) + "." + std::string(table) + ">");
}

types::Uuid NewTableId(int64_t now_micros) {
  static thread_local std::mt19937_64 random{std::random_device{}()};
  return types::Uuid::TimeBased(now_micros * 10 + types::Uuid::kUnixEpochIn100ns, random());
}

protocol::SchemaChange MakeChange(protocol::SchemaChange::Type type,
                                  protocol::SchemaChange::Target target, std::string keyspace,
                                  std::string name) {
  protocol::SchemaChange change;
  change.type = type;
  change.target = target;
  change.keyspace = std::move(keyspace);
  change.name = std::move(name);
  return change;
}

}  // namespace ddl

SchemaAlterationPtr PrepareSchemaAlteration(const cql::Statement& statement,
                                            std::optional<std::string_view> keyspace,
                                            size_t bind_marker_count) {
  return std::visit(
      [&](const auto& s) -> SchemaAlterationPtr {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, cql::CreateKeyspaceStatement>) {
          return ddl::PrepareCreateKeyspace(s);
        } else if constexpr (std::is_same_v<T, cql::AlterKeyspaceStatement>) {
          return ddl::PrepareAlterKeyspace(s);
        } else if constexpr (std::is_same_v<T, cql::DropKeyspaceStatement>) {
          return ddl::PrepareDropKeyspace(s);
        } else if constexpr (std::is_same_v<T, cql::CreateTableStatement>) {
          return ddl::PrepareCreateTable(s, keyspace);
        } else if constexpr (std::is_same_v<T, cql::AlterTableStatement>) {
          return ddl::PrepareAlterTable(s, keyspace);
        } else if constexpr (std::is_same_v<T, cql::DropTableStatement>) {
          return ddl::PrepareDropTable(s, keyspace);
        } else if constexpr (std::is_same_v<T, cql::CreateTypeStatement>) {
          return ddl::PrepareCreateType(s, keyspace);
        } else if constexpr (std::is_same_v<T, cql::AlterTypeStatement>) {
          return ddl::PrepareAlterType(s, keyspace);
        } else if constexpr (std::is_same_v<T, cql::DropTypeStatement>) {
          return ddl::PrepareDropType(s, keyspace);
        } else if constexpr (std::is_same_v<T, cql::CreateIndexStatement>) {
          return ddl::PrepareCreateIndex(s, keyspace);
        } else if constexpr (std::is_same_v<T, cql::DropIndexStatement>) {
          return ddl::PrepareDropIndex(s, keyspace);
        } else if constexpr (std::is_same_v<T, cql::CreateViewStatement>) {
          return ddl::PrepareCreateView(s, keyspace, bind_marker_count);
        } else if constexpr (std::is_same_v<T, cql::AlterViewStatement>) {
          return ddl::PrepareAlterView(s, keyspace);
        } else if constexpr (std::is_same_v<T, cql::DropViewStatement>) {
          return ddl::PrepareDropView(s, keyspace);
        } else {
          return nullptr;
        }
      },
      statement);
}

Result ExecuteSchemaAlteration(const SchemaAlteration& alteration, schema::MetadataStore& store,
                               const SchemaChangeContext& context) {
  alteration.Authorize();
  const std::string& keyspace = alteration.keyspace();
  if (schema::IsLocalSystemKeyspace(AsciiLower(keyspace))) {
    ThrowInvalid("System keyspace '" + keyspace + "' is not user-modifiable");
  }
  if (schema::IsVirtualKeyspace(keyspace)) {
    ThrowInvalid("Virtual keyspace '" + keyspace + "' is not user-modifiable");
  }
  if (!schema::IsValidSchemaName(keyspace)) {
    ThrowInvalid("Keyspace name must not be empty, more than " +
                 std::to_string(schema::kSchemaNameLength) +
                 " characters long, or contain non-alphanumeric-underscore characters (got '" +
                 keyspace + "')");
  }
  const schema::MetadataStore::CommitResult result = store.Commit(
      [&](const schema::Schema& current) { return alteration.Apply(current, context); });
  if (!result.changed) return VoidResult{};
  return SchemaChangeResult{alteration.Change(*result.before)};
}

}  // namespace sibyl::query
