#pragma once
// The statement fuzzer's oracle: runs one input through the real query
// processor over the RocksDB engine, mirrored by the reference engine
// (mirrored_engine.h), and says whether anything went wrong.
//
// An input is either
//   - a script: the text "#cql" on its first line, then one line each:
//       <statement>            run as a QUERY
//       prepared: <statement>  PREPARE, then EXECUTE without values
//       again: <statement>     EXECUTE the id an earlier PREPARE of it gave
//       flush                  the engine's memtables to disk
//       advance <seconds>      the node's clock moves on (TTLs expire)
//       -- ...                 a comment
//     (the corpus's hand-written regressions, and what a failure prints);
//   - anything else: the decisions of the statement generator
//     (statement_generator.h), until they run out.
// Every input starts from an empty node with the keyspace `fz`.
//
// What fails an input:
//   - an exception from the statement layer that is not a CqlError, or a
//     CqlError with a Server error code (a bug by definition);
//   - a read the two engines answer differently, or a write one refuses;
//   - a SELECT whose pages, followed to the end, differ from its unpaged answer;
//   - an error message that would not go out as a valid [string];
// and, outside the harness, a crash or a sanitizer report.
//
// Not thread-safe: one harness runs one input at a time.

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/clock.h"
#include "storage/engine.h"

namespace sibyl::fuzz {

struct HarnessOutcome {
  bool failed = false;
  std::string failure;     // what went wrong, when failed
  std::string transcript;  // every step with its outcome, as a script with comments
};

class StatementHarness {
 public:
  // The RocksDB engine lives in `directory` (created; emptied first) for the
  // harness's life; each input drops the previous input's tables.
  explicit StatementHarness(const std::filesystem::path& directory);
  ~StatementHarness();
  StatementHarness(const StatementHarness&) = delete;
  StatementHarness& operator=(const StatementHarness&) = delete;

  // Runs one input. Never throws: what goes wrong is in the outcome.
  // `echo`: print each step and its outcome to stderr as it runs.
  [[nodiscard]] HarnessOutcome Run(std::string_view input, bool echo = false);

 private:
  class InputRun;

  // The engine's own clock (its compactions' `now`) stays at the time every
  // input starts: compactions then never purge nor expire anything, which
  // the reference engine does not model either.
  ManualClock engine_clock_;
  std::unique_ptr<storage::Engine> engine_;
};

// The script's first line: an input that starts with it is a script.
inline constexpr std::string_view kScriptHeader = "#cql\n";

}  // namespace sibyl::fuzz
