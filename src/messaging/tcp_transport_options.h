#pragma once
// The settings of a TcpTransport (tcp_transport.h), shared with its
// connections.

#include <chrono>
#include <cstddef>

#include "messaging/message_codec.h"
#include "messaging/peer_address.h"
#include "messaging/scheduler.h"

namespace sibyl::messaging {

struct TcpTransportOptions {
  // listen_address:storage_port. Outgoing sockets are bound to this address
  // too, so peers see the node as it is configured. Port 0 takes a free
  // port (tests). Default: none; required.
  PeerAddress listen;
  // Threads running the transport's io_context. Default: 1.
  size_t io_threads = 1;
  // Largest payload sent or accepted; a larger inbound frame closes its
  // connection, a larger outbound message is dropped. Default: 128 MiB.
  size_t max_payload = kDefaultMaxPayload;
  // Frame bytes queued for one peer beyond which new messages to it are
  // dropped (a lone message larger than this is still queued). Default: 64 MiB.
  size_t max_queued_bytes = 64 * 1024 * 1024;
  // How long a connection attempt may take. Default: 2 s.
  Duration connect_timeout = std::chrono::seconds(2);
  // Wait before reconnecting after a failure, doubled on each failed attempt
  // up to max_backoff, reset by a successful connection. A peer back from a
  // restart is reached within max_backoff of the next message to it.
  // Defaults: 100 ms and 2 s.
  Duration initial_backoff = std::chrono::milliseconds(100);
  Duration max_backoff = std::chrono::seconds(2);
};

}  // namespace sibyl::messaging
