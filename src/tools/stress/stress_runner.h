#pragma once
// A whole `sibyl stress` run: connect every connection (a node that is not
// there fails at once; with several --host, to every node of the ring read
// from the first that answers), set up the schema and statements, --populate, warm
// up, then the measured phase, printing a live line each second.
//
//   StressOutcome outcome = RunStress(options, stderr);

#include <cstdio>
#include <string>
#include <vector>

#include "tools/stress/stress_options.h"
#include "tools/stress/stress_result.h"

namespace sibyl::tools {

struct StressOutcome {
  StressResult result;  // the measured phase
  // Connections that broke during the measured phase, with the reason; the
  // figures of such a run are reported but not to be trusted.
  std::vector<std::string> connection_failures;
};

// Throws StressError when the run cannot start or a connection breaks before
// the measured phase. Live lines (and --populate progress) go to `live`.
[[nodiscard]] StressOutcome RunStress(const StressOptions& options, std::FILE* live);

}  // namespace sibyl::tools
