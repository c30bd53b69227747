#pragma once
// A `sibyl start` child process with its data in a fresh temporary
// directory, on a free loopback port; stopped and its directory removed when
// the object goes. The child gets SIGKILL if this process dies first
// (PR_SET_PDEATHSIG), so nothing is left running whatever happens to the
// parent; only the directory outlives a SIGKILL of the parent.
//
// Not thread-safe.

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <string>

namespace sibyl::tools::demo {

class TemporaryNode {
 public:
  // REQUIRES: `binary` is the sibyl executable.
  explicit TemporaryNode(std::string binary);
  ~TemporaryNode();
  TemporaryNode(const TemporaryNode&) = delete;
  TemporaryNode& operator=(const TemporaryNode&) = delete;

  // Starts the node and waits until it accepts CQL connections, or until
  // `interrupted` is set. Returns an empty string on success, else why not
  // (with the end of the node's log).
  std::string Start(const std::atomic<bool>& interrupted);
  // Stops the node (SIGTERM, then SIGKILL after 10 s) and removes the
  // directory. Safe to call more than once.
  void Stop();

  uint16_t port() const { return port_; }
  const std::string& directory() const { return directory_; }

 private:
  std::string LogTail() const;

  std::string binary_;
  std::string directory_;
  pid_t pid_ = -1;
  uint16_t port_ = 0;
};

}  // namespace sibyl::tools::demo
