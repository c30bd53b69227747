#pragma once
// cassandra.yaml's keys as Sibyl knows them: the keys it sets (each with
// its --help line and the setter that parses and checks its textual value),
// and the keys it accepts and ignores (tuning knobs of Cassandra's own
// internals). Both are static tables in config_keys.cc.
//
// Thread-safety: the tables are immutable.

#include <string>
#include <string_view>
#include <vector>

#include "server/config.h"

namespace sibyl::server {

struct ConfigKey {
  std::string_view name;
  std::string_view value_hint;  // for --help: N, SIZE, DURATION, ...
  std::string_view description;
  // Parses `value` into `config`; throws ConfigError naming `key`. Null for
  // an alias that SetConfigValue resolves itself (data_dir).
  void (*set)(Config& config, const std::string& key, const std::string& value);
};

// The key named `name`, or null.
[[nodiscard]] const ConfigKey* FindConfigKey(std::string_view name);

// Every key, in name order (as `sibyl start --help` lists them).
[[nodiscard]] const std::vector<const ConfigKey*>& ConfigKeysByName();

// Keys of cassandra.yaml that tune Cassandra internals Sibyl does not have
// (thread pools, caches...). They are accepted and ignored with a warning, so
// an existing cassandra.yaml loads; anything else unknown is an error.
[[nodiscard]] bool IsIgnoredCassandraKey(const std::string& key);

}  // namespace sibyl::server
