#include "query/statements/ddl/ddl_guardrails.h"

#include <charconv>

#include "schema/system_keyspaces.h"

namespace sibyl::query::ddl {
namespace {

using guardrails::GuardrailId;

// A replication factor's full replicas: "3", or "3/1" with transient ones.
int64_t FullReplicas(const std::string& factor) {
  int64_t total = 0;
  const char* end = factor.data() + factor.size();
  auto [after_total, ec] = std::from_chars(factor.data(), end, total);
  if (ec != std::errc()) return 0;
  if (after_total != end && *after_total == '/') {
    int64_t transient = 0;
    std::from_chars(after_total + 1, end, transient);
    return total - transient;
  }
  return total;
}

std::string ShortClassName(const std::string& name) {
  const size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

}  // namespace

void GuardNewKeyspace(const schema::Schema& current, const std::string& keyspace,
                      const SchemaChangeContext& context) {
  if (context.guardrails == nullptr || !context.guardrails->Active(GuardrailId::kKeyspaces)) return;
  int64_t user_keyspaces = 0;
  for (const auto& [name, metadata] : current.keyspaces()) {
    if (!schema::IsSystemKeyspace(name)) ++user_keyspaces;
  }
  context.guardrails->Guard(GuardrailId::kKeyspaces, user_keyspaces + 1, keyspace,
                            context.warnings);
}

void GuardReplication(const std::string& keyspace, const schema::ReplicationMap& replication,
                      const SchemaChangeContext& context) {
  if (context.guardrails == nullptr || schema::IsSystemKeyspace(keyspace)) return;
  const guardrails::Guardrails& g = *context.guardrails;
  const auto cls = replication.find("class");
  const std::string strategy = cls == replication.end() ? "" : ShortClassName(cls->second);
  if (strategy == "SimpleStrategy") {
    g.EnsureEnabled(GuardrailId::kSimpleStrategy, context.warnings, "SimpleStrategy");
  }
  const bool min = g.Active(GuardrailId::kMinimumReplicationFactor);
  const bool max = g.Active(GuardrailId::kMaximumReplicationFactor);
  if (!min && !max) return;
  // SimpleStrategy's replication_factor, or each datacenter's of
  // NetworkTopologyStrategy.
  for (const auto& [option, value] : replication) {
    if (option == "class") continue;
    if (strategy == "SimpleStrategy" && option != "replication_factor") continue;
    const int64_t replicas = FullReplicas(value);
    if (min) g.Guard(GuardrailId::kMinimumReplicationFactor, replicas, keyspace, context.warnings);
    if (max) g.Guard(GuardrailId::kMaximumReplicationFactor, replicas, keyspace, context.warnings);
  }
}

void GuardNewTable(const schema::Schema& current, const std::string& table,
                   const SchemaChangeContext& context) {
  if (context.guardrails == nullptr || !context.guardrails->Active(GuardrailId::kTables)) return;
  // Tables and views count (each is a table of the storage engine); index
  // tables do not.
  int64_t user_tables = 0;
  for (const auto& [name, keyspace] : current.keyspaces()) {
    if (schema::IsSystemKeyspace(name)) continue;
    user_tables += static_cast<int64_t>(keyspace->tables.size() + keyspace->views.size());
  }
  context.guardrails->Guard(GuardrailId::kTables, user_tables + 1, table, context.warnings);
}

void GuardTableProperties(schema::PropertyDefinitions& properties,
                          const SchemaChangeContext& context) {
  if (context.guardrails == nullptr || properties.empty()) return;
  for (const std::string& ignored :
       context.guardrails->GuardTableProperties(properties.Names(), context.warnings)) {
    properties.Remove(ignored);
  }
}

void GuardTableParams(const std::string& keyspace, const schema::TableParams& params,
                      const SchemaChangeContext& context) {
  if (context.guardrails == nullptr) return;
  const guardrails::Guardrails& g = *context.guardrails;
  const auto enabled = params.compression.find("enabled");
  if (enabled != params.compression.end() && enabled->second == "false") {
    g.EnsureEnabled(GuardrailId::kUncompressedTables, context.warnings);
  }
  const auto compaction = params.compaction.find("class");
  if (params.default_time_to_live == 0 && !schema::IsSystemKeyspace(keyspace) &&
      compaction != params.compaction.end() &&
      ShortClassName(compaction->second) == "TimeWindowCompactionStrategy") {
    g.EnsureEnabled(GuardrailId::kZeroTtlOnTwcs, context.warnings);
  }
}

void GuardCount(guardrails::GuardrailId id, int64_t value, const std::string& what,
                const SchemaChangeContext& context) {
  if (context.guardrails != nullptr) context.guardrails->Guard(id, value, what, context.warnings);
}

void GuardFeature(guardrails::GuardrailId id, const SchemaChangeContext& context,
                  std::string_view feature) {
  if (context.guardrails != nullptr) {
    context.guardrails->EnsureEnabled(id, context.warnings, feature);
  }
}

}  // namespace sibyl::query::ddl
