#include "server/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <stdexcept>

#include "guardrails/guardrail_catalog.h"
#include "guardrails/guardrails.h"
#include "server/config_keys.h"
#include "server/security_settings.h"

namespace sibyl::server {
namespace {

// cassandra.yaml's seed_provider, a class with its parameters:
//   seed_provider:
//     - class_name: org.apache.cassandra.locator.SimpleSeedProvider
//       parameters:
//         - seeds: "127.0.0.1:7000"
void ApplySeedProvider(Config& config, const YAML::Node& value) {
  const YAML::Node provider = value.IsSequence() && value.size() > 0 ? value[0] : value;
  if (!provider.IsMap() || !provider["class_name"]) {
    throw ConfigError("Invalid value for seed_provider: expected class_name and parameters");
  }
  const std::string class_name = provider["class_name"].as<std::string>();
  if (class_name != "org.apache.cassandra.locator.SimpleSeedProvider" &&
      class_name != "SimpleSeedProvider") {
    throw ConfigError("Invalid value '" + class_name +
                      "' for seed_provider: Sibyl supports only "
                      "org.apache.cassandra.locator.SimpleSeedProvider");
  }
  config.seed_provider_class = "org.apache.cassandra.locator.SimpleSeedProvider";
  YAML::Node parameters = provider["parameters"];
  if (parameters && parameters.IsSequence() && parameters.size() > 0) parameters = parameters[0];
  if (parameters && parameters.IsMap() && parameters["seeds"]) {
    SetConfigValue(config, "seeds", parameters["seeds"].as<std::string>());
  }
}

}  // namespace

void SetConfigValue(Config& config, const std::string& key, const std::string& value) {
  if (key == "data_dir") return SetConfigValue(config, "data_file_directories", value);
  if (guardrails::FindGuardrailKey(key)) {
    try {
      guardrails::Guardrails::CheckValue(key, value);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(e.what());
    }
    config.guardrails.emplace_back(key, value);
    return;
  }
  if (IsSecurityKey(key)) return CheckSecuritySetting(key, YAML::Node(value));
  const ConfigKey* known = FindConfigKey(key);
  if (known == nullptr) throw ConfigError("Unknown configuration key '" + key + "'");
  known->set(config, key, value);
}

std::vector<std::string> LoadConfigFile(Config& config, const std::filesystem::path& file) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(file.string());
  } catch (const YAML::BadFile&) {
    throw ConfigError("Cannot read configuration file " + file.string());
  } catch (const YAML::Exception& e) {
    throw ConfigError("Invalid yaml in " + file.string() + ": " + e.what());
  }
  std::vector<std::string> warnings;
  config.config_directory = std::filesystem::absolute(file).parent_path();
  if (root.IsNull()) return warnings;
  if (!root.IsMap())
    throw ConfigError("Invalid yaml in " + file.string() + ": expected a map of keys");
  std::vector<std::string> unknown;
  for (const auto& entry : root) {
    const auto key = entry.first.as<std::string>();
    const YAML::Node& value = entry.second;
    if (key == "seed_provider") {
      ApplySeedProvider(config, value);
      continue;
    }
    if (IsSecurityKey(key)) {
      CheckSecuritySetting(key, value);
      continue;
    }
    if (IsIgnoredCassandraKey(key)) {
      warnings.push_back("Ignoring cassandra.yaml key '" + key + "': not used by Sibyl");
      continue;
    }
    if (guardrails::FindGuardrailKey(key)) {
      // A list of values ([ALL, ANY]) or a single value.
      std::string text;
      if (value.IsSequence()) {
        for (const auto& item : value) text += (text.empty() ? "" : ",") + item.as<std::string>();
      } else if (value.IsScalar()) {
        text = value.Scalar();
      } else if (!value.IsNull()) {
        throw ConfigError("Invalid value for " + key + " in " + file.string() +
                          ": expected a value or a list");
      }
      SetConfigValue(config, key, text);
      continue;
    }
    if (FindConfigKey(key) == nullptr) {
      unknown.push_back(key);
      continue;
    }
    if (key == "data_file_directories" && value.IsSequence()) {
      if (value.size() == 0)
        throw ConfigError("Invalid value for data_file_directories: empty list");
      config.data_file_directories.clear();
      for (const auto& dir : value)
        config.data_file_directories.emplace_back(dir.as<std::string>());
      continue;
    }
    if (!value.IsScalar()) {
      throw ConfigError("Invalid value for " + key + " in " + file.string() +
                        ": expected a single value");
    }
    SetConfigValue(config, key, value.Scalar());
  }
  if (!unknown.empty()) {
    // Cassandra's wording for the same mistake.
    std::string list;
    for (const auto& k : unknown) list += (list.empty() ? "" : ", ") + k;
    throw ConfigError("Invalid yaml. Please remove properties [" + list + "] from your " +
                      file.filename().string());
  }
  return warnings;
}

void ValidateConfig(const Config& config) {
  if (config.cluster_name.empty()) throw ConfigError("cluster_name must not be empty");
  try {
    guardrails::Guardrails checked;
    checked.Apply(config.guardrails);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
  if (config.data_file_directories.empty())
    throw ConfigError("data_file_directories must not be empty");
  // DatabaseDescriptor's checks, with its messages.
  if (config.disk_usage_monitor_interval.count() <= 0)
    throw ConfigError("disk_usage_monitor_interval must be positive");
  if (config.commitlog_sync == CommitlogSync::kBatch && config.commitlog_sync_period_given)
    throw ConfigError("Batch sync specified, but commitlog_sync_period found.");
  if (config.commitlog_sync == CommitlogSync::kGroup) {
    if (config.commitlog_sync_group_window.count() == 0)
      throw ConfigError("Missing value for commitlog_sync_group_window.");
    if (config.commitlog_sync_period_given)
      throw ConfigError(
          "Group sync specified, but commitlog_sync_period found. Only specify "
          "commitlog_sync_group_window when using group sync");
  }
  if (config.commitlog_sync == CommitlogSync::kPeriodic &&
      config.commitlog_sync_period.count() == 0)
    throw ConfigError("Missing value for commitlog_sync_period.");
}

std::string DescribeConfigKeys() {
  std::string out;
  for (const ConfigKey* key : ConfigKeysByName()) {
    std::string flag = "--" + std::string(key->name);
    std::replace(flag.begin(), flag.end(), '_', '-');
    std::string left = "  " + flag + " " + std::string(key->value_hint);
    if (left.size() < 48)
      left.resize(48, ' ');
    else
      left += "  ";
    out += left + std::string(key->description) + "\n";
  }
  out +=
      "  --<guardrail key> VALUE                       every guardrail key of cassandra.yaml "
      "(4.1, 5.0),\n"
      "                                                e.g. --page-size-warn-threshold 5000, "
      "--allow-filtering-enabled false\n"
      "                                                (docs/guardrails.md; live in "
      "system_views.guardrails)\n";
  return out;
}

}  // namespace sibyl::server
