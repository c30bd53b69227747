#pragma once
// What the node leaves in its log when it dies anyway: a fatal signal
// (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT — an assertion, a sanitizer, an
// uncaught exception reaching std::terminate) writes one log line naming the
// signal and a symbolized backtrace of the thread that took it (function,
// source file and line, from the binary's debug information through
// backward-cpp and libdw), then the signal is raised again with its default
// action, so the process still ends as it would have (exit status, core).
// An uncaught exception is logged with its message first.
//
// Symbolizing allocates and takes locks, which a signal handler should not:
// the process is dying either way, and an operator's report without the
// trace is worth less than the small risk of the handler itself hanging.

namespace sibyl::server {

// Installs the handlers and the std::terminate handler, and gives the
// calling thread an alternate signal stack. Call once, early in main.
void InstallCrashHandlers();

// Gives the calling thread an alternate stack for the handlers, so that a
// stack overflow on it is reported too. Call first thing in every
// long-lived thread (a thread starts without one).
void UseAlternateSignalStack();

}  // namespace sibyl::server
