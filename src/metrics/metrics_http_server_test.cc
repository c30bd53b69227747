#include "metrics/metrics_http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

namespace sibyl::metrics {
namespace {

using namespace std::chrono_literals;

// A blocking client socket with a receive timeout, so a server that hangs
// fails the test instead of the test hanging.
class Client {
 public:
  explicit Client(uint16_t port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    timeval timeout{.tv_sec = 5, .tv_usec = 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  }
  ~Client() { close(fd_); }
  bool connected() const { return connected_; }
  bool Send(const std::string& bytes) {
    return send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
           static_cast<ssize_t>(bytes.size());
  }
  // Everything until the server closes (or 5s pass).
  std::string ReadToClose() {
    std::string out;
    char buffer[4096];
    for (;;) {
      const ssize_t n = recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) break;
      out.append(buffer, static_cast<size_t>(n));
    }
    return out;
  }
  // Whether the server closed the connection within `timeout`.
  bool ClosedWithin(std::chrono::milliseconds timeout) {
    pollfd p{.fd = fd_, .events = POLLIN, .revents = 0};
    if (poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return false;
    char byte;
    return recv(fd_, &byte, 1, MSG_DONTWAIT) <= 0;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

class MetricsHttpServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ =
        std::make_unique<MetricsHttpServer>(MetricsHttpServer::Options{.address = "127.0.0.1",
                                                                       .port = 0,
                                                                       .max_head_bytes = 1024,
                                                                       .request_timeout = 300ms,
                                                                       .max_connections = 4},
                                            [this] {
                                              ++scrapes_;
                                              return std::string("sibyl_up 1\n");
                                            });
    server_->Listen();
    server_->Start();
  }
  void TearDown() override { server_->Stop(); }
  uint16_t port() const { return server_->bound_port(); }

  std::atomic<int> scrapes_{0};
  std::unique_ptr<MetricsHttpServer> server_;
};

TEST_F(MetricsHttpServerTest, ServesMetrics) {
  Client client(port());
  ASSERT_TRUE(client.connected());
  ASSERT_TRUE(client.Send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  const std::string response = client.ReadToClose();
  EXPECT_EQ(response,
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
            "Content-Length: 11\r\nConnection: close\r\n\r\nsibyl_up 1\n");
  EXPECT_EQ(scrapes_.load(), 1);
}

TEST_F(MetricsHttpServerTest, KeepsTheConnectionForPipelinedScrapes) {
  Client client(port());
  ASSERT_TRUE(client.Send(
      "GET /metrics HTTP/1.1\r\n\r\nHEAD /metrics HTTP/1.1\r\n\r\nGET /metrics HTTP/1.1\r\n"
      "Connection: close\r\n\r\n"));
  const std::string response = client.ReadToClose();
  size_t oks = 0;
  for (size_t at = response.find("200 OK"); at != std::string::npos;
       at = response.find("200 OK", at + 1)) {
    ++oks;
  }
  EXPECT_EQ(oks, 3u);
  EXPECT_EQ(scrapes_.load(), 3);
}

TEST_F(MetricsHttpServerTest, AnswersOtherPathsAndMethods) {
  {
    Client client(port());
    ASSERT_TRUE(client.Send("GET /other HTTP/1.1\r\nConnection: close\r\n\r\n"));
    EXPECT_EQ(client.ReadToClose().rfind("HTTP/1.1 404 Not Found\r\n", 0), 0u);
  }
  {
    Client client(port());
    ASSERT_TRUE(client.Send("DELETE /metrics HTTP/1.1\r\nConnection: close\r\n\r\n"));
    const std::string response = client.ReadToClose();
    EXPECT_EQ(response.rfind("HTTP/1.1 405 Method Not Allowed\r\n", 0), 0u);
    EXPECT_NE(response.find("Allow: GET, HEAD\r\n"), std::string::npos);
  }
  EXPECT_EQ(scrapes_.load(), 0);
}

TEST_F(MetricsHttpServerTest, GarbageGetsBadRequestAndClose) {
  Client client(port());
  ASSERT_TRUE(client.Send(std::string("\x16\x03\x01\x00\xa5garbage\r\n\r\n", 16)));
  EXPECT_EQ(client.ReadToClose().rfind("HTTP/1.1 400 Bad Request\r\n", 0), 0u);
}

TEST_F(MetricsHttpServerTest, HugeHeadersGet431AndClose) {
  Client client(port());
  std::string request = "GET /metrics HTTP/1.1\r\n";
  for (int i = 0; i < 100; ++i) request += "X-Filler: " + std::string(100, 'x') + "\r\n";
  ASSERT_TRUE(client.Send(request));
  EXPECT_EQ(client.ReadToClose().rfind("HTTP/1.1 431 Request Header Fields Too Large\r\n", 0), 0u);
}

TEST_F(MetricsHttpServerTest, SilentAndSlowClientsAreClosed) {
  Client silent(port());
  Client slow(port());
  ASSERT_TRUE(slow.Send("GET /metr"));
  std::this_thread::sleep_for(150ms);
  ASSERT_TRUE(slow.Send("ics HTTP/1.1\r\n"));  // still no end of head: the deadline stands
  EXPECT_TRUE(silent.ClosedWithin(2s));
  EXPECT_TRUE(slow.ClosedWithin(2s));
  // And the server still serves.
  Client client(port());
  ASSERT_TRUE(client.Send("GET /metrics HTTP/1.0\r\n\r\n"));
  EXPECT_EQ(client.ReadToClose().rfind("HTTP/1.1 200 OK\r\n", 0), 0u);
}

TEST_F(MetricsHttpServerTest, ClientClosingMidRequestIsHarmless) {
  {
    Client client(port());
    ASSERT_TRUE(client.Send("GET /metrics HTTP/1.1\r\nHo"));
  }
  Client client(port());
  ASSERT_TRUE(client.Send("GET /metrics HTTP/1.1\r\nConnection: close\r\n\r\n"));
  EXPECT_EQ(client.ReadToClose().rfind("HTTP/1.1 200 OK\r\n", 0), 0u);
}

TEST(MetricsHttpServer, PortInUseIsAListenError) {
  MetricsHttpServer first({.address = "127.0.0.1", .port = 0}, [] { return std::string(); });
  first.Listen();
  MetricsHttpServer second({.address = "127.0.0.1", .port = first.bound_port()},
                           [] { return std::string(); });
  try {
    second.Listen();
    FAIL() << "listened on a port in use";
  } catch (const MetricsListenError& e) {
    EXPECT_EQ(std::string(e.what()),
              "127.0.0.1:" + std::to_string(first.bound_port()) + ": Address already in use");
  }
  MetricsHttpServer bad({.address = "not-an-ip", .port = 0}, [] { return std::string(); });
  EXPECT_THROW(bad.Listen(), MetricsListenError);
}

}  // namespace
}  // namespace sibyl::metrics
