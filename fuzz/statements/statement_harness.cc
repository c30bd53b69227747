#include "fuzz/statements/statement_harness.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <map>
#include <sstream>
#include <variant>

#include "cluster/coordinator.h"
#include "common/error.h"
#include "common/hex.h"
#include "fuzz/statements/choices.h"
#include "fuzz/statements/mirrored_engine.h"
#include "fuzz/statements/schema_generator.h"
#include "fuzz/statements/statement_generator.h"
#include "protocol/response.h"
#include "query/query_processor.h"
#include "schema/system_keyspaces.h"
#include "schema/virtual_tables.h"
#include "storage/reference/reference_engine.h"
#include "types/utf8.h"

namespace sibyl::fuzz {
namespace {

// Steps of one generated input, at most (inputs stay fast to run and to read).
constexpr int kMaxSteps = 64;
// Pages followed before a paged SELECT is declared endless.
constexpr int kMaxPages = 5000;
// When every input starts (2023-11-14).
constexpr int64_t kInputStartMicros = 1'700'000'000'000'000;

// A failure of the input: unwinds the run to Run(), which reports it.
struct InputFailure {
  std::string what;
};

std::string DescribeValue(const BoundValue& value) {
  switch (value.kind) {
    case Value::Kind::kNull:
      return "null";
    case Value::Kind::kUnset:
      return "unset";
    case Value::Kind::kBytes:
      break;
  }
  if (value.bytes.size() > 64) return "<" + std::to_string(value.bytes.size()) + " bytes>";
  return "0x" + ToHex(value.bytes);
}

std::string DescribeRows(const std::vector<schema::Row>& rows) {
  std::string out;
  for (const schema::Row& row : rows) {
    out += "   (";
    for (size_t i = 0; i < row.size(); ++i) {
      if (i > 0) out += ", ";
      out += row[i] ? ToHex(*row[i]) : "null";
    }
    out += ")\n";
  }
  return out;
}

// What a client would receive for `error`: its [string] must be valid UTF-8
// of the length it declares (a driver drops a connection otherwise).
void CheckWireMessage(const CqlError& error) {
  Bytes body;
  protocol::EncodeError(body, error, 5);
  const size_t length = LoadBE16(body.data() + 4);
  if (body.size() < 6 + length || !types::IsValidUtf8(BytesView(body).substr(6, length))) {
    throw InputFailure{"the error message would not go out as a valid [string]: " +
                       std::string(error.what())};
  }
}

}  // namespace

// One input's node: a fresh schema, processor and reference engine over the
// harness's RocksDB engine.
class StatementHarness::InputRun {
 public:
  InputRun(storage::Engine& engine, bool echo)
      : store_(schema::MakeInitialSchema()),
        tables_(schema::VirtualTables::SystemTables()),
        mirror_(engine, reference_),
        coordinator_(mirror_, clock_),
        processor_(store_, tables_, node_, &coordinator_),
        echo_(echo) {}

  void RunScript(std::string_view script);
  void RunGenerated(std::string_view bytes);
  // Reads every table of the keyspace to its end: the engines must agree on all of it.
  void Sweep();

  std::string transcript() const { return transcript_.str(); }

 private:
  void Note(const std::string& line) {
    transcript_ << line << "\n";
    if (echo_) std::fprintf(stderr, "%s\n", line.c_str());
  }
  // Runs one statement and checks its outcome. `again`: EXECUTE the id an
  // earlier PREPARE of the same text returned, without preparing it anew
  // (after DDL, the processor must prepare it again itself).
  void Execute(const GeneratedStatement& statement, bool again = false);
  query::Result Query(const GeneratedStatement& statement, protocol::QueryParameters params,
                      bool again = false);
  query::Result BatchMessage(const GeneratedStatement& statement);
  void ComparePages(const GeneratedStatement& statement, const query::RowsResult& unpaged,
                    int32_t page_size);
  void Flush() {
    Note("flush");
    mirror_.Flush();
  }
  void Advance(int64_t seconds) {
    Note("advance " + std::to_string(seconds));
    clock_.AdvanceSeconds(seconds);
  }

  // The node's clock: every input starts at the same time, so an input
  // replays the same wherever it ran.
  ManualClock clock_{kInputStartMicros};
  schema::SchemaStore store_;
  schema::VirtualTables tables_;
  schema::LocalNodeInfo node_;
  storage::ReferenceEngine reference_;
  MirroredEngine mirror_;
  cluster::Coordinator coordinator_;
  query::QueryProcessor processor_;
  query::ClientState client_;
  // Every prepared statement's id, by text; and the statements, to run again.
  std::map<std::string, Bytes, std::less<>> prepared_ids_;
  std::vector<GeneratedStatement> prepared_;
  const bool echo_;
  std::ostringstream transcript_;
};

query::Result StatementHarness::InputRun::Query(const GeneratedStatement& statement,
                                                protocol::QueryParameters params, bool again) {
  if (!statement.prepared) return processor_.Process(statement.text, params, client_);
  for (const BoundValue& value : statement.values) {
    params.values.push_back(value.kind == Value::Kind::kBytes ? Value::Of(value.bytes)
                                                              : Value{value.kind, {}});
  }
  params.flags |= protocol::kQueryFlagValues;
  auto known = prepared_ids_.find(statement.text);
  if (!again || known == prepared_ids_.end()) {
    Bytes id = processor_.Prepare(statement.text, client_, std::nullopt).id;
    const bool first_time = known == prepared_ids_.end();
    known = prepared_ids_.insert_or_assign(statement.text, std::move(id)).first;
    if (first_time && prepared_.size() < 16) prepared_.push_back(statement);
  }
  return processor_.Execute(known->second, params, client_);
}

query::Result StatementHarness::InputRun::BatchMessage(const GeneratedStatement& statement) {
  protocol::BatchMessage message;
  message.type = statement.batch_type;
  std::vector<Bytes> ids;
  ids.reserve(statement.children.size());  // the children view them
  for (const GeneratedStatement& child : statement.children) {
    protocol::BatchChild entry;
    if (child.prepared) {
      ids.push_back(processor_.Prepare(child.text, client_, std::nullopt).id);
      entry.is_prepared = true;
      entry.id = ids.back();
    } else {
      entry.query = child.text;
    }
    for (const BoundValue& value : child.values) {
      entry.values.push_back(value.kind == Value::Kind::kBytes ? Value::Of(value.bytes)
                                                               : Value{value.kind, {}});
    }
    message.children.push_back(std::move(entry));
  }
  return processor_.Batch(message, client_);
}

void StatementHarness::InputRun::ComparePages(const GeneratedStatement& statement,
                                              const query::RowsResult& unpaged, int32_t page_size) {
  std::vector<schema::Row> rows;
  Bytes paging_state;
  protocol::QueryParameters params;
  params.flags = protocol::kQueryFlagPageSize;
  params.page_size = page_size;
  for (int page = 0;; ++page) {
    if (page == kMaxPages) {
      throw InputFailure{"a SELECT paged by " + std::to_string(page_size) + " did not end after " +
                         std::to_string(kMaxPages) + " pages"};
    }
    query::Result result;
    try {
      result = Query(statement, params);
    } catch (const CqlError& e) {
      // Refused only when paged (ORDER BY with IN, ...): nothing to compare.
      if (e.code() == ErrorCode::kServerError) throw;
      Note("-- refused when paged by " + std::to_string(page_size) + ": " + e.what());
      return;
    }
    auto* page_rows = std::get_if<query::RowsResult>(&result);
    if (page_rows == nullptr) throw InputFailure{"a paged SELECT returned no rows result"};
    for (schema::Row& row : page_rows->rows) rows.push_back(std::move(row));
    if (!page_rows->paging_state) break;
    paging_state = std::move(*page_rows->paging_state);
    params.flags |= protocol::kQueryFlagPagingState;
    params.paging_state = BytesView(paging_state);
  }
  if (rows != unpaged.rows) {
    throw InputFailure{"pages of " + std::to_string(page_size) +
                       " rows differ from the unpaged answer\n unpaged:\n" +
                       DescribeRows(unpaged.rows) + " paged:\n" + DescribeRows(rows)};
  }
}

void StatementHarness::InputRun::Execute(const GeneratedStatement& statement, bool again) {
  std::string line = again                ? "again: " + statement.text
                     : statement.prepared ? "prepared: " + statement.text
                                          : statement.text;
  if (statement.prepared && !statement.values.empty()) {
    line += "\n--   values:";
    for (const BoundValue& value : statement.values) line += " " + DescribeValue(value);
  }
  Note(line);
  try {
    const query::Result result =
        statement.is_batch_message ? BatchMessage(statement) : Query(statement, {}, again);
    if (const auto* rows = std::get_if<query::RowsResult>(&result)) {
      Note("-- " + std::to_string(rows->rows.size()) + " rows");
      if (statement.is_select && !rows->paging_state) {
        for (int32_t page_size : {1, 3}) ComparePages(statement, *rows, page_size);
      }
    } else {
      Note("-- ok");
    }
  } catch (const CqlError& e) {
    CheckWireMessage(e);
    if (e.code() == ErrorCode::kServerError) {
      throw InputFailure{"Server error (a bug by definition): " + std::string(e.what())};
    }
    Note("-- error " + std::to_string(static_cast<int>(e.code())) + ": " + e.what());
  }
  // In case a layer above the engine turned the mismatch into something else.
  if (!mirror_.mismatch().empty()) throw MirrorMismatch(mirror_.mismatch());
}

void StatementHarness::InputRun::RunScript(std::string_view script) {
  Execute(GeneratedStatement{.text = std::string("CREATE KEYSPACE ") + kFuzzKeyspace +
                                     " WITH replication = {'class': 'SimpleStrategy', "
                                     "'replication_factor': 1}"});
  size_t start = kScriptHeader.size();
  while (start < script.size()) {
    size_t end = script.find('\n', start);
    if (end == std::string_view::npos) end = script.size();
    std::string_view line = script.substr(start, end - start);
    start = end + 1;
    if (line.empty() || line.substr(0, 2) == "--") continue;
    if (line == "flush") {
      Flush();
    } else if (line.substr(0, 8) == "advance ") {
      Advance(std::atoll(std::string(line.substr(8)).c_str()));
    } else if (line.substr(0, 10) == "prepared: ") {
      Execute(GeneratedStatement{.text = std::string(line.substr(10)), .prepared = true});
    } else if (line.substr(0, 7) == "again: ") {
      Execute(GeneratedStatement{.text = std::string(line.substr(7)), .prepared = true}, true);
    } else {
      Execute(GeneratedStatement{.text = std::string(line)});
    }
  }
}

void StatementHarness::InputRun::RunGenerated(std::string_view bytes) {
  Execute(GeneratedStatement{.text = std::string("CREATE KEYSPACE ") + kFuzzKeyspace +
                                     " WITH replication = {'class': 'SimpleStrategy', "
                                     "'replication_factor': 1}"});
  Choices choices(bytes);
  if (choices.Percent(50)) Execute(GeneratedStatement{.text = std::string("USE ") + kFuzzKeyspace});
  for (int step = 0; step < kMaxSteps && !choices.exhausted(); ++step) {
    const uint32_t r = choices.Below(100);
    if (r < 2) {
      Flush();
    } else if (r < 5) {
      Advance(choices.Pick({1, 2, 5, 50, 200}));
    } else if (r < 9 && !prepared_.empty()) {
      // An earlier prepared statement again, by its id: after DDL the
      // processor prepares it again against the new schema.
      // A copy: running it may add to prepared_.
      const GeneratedStatement earlier = prepared_[choices.Below(prepared_.size())];
      Execute(earlier, /*again=*/true);
    } else {
      const schema::SchemaPtr schema = store_.snapshot();
      StatementGenerator generator(choices, *schema, clock_.NowMicros());
      Execute(generator.Next());
    }
  }
}

void StatementHarness::InputRun::Sweep() {
  const schema::SchemaPtr schema = store_.snapshot();
  const schema::KeyspaceMetadata* keyspace = schema->FindKeyspace(kFuzzKeyspace);
  if (keyspace == nullptr) return;
  for (const auto& [name, table] : keyspace->tables) {
    GeneratedStatement select{.text = std::string("SELECT * FROM ") + kFuzzKeyspace + "." + name,
                              .is_select = true};
    Execute(select);
  }
}

StatementHarness::StatementHarness(const std::filesystem::path& directory)
    : engine_clock_(kInputStartMicros) {
  // The statement layer's own log lines (batch warnings, mostly) would drown
  // the harness's report, which says all that matters.
  spdlog::set_level(spdlog::level::off);
  std::filesystem::remove_all(directory);
  std::filesystem::create_directories(directory);
  storage::EngineOptions options;
  options.directory = directory;
  options.block_cache_bytes = 8 << 20;
  engine_ = storage::Engine::Open(options, engine_clock_);
}

StatementHarness::~StatementHarness() = default;

HarnessOutcome StatementHarness::Run(std::string_view input, bool echo) {
  HarnessOutcome outcome;
  auto run = std::make_unique<InputRun>(*engine_, echo);
  try {
    if (input.substr(0, kScriptHeader.size()) == kScriptHeader) {
      run->RunScript(input);
    } else {
      run->RunGenerated(input);
    }
    run->Sweep();
  } catch (const InputFailure& failure) {
    outcome.failed = true;
    outcome.failure = failure.what;
  } catch (const MirrorMismatch& mismatch) {
    outcome.failed = true;
    outcome.failure = std::string("storage mismatch: ") + mismatch.what();
  } catch (const CqlError& e) {
    outcome.failed = true;
    outcome.failure = "a CqlError escaped the harness: " + std::string(e.what());
  } catch (const std::exception& e) {
    outcome.failed = true;
    outcome.failure =
        "an exception that is not a CqlError (a bug by definition): " + std::string(e.what());
  }
  outcome.transcript = run->transcript();
  return outcome;
}

}  // namespace sibyl::fuzz
