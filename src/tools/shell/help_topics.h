#pragma once
// HELP's topics: the shell's commands (what each does and its forms) and the
// CQL statements (their syntax). cqlsh opens its CQL topics in a browser;
// the shell prints a synopsis instead.

#include <optional>
#include <string>
#include <vector>

namespace sibyl::tools::shell {

// Upper-case topic names, sorted.
std::vector<std::string> ShellHelpTopics();
std::vector<std::string> CqlHelpTopics();

// The text for `topic` (any case), or nullopt if there is none.
std::optional<std::string> HelpText(const std::string& topic);

}  // namespace sibyl::tools::shell
