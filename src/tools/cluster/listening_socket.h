#pragma once
// Whether a given process holds the listening TCP socket of an address and
// port, read from /proc (Linux): the sockets listening there
// (/proc/net/tcp, /proc/net/tcp6) and the process's open files
// (/proc/<pid>/fd). `sibyl cluster start` asks it of each member it starts,
// so that another process answering on the member's address — one left over
// from an earlier cluster, say — is not taken for the member.

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace sibyl::tools::cluster {

// True when `pid` has a socket listening on `ipv4_address`:`port`, or on
// the wildcard address (0.0.0.0 or ::) with that port. False when it has
// none, or its files cannot be read (not ours, or gone).
[[nodiscard]] bool ProcessListensOn(pid_t pid, const std::string& ipv4_address, uint16_t port);

}  // namespace sibyl::tools::cluster
