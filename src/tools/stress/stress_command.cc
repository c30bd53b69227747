#include "tools/stress/stress_command.h"

#include <cstdio>

#include "tools/stress/stress_options.h"
#include "tools/stress/stress_report.h"
#include "tools/stress/stress_runner.h"
#include "tools/stress/stress_workload.h"

namespace sibyl::tools {

int RunStressCommand(const std::vector<std::string>& args) {
  StressOptions options;
  try {
    options = ParseStressArguments(args);
  } catch (const StressUsageError& e) {
    std::fprintf(stderr, "sibyl stress: %s\n", e.what());
    return 2;
  }
  if (options.help) {
    std::fputs(StressUsage().c_str(), stdout);
    return 0;
  }
  StressOutcome outcome;
  try {
    outcome = RunStress(options, stderr);
  } catch (const StressError& e) {
    std::fprintf(stderr, "sibyl stress: %s\n", e.what());
    return 1;
  }
  const std::string report = options.json ? FormatJsonReport(options, outcome.result)
                                          : FormatTextReport(options, outcome.result);
  std::fputs(report.c_str(), stdout);
  std::fflush(stdout);
  if (!outcome.connection_failures.empty()) {
    std::fprintf(stderr, "sibyl stress: %zu connection(s) failed during the run: %s\n",
                 outcome.connection_failures.size(), outcome.connection_failures[0].c_str());
    return 1;
  }
  return 0;
}

}  // namespace sibyl::tools
