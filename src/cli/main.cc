// The `sibyl` binary: subcommands over one executable (cli/commands.h).

#include <string>
#include <vector>

#include "cli/commands.h"
#include "server/crash_handler.h"

int main(int argc, char** argv) {
  sibyl::server::InstallCrashHandlers();
  return sibyl::cli::RunMain(std::vector<std::string>(argv + 1, argv + argc), argv[0]);
}
