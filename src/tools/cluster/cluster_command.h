#pragma once
// `sibyl cluster start|stop`: a local cluster for trying things out and for
// tests, as ccm makes one for Cassandra (docs/cluster.md).
//
//   sibyl cluster start --nodes 3 [--dir D]   etcd + 3 nodes on 127.0.0.1-3,
//                                             returns once every node answers CQL
//   sibyl cluster add [--dir D]               one more node, joining the running
//                                             cluster with start's options
//   sibyl cluster remove [--dir D]            the last node decommissioned, its
//                                             directory deleted
//   sibyl cluster stop [--dir D]              stops them all

#include <string>
#include <vector>

#include "tools/cluster/cluster_layout.h"

namespace sibyl::tools::cluster {

// Runs the subcommand in `args` (after "cluster"); `self` is the sibyl
// executable. Returns the exit code: 0, 1 on failure, 2 on bad usage.
int RunClusterCommand(const std::vector<std::string>& args, const std::string& self);

// Parses the options of `start`/`stop` over the defaults. Throws
// std::invalid_argument with a one-line message.
ClusterLayout ParseClusterOptions(const std::vector<std::string>& options);

std::string ClusterUsage();

}  // namespace sibyl::tools::cluster
