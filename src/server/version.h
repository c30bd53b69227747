#pragma once

#include <string>

#include "schema/local_node_info.h"

namespace sibyl::server {

inline constexpr const char* kSibylVersion = "0.1.0";

inline std::string VersionLine() {
  return std::string("sibyl ") + kSibylVersion + " (CQL " + schema::kCqlVersion +
         ", native protocol v3-v5, compatible with Apache Cassandra " + schema::kReleaseVersion +
         ")";
}

}  // namespace sibyl::server
