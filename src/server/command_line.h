#pragma once
// The flags of `sibyl start`, and its usage.

#include <string>
#include <vector>

#include "server/config.h"

namespace sibyl::server {

struct StartOptions {
  Config config;
  std::vector<std::string> warnings;  // for the log, once it is set up
};

// Parses the arguments of `sibyl start` (without the program and subcommand
// names): --config FILE is applied first, then every other flag in order, so
// flags override the file. Flags are config keys with '-' for '_', given as
// `--key value` or `--key=value`. Throws ConfigError with a one-line message.
StartOptions ParseStartArguments(const std::vector<std::string>& args);

std::string StartUsage();

}  // namespace sibyl::server
