#include "messaging/tcp_transport.h"

#include <gtest/gtest.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <future>
#include <thread>

#include "messaging/asio_scheduler.h"
#include "messaging/message_codec.h"
#include "messaging/messaging_service.h"
#include "messaging/messaging_test_util.h"
#include "messaging/peer_address.h"

namespace sibyl::messaging {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using std::chrono::milliseconds;
using std::chrono::seconds;

// Generous: only a broken transport makes a test wait this long.
constexpr auto kTransportDeadline = seconds(30);

TcpTransportOptions Options(const std::string& ip, uint16_t port = 0) {
  return TcpTransportOptions{.listen = PeerAddress{ip, port},
                             .initial_backoff = milliseconds(10),
                             .max_backoff = milliseconds(100)};
}

// A node: a TCP transport and a messaging service on real threads, echoing
// READ payloads.
struct TcpNode {
  explicit TcpNode(const std::string& ip, uint16_t port = 0)
      : transport(Options(ip, port)),
        service(transport, scheduler, gate, MessagingOptions{.host_id = types::Uuid::Random()}) {
    service.RegisterHandler(Verb::kRead, [](const Message& message, Responder responder) {
      responder.Reply("echo:" + message.payload);
    });
    service.Start();
  }
  ~TcpNode() {
    service.Stop();
    scheduler.Stop();
  }
  PeerAddress address() const { return service.local_address(); }

  // Sends a READ and waits for its reply.
  Reply Ask(const PeerAddress& to, Bytes payload, Duration timeout = seconds(5)) {
    auto promise = std::make_shared<std::promise<Reply>>();
    service.SendRequest(to, Verb::kRead, std::move(payload), timeout,
                        [promise](Reply reply) { promise->set_value(std::move(reply)); });
    auto future = promise->get_future();
    if (future.wait_for(kTransportDeadline) != std::future_status::ready) {
      ADD_FAILURE() << "no callback";
      return Reply{};
    }
    return future.get();
  }

  AsioScheduler scheduler{1};
  FakeEpochGate gate;
  TcpTransport transport;
  MessagingService service;
};

TEST(TcpTransportTest, TwoNodesExchangeRequestsAndReplies) {
  TcpNode a("127.0.0.1");
  TcpNode b("127.0.0.2");
  EXPECT_NE(a.address().port, 0);
  const Reply reply = a.Ask(b.address(), "ping");
  ASSERT_EQ(reply.status, Reply::Status::kSuccess);
  EXPECT_EQ(reply.payload, "echo:ping");
  const Reply back = b.Ask(a.address(), Bytes(3 << 20, 'x'));  // 3 MiB, many reads
  ASSERT_EQ(back.status, Reply::Status::kSuccess);
  EXPECT_EQ(back.payload, "echo:" + Bytes(3 << 20, 'x'));
  // b knows a by its listen address: the request came from 127.0.0.1 and
  // the hello named a's port, so the reply found its way.
  const auto traffic = b.service.PeerTraffic();
  ASSERT_TRUE(traffic.count(a.address()));
  // Each way: one request and one reply.
  EXPECT_EQ(traffic.at(a.address()).messages_received, 2u);
  EXPECT_EQ(traffic.at(a.address()).messages_sent, 2u);
  EXPECT_GT(traffic.at(a.address()).bytes_received, 3u << 20);
}

TEST(TcpTransportTest, ManyConcurrentRequestsAllComplete) {
  TcpNode a("127.0.0.1");
  TcpNode b("127.0.0.2");
  constexpr int kRequests = 2000;
  std::atomic<int> ok{0};
  std::atomic<int> done{0};
  std::promise<void> all;
  for (int i = 0; i < kRequests; ++i) {
    a.service.SendRequest(b.address(), Verb::kRead, std::to_string(i), seconds(20),
                          [&, i](Reply reply) {
                            if (reply.ok() && reply.payload == "echo:" + std::to_string(i)) ++ok;
                            if (++done == kRequests) all.set_value();
                          });
  }
  ASSERT_EQ(all.get_future().wait_for(kTransportDeadline), std::future_status::ready);
  EXPECT_EQ(ok.load(), kRequests);
}

// The peer sees our listen address as the connection's remote address.
TEST(TcpTransportTest, OutgoingSocketsAreBoundToTheListenAddress) {
  asio::io_context io;
  tcp::acceptor acceptor(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  const PeerAddress listener{"127.0.0.1", acceptor.local_endpoint().port()};
  TcpNode node("127.0.0.2");
  node.service.SendOneWay(listener, Verb::kHeartbeat, "");
  tcp::socket socket(io);
  acceptor.accept(socket);
  EXPECT_EQ(socket.remote_endpoint().address().to_string(), "127.0.0.2");
  // The first frame is HELLO with the node's listen port.
  FrameDecoder decoder;
  Message message;
  while (decoder.Next(message) == DecodeResult::kNeedMore) {
    auto space = decoder.PrepareRead(4096);
    decoder.CommitRead(socket.read_some(asio::buffer(space.data(), space.size())));
  }
  EXPECT_EQ(message.verb, Verb::kHello);
  ASSERT_EQ(message.payload.size(), 2u);
  EXPECT_EQ(LoadBE16(message.payload.data()), node.address().port);
}

TEST(TcpTransportTest, AnUnreachablePeerFailsFast) {
  uint16_t closed_port;
  {
    asio::io_context io;
    tcp::acceptor probe(io, tcp::endpoint(asio::ip::make_address("127.0.0.3"), 0));
    closed_port = probe.local_endpoint().port();
  }  // nothing listens there now
  TcpNode a("127.0.0.1");
  const Reply reply = a.Ask(PeerAddress{"127.0.0.3", closed_port}, "x", seconds(20));
  EXPECT_EQ(reply.status, Reply::Status::kUnreachable);
}

TEST(TcpTransportTest, ReconnectsToAPeerThatRestarted) {
  TcpNode a("127.0.0.1");
  auto b = std::make_unique<TcpNode>("127.0.0.2");
  const PeerAddress b_address = b->address();
  ASSERT_TRUE(a.Ask(b_address, "before").ok());
  b.reset();  // stopped: a's connection breaks
  b = std::make_unique<TcpNode>("127.0.0.2", b_address.port);
  // The first attempts may find the old connection broken or the backoff
  // running; a retry succeeds well within the deadline.
  Reply reply;
  const auto give_up = SchedulerClock::now() + kTransportDeadline;
  do {
    reply = a.Ask(b_address, "after", seconds(2));
  } while (!reply.ok() && SchedulerClock::now() < give_up);
  ASSERT_TRUE(reply.ok());
  EXPECT_EQ(reply.payload, "echo:after");
}

TEST(TcpTransportTest, StopWithMessagesInFlight) {
  RecordingSink sink_a;
  TcpNode b("127.0.0.2");
  TcpTransport a(Options("127.0.0.1"));
  a.Start(sink_a);
  Message message;
  message.verb = Verb::kMutation;
  message.kind = MessageKind::kOneWay;
  message.payload = Bytes(64 * 1024, 'm');
  constexpr uint64_t kMessages = 2000;
  for (uint64_t i = 0; i < kMessages; ++i) {
    message.id = i;
    a.Send(b.address(), message);
  }
  a.Stop();                      // returns though most are queued or on the wire
  a.Send(b.address(), message);  // dropped: stopped
  const PeerCounters counters = a.Counters().at(b.address());
  EXPECT_EQ(counters.messages_sent + counters.messages_dropped, kMessages + 1);
  EXPECT_GT(counters.messages_dropped, 0u);
}

TEST(TcpTransportTest, GarbageClosesTheConnectionAndTheNodeGoesOn) {
  TcpNode b("127.0.0.2");
  asio::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(asio::ip::make_address("127.0.0.2"), b.address().port));
  asio::write(socket, asio::buffer(std::string("GET / HTTP/1.1\r\n\r\n")));
  char byte;
  boost::system::error_code ec;
  asio::read(socket, asio::buffer(&byte, 1), ec);
  EXPECT_EQ(ec, asio::error::eof);  // closed by the node
  TcpNode a("127.0.0.1");
  EXPECT_TRUE(a.Ask(b.address(), "still here").ok());
}

TEST(TcpTransportTest, ListeningOnAnAddressInUseThrows) {
  TcpNode a("127.0.0.1");
  TcpTransport twin(Options("127.0.0.1", a.address().port));
  RecordingSink sink;
  EXPECT_THROW(twin.Start(sink), std::runtime_error);
}

}  // namespace
}  // namespace sibyl::messaging
