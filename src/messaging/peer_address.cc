#include "messaging/peer_address.h"

#include <arpa/inet.h>

#include <boost/asio/ip/address.hpp>
#include <charconv>
#include <functional>

namespace sibyl::messaging {

std::string PeerAddress::ToString() const {
  const bool v6 = ip.find(':') != std::string::npos;
  std::string out = v6 ? "[" + ip + "]" : ip;
  return out + ":" + std::to_string(port);
}

std::string PeerAddress::IpBytes() const {
  unsigned char buffer[16];
  if (inet_pton(AF_INET, ip.c_str(), buffer) == 1) {
    return std::string(reinterpret_cast<const char*>(buffer), 4);
  }
  if (inet_pton(AF_INET6, ip.c_str(), buffer) == 1) {
    return std::string(reinterpret_cast<const char*>(buffer), 16);
  }
  return std::string(4, '\0');
}

std::optional<PeerAddress> PeerAddress::Parse(std::string_view text) {
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  std::string_view host = text.substr(0, colon);
  const std::string_view port_text = text.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    return std::nullopt;  // IPv6 without brackets is ambiguous
  }
  uint16_t port = 0;
  const auto [end, ec] =
      std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (ec != std::errc() || end != port_text.data() + port_text.size() || port_text.empty()) {
    return std::nullopt;
  }
  boost::system::error_code error;
  const auto address = boost::asio::ip::make_address(std::string(host), error);
  if (error) return std::nullopt;
  return PeerAddress{address.to_string(), port};
}

size_t PeerAddressHash::operator()(const PeerAddress& address) const {
  return std::hash<std::string>()(address.ip) * 31 + address.port;
}

}  // namespace sibyl::messaging
