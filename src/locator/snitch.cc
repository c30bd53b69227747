#include "locator/snitch.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include "common/error.h"
#include "locator/java_properties.h"
#include "locator/locator_class_name.h"

namespace sibyl::locator {
namespace {

// Cassandra 4.1's snitches (endpoint_snitch values) that Sibyl does not
// implement, so that their names get a precise refusal.
constexpr std::array<std::string_view, 7> kUnsupportedSnitches = {
    "PropertyFileSnitch", "RackInferringSnitch", "Ec2Snitch",         "Ec2MultiRegionSnitch",
    "GoogleCloudSnitch",  "CloudstackSnitch",    "AlibabaCloudSnitch"};

std::string MissingDcOrRack() {
  return "DC or rack not found in snitch properties, check your configuration in: " +
         std::string(kRackDcPropertiesFile);
}

// Java's String.trim: drops characters <= ' ' at both ends.
std::string JavaTrim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  return std::string(s);
}

bool JavaParseBoolean(std::string_view s) {
  return s.size() == 4 && std::equal(s.begin(), s.end(), "true", [](char a, char b) {
           return (a >= 'A' && a <= 'Z' ? a + 32 : a) == b;
         });
}

// The file's text, or nullopt with the reason.
std::optional<std::string> ReadFile(const std::filesystem::path& path, std::string& reason) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    reason = "is a directory";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    reason = std::strerror(errno);
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    reason = "read error";
    return std::nullopt;
  }
  return std::move(text).str();
}

}  // namespace

Snitch Snitch::Simple() {
  return Snitch(std::string(kLocatorPackage) + "SimpleSnitch", {"datacenter1", "rack1"}, false);
}

Snitch Snitch::GossipingPropertyFile(const std::map<std::string, std::string>& properties) {
  const auto dc = properties.find("dc");
  const auto rack = properties.find("rack");
  if (dc == properties.end() || rack == properties.end()) ThrowConfig(MissingDcOrRack());
  const auto prefer_local = properties.find("prefer_local");
  return Snitch(std::string(kLocatorPackage) + "GossipingPropertyFileSnitch",
                {JavaTrim(dc->second), JavaTrim(rack->second)},
                prefer_local != properties.end() && JavaParseBoolean(prefer_local->second));
}

Snitch Snitch::FromConfig(std::string_view endpoint_snitch,
                          const std::filesystem::path& rackdc_properties) {
  // DatabaseDescriptor.createEndpointSnitch: a name without a dot is in the
  // locator package.
  const std::string class_name = QualifiedLocatorClass(endpoint_snitch);
  const std::string_view short_name = LocatorPackageMember(class_name);
  if (short_name == "SimpleSnitch") return Simple();
  if (short_name == "GossipingPropertyFileSnitch") {
    std::string reason;
    const std::optional<std::string> text = ReadFile(rackdc_properties, reason);
    if (!text) {
      // Cassandra warns, reads nothing, then misses dc and rack.
      ThrowConfig("Unable to read " + rackdc_properties.string() + ": " + reason + ". " +
                  MissingDcOrRack());
    }
    return GossipingPropertyFile(ParseJavaProperties(*text));
  }
  if (std::find(kUnsupportedSnitches.begin(), kUnsupportedSnitches.end(), short_name) !=
      kUnsupportedSnitches.end()) {
    ThrowConfig("endpoint_snitch " + class_name +
                " is not supported by Sibyl (supported: SimpleSnitch, "
                "GossipingPropertyFileSnitch)");
  }
  ThrowConfig("Unable to find snitch class '" + class_name + "'");
}

}  // namespace sibyl::locator
