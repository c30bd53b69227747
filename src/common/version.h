#pragma once
// The versions Sibyl reports: its own (sibyl --version, the shell's banner,
// the node's first log line) and the Cassandra ones clients go by.
// release_version makes drivers and cqlsh treat a node as Cassandra 4.1.

#include <string>

namespace sibyl {

inline constexpr const char* kSibylVersion = "0.1.0";
// system.local.release_version, and the shell's banner.
inline constexpr const char* kReleaseVersion = "4.1.7";
// Cassandra 4.1's QueryProcessor.CQL_VERSION (4.0 reports 3.4.5, 5.0 3.4.7).
inline constexpr const char* kCqlVersion = "3.4.6";

inline std::string VersionLine() {
  return std::string("sibyl ") + kSibylVersion + " (CQL " + kCqlVersion +
         ", native protocol v3-v5, compatible with Apache Cassandra " + kReleaseVersion + ")";
}

}  // namespace sibyl
