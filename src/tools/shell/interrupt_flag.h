#pragma once
// Ctrl-C for the shell and the demo: SIGINT (and, for the demo, SIGTERM and
// SIGHUP) only sets a flag, which the code waiting for a reply, a page or a
// line polls. Installed without SA_RESTART, so that a blocking terminal read
// returns with EINTR instead of resuming.
//
// On a terminal the shell clears the flag only when it shows a prompt (a
// new line, ---MORE---). Until then the flag stops everything the
// interrupted line started: the request waited for is abandoned, no other
// is sent, the statements left on the line are dropped. A Ctrl-C typed
// between Enter and the request is therefore not lost.

#include <atomic>

namespace sibyl::tools::shell {

// The one flag of the process.
std::atomic<bool>& InterruptFlag();

// Routes SIGINT (and SIGTERM and SIGHUP if `termination_too`) to the flag.
void InstallInterruptHandler(bool termination_too);

}  // namespace sibyl::tools::shell
