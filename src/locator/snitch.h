#pragma once
// The snitch: which datacenter and rack this node is in, chosen by
// cassandra.yaml's endpoint_snitch (short or fully qualified name).
// Other nodes' locations come from the cluster's directory, not from here.
//
//   SimpleSnitch                 datacenter1 / rack1
//   GossipingPropertyFileSnitch  dc and rack from cassandra-rackdc.properties
//                                (trimmed), prefer_local (Boolean.parseBoolean:
//                                "true" in any case, untrimmed). dc_suffix is
//                                ignored, as Cassandra 4.1's GPFS ignores it
//                                (only the EC2 snitches append it).
//
// Errors are CqlError(kConfigError), with Cassandra's messages:
//   DC or rack not found in snitch properties, check your configuration in:
//   cassandra-rackdc.properties
// (preceded, when the file cannot be read, by Cassandra's warning "Unable to
// read <file>: <reason>. "), "Unable to find snitch class '<class>'" for a
// name Cassandra does not know, and for one of Cassandra's snitches Sibyl
// lacks: endpoint_snitch <class> is not supported by Sibyl (supported:
// SimpleSnitch, GossipingPropertyFileSnitch).
//
// A value type: immutable, safe to share.

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "locator/topology.h"

namespace sibyl::locator {

inline constexpr std::string_view kRackDcPropertiesFile = "cassandra-rackdc.properties";

class Snitch {
 public:
  static Snitch Simple();
  // From the properties of cassandra-rackdc.properties. Throws.
  static Snitch GossipingPropertyFile(const std::map<std::string, std::string>& properties);
  // The snitch `endpoint_snitch` names; GossipingPropertyFileSnitch reads
  // `rackdc_properties` (the only I/O of the locator layer). Throws.
  static Snitch FromConfig(std::string_view endpoint_snitch,
                           const std::filesystem::path& rackdc_properties);

  // Fully qualified, e.g. org.apache.cassandra.locator.SimpleSnitch.
  const std::string& class_name() const { return class_name_; }
  const Location& local() const { return local_; }
  // GossipingPropertyFileSnitch's prefer_local: reach peers of the local
  // datacenter on their internal address.
  bool prefer_local() const { return prefer_local_; }

 private:
  Snitch(std::string class_name, Location local, bool prefer_local)
      : class_name_(std::move(class_name)), local_(std::move(local)), prefer_local_(prefer_local) {}

  std::string class_name_;
  Location local_;
  bool prefer_local_;
};

}  // namespace sibyl::locator
