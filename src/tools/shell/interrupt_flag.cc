#include "tools/shell/interrupt_flag.h"

#include <csignal>

namespace sibyl::tools::shell {
namespace {

std::atomic<bool> g_interrupted{false};

void OnSignal(int) { g_interrupted.store(true); }

void Route(int signal_number) {
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART
  sigaction(signal_number, &action, nullptr);
}

}  // namespace

std::atomic<bool>& InterruptFlag() { return g_interrupted; }

void InstallInterruptHandler(bool termination_too) {
  Route(SIGINT);
  if (termination_too) {
    Route(SIGTERM);
    Route(SIGHUP);
  }
}

}  // namespace sibyl::tools::shell
