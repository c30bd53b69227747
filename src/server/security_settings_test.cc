// The security keys of cassandra.yaml: their defaults start a node, anything
// that asks for protection Sibyl does not have yet stops it with one line.

#include "server/security_settings.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "server/config.h"

namespace sibyl::server {
namespace {

// Loads `yaml` as a configuration file; returns the error, or "" if it loads.
std::string LoadError(const std::string& yaml) {
  // One file per process and call: other test processes run at the same time.
  static int calls = 0;
  const auto path = std::filesystem::temp_directory_path() /
                    ("sibyl-security-settings-test-" + std::to_string(getpid()) + "-" +
                     std::to_string(++calls) + ".yaml");
  std::ofstream(path) << yaml;
  Config config;
  try {
    (void)LoadConfigFile(config, path);
    std::filesystem::remove(path);
    return "";
  } catch (const ConfigError& e) {
    std::filesystem::remove(path);
    return e.what();
  }
}

std::string FlagError(const std::string& key, const std::string& value) {
  Config config;
  try {
    SetConfigValue(config, key, value);
    return "";
  } catch (const ConfigError& e) {
    return e.what();
  }
}

TEST(SecuritySettingsTest, TheStockCassandraYamlDefaultsStart) {
  EXPECT_EQ(LoadError("authenticator: AllowAllAuthenticator\n"
                      "authorizer: AllowAllAuthorizer\n"
                      "role_manager: CassandraRoleManager\n"
                      "network_authorizer: AllowAllNetworkAuthorizer\n"
                      "internode_authenticator: "
                      "org.apache.cassandra.auth.AllowAllInternodeAuthenticator\n"
                      "server_encryption_options:\n"
                      "  internode_encryption: none\n"
                      "  keystore: conf/.keystore\n"
                      "  keystore_password: cassandra\n"
                      "client_encryption_options:\n"
                      "  enabled: false\n"
                      "  keystore: conf/.keystore\n"
                      "audit_logging_options:\n"
                      "  enabled: false\n"
                      "  logger:\n"
                      "    - class_name: BinAuditLogger\n"
                      "transparent_data_encryption_options:\n"
                      "  enabled: false\n"
                      "  chunk_length_kb: 64\n"),
            "");
  // 5.0's form of a class, and fully qualified names.
  EXPECT_EQ(
      LoadError("authenticator:\n  class_name: org.apache.cassandra.auth.AllowAllAuthenticator\n"),
      "");
  EXPECT_EQ(FlagError("authorizer", "org.apache.cassandra.auth.AllowAllAuthorizer"), "");
}

TEST(SecuritySettingsTest, EachKeyAskingForProtectionStopsTheNodeNamingIt) {
  EXPECT_EQ(LoadError("authenticator: PasswordAuthenticator\n"),
            "authenticator: PasswordAuthenticator is not supported yet (Sibyl has no "
            "authentication; a node starts only with AllowAllAuthenticator)");
  EXPECT_EQ(LoadError("authorizer: CassandraAuthorizer\n"),
            "authorizer: CassandraAuthorizer is not supported yet (Sibyl has no permissions; a "
            "node starts only with AllowAllAuthorizer)");
  EXPECT_EQ(LoadError("client_encryption_options:\n  enabled: true\n  keystore: k\n"),
            "client_encryption_options: enabled: true is not supported yet (Sibyl has no TLS for "
            "clients; a node starts only with it off)");
  const std::pair<const char*, const char*> refused[] = {
      {"role_manager: com.example.LdapRoleManager\n", "role_manager"},
      {"network_authorizer: CassandraNetworkAuthorizer\n", "network_authorizer"},
      {"internode_authenticator: com.example.Auth\n", "internode_authenticator"},
      {"authenticator:\n  class_name: MutualTlsAuthenticator\n", "authenticator"},
      {"server_encryption_options:\n  internode_encryption: all\n", "server_encryption_options"},
      {"server_encryption_options:\n  enabled: yes\n", "server_encryption_options"},
      {"audit_logging_options:\n  enabled: true\n", "audit_logging_options"},
      {"transparent_data_encryption_options:\n  enabled: true\n",
       "transparent_data_encryption_options"},
  };
  for (const auto& [yaml, key] : refused) {
    const std::string error = LoadError(yaml);
    EXPECT_EQ(error.rfind(std::string(key) + ": ", 0), 0u) << yaml << " -> " << error;
    EXPECT_NE(error.find("is not supported yet"), std::string::npos) << yaml;
    EXPECT_EQ(error.find('\n'), std::string::npos) << yaml;
  }
}

TEST(SecuritySettingsTest, FlagsAreCheckedAsTheFileIs) {
  EXPECT_NE(FlagError("authenticator", "PasswordAuthenticator").find("is not supported yet"),
            std::string::npos);
  EXPECT_EQ(FlagError("client_encryption_options", "true"),
            "Invalid value for client_encryption_options: expected a map");
}

TEST(SecuritySettingsTest, MalformedValuesAreRefused) {
  EXPECT_EQ(LoadError("client_encryption_options:\n  enabled: maybe\n"),
            "Invalid value for client_encryption_options.enabled: expected true or false");
  EXPECT_EQ(LoadError("authenticator:\n  - a\n  - b\n"),
            "Invalid value for authenticator: expected a class name");
  EXPECT_EQ(LoadError("audit_logging_options: on\n"),
            "Invalid value for audit_logging_options: expected a map");
}

}  // namespace
}  // namespace sibyl::server
