#pragma once
// The commands of the `sibyl` executable (start, shell, demo, stress,
// cluster, admin), each with the line `sibyl --help` shows for it. The
// executable is the only place that knows both the server and the tools:
// neither layer includes the other.

#include <string>
#include <string_view>
#include <vector>

namespace sibyl::cli {

// `self` is the path the executable was started as (argv[0]): the demo and
// the cluster start more nodes from it.
using CommandFunction = int (*)(const std::vector<std::string>& args, const char* self);

struct Command {
  std::string_view name;
  // What `sibyl --help` says of it; may span lines (indented to match).
  std::string_view summary;
  CommandFunction run;
};

// Every command, in the order `sibyl --help` lists them.
[[nodiscard]] const std::vector<Command>& Commands();

[[nodiscard]] std::string MainUsage();

// Runs `sibyl ARGS...` (without the program name) and returns its exit code:
// a command, --help or --version; anything else is refused with a line on
// stderr and exit code 1.
[[nodiscard]] int RunMain(const std::vector<std::string>& args, const char* self);

}  // namespace sibyl::cli
