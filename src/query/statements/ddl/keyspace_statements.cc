// CREATE / ALTER / DROP KEYSPACE, as Cassandra 4.1's CreateKeyspaceStatement,
// AlterKeyspaceStatement, DropKeyspaceStatement and KeyspaceAttributes.

#include <spdlog/spdlog.h>

#include <memory>

#include "common/error.h"
#include "query/statements/ddl/ddl_guardrails.h"
#include "query/statements/ddl/schema_alteration_util.h"
#include "schema/replication_params.h"

namespace sibyl::query::ddl {
namespace {

using protocol::SchemaChange;

// KeyspaceAttributes.validate: only `replication` and `durable_writes`, and
// a replication map that names its class.
void ValidateKeyspaceAttributes(const schema::PropertyDefinitions& attributes) {
  attributes.Validate({"replication", "durable_writes"});
  const auto replication = attributes.GetMap("replication");
  if (replication && !replication->empty() && replication->count("class") == 0) {
    ThrowConfig("Missing replication strategy class");
  }
}

void CheckStrategyAndValidate(const std::string& keyspace,
                              const schema::ReplicationMap& replication,
                              const SchemaChangeContext& context) {
  if (schema::IsLocalStrategy(replication)) {
    ThrowInvalid("Unable to use given strategy class: LocalStrategy is reserved for internal use.");
  }
  schema::ValidateReplication(keyspace, replication, context.replication);
}

// Cassandra warns (and logs) once the new replication map is valid.
void WarnOnReplication(const std::string& keyspace, const schema::ReplicationMap& replication,
                       const SchemaChangeContext& context) {
  for (std::string& warning :
       schema::ReplicationWarnings(keyspace, replication, context.replication)) {
    spdlog::warn("{}", warning);
    if (context.warnings != nullptr) context.warnings->push_back(std::move(warning));
  }
}

class CreateKeyspace final : public SchemaAlteration {
 public:
  CreateKeyspace(const cql::CreateKeyspaceStatement& s)
      : SchemaAlteration(s.keyspace),
        attributes_(ToProperties(s.options)),
        if_not_exists_(s.if_not_exists) {}

  void Authorize() const override {}  // CREATE on all keyspaces: no keyspace to protect

  std::optional<schema::Schema::KeyspaceMap> Apply(
      const schema::Schema& current, const SchemaChangeContext& context) const override {
    ValidateKeyspaceAttributes(attributes_);
    if (!attributes_.Has("replication")) ThrowInvalid("Missing mandatory option 'replication'");
    if (current.keyspaces().count(keyspace()) > 0) {
      if (if_not_exists_) return std::nullopt;
      throw CqlError(ErrorCode::kAlreadyExists,
                     "Cannot add existing keyspace \"" + keyspace() + "\"",
                     AlreadyExistsInfo{keyspace(), ""});
    }
    GuardNewKeyspace(current, keyspace(), context);
    auto created = std::make_shared<schema::KeyspaceMetadata>();
    created->name = keyspace();
    created->durable_writes = attributes_.GetBoolean("durable_writes", true);
    created->replication =
        schema::PrepareReplication(*attributes_.GetMap("replication"), {}, context.replication);
    CheckStrategyAndValidate(keyspace(), created->replication, context);
    GuardReplication(keyspace(), created->replication, context);
    WarnOnReplication(keyspace(), created->replication, context);
    schema::Schema::KeyspaceMap next = current.keyspaces();
    next.emplace(keyspace(), std::move(created));
    return next;
  }

  SchemaChange Change(const schema::Schema&) const override {
    return MakeChange(SchemaChange::Type::kCreated, SchemaChange::Target::kKeyspace, keyspace());
  }

 private:
  schema::PropertyDefinitions attributes_;
  bool if_not_exists_;
};

class AlterKeyspace final : public SchemaAlteration {
 public:
  AlterKeyspace(const cql::AlterKeyspaceStatement& s)
      : SchemaAlteration(s.keyspace),
        attributes_(ToProperties(s.options)),
        if_exists_(s.if_exists) {}

  void Authorize() const override { EnsureKeyspacePermission(keyspace(), Permission::kAlter); }

  std::optional<schema::Schema::KeyspaceMap> Apply(
      const schema::Schema& current, const SchemaChangeContext& context) const override {
    ValidateKeyspaceAttributes(attributes_);
    auto it = current.keyspaces().find(keyspace());
    if (it == current.keyspaces().end()) {
      if (if_exists_) return std::nullopt;
      ThrowInvalid("Keyspace '" + keyspace() + "' doesn't exist");
    }
    auto altered = std::make_shared<schema::KeyspaceMetadata>(*it->second);
    altered->durable_writes = attributes_.GetBoolean("durable_writes", altered->durable_writes);
    const auto replication = attributes_.GetMap("replication");
    if (replication && replication->count("class") > 0) {
      altered->replication =
          schema::PrepareReplication(*replication, it->second->replication, context.replication);
    }
    CheckStrategyAndValidate(keyspace(), altered->replication, context);
    if (replication && replication->count("class") > 0) {
      GuardReplication(keyspace(), altered->replication, context);
    }
    WarnOnReplication(keyspace(), altered->replication, context);
    schema::Schema::KeyspaceMap next = current.keyspaces();
    next[keyspace()] = std::move(altered);
    return next;
  }

  SchemaChange Change(const schema::Schema&) const override {
    return MakeChange(SchemaChange::Type::kUpdated, SchemaChange::Target::kKeyspace, keyspace());
  }

 private:
  schema::PropertyDefinitions attributes_;
  bool if_exists_;
};

class DropKeyspace final : public SchemaAlteration {
 public:
  DropKeyspace(const cql::DropKeyspaceStatement& s)
      : SchemaAlteration(s.keyspace), if_exists_(s.if_exists) {}

  void Authorize() const override { EnsureKeyspacePermission(keyspace(), Permission::kDrop); }

  std::optional<schema::Schema::KeyspaceMap> Apply(
      const schema::Schema& current, const SchemaChangeContext& context) const override {
    GuardFeature(guardrails::GuardrailId::kDropKeyspace, context);
    if (current.keyspaces().count(keyspace()) == 0) {
      if (if_exists_) return std::nullopt;
      ThrowInvalid("Keyspace '" + keyspace() + "' doesn't exist");
    }
    schema::Schema::KeyspaceMap next = current.keyspaces();
    next.erase(keyspace());
    return next;
  }

  SchemaChange Change(const schema::Schema&) const override {
    return MakeChange(SchemaChange::Type::kDropped, SchemaChange::Target::kKeyspace, keyspace());
  }

 private:
  bool if_exists_;
};

}  // namespace

SchemaAlterationPtr PrepareCreateKeyspace(const cql::CreateKeyspaceStatement& s) {
  return std::make_shared<CreateKeyspace>(s);
}

SchemaAlterationPtr PrepareAlterKeyspace(const cql::AlterKeyspaceStatement& s) {
  return std::make_shared<AlterKeyspace>(s);
}

SchemaAlterationPtr PrepareDropKeyspace(const cql::DropKeyspaceStatement& s) {
  return std::make_shared<DropKeyspace>(s);
}

}  // namespace sibyl::query::ddl
