// CREATE / ALTER / DROP TYPE, as Cassandra 4.1's CreateTypeStatement,
// AlterTypeStatement and DropTypeStatement. Altering a type updates every
// table column and user type that uses it (KeyspaceMetadata.withUpdatedUserType).

#include <algorithm>
#include <memory>
#include <set>

#include "common/error.h"
#include "query/statements/ddl/ddl_guardrails.h"
#include "query/statements/ddl/schema_alteration_util.h"
#include "schema/user_types.h"
#include "types/cql_identifier.h"

namespace sibyl::query::ddl {
namespace {

using protocol::SchemaChange;
using types::CqlType;
using types::TypePtr;
using Kind = cql::AlterTypeStatement::Kind;

// UserType.getCqlTypeName(): "ks.name" with each part quoted as needed.
std::string CqlTypeName(const std::string& keyspace, const std::string& name) {
  return types::MaybeQuoteIdentifier(keyspace) + "." + types::MaybeQuoteIdentifier(name);
}

std::shared_ptr<schema::KeyspaceMetadata> FindKeyspaceCopy(const schema::Schema& schema,
                                                           const std::string& keyspace) {
  auto it = schema.keyspaces().find(keyspace);
  if (it == schema.keyspaces().end()) return nullptr;
  return std::make_shared<schema::KeyspaceMetadata>(*it->second);
}

class CreateType final : public SchemaAlteration {
 public:
  CreateType(const cql::CreateTypeStatement& s, std::string keyspace)
      : SchemaAlteration(std::move(keyspace)), statement_(s) {}

  void Authorize() const override { EnsureKeyspacePermission(keyspace(), Permission::kCreate); }

  std::optional<schema::Schema::KeyspaceMap> Apply(
      const schema::Schema& current, const SchemaChangeContext& context) const override {
    const std::string& name = statement_.type.name;
    GuardCount(guardrails::GuardrailId::kFieldsPerUdt,
               static_cast<int64_t>(statement_.fields.size()), name, context);
    auto ks = FindKeyspaceCopy(current, keyspace());
    if (!ks) ThrowInvalid("Keyspace '" + keyspace() + "' doesn't exist");
    if (ks->user_types.count(name) > 0) {
      if (statement_.if_not_exists) return std::nullopt;
      ThrowInvalid("A user type with name '" + name + "' already exists");
    }
    std::set<std::string> used;
    for (const auto& field : statement_.fields) {
      if (!used.insert(field.name).second) {
        ThrowInvalid("Duplicate field name '" + field.name + "' in type '" + name + "'");
      }
    }
    std::vector<TypePtr> raw_types;
    for (const auto& field : statement_.fields) {
      TypePtr raw = types::ParseCqlType(field.type);
      if (schema::IsCounter(*raw)) ThrowInvalid("A user type cannot contain counters");
      if (raw->kind() == types::Kind::kUdt && !raw->frozen()) {
        ThrowInvalid("A user type cannot contain non-frozen UDTs");
      }
      raw_types.push_back(std::move(raw));
    }
    std::vector<std::string> field_names;
    std::vector<TypePtr> field_types;
    for (size_t i = 0; i < raw_types.size(); ++i) {
      field_names.push_back(statement_.fields[i].name);
      field_types.push_back(schema::ResolveUserTypes(raw_types[i], keyspace(), ks->user_types));
    }
    ks->user_types.emplace(name, CqlType::Udt(keyspace(), name, std::move(field_names),
                                              std::move(field_types), /*frozen=*/false));
    schema::Schema::KeyspaceMap next = current.keyspaces();
    next[keyspace()] = std::move(ks);
    return next;
  }

  SchemaChange Change(const schema::Schema&) const override {
    return MakeChange(SchemaChange::Type::kCreated, SchemaChange::Target::kType, keyspace(),
                      statement_.type.name);
  }

 private:
  cql::CreateTypeStatement statement_;
};

class AlterType final : public SchemaAlteration {
 public:
  AlterType(const cql::AlterTypeStatement& s, std::string keyspace)
      : SchemaAlteration(std::move(keyspace)), statement_(s) {}

  void Authorize() const override { EnsureKeyspacePermission(keyspace(), Permission::kAlter); }

  std::optional<schema::Schema::KeyspaceMap> Apply(
      const schema::Schema& current, const SchemaChangeContext& context) const override {
    const std::string& name = statement_.type.name;
    auto ks = FindKeyspaceCopy(current, keyspace());
    if (!ks || ks->user_types.count(name) == 0) {
      if (statement_.if_exists) return std::nullopt;
      ThrowInvalid("Type " + keyspace() + "." + name + " doesn't exist");
    }
    const TypePtr type = ks->user_types.find(name)->second;
    TypePtr updated;
    switch (statement_.kind) {
      case Kind::kAlterFieldType:
        ThrowInvalid("Altering field types is no longer supported");
      case Kind::kAddField:
        GuardCount(guardrails::GuardrailId::kFieldsPerUdt,
                   static_cast<int64_t>(type->field_names().size()) + 1, name, context);
        updated = AddField(*ks, type);
        break;
      case Kind::kRenameFields:
        updated = RenameFields(type);
        break;
    }
    // Every user of the type sees the new definition.
    for (auto& [other_name, other] : ks->user_types) {
      other = other_name == name ? updated : schema::ReplaceUserType(other, updated);
    }
    // Tables and their views alike (4.1's withUpdatedUserType on both).
    for (auto* tables : {&ks->tables, &ks->views}) {
      for (auto& [table_name, table] : *tables) {
        if (std::none_of(table->columns.begin(), table->columns.end(), [&](const auto& c) {
              return schema::ReferencesUserType(*c.type, keyspace(), name);
            })) {
          continue;
        }
        auto copy = std::make_shared<schema::TableMetadata>(*table);
        for (auto& column : copy->columns)
          column.type = schema::ReplaceUserType(column.type, updated);
        table = std::move(copy);
      }
    }
    schema::Schema::KeyspaceMap next = current.keyspaces();
    next[keyspace()] = std::move(ks);
    return next;
  }

  SchemaChange Change(const schema::Schema&) const override {
    return MakeChange(SchemaChange::Type::kUpdated, SchemaChange::Target::kType, keyspace(),
                      statement_.type.name);
  }

 private:
  TypePtr AddField(const schema::KeyspaceMetadata& ks, const TypePtr& type) const {
    const cql::FieldDefinition& field = statement_.field;
    const std::string type_name = CqlTypeName(keyspace(), type->udt_name());
    const auto& names = type->field_names();
    if (std::find(names.begin(), names.end(), field.name) != names.end()) {
      if (statement_.if_field_not_exists) return type;
      ThrowInvalid("Cannot add field " + field.name + " to type " + type_name +
                   ": a field with name " + field.name + " already exists");
    }
    const TypePtr field_type =
        schema::ResolveUserTypes(types::ParseCqlType(field.type), keyspace(), ks.user_types);
    if (schema::ReferencesUserType(*field_type, keyspace(), type->udt_name())) {
      ThrowInvalid("Cannot add new field " + field.name + " of type " + field.type +
                   " to user type " + type_name + " as it would create a circular reference");
    }
    std::string tables;
    for (const auto& [table_name, table] : ks.tables) {
      for (const auto& column : table->columns) {
        if (column.kind == schema::ColumnKind::kPartitionKey &&
            schema::ReferencesUserType(*column.type, keyspace(), type->udt_name())) {
          tables += (tables.empty() ? "" : ", ") + table->QualifiedName();
          break;
        }
      }
    }
    if (!tables.empty()) {
      ThrowInvalid(
          "Cannot add new field " + field.name + " of type " + field.type + " to user type " +
          type_name +
          " as the type is being used in partition key by the following tables: " + tables);
    }
    std::vector<std::string> field_names = names;
    std::vector<TypePtr> field_types = type->params();
    field_names.push_back(field.name);
    field_types.push_back(field_type);
    return CqlType::Udt(keyspace(), type->udt_name(), std::move(field_names),
                        std::move(field_types), /*frozen=*/false);
  }

  TypePtr RenameFields(const TypePtr& type) const {
    std::vector<std::string> field_names = type->field_names();
    for (const auto& [from, to] : statement_.renames) {
      auto it = std::find(type->field_names().begin(), type->field_names().end(), from);
      if (it == type->field_names().end()) {
        if (statement_.if_field_exists) continue;
        ThrowInvalid("Unkown field " + from + " in user type " +
                     CqlTypeName(keyspace(), type->udt_name()));
      }
      field_names[static_cast<size_t>(it - type->field_names().begin())] = to;
    }
    for (const auto& name : field_names) {
      if (std::count(field_names.begin(), field_names.end(), name) > 1) {
        // Cassandra's message prints the keyspace where the type name belongs.
        ThrowInvalid("Duplicate field name " + name + " in type " + keyspace());
      }
    }
    return CqlType::Udt(keyspace(), type->udt_name(), std::move(field_names), type->params(),
                        /*frozen=*/false);
  }

  cql::AlterTypeStatement statement_;
};

class DropType final : public SchemaAlteration {
 public:
  DropType(const cql::DropTypeStatement& s, std::string keyspace)
      : SchemaAlteration(std::move(keyspace)), name_(s.type.name), if_exists_(s.if_exists) {}

  void Authorize() const override { EnsureKeyspacePermission(keyspace(), Permission::kDrop); }

  std::optional<schema::Schema::KeyspaceMap> Apply(const schema::Schema& current,
                                                   const SchemaChangeContext&) const override {
    auto ks = FindKeyspaceCopy(current, keyspace());
    if (!ks || ks->user_types.count(name_) == 0) {
      if (if_exists_) return std::nullopt;
      ThrowInvalid("Type '" + keyspace() + "." + name_ + "' doesn't exist");
    }
    const std::string prefix =
        "Cannot drop user type '" + keyspace() + "." + name_ + "' as it is still used by ";
    std::string types_using;
    for (const auto& [other_name, other] : ks->user_types) {
      if (other_name != name_ && schema::ReferencesUserType(*other, keyspace(), name_)) {
        types_using += (types_using.empty() ? "" : ", ") + other_name;
      }
    }
    if (!types_using.empty()) ThrowInvalid(prefix + "user types " + types_using);
    // Views count as tables (their columns are the base's, so a view never
    // uses a type its base does not).
    std::string tables_using;
    for (const auto* tables : {&ks->tables, &ks->views}) {
      for (const auto& [table_name, table] : *tables) {
        for (const auto& column : table->columns) {
          if (schema::ReferencesUserType(*column.type, keyspace(), name_)) {
            tables_using += (tables_using.empty() ? "" : ", ") + table_name;
            break;
          }
        }
      }
    }
    if (!tables_using.empty()) ThrowInvalid(prefix + "tables " + tables_using);
    ks->user_types.erase(name_);
    schema::Schema::KeyspaceMap next = current.keyspaces();
    next[keyspace()] = std::move(ks);
    return next;
  }

  SchemaChange Change(const schema::Schema&) const override {
    return MakeChange(SchemaChange::Type::kDropped, SchemaChange::Target::kType, keyspace(), name_);
  }

 private:
  std::string name_;
  bool if_exists_;
};

}  // namespace

SchemaAlterationPtr PrepareCreateType(const cql::CreateTypeStatement& s,
                                      std::optional<std::string_view> keyspace) {
  return std::make_shared<CreateType>(s, ResolveKeyspace(s.type, keyspace));
}

SchemaAlterationPtr PrepareAlterType(const cql::AlterTypeStatement& s,
                                     std::optional<std::string_view> keyspace) {
  return std::make_shared<AlterType>(s, ResolveKeyspace(s.type, keyspace));
}

SchemaAlterationPtr PrepareDropType(const cql::DropTypeStatement& s,
                                    std::optional<std::string_view> keyspace) {
  return std::make_shared<DropType>(s, ResolveKeyspace(s.type, keyspace));
}

}  // namespace sibyl::query::ddl
