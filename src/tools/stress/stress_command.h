#pragma once
// `sibyl stress`: parses the arguments, runs, prints the report, and returns
// the exit status (0 after a run, 1 when it cannot run or a connection broke,
// 2 for a bad command line). Errors are one line on stderr, prefixed
// "sibyl stress: ".

#include <string>
#include <vector>

namespace sibyl::tools {

[[nodiscard]] int RunStressCommand(const std::vector<std::string>& args);

}  // namespace sibyl::tools
