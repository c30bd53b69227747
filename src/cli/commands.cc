#include "cli/commands.h"

#include <iostream>

#include "common/version.h"
#include "server/command_line.h"
#include "server/node.h"
#include "tools/admin/admin_command.h"
#include "tools/cluster/cluster_command.h"
#include "tools/demo/demo_command.h"
#include "tools/shell/shell.h"
#include "tools/stress/stress_command.h"

namespace sibyl::cli {
namespace {

bool HasHelpFlag(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a == "--help" || a == "-h") return true;
  }
  return false;
}

int Start(const std::vector<std::string>& args, const char*) {
  if (HasHelpFlag(args)) {
    std::cout << server::StartUsage();
    return 0;
  }
  server::StartOptions options;
  try {
    options = server::ParseStartArguments(args);
  } catch (const server::ConfigError& e) {
    std::cerr << "sibyl: " << e.what() << "\n";
    return 1;
  }
  return server::RunNode(options);
}

int Shell(const std::vector<std::string>& args, const char*) {
  return tools::shell::RunShellCommand(args);
}
int Demo(const std::vector<std::string>& args, const char* self) {
  return tools::demo::RunDemoCommand(args, self);
}
int Stress(const std::vector<std::string>& args, const char*) {
  return tools::RunStressCommand(args);
}
int Cluster(const std::vector<std::string>& args, const char* self) {
  return tools::cluster::RunClusterCommand(args, self);
}
int Admin(const std::vector<std::string>& args, const char*) {
  return tools::admin::RunAdminCommand(args);
}

}  // namespace

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = {
      {"start", "run a node (sibyl start --help for its options)", Start},
      {"shell", "a CQL shell, as cqlsh (sibyl shell --help)", Shell},
      {"demo", "a throwaway node with the KillrVideo data model, and a shell on it", Demo},
      {"stress", "load generator (sibyl stress --help)", Stress},
      {"cluster", "a local cluster of nodes and etcd, as ccm (sibyl cluster --help)", Cluster},
      {"admin",
       "nodetool's status, ring and describering over CQL; index and\n"
       "               view builds, verify-view (sibyl admin --help)",
       Admin},
  };
  return commands;
}

std::string MainUsage() {
  std::string usage =
      "Usage: sibyl <command> [options]\n"
      "\n"
      "Sibyl is a wide-column database that speaks Cassandra's CQL.\n"
      "\n"
      "Commands:\n";
  for (const Command& command : Commands()) {
    std::string name(command.name);
    name.resize(13, ' ');
    usage += "  " + name + std::string(command.summary) + "\n";
  }
  usage +=
      "\n"
      "Options:\n"
      "  --help       show this help\n"
      "  --version    print the version\n";
  return usage;
}

int RunMain(const std::vector<std::string>& args, const char* self) {
  if (args.empty()) {
    std::cerr << MainUsage();
    return 1;
  }
  const std::string& name = args.front();
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (name == "--help" || name == "-h" || name == "help") {
    std::cout << MainUsage();
    return 0;
  }
  if (name == "--version" || name == "version") {
    std::cout << VersionLine() << "\n";
    return 0;
  }
  for (const Command& command : Commands()) {
    if (command.name == name) return command.run(rest, self);
  }
  std::cerr << "sibyl: unknown command '" << name << "' (see sibyl --help)\n";
  return 1;
}

}  // namespace sibyl::cli
