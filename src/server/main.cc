// The `sibyl` binary: subcommands over one executable.

#include <spdlog/spdlog.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "server/command_line.h"
#include "server/crash_handler.h"
#include "server/node.h"
#include "server/version.h"
#include "tools/admin/admin_command.h"
#include "tools/cluster/cluster_command.h"
#include "tools/demo/demo_command.h"
#include "tools/shell/shell.h"
#include "tools/stress_command.h"

namespace {

bool HasHelpFlag(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

int Start(const std::vector<std::string>& args) {
  using namespace sibyl::server;
  if (HasHelpFlag(args)) {
    std::cout << StartUsage();
    return 0;
  }
  StartOptions options;
  try {
    options = ParseStartArguments(args);
  } catch (const ConfigError& e) {
    std::cerr << "sibyl: " << e.what() << "\n";
    return 1;
  }
  return RunNode(options);
}

}  // namespace

int main(int argc, char** argv) {
  sibyl::server::InstallCrashHandlers();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << sibyl::server::MainUsage();
    return 1;
  }
  const std::string command = args.front();
  args.erase(args.begin());
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << sibyl::server::MainUsage();
    return 0;
  }
  if (command == "--version" || command == "version") {
    std::cout << sibyl::server::VersionLine() << "\n";
    return 0;
  }
  if (command == "start") return Start(args);
  if (command == "stress") return sibyl::tools::RunStressCommand(args);
  if (command == "shell") return sibyl::tools::shell::RunShellCommand(args);
  if (command == "demo") return sibyl::tools::demo::RunDemoCommand(args, argv[0]);
  if (command == "admin") return sibyl::tools::admin::RunAdminCommand(args);
  if (command == "cluster") return sibyl::tools::cluster::RunClusterCommand(args, argv[0]);
  std::cerr << "sibyl: unknown command '" << command << "' (see sibyl --help)\n";
  return 1;
}
