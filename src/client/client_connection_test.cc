// Connection against a scripted in-process server built on the server's own
// ConnectionCodec (framing, v5 segments) and DecodeRequest. The script answers
// each read's requests in reverse order, so responses arrive out of order and
// must be matched by stream id.

#include "client/client_connection.h"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <future>
#include <thread>

#include "client/blocking_call.h"
#include "client/io_thread.h"
#include "protocol/connection_codec.h"
#include "protocol/request.h"
#include "protocol/response.h"

namespace sibyl::client {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;

// One connection, served on its own thread with blocking socket calls.
//   QUERY "hang"  -> no answer;  QUERY "fail" -> ERROR Invalid;  QUERY other -> VOID
//   PREPARE       -> PREPARED (id "id-<query>")
//   EXECUTE       -> ROWS with one row holding the bound values
class ScriptedServer {
 public:
  explicit ScriptedServer(bool require_auth = false)
      : acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)),
        require_auth_(require_auth) {
    thread_ = std::thread([this] { Serve(); });
  }
  ~ScriptedServer() {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    if (socket_) socket_->shutdown(tcp::socket::shutdown_both, ignored);
    thread_.join();
  }
  uint16_t port() const { return acceptor_.local_endpoint().port(); }
  int requests() const { return requests_; }

 private:
  struct Pending {
    int16_t stream;
    protocol::Request request;
    Bytes body;  // owns the views in `request`
  };

  void Serve() {
    boost::system::error_code ec;
    socket_.emplace(io_);
    acceptor_.accept(*socket_, ec);
    if (ec) return;
    protocol::ConnectionCodec codec;
    for (;;) {
      auto space = codec.PrepareRead(64 * 1024);
      const size_t n = socket_->read_some(asio::buffer(space.data(), space.size()), ec);
      if (ec) return;
      codec.CommitRead(n);
      std::vector<std::unique_ptr<Pending>> batch;
      protocol::Envelope envelope;
      while (codec.Next(envelope) == protocol::NextResult::kEnvelope) {
        auto p = std::make_unique<Pending>();
        p->stream = envelope.header.stream;
        p->body = Bytes(envelope.body);
        p->request = protocol::DecodeRequest(envelope.header.opcode, envelope.header.flags, p->body,
                                             codec.version());
        ++requests_;
        if (std::holds_alternative<protocol::StartupMessage>(p->request)) {
          Answer(codec, *p);
          if (codec.version() >= 5) codec.StartSegmentFraming();
          continue;
        }
        batch.push_back(std::move(p));
      }
      for (auto it = batch.rbegin(); it != batch.rend(); ++it) Answer(codec, **it);
      while (codec.HasOutput()) {
        const BytesView out = codec.Output();
        asio::write(*socket_, asio::buffer(out.data(), out.size()), ec);
        if (ec) return;
        codec.ConsumeOutput(out.size());
      }
    }
  }

  void Answer(protocol::ConnectionCodec& codec, const Pending& p) {
    using protocol::Opcode;
    if (std::holds_alternative<protocol::StartupMessage>(p.request)) {
      if (require_auth_) {
        protocol::EncodeAuthenticate(codec.BeginResponse(p.stream, Opcode::kAuthenticate),
                                     "org.apache.cassandra.auth.PasswordAuthenticator");
      } else {
        (void)codec.BeginResponse(p.stream, Opcode::kReady);
      }
    } else if (const auto* q = std::get_if<protocol::QueryMessage>(&p.request)) {
      if (q->query == "hang") return;
      if (q->query == "fail") {
        protocol::EncodeError(codec.BeginResponse(p.stream, Opcode::kError), ErrorCode::kInvalid,
                              "failed as asked");
      } else {
        protocol::EncodeVoidResult(codec.BeginResponse(p.stream, Opcode::kResult));
      }
    } else if (const auto* prepare = std::get_if<protocol::PrepareMessage>(&p.request)) {
      protocol::PreparedResult result;
      result.id = "id-" + std::string(prepare->query);
      result.result_metadata_id = "meta";
      protocol::EncodePreparedResult(codec.BeginResponse(p.stream, Opcode::kResult), result,
                                     codec.version());
    } else if (const auto* e = std::get_if<protocol::ExecuteMessage>(&p.request)) {
      std::vector<protocol::ColumnSpec> columns;
      for (size_t i = 0; i < e->params.values.size(); ++i) {
        columns.push_back(
            {"ks", "t", "c" + std::to_string(i), types::CqlType::Native(types::Kind::kBlob)});
      }
      Bytes& out = codec.BeginResponse(p.stream, Opcode::kResult);
      protocol::RowsWriter rows(out, columns, codec.version(), false, std::nullopt);
      rows.AddValue(e->id);  // the id first, then the values
      for (size_t i = 1; i < e->params.values.size(); ++i) rows.AddValue(e->params.values[i].bytes);
      rows.Finish();
    } else {
      (void)codec.BeginResponse(p.stream, Opcode::kReady);
    }
    codec.EndResponse();
  }

  asio::io_context io_;
  tcp::acceptor acceptor_;
  std::optional<tcp::socket> socket_;
  bool require_auth_;
  std::atomic<int> requests_{0};
  std::thread thread_;
};

// "v<i>", built by appending (GCC 12 -O3 warns falsely on "v" + std::to_string(i)).
std::string Label(int i) {
  std::string label = "v";
  label += std::to_string(i);
  return label;
}

ConnectionOptions OptionsFor(uint16_t port, int version) {
  ConnectionOptions o;
  o.port = port;
  o.protocol_version = version;
  o.request_timeout = std::chrono::milliseconds(300);
  o.connect_timeout = std::chrono::milliseconds(2000);
  return o;
}

class ConnectionTest : public ::testing::TestWithParam<int> {
 protected:
  int version() const { return GetParam(); }
  IoThread io_;
};

TEST_P(ConnectionTest, ConnectsPreparesAndExecutes) {
  ScriptedServer server;
  auto c = Connection::Create(io_.context(), OptionsFor(server.port(), version()));
  Reply ready = BlockingConnect(*c);
  ASSERT_TRUE(std::holds_alternative<ReadyResponse>(ready.response)) << Describe(ready.response);

  Reply prepared = BlockingPrepare(*c, "INSERT");
  ASSERT_TRUE(std::holds_alternative<PreparedResponse>(prepared.response));
  const auto& p = std::get<PreparedResponse>(prepared.response);
  EXPECT_EQ(p.id, "id-INSERT");

  const std::array<Value, 2> values{Value::Of("x"), Value::Of("payload")};
  protocol::QueryOptions options;
  options.values = values;
  Reply rows = BlockingCall(*c, [&](Connection& conn, Connection::Callback done) {
    conn.Execute(p.id, p.result_metadata_id, options, std::move(done));
  });
  ASSERT_TRUE(std::holds_alternative<RowsResult>(rows.response)) << Describe(rows.response);
  const auto& r = std::get<RowsResult>(rows.response);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0][0], "id-INSERT");
  EXPECT_EQ(r.rows[0][1], "payload");

  Reply error = BlockingQuery(*c, "fail");
  ASSERT_TRUE(std::holds_alternative<ErrorResponse>(error.response));
  EXPECT_EQ(std::get<ErrorResponse>(error.response).message, "failed as asked");
}

// Many requests issued in one go leave pipelined; answered in reverse, each
// still reaches its own callback.
TEST_P(ConnectionTest, ManyInFlightMatchByStream) {
  ScriptedServer server;
  auto c = Connection::Create(io_.context(), OptionsFor(server.port(), version()));
  ASSERT_TRUE(BlockingConnect(*c).ok());
  constexpr int kRequests = 2000;
  std::vector<std::string> seen(kRequests);
  std::atomic<int> done{0};
  std::promise<void> all;
  asio::post(c->executor(), [&] {
    for (int i = 0; i < kRequests; ++i) {
      const std::string value = Label(i);
      const std::array<Value, 2> values{Value::Of("k"), Value::Of(value)};
      protocol::QueryOptions options;
      options.values = values;
      c->Execute("id", "meta", options, [&, i](Reply&& reply) {
        if (auto* r = std::get_if<RowsResult>(&reply.response)) seen[i] = *r->rows.at(0).at(1);
        if (++done == kRequests) all.set_value();
      });
    }
    EXPECT_EQ(c->in_flight(), kRequests);
  });
  ASSERT_EQ(all.get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready);
  for (int i = 0; i < kRequests; ++i) EXPECT_EQ(seen[i], Label(i));
  EXPECT_EQ(server.requests(), kRequests + 1);
}

TEST_P(ConnectionTest, UnansweredRequestTimesOutAndConnectionStaysUsable) {
  ScriptedServer server;
  auto c = Connection::Create(io_.context(), OptionsFor(server.port(), version()));
  ASSERT_TRUE(BlockingConnect(*c).ok());
  Reply hung = BlockingQuery(*c, "hang");
  ASSERT_TRUE(std::holds_alternative<TransportFailure>(hung.response));
  EXPECT_NE(std::get<TransportFailure>(hung.response).message.find("no response"),
            std::string::npos);
  EXPECT_TRUE(std::get<TransportFailure>(hung.response).timed_out);
  EXPECT_TRUE(BlockingQuery(*c, "ok").ok());
}

// A timeout callback that issues new requests grows the stream table while
// the timeout sweep walks it.
TEST_P(ConnectionTest, TimeoutCallbackMayIssueRequests) {
  ScriptedServer server;
  auto c = Connection::Create(io_.context(), OptionsFor(server.port(), version()));
  ASSERT_TRUE(BlockingConnect(*c).ok());
  constexpr int kFollowUps = 100;
  std::atomic<int> answered{0};
  std::promise<void> all;
  asio::post(c->executor(), [&] {
    for (int hung = 0; hung < 3; ++hung) {
      c->Query("hang", {}, [&](Reply&& timed_out) {
        EXPECT_TRUE(std::holds_alternative<TransportFailure>(timed_out.response));
        for (int i = 0; i < kFollowUps; ++i) {
          c->Query("ok", {}, [&](Reply&& r) {
            EXPECT_TRUE(r.ok()) << Describe(r.response);
            if (++answered == 3 * kFollowUps) all.set_value();
          });
        }
      });
    }
  });
  ASSERT_EQ(all.get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready);
}

TEST_P(ConnectionTest, StreamLimitIsReportedNotQueued) {
  ScriptedServer server;
  ConnectionOptions options = OptionsFor(server.port(), version());
  options.max_streams = 2;
  auto c = Connection::Create(io_.context(), options);
  ASSERT_TRUE(BlockingConnect(*c).ok());
  std::promise<std::string> third;
  // The first two are still in flight when the test ends: their callbacks
  // run later, when the server goes, and must not touch this frame.
  auto answered = std::make_shared<std::atomic<int>>(0);
  asio::post(c->executor(), [&, answered] {
    c->Query("a", {}, [answered](Reply&&) { ++*answered; });
    c->Query("b", {}, [answered](Reply&&) { ++*answered; });
    c->Query("c", {}, [&](Reply&& r) { third.set_value(Describe(r.response)); });
  });
  auto f = third.get_future();
  ASSERT_EQ(f.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_EQ(f.get(), "TRANSPORT: all 2 stream ids of the connection to 127.0.0.1:" +
                         std::to_string(server.port()) + " are in use");
}

TEST_P(ConnectionTest, ServerClosingFailsRequestsInFlight) {
  std::shared_ptr<Connection> c;
  {
    ScriptedServer server;
    c = Connection::Create(io_.context(), OptionsFor(server.port(), version()));
    ASSERT_TRUE(BlockingConnect(*c).ok());
  }  // the server shuts its socket
  Reply reply = BlockingQuery(*c, "x");
  ASSERT_TRUE(std::holds_alternative<TransportFailure>(reply.response));
}

INSTANTIATE_TEST_SUITE_P(Versions, ConnectionTest, ::testing::Values(4, 5));

TEST(ConnectionFailureTest, RefusedConnectionNamesTheAddress) {
  IoThread io;
  uint16_t port;
  {
    asio::io_context probe;
    tcp::acceptor a(probe, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    port = a.local_endpoint().port();
  }  // closed again: nothing listens there now
  auto c = Connection::Create(io.context(), OptionsFor(port, 4));
  Reply reply = BlockingConnect(*c);
  ASSERT_TRUE(std::holds_alternative<TransportFailure>(reply.response));
  EXPECT_EQ(Describe(reply.response)
                .rfind("TRANSPORT: cannot connect to 127.0.0.1:" + std::to_string(port) + ": ", 0),
            0u)
      << Describe(reply.response);
}

TEST(ConnectionFailureTest, AuthenticationIsRefusedHonestly) {
  IoThread io;
  ScriptedServer server(/*require_auth=*/true);
  auto c = Connection::Create(io.context(), OptionsFor(server.port(), 4));
  Reply reply = BlockingConnect(*c);
  EXPECT_NE(Describe(reply.response).find("this client does not implement authentication"),
            std::string::npos)
      << Describe(reply.response);
  EXPECT_FALSE(c->is_open());
}

}  // namespace
}  // namespace sibyl::client
