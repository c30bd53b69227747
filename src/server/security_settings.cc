#include "server/security_settings.h"

#include <optional>
#include <string>

#include "common/config_values.h"
#include "server/config.h"

namespace sibyl::server {
namespace {

// A key whose value names a class (Cassandra resolves a short name in
// org.apache.cassandra.auth), with the ones that ask for what Sibyl does.
struct ClassSetting {
  std::string_view key;
  std::string_view accepted;  // a short name
  std::string_view what_sibyl_lacks;
};

const ClassSetting kClassSettings[] = {
    {"authenticator", "AllowAllAuthenticator", "Sibyl has no authentication"},
    {"authorizer", "AllowAllAuthorizer", "Sibyl has no permissions"},
    // 4.1's default; without an authenticator it grants nothing.
    {"role_manager", "CassandraRoleManager", "Sibyl has no roles"},
    {"network_authorizer", "AllowAllNetworkAuthorizer", "Sibyl has no network permissions"},
    {"internode_authenticator", "AllowAllInternodeAuthenticator",
     "Sibyl has no internode authentication"},
};

// A key whose value is a map of options, on when `enabled` is true.
struct OptionsSetting {
  std::string_view key;
  std::string_view what_sibyl_lacks;
};

const OptionsSetting kOptionsSettings[] = {
    {"client_encryption_options", "Sibyl has no TLS for clients"},
    {"server_encryption_options", "Sibyl has no TLS between nodes"},
    {"audit_logging_options", "Sibyl has no audit log"},
    {"transparent_data_encryption_options", "Sibyl has no encryption of data at rest"},
};

constexpr std::string_view kAuthPackage = "org.apache.cassandra.auth.";

// One line naming the key, what it asked for, and what a node starts with.
[[noreturn]] void NotSupported(std::string_view key, const std::string& value, std::string_view why,
                               std::string_view default_value) {
  throw ConfigError(std::string(key) + ": " + value + " is not supported yet (" + std::string(why) +
                    "; a node starts only with " + std::string(default_value) + ")");
}

std::string ShortClassName(const std::string& name) {
  return name.rfind(kAuthPackage, 0) == 0 ? name.substr(kAuthPackage.size()) : name;
}

void CheckClassSetting(const ClassSetting& setting, const YAML::Node& value) {
  // 5.0 also takes {class_name: ..., parameters: ...}.
  const YAML::Node name = value.IsMap() ? value["class_name"] : value;
  if (!name || !name.IsScalar()) {
    throw ConfigError("Invalid value for " + std::string(setting.key) + ": expected a class name");
  }
  const std::string short_name = ShortClassName(name.Scalar());
  if (short_name != setting.accepted) {
    NotSupported(setting.key, name.Scalar(), setting.what_sibyl_lacks, setting.accepted);
  }
}

// The option of `options` that turns it on, if any does: `enabled`, and for
// internode encryption 4.1's `internode_encryption` (none, all, dc, rack).
std::optional<std::string> EnablingOption(std::string_view key, const YAML::Node& options) {
  if (const YAML::Node enabled = options["enabled"]) {
    const std::optional<bool> on =
        enabled.IsScalar() ? ParseYamlBoolean(enabled.Scalar()) : std::nullopt;
    if (!on) {
      throw ConfigError("Invalid value for " + std::string(key) +
                        ".enabled: expected true or false");
    }
    if (*on) return "enabled: true";
  }
  if (key == "server_encryption_options") {
    if (const YAML::Node mode = options["internode_encryption"];
        mode && mode.IsScalar() && mode.Scalar() != "none") {
      return "internode_encryption: " + mode.Scalar();
    }
  }
  return std::nullopt;
}

void CheckOptionsSetting(const OptionsSetting& setting, const YAML::Node& value) {
  if (value.IsNull()) return;
  if (!value.IsMap()) {
    throw ConfigError("Invalid value for " + std::string(setting.key) + ": expected a map");
  }
  if (const std::optional<std::string> on = EnablingOption(setting.key, value)) {
    NotSupported(setting.key, *on, setting.what_sibyl_lacks, "it off");
  }
}

}  // namespace

bool IsSecurityKey(std::string_view key) {
  for (const ClassSetting& setting : kClassSettings) {
    if (setting.key == key) return true;
  }
  for (const OptionsSetting& setting : kOptionsSettings) {
    if (setting.key == key) return true;
  }
  return false;
}

void CheckSecuritySetting(std::string_view key, const YAML::Node& value) {
  for (const ClassSetting& setting : kClassSettings) {
    if (setting.key == key) return CheckClassSetting(setting, value);
  }
  for (const OptionsSetting& setting : kOptionsSettings) {
    if (setting.key == key) return CheckOptionsSetting(setting, value);
  }
}

}  // namespace sibyl::server
