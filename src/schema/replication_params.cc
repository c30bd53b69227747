#include "schema/replication_params.h"

#include <optional>

#include "common/error.h"
#include "schema/java_numbers.h"
#include "schema/system_keyspaces.h"

namespace sibyl::schema {
namespace {

constexpr std::string_view kLocatorPackage = "org.apache.cassandra.locator.";
constexpr const char* kReplicationFactor = "replication_factor";

// AbstractReplicationStrategy.getClass: short names live in the locator package.
std::string ResolveStrategyClass(std::string_view name) {
  std::string full = name.find('.') != std::string_view::npos
                         ? std::string(name)
                         : std::string(kLocatorPackage) + std::string(name);
  if (full != kSimpleStrategy && full != kNetworkTopologyStrategy && full != kLocalStrategy) {
    ThrowConfig("Unable to find replication strategy class '" + full + "'");
  }
  return full;
}

struct ReplicationFactor {
  int all = 0;
  int transient = 0;
  std::string ToParseableString() const {
    return transient == 0 ? std::to_string(all)
                          : std::to_string(all) + "/" + std::to_string(transient);
  }
};

int ParseReplicaCount(std::string_view text) {
  const std::optional<int32_t> value = ParseJavaInt(text);
  if (!value) ThrowConfig("For input string: \"" + std::string(text) + "\"");
  return *value;
}

// ReplicationFactor.fromString with its checks (transient replication is
// disabled, as by default in cassandra.yaml).
ReplicationFactor ParseReplicationFactor(std::string_view text) {
  ReplicationFactor rf;
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) {
    rf.all = ParseReplicaCount(text);
  } else {
    if (text.find('/', slash + 1) != std::string_view::npos) {
      ThrowConfig("Replication factor format is <replicas> or <replicas>/<transient>");
    }
    rf.all = ParseReplicaCount(text.substr(0, slash));
    rf.transient = ParseReplicaCount(text.substr(slash + 1));
  }
  if (rf.transient != 0) ThrowConfig("Transient replication is not enabled on this node");
  if (rf.all < 0)
    ThrowConfig("Replication factor must be non-negative, found " + std::to_string(rf.all));
  return rf;
}

std::string SimpleName(std::string_view full_class) {
  const size_t dot = full_class.rfind('.');
  return std::string(dot == std::string_view::npos ? full_class : full_class.substr(dot + 1));
}

void PrepareSimple(ReplicationMap& options, const ReplicationMap& previous,
                   const ReplicationContext& context) {
  // Altering from NTS keeps no per-datacenter factor: the default applies.
  auto it = previous.find(kReplicationFactor);
  const std::string rf =
      it != previous.end() ? it->second : std::to_string(context.default_keyspace_rf);
  options.emplace(kReplicationFactor, rf);
}

void PrepareNetworkTopology(ReplicationMap& options, const ReplicationMap& previous,
                            const ReplicationContext& context) {
  // No datacenter named: every datacenter gets the default factor.
  if (options.empty()) {
    auto it = previous.find(kReplicationFactor);
    options.emplace(kReplicationFactor, it != previous.end()
                                            ? it->second
                                            : std::to_string(context.default_keyspace_rf));
  }
  std::optional<std::string> replication;
  if (auto it = options.find(kReplicationFactor); it != options.end()) {
    replication = it->second;
    options.erase(it);
  }
  if (!replication && options.empty()) {
    // ALTER from SimpleStrategy to NTS with no datacenter named.
    if (auto it = previous.find(kReplicationFactor); it != previous.end()) replication = it->second;
  } else if (replication) {
    // Auto-expansion never lowers a datacenter the keyspace already names.
    for (const auto& [key, value] : previous) {
      if (key != kReplicationFactor) options.emplace(key, value);
    }
  }
  if (replication) {
    const ReplicationFactor rf = ParseReplicationFactor(*replication);
    for (const auto& dc : context.datacenters) options.emplace(dc, rf.ToParseableString());
  }
  std::erase_if(options, [](const auto& entry) { return entry.second == "0"; });
}

}  // namespace

ReplicationMap PrepareReplication(const std::map<std::string, std::string, std::less<>>& given,
                                  const ReplicationMap& previous,
                                  const ReplicationContext& context) {
  ReplicationMap options(given.begin(), given.end());
  auto class_it = options.find("class");
  if (class_it == options.end()) ThrowConfig("Missing replication strategy class");
  const std::string strategy = ResolveStrategyClass(class_it->second);
  options.erase(class_it);
  ReplicationMap previous_options = previous;
  previous_options.erase("class");
  if (strategy == kSimpleStrategy) {
    PrepareSimple(options, previous_options, context);
  } else if (strategy == kNetworkTopologyStrategy) {
    PrepareNetworkTopology(options, previous_options, context);
  }
  options["class"] = strategy;
  return options;
}

bool IsLocalStrategy(const ReplicationMap& replication) {
  auto it = replication.find("class");
  return it != replication.end() && it->second == kLocalStrategy;
}

void ValidateReplication(std::string_view keyspace, const ReplicationMap& replication,
                         const ReplicationContext& context) {
  const std::string strategy = replication.at("class");
  const std::string simple_name = SimpleName(strategy);
  ReplicationMap options = replication;
  options.erase("class");
  auto unrecognized = [&](const std::string& option) {
    ThrowConfig("Unrecognized strategy option {" + option + "} passed to " + simple_name +
                " for keyspace " + std::string(keyspace));
  };
  if (strategy == kSimpleStrategy) {
    for (const auto& [key, value] : options) {
      if (key != kReplicationFactor) unrecognized(key);
    }
    auto it = options.find(kReplicationFactor);
    if (it == options.end())
      ThrowConfig("SimpleStrategy requires a replication_factor strategy option.");
    (void)ParseReplicationFactor(it->second);
    return;
  }
  if (strategy == kNetworkTopologyStrategy) {
    if (options.empty()) ThrowConfig("Configuration for at least one datacenter must be present");
    for (const auto& [key, value] : options) {
      if (context.datacenters.count(key) == 0) unrecognized(key);
    }
    for (const auto& [key, value] : options) (void)ParseReplicationFactor(value);
  }
}

std::vector<std::string> ReplicationWarnings(std::string_view keyspace,
                                             const ReplicationMap& replication,
                                             const ReplicationContext& context) {
  std::vector<std::string> warnings;
  if (IsSystemKeyspace(keyspace)) return warnings;
  auto warn_if_too_high = [&](const std::string& rf_text, int nodes, std::string suffix) {
    const int full_replicas = ParseReplicationFactor(rf_text).all;
    // Cassandra skips the warning when it knows of no node (nodes == 0).
    if (full_replicas > nodes && nodes != 0) {
      warnings.push_back("Your replication factor " + std::to_string(full_replicas) +
                         " for keyspace " + std::string(keyspace) +
                         " is higher than the number of nodes " + std::to_string(nodes) + suffix);
    }
  };
  const std::string& strategy = replication.at("class");
  if (strategy == kSimpleStrategy) {
    int nodes = 0;
    for (const auto& [dc, count] : context.node_counts) nodes += count;
    warn_if_too_high(replication.at(kReplicationFactor), nodes, "");
  } else if (strategy == kNetworkTopologyStrategy) {
    for (const auto& [dc, rf] : replication) {
      if (dc == "class") continue;
      auto it = context.node_counts.find(dc);
      warn_if_too_high(rf, it == context.node_counts.end() ? 0 : it->second,
                       " for datacenter " + dc);
    }
  }
  return warnings;
}

}  // namespace sibyl::schema
