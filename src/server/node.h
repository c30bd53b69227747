#pragma once

#include "server/command_line.h"

namespace sibyl::server {

// Runs a node until SIGTERM or SIGINT: sets up logging, the data directory,
// the node's identity and schema, and the CQL server. Returns the process
// exit code: 0 after a clean shutdown, 1 when start-up fails (with one line
// on stderr saying why).
int RunNode(const StartOptions& options);

}  // namespace sibyl::server
