#include "tools/demo/demo_command.h"

#include <unistd.h>

#include <chrono>
#include <iostream>

#include "tools/demo/demo_dataset.h"
#include "tools/demo/temporary_node.h"
#include "tools/shell/error_text.h"
#include "tools/shell/interrupt_flag.h"
#include "tools/shell/shell.h"
#include "tools/shell/shell_connection.h"

namespace sibyl::tools::demo {
namespace {

std::string Usage() {
  return "Usage: sibyl demo [shell options]\n"
         "\n"
         "Starts a throwaway node (its data in a temporary directory), loads the\n"
         "KillrVideo and user-activity data models of Cassandra's modeling guides,\n"
         "shows three queries they answer, and opens `sibyl shell` on it. The node\n"
         "and its data are removed when the shell ends.\n"
         "\n"
         "Shell options (-e, -f, -k, --no-color, ...) pass through: see sibyl shell --help.\n";
}

std::string SelfPath(const char* argv0) {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n > 0) return std::string(path, static_cast<size_t>(n));
  return argv0;
}

// Runs `statements` in order; returns the first failure ("" if none).
std::string Load(shell::ShellConnection& connection, const std::vector<std::string>& statements,
                 const std::atomic<bool>& interrupted) {
  for (const std::string& statement : statements) {
    if (interrupted.load()) return "interrupted";
    shell::RequestSettings settings;
    auto reply = connection.Query(statement, settings);
    if (!reply) return "interrupted";
    if (const auto* error = std::get_if<client::ErrorResponse>(&reply->response)) {
      return shell::ErrorText(*error) + "\n  in: " + statement;
    }
    if (const auto* failure = std::get_if<client::TransportFailure>(&reply->response)) {
      return shell::TransportFailureText(*failure);
    }
  }
  return "";
}

}  // namespace

int RunDemoCommand(const std::vector<std::string>& args, const char* self) {
  for (const auto& arg : args) {
    if (arg == "-h" || arg == "--help") {
      std::cout << Usage();
      return 0;
    }
  }
  shell::ShellOptions options;
  try {
    options = shell::ParseShellArguments(args, nullptr, nullptr);
  } catch (const shell::ShellUsageError& e) {
    std::cerr << "sibyl demo: " << e.what() << "\n";
    return 2;
  }
  // From here on Ctrl-C, SIGTERM and SIGHUP only set the flag, so every path
  // out goes through the node's cleanup.
  shell::InstallInterruptHandler(true);
  std::atomic<bool>& interrupted = shell::InterruptFlag();
  TemporaryNode node(SelfPath(self));
  std::cerr << "Starting a demo node (data in a temporary directory, removed on exit)...\n";
  const std::string failure = node.Start(interrupted);
  if (!failure.empty()) {
    std::cerr << "sibyl demo: " << failure << "\n";
    return interrupted.load() ? 130 : 1;
  }
  options.host = "127.0.0.1";
  options.port = node.port();
  {
    client::ConnectionOptions connection_options;
    connection_options.port = node.port();
    shell::ShellConnection connection(connection_options, &interrupted);
    const client::Reply ready = connection.Connect();
    if (!ready.ok()) {
      std::cerr << "sibyl demo: cannot connect to the demo node: "
                << client::Describe(ready.response) << "\n";
      return 1;
    }
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    const auto schema = DemoSchema();
    const auto data = DemoData(/*seed=*/20261126, now);
    std::cerr << "Loading the KillrVideo and user-activity data models (" << schema.size()
              << " tables and types, " << data.size() << " writes)...\n";
    std::string error = Load(connection, schema, interrupted);
    if (error.empty()) error = Load(connection, data, interrupted);
    if (!error.empty()) {
      std::cerr << "sibyl demo: " << error << "\n";
      return interrupted.load() ? 130 : 1;
    }
    std::cout << "\nThe keyspaces killrvideo and user_activity are loaded. Try:\n\n";
    for (const DemoExample& example : DemoExamples(now)) {
      std::cout << "  -- " << example.why << "\n  " << example.cql << "\n\n";
    }
    std::cout << "Type HELP for the shell's commands, EXIT to leave (the demo node and its data "
                 "are removed).\n\n";
    std::cout.flush();
  }
  int code = 0;
  if (!interrupted.load()) {
    shell::Shell shell(options);
    code = shell.Run();
  }
  node.Stop();
  return code;
}

}  // namespace sibyl::tools::demo
