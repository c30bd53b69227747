#pragma once
// cassandra.yaml's security keys, which Sibyl does not implement yet:
// authentication, authorization, roles, network and internode
// authorization, client and internode encryption, audit logging and
// transparent data encryption. Ignoring any of them would start a node
// that is open to everyone, or in plaintext, when its operator asked for
// the opposite; so each is accepted only at its default (AllowAll...,
// CassandraRoleManager, encryption and audit logging off), and any other
// value stops the node at start with one line naming the key and saying it
// is not supported yet.

#include <yaml-cpp/yaml.h>

#include <string_view>

namespace sibyl::server {

// True for the keys this file checks.
[[nodiscard]] bool IsSecurityKey(std::string_view key);

// Accepts `value` for the security key `key` when it asks for what Sibyl
// does (the defaults); throws ConfigError otherwise. `value` is the key's
// YAML: a class name (authenticator, also 5.0's {class_name: ...}), or a map
// of options (client_encryption_options, ...).
// REQUIRES: IsSecurityKey(key).
void CheckSecuritySetting(std::string_view key, const YAML::Node& value);

}  // namespace sibyl::server
