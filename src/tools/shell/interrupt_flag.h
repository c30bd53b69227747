#pragma once
// Ctrl-C for the shell and the demo: SIGINT (and, for the demo, SIGTERM and
// SIGHUP) only sets a flag, which the code waiting for a reply, a page or a
// line polls. Installed without SA_RESTART, so that a blocking terminal read
// returns with EINTR instead of resuming.

#include <atomic>

namespace sibyl::tools::shell {

// The one flag of the process.
std::atomic<bool>& InterruptFlag();

// Routes SIGINT (and SIGTERM and SIGHUP if `termination_too`) to the flag.
void InstallInterruptHandler(bool termination_too);

}  // namespace sibyl::tools::shell
