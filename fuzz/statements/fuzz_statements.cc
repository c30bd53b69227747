// libFuzzer target: statements executed through the query processor and
// the RocksDB engine, checked against the reference engine
// (statement_harness.h). A failing input prints its transcript — a script
// that reproduces it — before aborting, so a CI log alone is enough.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "fuzz/statements/statement_harness.h"

namespace {

sibyl::fuzz::StatementHarness* harness = nullptr;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const auto directory = std::filesystem::temp_directory_path() /
                         ("sibyl-fuzz-statements-" + std::to_string(::getpid()));
  harness = new sibyl::fuzz::StatementHarness(directory);
  std::atexit([] {
    delete harness;
    std::filesystem::remove_all(std::filesystem::temp_directory_path() /
                                ("sibyl-fuzz-statements-" + std::to_string(::getpid())));
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const sibyl::fuzz::HarnessOutcome outcome = harness->Run(input);
  if (outcome.failed) {
    std::fprintf(stderr, "=== statement fuzzer: the input fails ===\n%s\n=== transcript ===\n%s\n",
                 outcome.failure.c_str(), outcome.transcript.c_str());
    std::abort();
  }
  return 0;
}
