#include "server/crash_handler.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <backward.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <string>
#include <vector>

namespace sibyl::server {
namespace {

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIBYL_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SIBYL_UNDER_ASAN 1
#endif

// AddressSanitizer checks that allocations happen on the thread's own stack:
// under it the handler runs on the stack that faulted (a stack overflow is
// then the sanitizer's to report).
#ifdef SIBYL_UNDER_ASAN
constexpr int kStackFlag = 0;
#else
constexpr int kStackFlag = SA_ONSTACK;
#endif

// The log's layout (node.cc): level, thread, timestamp, message.
void WriteLogLine(std::FILE* out, const std::string& message) {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm local{};
  localtime_r(&seconds, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M:%S", &local);
  std::fprintf(out, "error [%ld] %s,%03lld %s\n", static_cast<long>(gettid()), stamp,
               static_cast<long long>(millis), message.c_str());
}

void PrintSourceLine(std::FILE* out, const backward::ResolvedTrace::SourceLoc& where) {
  std::fprintf(out, "Source \"%s\", line %u, in %s", where.filename.c_str(), where.line,
               where.function.c_str());
}

// The frames, oldest first, as backward-cpp's Printer lays them out. A frame
// with no inlined calls is named from the symbol table (the function holding
// the address), not from the debug information: clang's line-tables-only
// information, which the sanitizer build carries, can name another function
// there.
void PrintTrace(backward::StackTrace& trace, std::FILE* out) {
  backward::TraceResolver resolver;
  resolver.load_stacktrace(trace);
  std::fprintf(out, "Stack trace (most recent call last):\n");
  for (size_t i = trace.size(); i-- > 0;) {
    backward::ResolvedTrace frame = resolver.resolve(trace[i]);
    if (frame.inliners.empty() && !frame.object_function.empty()) {
      frame.source.function = frame.object_function;
    }
    std::fprintf(out, "#%-3zu", i);
    if (frame.source.filename.empty()) {
      std::fprintf(out, "  Object \"%s\", at %p, in %s\n", frame.object_filename.c_str(),
                   frame.addr, frame.object_function.c_str());
      continue;
    }
    for (const auto& inliner : frame.inliners) {
      std::fprintf(out, "| ");
      PrintSourceLine(out, inliner);
      std::fprintf(out, "\n    ");
    }
    std::fprintf(out, "  ");
    PrintSourceLine(out, frame.source);
    std::fprintf(out, " [%p]\n", frame.addr);
  }
}

void OnFatalSignal(int signal_number, siginfo_t* info, void* context) {
  std::FILE* out = stdout;
  std::string what = std::string("Fatal signal SIG") + sigabbrev_np(signal_number) + " (" +
                     sigdescr_np(signal_number) + ")";
  if (info->si_code <= 0) {
    what += " sent by process " + std::to_string(info->si_pid);
  } else if (signal_number == SIGSEGV || signal_number == SIGBUS) {
    char address[32];
    std::snprintf(address, sizeof address, "%p", info->si_addr);
    what += std::string(" at address ") + address;
  }
  WriteLogLine(out, what + "; backtrace of the thread that took it:");

  auto* ucontext = static_cast<ucontext_t*>(context);
  backward::StackTrace trace;
  void* pc = reinterpret_cast<void*>(ucontext->uc_mcontext.gregs[REG_RIP]);
  trace.load_from(pc, 64, ucontext, info->si_addr);
  PrintTrace(trace, out);
  std::fputc('\n', out);
  std::fflush(out);
  // SA_RESETHAND restored the default action: end the process as the signal would have.
  raise(signal_number);
}

void OnTerminate() {
  std::string message = "std::terminate called";
  if (std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const std::exception& e) {
      message += " after an uncaught exception: " + std::string(e.what());
    } catch (...) {
      message += " after an uncaught exception that is not a std::exception";
    }
  }
  WriteLogLine(stdout, message);
  std::fflush(stdout);
  std::abort();  // the SIGABRT handler writes the backtrace
}

}  // namespace

void UseAlternateSignalStack() {
  // One per thread: a thread starts without one. A sanitizer runtime gives
  // each thread its own and frees it when the thread ends, so one already
  // there is kept.
  stack_t current{};
  if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;
  thread_local std::vector<char> alternate_stack(std::max<size_t>(SIGSTKSZ, 64 * 1024));
  stack_t stack{};
  stack.ss_sp = alternate_stack.data();
  stack.ss_size = alternate_stack.size();
  sigaltstack(&stack, nullptr);
}

void InstallCrashHandlers() {
  UseAlternateSignalStack();
  struct sigaction action {};
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_SIGINFO | kStackFlag | SA_RESETHAND | SA_NODEFER;
  action.sa_sigaction = &OnFatalSignal;
  for (int signal_number : kFatalSignals) sigaction(signal_number, &action, nullptr);
  std::set_terminate(&OnTerminate);
}

}  // namespace sibyl::server
