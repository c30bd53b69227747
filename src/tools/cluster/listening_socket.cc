#include "tools/cluster/listening_socket.h"

#include <arpa/inet.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace sibyl::tools::cluster {
namespace {

constexpr const char* kListenState = "0A";  // TCP_LISTEN in /proc/net/tcp's "st" column

// The inodes of the sockets listening on `port` whose local address is one
// of `addresses` (as /proc/net/tcp{,6} print them: hexadecimal, in the
// kernel's byte order), from one of those tables.
void AddListeningInodes(const std::string& table, const std::set<std::string>& addresses,
                        uint16_t port, std::set<std::string>& inodes) {
  std::ifstream in(table);
  std::string line;
  std::getline(in, line);  // the header
  char port_hex[5];
  std::snprintf(port_hex, sizeof port_hex, "%04X", port);
  while (std::getline(in, line)) {
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
    std::istringstream fields(line);
    std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
    if (!(fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >>
          timeout >> inode)) {
      continue;
    }
    const size_t colon = local.find(':');
    if (state != kListenState || colon == std::string::npos) continue;
    if (local.substr(colon + 1) != port_hex) continue;
    if (addresses.count(local.substr(0, colon)) > 0) inodes.insert(inode);
  }
}

// An IPv4 address as /proc/net/tcp prints it: the 32-bit value in host
// order (little-endian here), in hexadecimal.
std::string ProcIpv4(const std::string& address) {
  in_addr parsed{};
  if (inet_pton(AF_INET, address.c_str(), &parsed) != 1) return "";
  char hex[9];
  std::snprintf(hex, sizeof hex, "%08X", parsed.s_addr);
  return hex;
}

}  // namespace

bool ProcessListensOn(pid_t pid, const std::string& ipv4_address, uint16_t port) {
  const std::string address = ProcIpv4(ipv4_address);
  if (address.empty()) return false;
  std::set<std::string> inodes;
  AddListeningInodes("/proc/net/tcp", {address, "00000000"}, port, inodes);
  AddListeningInodes("/proc/net/tcp6", {std::string(32, '0')}, port, inodes);
  if (inodes.empty()) return false;
  std::error_code error;
  const std::filesystem::path fds = "/proc/" + std::to_string(pid) + "/fd";
  for (std::filesystem::directory_iterator it(fds, error), end; !error && it != end;
       it.increment(error)) {
    std::error_code unreadable;
    const std::string target = std::filesystem::read_symlink(it->path(), unreadable).string();
    // "socket:[12345]"
    if (!unreadable && target.rfind("socket:[", 0) == 0 && target.back() == ']' &&
        inodes.count(target.substr(8, target.size() - 9)) > 0) {
      return true;
    }
  }
  return false;
}

}  // namespace sibyl::tools::cluster
