#include "messaging/tcp_transport.h"

#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <stdexcept>

#include "common/check.h"
#include "messaging/inbound_connection.h"
#include "messaging/outbound_connection.h"

namespace sibyl::messaging {

namespace asio = boost::asio;
using asio::ip::tcp;

TcpTransport::TcpTransport(TcpTransportOptions options) : options_(std::move(options)) {}

TcpTransport::~TcpTransport() { Stop(); }

void TcpTransport::Start(MessageSink& sink) {
  SIBYL_CHECK(sink_ == nullptr && !stopped_.load(), "a TcpTransport is started once");
  sink_ = &sink;
  boost::system::error_code ec;
  const tcp::endpoint endpoint(asio::ip::make_address(options_.listen.ip, ec),
                               options_.listen.port);
  acceptor_ = std::make_unique<tcp::acceptor>(asio::make_strand(io_));
  if (!ec) acceptor_->open(endpoint.protocol(), ec);
  // A restarted node rebinds its port while the old connections linger in
  // TIME_WAIT.
  if (!ec) acceptor_->set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_->bind(endpoint, ec);
  if (!ec) acceptor_->listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    throw std::runtime_error("Cannot listen for internode connections on " +
                             options_.listen.ToString() + ": " + ec.message());
  }
  local_ = PeerAddress{options_.listen.ip, acceptor_->local_endpoint().port()};
  guard_ = std::make_unique<asio::executor_work_guard<asio::io_context::executor_type>>(
      io_.get_executor());
  asio::co_spawn(acceptor_->get_executor(), AcceptLoop(), asio::detached);
  const size_t threads = std::max<size_t>(options_.io_threads, 1);
  for (size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { io_.run(); });
}

PeerAddress TcpTransport::local_address() const { return local_; }

asio::awaitable<void> TcpTransport::AcceptLoop() {
  while (!stopped_.load()) {
    tcp::socket socket(asio::make_strand(io_));
    boost::system::error_code ec;
    co_await acceptor_->async_accept(socket, asio::redirect_error(asio::use_awaitable, ec));
    if (stopped_.load() || ec == asio::error::operation_aborted) break;
    if (ec) {
      // Out of descriptors, say: the peers' connect timeouts and retries
      // cover it.
      spdlog::warn("Cannot accept an internode connection on {}: {}", local_.ToString(),
                   ec.message());
      continue;
    }
    Adopt(std::move(socket));
  }
}

void TcpTransport::Adopt(tcp::socket socket) {
  auto connection = std::make_shared<InboundConnection>(std::move(socket), *sink_, traffic_,
                                                        options_.max_payload);
  {
    std::lock_guard lock(mutex_);
    if (stopped_.load()) return;  // the socket closes with `connection`
    std::erase_if(inbound_, [](const auto& weak) { return weak.expired(); });
    inbound_.push_back(connection);
  }
  connection->Start();
}

void TcpTransport::Send(const PeerAddress& to, Message message) {
  std::shared_ptr<OutboundConnection> connection;
  {
    std::lock_guard lock(mutex_);
    if (!stopped_.load() && sink_ != nullptr && message.payload.size() <= options_.max_payload) {
      auto& slot = outbound_[to];
      if (!slot) {
        slot = std::make_shared<OutboundConnection>(io_, options_, local_, to, *sink_,
                                                    traffic_.For(to));
      }
      connection = slot;
    }
  }
  if (connection == nullptr) {
    auto counters = traffic_.For(to);
    counters->Add(counters->messages_dropped, 1);
    return;
  }
  connection->Enqueue(std::move(message));
}

void TcpTransport::Stop() {
  std::map<PeerAddress, std::shared_ptr<OutboundConnection>> outbound;
  std::vector<std::weak_ptr<InboundConnection>> inbound;
  {
    std::lock_guard lock(mutex_);
    if (stopped_.exchange(true) || sink_ == nullptr) return;
    outbound.swap(outbound_);
    inbound.swap(inbound_);
  }
  asio::post(acceptor_->get_executor(), [this] {
    boost::system::error_code ignored;
    acceptor_->close(ignored);
  });
  for (auto& [peer, connection] : outbound) connection->Stop();
  for (auto& weak : inbound) {
    if (auto connection = weak.lock()) connection->Close();
  }
  // Every socket and timer is closed or cancelled: the io threads run out
  // of work and end.
  guard_.reset();
  for (auto& thread : threads_) thread.join();
  threads_.clear();
}

}  // namespace sibyl::messaging
