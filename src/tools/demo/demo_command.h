#pragma once
// `sibyl demo`: from nothing to a query in one command. Starts a throwaway
// node (temporary_node.h), loads the data models of the modeling guides
// (demo_dataset.h), shows three queries the tables were designed for, and
// opens the shell on it. Everything goes when the shell ends, on Ctrl-C at
// any step, or when the demo is killed (the node dies with its parent).

#include <string>
#include <vector>

namespace sibyl::tools::demo {

// `self`: argv[0], used to find the binary when /proc/self/exe is missing.
int RunDemoCommand(const std::vector<std::string>& args, const char* self);

}  // namespace sibyl::tools::demo
