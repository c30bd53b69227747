#include "server/request_dispatcher.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/thread_pool.hpp>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "cluster/coordinator.h"
#include "common/check.h"
#include "common/clock.h"
#include "protocol/test_frames.h"
#include "protocol/wire_format.h"
#include "schema/system_keyspaces.h"
#include "schema/virtual_tables.h"
#include "server/event_bus.h"
#include "server/request_metrics.h"
#include "server/server_context.h"
#include "storage/data/storage_error.h"
#include "storage/engine.h"

namespace sibyl::server {
namespace {

using namespace protocol::testing;
using protocol::AppendString;
using protocol::Opcode;

// A connection without a socket: bytes in, envelopes out.
class DispatcherTest : public ::testing::Test {
 protected:
  DispatcherTest()
      : schemas_(schema::MakeInitialSchema()),
        tables_(schema::VirtualTables::SystemTables()),
        processor_(schemas_, tables_, node_),
        context_{config_, processor_, events_},
        dispatcher_(context_) {}

  // Feeds one request frame and returns the envelopes the server answered with.
  std::vector<ParsedEnvelope> Send(int version, int16_t stream, Opcode opcode, BytesView body,
                                   uint8_t flags = 0) {
    Feed(codec_, RequestFrame(version, flags, stream, static_cast<uint8_t>(opcode), body));
    protocol::Envelope envelope;
    while (codec_.Next(envelope) == protocol::NextResult::kEnvelope) {
      dispatcher_.Dispatch(envelope, codec_, subscriber_);
    }
    return ParseEnvelopes(TakeOutput(codec_));
  }

  static std::string ErrorMessage(const ParsedEnvelope& e) {
    // [int code][string message]
    const uint16_t length = LoadBE16(e.body.data() + 4);
    return e.body.substr(6, length);
  }
  static int32_t ErrorCodeOf(const ParsedEnvelope& e) {
    return static_cast<int32_t>(LoadBE32(e.body.data()));
  }

  Config config_;
  schema::LocalNodeInfo node_;
  schema::SchemaStore schemas_;
  schema::VirtualTables tables_;
  query::QueryProcessor processor_;
  EventBus events_;
  ServerContext context_;
  RequestDispatcher dispatcher_;
  protocol::ConnectionCodec codec_;
  std::shared_ptr<ConnectionHandle> subscriber_;
};

TEST_F(DispatcherTest, OptionsAnswersSupportedWithVersionsAndCompression) {
  auto out = Send(4, 3, Opcode::kOptions, {});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].version_byte, 0x84);
  EXPECT_EQ(out[0].stream, 3);
  EXPECT_EQ(out[0].opcode, static_cast<uint8_t>(Opcode::kSupported));
  for (const char* needle :
       {"CQL_VERSION", "3.4.6", "COMPRESSION", "lz4", "snappy", "PROTOCOL_VERSIONS", "5/v5"}) {
    EXPECT_NE(out[0].body.find(needle), std::string::npos) << needle;
  }
}

TEST_F(DispatcherTest, QueryBeforeStartupIsAProtocolError) {
  auto out = Send(4, 1, Opcode::kQuery, QueryBody("SELECT * FROM system.local", 4));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].opcode, static_cast<uint8_t>(Opcode::kError));
  EXPECT_EQ(ErrorCodeOf(out[0]), 0x000A);
  EXPECT_EQ(ErrorMessage(out[0]), "Unexpected message QUERY, expecting STARTUP or OPTIONS");
}

TEST_F(DispatcherTest, StartupValidatesCqlVersionAndCompression) {
  auto out = Send(4, 1, Opcode::kStartup, StartupBody({{"DRIVER_NAME", "x"}}));
  EXPECT_EQ(ErrorMessage(out.at(0)), "Missing value CQL_VERSION in STARTUP message");
  out = Send(4, 1, Opcode::kStartup, StartupBody({{"CQL_VERSION", "2.0.0"}}));
  EXPECT_EQ(ErrorMessage(out.at(0)),
            "CQL version 2.0.0 is not supported by the binary protocol (supported version are >= "
            "3.0.0)");
  out = Send(4, 1, Opcode::kStartup, StartupBody({{"CQL_VERSION", "three"}}));
  EXPECT_EQ(ErrorMessage(out.at(0)), "Invalid version value: three");
  out = Send(4, 1, Opcode::kStartup,
             StartupBody({{"CQL_VERSION", "3.0.0"}, {"COMPRESSION", "zstd"}}));
  EXPECT_EQ(ErrorMessage(out.at(0)), "Unknown compression algorithm: zstd");
}

TEST_F(DispatcherTest, StartupThenQueryThenSecondStartupRefused) {
  // Option names are case-insensitive, as Cassandra upper-cases them.
  auto out = Send(4, 1, Opcode::kStartup, StartupBody({{"cql_version", "3.0.0"}}));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].opcode, static_cast<uint8_t>(Opcode::kReady));

  out = Send(4, 7, Opcode::kQuery, QueryBody("SELECT key FROM system.local", 4));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].stream, 7);
  EXPECT_EQ(out[0].opcode, static_cast<uint8_t>(Opcode::kResult));
  EXPECT_EQ(LoadBE32(out[0].body.data()), 2u);  // ROWS
  EXPECT_NE(out[0].body.find("local"), std::string::npos);

  out = Send(4, 2, Opcode::kStartup, StartupBody());
  EXPECT_EQ(ErrorMessage(out.at(0)),
            "Unexpected message STARTUP, the connection is already initialized");
}

TEST_F(DispatcherTest, StatementsAreCountedWithTheirTableAndErrorCode) {
  RequestMetrics counted;
  context_.request_metrics = &counted;
  Send(4, 1, Opcode::kStartup, StartupBody());
  Send(4, 2, Opcode::kQuery, QueryBody("SELECT key FROM system.local", 4));
  Send(4, 3, Opcode::kQuery, QueryBody("SELEKT key FROM system.local", 4));
  Bytes prepare;
  protocol::AppendLongString(prepare, "SELECT key FROM system.local");
  Send(4, 4, Opcode::kPrepare, prepare);
  metrics::ExpositionWriter out;
  counted.Collect(out);
  const std::string text = out.Take();
  for (const std::string line : {
           "sibyl_cql_requests_total{operation=\"query\"} 2",
           "sibyl_cql_requests_total{operation=\"prepare\"} 1",
           "sibyl_cql_request_errors_total{operation=\"query\",code=\"SYNTAX_ERROR\"} 1",
           "sibyl_cql_table_requests_total{keyspace=\"system\",table=\"local\",kind=\"read\"} 1",
           "sibyl_cql_table_requests_total{keyspace=\"system\",table=\"local\",kind=\"write\"} "
           "0",
       }) {
    EXPECT_NE(text.find("\n" + line + "\n"), std::string::npos) << line << "\n" << text;
  }
}

TEST_F(DispatcherTest, UnsupportedStatementIsAnHonestInvalidRequest) {
  Send(4, 1, Opcode::kStartup, StartupBody());
  auto out = Send(4, 2, Opcode::kQuery,
                  QueryBody("CREATE TRIGGER trig ON ks.t USING 'org.example.Trigger'", 4));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(ErrorCodeOf(out[0]), 0x2200);
  EXPECT_NE(ErrorMessage(out[0]).find("CREATE TRIGGER"), std::string::npos);

  out = Send(4, 3, Opcode::kQuery, QueryBody("SELEC * FROM t", 4));
  EXPECT_EQ(ErrorCodeOf(out.at(0)), 0x2000);
}

TEST_F(DispatcherTest, MalformedBodyGetsProtocolErrorAndConnectionGoesOn) {
  Send(4, 1, Opcode::kStartup, StartupBody());
  // A [long string] that claims more bytes than the body has.
  Bytes lying;
  AppendBE32(lying, 1000);
  lying += "SELECT";
  auto out = Send(4, 5, Opcode::kQuery, lying);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(ErrorCodeOf(out[0]), 0x000A);
  out = Send(4, 6, Opcode::kQuery, QueryBody("SELECT key FROM system.local", 4));
  EXPECT_EQ(out.at(0).opcode, static_cast<uint8_t>(Opcode::kResult));
}

// A connection for the dispatcher: records events, and the statements
// workers finished (from the workers' threads).
class RecordingSubscriber : public ConnectionHandle {
 public:
  void Deliver(std::shared_ptr<const Event> event) override { events.push_back(event); }
  void PostCompletion(std::unique_ptr<CompletedStatement> completed) override {
    std::lock_guard lock(mutex);
    completions.push_back(std::move(completed));
    done.notify_all();
  }
  // Waits for `count` completions and takes them, in the order they came.
  std::vector<std::unique_ptr<CompletedStatement>> Take(size_t count) {
    std::unique_lock lock(mutex);
    done.wait(lock, [&] { return completions.size() >= count; });
    return std::exchange(completions, {});
  }
  std::vector<std::shared_ptr<const Event>> events;
  std::mutex mutex;
  std::condition_variable done;
  std::vector<std::unique_ptr<CompletedStatement>> completions;  // GUARDED_BY(mutex)
};

TEST_F(DispatcherTest, RegisterSubscribesToTheNamedEvents) {
  auto recorder = std::make_shared<RecordingSubscriber>();
  subscriber_ = recorder;
  Send(4, 1, Opcode::kStartup, StartupBody());
  Bytes body;
  AppendBE16(body, 2);
  AppendString(body, "SCHEMA_CHANGE");
  AppendString(body, "STATUS_CHANGE");
  auto out = Send(4, 2, Opcode::kRegister, body);
  EXPECT_EQ(out.at(0).opcode, static_cast<uint8_t>(Opcode::kReady));

  protocol::SchemaChange change;
  change.keyspace = "ks";
  events_.Publish(EventBus::SchemaChangeEvent(change));
  Event topology{kTopologyChange, "x"};
  events_.Publish(topology);
  ASSERT_EQ(recorder->events.size(), 1u);
  EXPECT_EQ(recorder->events[0]->type, kSchemaChange);

  Bytes bad;
  AppendBE16(bad, 1);
  AppendString(bad, "NOT_AN_EVENT");
  out = Send(4, 3, Opcode::kRegister, bad);
  EXPECT_EQ(ErrorCodeOf(out.at(0)), 0x000A);
}

// On a node of a cluster, statements run on workers: the answer comes back
// through the connection, is queued by Complete on the connection's thread,
// and a USE changes the connection's keyspace only then.
TEST_F(DispatcherTest, StatementsOnWorkersAnswerThroughTheConnection) {
  boost::asio::thread_pool workers(2);
  context_.statement_workers = &workers;
  auto connection = std::make_shared<RecordingSubscriber>();
  subscriber_ = connection;
  auto out = Send(4, 1, Opcode::kStartup, StartupBody());
  ASSERT_EQ(out.at(0).opcode, static_cast<uint8_t>(Opcode::kReady));  // handshakes stay inline

  EXPECT_TRUE(Send(4, 2, Opcode::kQuery, QueryBody("USE system", 4)).empty());
  auto completed = connection->Take(1);
  ASSERT_EQ(completed.size(), 1u);
  EXPECT_EQ(completed[0]->keyspace, std::optional<std::string>("system"));
  dispatcher_.Complete(*completed[0], codec_);
  out = ParseEnvelopes(TakeOutput(codec_));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].stream, 2);
  EXPECT_EQ(out[0].opcode, static_cast<uint8_t>(Opcode::kResult));

  // Unqualified: resolves in the keyspace the USE set.
  EXPECT_TRUE(Send(4, 3, Opcode::kQuery, QueryBody("SELECT key FROM local", 4)).empty());
  EXPECT_TRUE(Send(4, 4, Opcode::kQuery, QueryBody("SELECT nothing FROM nowhere", 4)).empty());
  completed = connection->Take(2);
  for (const auto& c : completed) {
    EXPECT_FALSE(c->keyspace);
    dispatcher_.Complete(*c, codec_);
  }
  out = ParseEnvelopes(TakeOutput(codec_));
  ASSERT_EQ(out.size(), 2u);
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.stream < b.stream; });
  EXPECT_EQ(out[0].opcode, static_cast<uint8_t>(Opcode::kResult));
  EXPECT_EQ(out[1].opcode, static_cast<uint8_t>(Opcode::kError));
  EXPECT_EQ(ErrorMessage(out[1]), "table nowhere does not exist");
  workers.join();
}

TEST_F(DispatcherTest, V5SwitchesToSegmentsAfterReady) {
  auto out = Send(5, 1, Opcode::kStartup, StartupBody());
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].version_byte, 0x85);
  EXPECT_EQ(out[0].opcode, static_cast<uint8_t>(Opcode::kReady));
  ASSERT_TRUE(codec_.segment_framing());

  Feed(codec_, Segments(RequestFrame(5, 0, 9, static_cast<uint8_t>(Opcode::kQuery),
                                     QueryBody("SELECT key FROM system.local", 5)),
                        false));
  protocol::Envelope envelope;
  ASSERT_EQ(codec_.Next(envelope), protocol::NextResult::kEnvelope);
  dispatcher_.Dispatch(envelope, codec_, subscriber_);
  Bytes envelopes;
  ASSERT_TRUE(Unsegment(TakeOutput(codec_), false, envelopes));
  auto parsed = ParseEnvelopes(envelopes);
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_EQ(parsed[0].stream, 9);
  EXPECT_EQ(parsed[0].opcode, static_cast<uint8_t>(Opcode::kResult));
}

TEST_F(DispatcherTest, SnappyIsRefusedOnV5) {
  auto out = Send(5, 1, Opcode::kStartup,
                  StartupBody({{"CQL_VERSION", "3.0.0"}, {"COMPRESSION", "snappy"}}));
  EXPECT_EQ(ErrorMessage(out.at(0)), "Snappy compression is not supported in protocol V5");
  // As Cassandra: what follows the reply to a STARTUP is framed, whatever the reply was.
  EXPECT_TRUE(codec_.segment_framing());
}

TEST_F(DispatcherTest, CustomPayloadIsReadAndIgnored) {
  Send(4, 1, Opcode::kStartup, StartupBody());
  Bytes body;
  AppendBE16(body, 1);
  AppendString(body, "k");
  protocol::AppendBytes(body, "v");
  body += QueryBody("SELECT key FROM system.local", 4);
  auto out = Send(4, 2, Opcode::kQuery, body, protocol::kFlagCustomPayload);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].opcode, static_cast<uint8_t>(Opcode::kResult));
  EXPECT_EQ(out[0].flags, 0);  // no payload comes back
}

TEST_F(DispatcherTest, TracingIsRefusedWithAWarningNotSilently) {
  Send(4, 1, Opcode::kStartup, StartupBody());
  auto out = Send(4, 2, Opcode::kQuery, QueryBody("SELECT key FROM system.local", 4),
                  protocol::kFlagTracing);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].opcode, static_cast<uint8_t>(Opcode::kResult));
  EXPECT_EQ(out[0].flags, protocol::kFlagWarning);
  EXPECT_NE(out[0].body.find("Tracing is not supported by Sibyl yet"), std::string::npos);
}

TEST_F(DispatcherTest, AuthResponseWithoutAuthenticatorSucceeds) {
  Send(4, 1, Opcode::kStartup, StartupBody());
  Bytes token;
  protocol::AppendBytes(token, "anything");
  auto out = Send(4, 2, Opcode::kAuthResponse, token);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].opcode, static_cast<uint8_t>(Opcode::kAuthSuccess));
  EXPECT_EQ(out[0].body, Bytes("\xff\xff\xff\xff", 4));  // no token
}

TEST_F(DispatcherTest, CredentialsAreNamedAndRefused) {
  auto out = Send(4, 1, static_cast<Opcode>(0x04), {});
  EXPECT_EQ(ErrorMessage(out.at(0)),
            "Unexpected message CREDENTIALS, expecting STARTUP or OPTIONS");
  Send(4, 1, Opcode::kStartup, StartupBody());
  out = Send(4, 2, static_cast<Opcode>(0x04), {});
  EXPECT_EQ(ErrorMessage(out.at(0)), "Unsupported message");
}

TEST_F(DispatcherTest, RegisterMatchesEventTypesInAnyCase) {
  Send(3, 1, Opcode::kStartup, StartupBody());
  Bytes body;
  AppendBE16(body, 1);
  AppendString(body, "schema_change");
  EXPECT_EQ(Send(3, 2, Opcode::kRegister, body).at(0).opcode, static_cast<uint8_t>(Opcode::kReady));
  Bytes trace;
  AppendBE16(trace, 1);
  AppendString(trace, "TRACE_COMPLETE");
  EXPECT_EQ(ErrorMessage(Send(3, 3, Opcode::kRegister, trace).at(0)),
            "Event TRACE_COMPLETE not valid for protocol version 3/v3");
}

TEST_F(DispatcherTest, PageSizeZeroIsRefused) {
  Send(4, 1, Opcode::kStartup, StartupBody());
  Bytes body;
  protocol::AppendLongString(body, "SELECT key FROM system.local");
  AppendBE16(body, 1);
  AppendU8(body, protocol::kQueryFlagPageSize);
  AppendBE32(body, 0);
  auto out = Send(4, 2, Opcode::kQuery, body);
  EXPECT_EQ(ErrorCodeOf(out.at(0)), 0x000A);
  EXPECT_EQ(ErrorMessage(out.at(0)), "The page size cannot be 0");
}

// An engine whose reads fail with `fail`'s exception: not a CqlError.
class FailingEngine final : public storage::Engine {
 public:
  explicit FailingEngine(std::function<void()> fail) : fail_(std::move(fail)) {}
  void SyncTables(const std::vector<storage::TableLayout>&) override {}
  void Apply(const storage::Mutation&) override {}
  void ApplyAll(const std::vector<const storage::Mutation*>&) override {}
  void ApplyAllSynced(const std::vector<const storage::Mutation*>&) override {}
  storage::ReadResult Read(const storage::ReadCommand&) const override {
    fail_();
    return {};
  }
  std::vector<storage::Mutation> ReadUnfiltered(const storage::ReadCommand&) const override {
    fail_();
    return {};
  }
  void Truncate(const types::Uuid&) override {}
  void Flush() override {}
  void Flush(const types::Uuid&) override {}
  void Compact(const types::Uuid&) override {}

 private:
  std::function<void()> fail_;
};

struct FailureOutcome {
  uint32_t code = 0;
  std::string response;  // the ERROR body
  std::string log;
};

// Runs `SELECT v FROM ks.t WHERE k = 1` (written over two lines) against an
// engine whose read fails with `fail`, capturing the response and the log.
FailureOutcome RunFailingRead(std::function<void()> fail) {
  std::ostringstream log;
  auto logger = std::make_shared<spdlog::logger>(
      "test", std::make_shared<spdlog::sinks::ostream_sink_mt>(log));
  auto previous = spdlog::default_logger();
  spdlog::set_default_logger(logger);

  Config config;
  schema::LocalNodeInfo node;
  schema::SchemaStore schemas(schema::MakeInitialSchema());
  schema::VirtualTables tables = schema::VirtualTables::SystemTables();
  FailingEngine engine(std::move(fail));
  ManualClock clock;
  cluster::Coordinator coordinator(engine, clock);
  query::QueryProcessor processor(schemas, tables, node, &coordinator);
  EventBus events;
  ServerContext context{config, processor, events};
  RequestDispatcher dispatcher(context);
  protocol::ConnectionCodec codec;
  auto send = [&](int16_t stream, Opcode opcode, const Bytes& body) {
    Feed(codec, RequestFrame(4, 0, stream, static_cast<uint8_t>(opcode), body));
    protocol::Envelope envelope;
    while (codec.Next(envelope) == protocol::NextResult::kEnvelope) {
      dispatcher.Dispatch(envelope, codec, nullptr);
    }
    return ParseEnvelopes(TakeOutput(codec));
  };
  send(1, Opcode::kStartup, StartupBody());
  send(2, Opcode::kQuery,
       QueryBody("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
                 "'replication_factor': 1}",
                 4));
  send(3, Opcode::kQuery, QueryBody("CREATE TABLE ks.t (k int PRIMARY KEY, v int)", 4));
  auto out = send(4, Opcode::kQuery, QueryBody("SELECT v\nFROM ks.t WHERE k = 1", 4));
  spdlog::set_default_logger(previous);

  EXPECT_EQ(out.size(), 1u);
  if (out.empty()) return {};
  EXPECT_EQ(out[0].opcode, static_cast<uint8_t>(Opcode::kError));
  return FailureOutcome{LoadBE32(out[0].body.data()), out[0].body, log.str()};
}

// An exception that is not a CqlError is a bug: the client gets a Server
// error and the log one line naming the statement that caused it.
TEST(DispatcherFailureTest, UnexpectedExceptionIsAServerErrorAndALogLine) {
  const FailureOutcome outcome =
      RunFailingRead([] { throw std::runtime_error("the engine failed"); });
  EXPECT_EQ(outcome.code, 0x0000u);  // Server error
  EXPECT_NE(outcome.response.find("the engine failed"), std::string::npos);
  EXPECT_NE(outcome.log.find("Unexpected exception while executing QUERY \"SELECT v FROM ks.t "
                             "WHERE k = 1\": the engine failed"),
            std::string::npos)
      << outcome.log;
  EXPECT_EQ(std::count(outcome.log.begin(), outcome.log.end(), '\n'), 1) << outcome.log;
}

// A failed check: a Server error with its description; the log line adds
// where the check is.
TEST(DispatcherFailureTest, FailedCheckIsAServerErrorAndALogLineWithItsPlace) {
  const FailureOutcome outcome = RunFailingRead([] {
    const int answer = 41;
    SIBYL_CHECK(answer == 42, "the answer is " + std::to_string(answer));
  });
  EXPECT_EQ(outcome.code, 0x0000u);
  EXPECT_NE(outcome.response.find("Internal error: the answer is 41 (failed check: answer == 42)"),
            std::string::npos);
  EXPECT_NE(outcome.log.find("Internal error while executing QUERY \"SELECT v FROM ks.t WHERE "
                             "k = 1\": Internal error: the answer is 41"),
            std::string::npos)
      << outcome.log;
  EXPECT_NE(outcome.log.find("[src/server/request_dispatcher_test.cc:"), std::string::npos)
      << outcome.log;
}

// A storage failure: the client is told which operation failed on which
// table, the operator gets the engine's own text in the log.
TEST(DispatcherFailureTest, StorageFailureKeepsEngineTextInTheLog) {
  const FailureOutcome outcome = RunFailingRead([] {
    throw storage::StorageError("read", "ks.t", "IO error: /data/000042.sst: No space left");
  });
  EXPECT_EQ(outcome.code, 0x0000u);
  EXPECT_NE(outcome.response.find(
                "Storage failure: read of table ks.t failed; the node's log has the details"),
            std::string::npos);
  EXPECT_EQ(outcome.response.find("IO error"), std::string::npos);
  EXPECT_NE(outcome.log.find("Storage failure while executing QUERY"), std::string::npos)
      << outcome.log;
  EXPECT_NE(outcome.log.find("[IO error: /data/000042.sst: No space left]"), std::string::npos)
      << outcome.log;
}

}  // namespace
}  // namespace sibyl::server
