#pragma once
// Cassandra's class names for replication strategies and snitches: a name
// without a dot lives in the locator package
// (AbstractReplicationStrategy.getClass, DatabaseDescriptor.createEndpointSnitch).

#include <string>
#include <string_view>

namespace sibyl::locator {

inline constexpr std::string_view kLocatorPackage = "org.apache.cassandra.locator.";

// "SimpleSnitch" → "org.apache.cassandra.locator.SimpleSnitch"; a dotted
// name stays as written.
[[nodiscard]] inline std::string QualifiedLocatorClass(std::string_view name) {
  if (name.find('.') != std::string_view::npos) return std::string(name);
  return std::string(kLocatorPackage) + std::string(name);
}

// The class's name inside the locator package, or "" for a class outside it.
[[nodiscard]] inline std::string_view LocatorPackageMember(std::string_view class_name) {
  return class_name.starts_with(kLocatorPackage) ? class_name.substr(kLocatorPackage.size())
                                                 : std::string_view();
}

}  // namespace sibyl::locator
