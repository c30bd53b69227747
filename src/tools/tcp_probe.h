#pragma once
// Small TCP helpers for the tools that start nodes (`sibyl demo`, `sibyl
// cluster`): whether something accepts connections at an address, and a
// loopback port that is free right now.

#include <cstdint>
#include <string>

namespace sibyl::tools {

// True when a TCP connection to address:port succeeds (IPv4 text address).
[[nodiscard]] bool AcceptsConnections(const std::string& address, uint16_t port);

// A port on 127.0.0.1 that was free a moment ago (the kernel picks it); 0
// when none could be had. Another process may take it before it is used.
[[nodiscard]] uint16_t FreeLoopbackPort();

}  // namespace sibyl::tools
