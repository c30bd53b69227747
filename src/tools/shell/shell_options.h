#pragma once
// `sibyl shell [options] [host [port]]`: cqlsh's command line (its options,
// defaults and the CQLSH_HOST / CQLSH_PORT environment variables), for the
// options that mean something to Sibyl.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sibyl::tools::shell {

class ShellUsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ShellOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 9042;
  std::string username;                // -u: sent only if the node asks for credentials
  std::string password;                // -p
  std::string keyspace;                // -k: USE'd after connecting
  std::optional<std::string> execute;  // -e: run this, then exit
  std::optional<std::string> file;     // -f: run this file, then exit
  int connect_timeout_seconds = 5;
  int request_timeout_seconds = 10;
  // 0: the highest the node speaks (v5, else v4); or exactly 4 or 5.
  int protocol_version = 0;
  std::optional<bool> color;  // -C / --no-color; default: on a colour terminal
  bool force_tty = false;     // -t
  bool help = false;
  bool version = false;
};

// Throws ShellUsageError. `environment_host` / `_port`: $CQLSH_HOST and
// $CQLSH_PORT (may be null).
ShellOptions ParseShellArguments(const std::vector<std::string>& args, const char* environment_host,
                                 const char* environment_port);

std::string ShellUsage();

}  // namespace sibyl::tools::shell
