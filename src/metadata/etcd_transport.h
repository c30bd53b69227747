#pragma once
// How a request reaches one etcd endpoint: the endpoint's address, a TCP
// connection made within a deadline, and one HTTP/1.1 POST of JSON whose
// whole reply is read within a deadline. Each exchange uses a connection of
// its own, closed after the reply: a request is then never written onto a
// connection the server already dropped, so a failure before the request
// was sent (stage kConnect) is known to have changed nothing, which is what
// lets EtcdClient retry a write on the next endpoint safely.
//
// Thread-safety: free functions without shared state; any thread.

#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace sibyl::metadata {

struct EtcdEndpoint {
  std::string host;  // an IP address, or a name the system resolver knows
  std::string port;

  // "host:port", "http://host:port" or "[v6]:port". Throws
  // std::invalid_argument for anything else (https is not supported).
  static EtcdEndpoint Parse(std::string_view text);
  std::string ToString() const;  // host:port
};

// "127.0.0.1:2379, 127.0.0.1:22379"
[[nodiscard]] std::string DescribeEndpoints(const std::vector<EtcdEndpoint>& endpoints);

struct HttpTimeouts {
  std::chrono::milliseconds connect{1000};  // Default: 1 s
  std::chrono::milliseconds request{
      5000};  // writing the request and reading the reply. Default: 5 s
};

struct HttpReply {
  unsigned status = 0;
  std::string body;
};

// An exchange that did not complete. kConnect: nothing was sent.
class HttpFailure : public std::runtime_error {
 public:
  enum class Stage { kConnect, kExchange };
  HttpFailure(Stage stage, const std::string& message)
      : std::runtime_error(message), stage_(stage) {}
  Stage stage() const { return stage_; }

 private:
  Stage stage_;
};

// Resolves `endpoint` (with the system resolver, whose own timeouts apply
// to names; IP addresses resolve at once). Throws HttpFailure(kConnect).
[[nodiscard]] boost::asio::ip::tcp::resolver::results_type ResolveEndpoint(
    const EtcdEndpoint& endpoint);

// POSTs `body` (JSON) to `target` on a new connection to `endpoint` and
// returns the reply, whatever its status. Never blocks past
// timeouts.connect + timeouts.request (after resolution). Throws HttpFailure.
[[nodiscard]] HttpReply PostJson(const EtcdEndpoint& endpoint, std::string_view target,
                                 std::string body, const HttpTimeouts& timeouts);

// Asks the kernel to probe an idle connection (TCP keepalive after 10 s,
// every 5 s, 3 probes): a watch stream is idle for long stretches, and a
// peer that vanished without a reset is then noticed in about 25 s.
void EnableKeepAlive(boost::asio::ip::tcp::socket& socket);

}  // namespace sibyl::metadata
