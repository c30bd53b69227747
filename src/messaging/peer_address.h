#pragma once
// Where a node listens for internode connections: its listen_address and
// storage_port. The address a peer sees for us is the one our outgoing
// sockets are bound to (tcp_transport.h), so it is the same everywhere.

#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sibyl::messaging {

struct PeerAddress {
  std::string ip;  // numeric, as boost::asio prints it: "127.0.0.2", "::1"
  uint16_t port = 0;

  // "ip:port", or "[ip]:port" for IPv6.
  std::string ToString() const;
  // Parses what ToString() prints; nullopt for anything else (names are not
  // resolved here).
  static std::optional<PeerAddress> Parse(std::string_view text);
  // The ip as the native protocol's [inetaddr] bytes (4 or 16), as failure
  // reasons name the replicas; 0.0.0.0 if it does not parse.
  std::string IpBytes() const;

  auto operator<=>(const PeerAddress&) const = default;
};

struct PeerAddressHash {
  size_t operator()(const PeerAddress& address) const;
};

}  // namespace sibyl::messaging
