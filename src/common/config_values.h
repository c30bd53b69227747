#pragma once
// cassandra.yaml's spellings of values that more than one reader of
// configuration needs (the node's keys, server/config.cc; the guardrails'
// keys, guardrails/guardrails.cc): booleans as SnakeYAML reads them, and
// the units of Cassandra 4.1's data storage values ("64KiB").

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

namespace sibyl {

// SnakeYAML's booleans, as Cassandra reads them; nullopt for anything else.
inline std::optional<bool> ParseYamlBoolean(std::string_view text) {
  for (std::string_view yes : {"true", "True", "TRUE", "yes", "Yes", "on", "On"}) {
    if (text == yes) return true;
  }
  for (std::string_view no : {"false", "False", "FALSE", "no", "No", "off", "Off"}) {
    if (text == no) return false;
  }
  return std::nullopt;
}

// The bytes in one `unit` of a data storage value (B, KiB, MiB, GiB);
// nullopt for another unit.
inline std::optional<uint64_t> DataStorageUnitBytes(std::string_view unit) {
  static constexpr std::array<std::pair<std::string_view, uint64_t>, 4> kUnits{
      {{"B", 1}, {"KiB", 1024}, {"MiB", 1024 * 1024}, {"GiB", 1024ull * 1024 * 1024}}};
  for (const auto& [name, bytes] : kUnits) {
    if (unit == name) return bytes;
  }
  return std::nullopt;
}

}  // namespace sibyl
