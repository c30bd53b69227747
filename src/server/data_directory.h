#pragma once
// The node's data directory: created on first start, checked writable, and
// locked so two nodes never share one.

#include <filesystem>

namespace sibyl::server {

class DataDirectory {
 public:
  // Creates `path` if missing, checks that files can be written in it and
  // takes an exclusive lock on `<path>/LOCK`. Throws ConfigError (one line)
  // when any of that fails.
  explicit DataDirectory(const std::filesystem::path& path);
  ~DataDirectory();
  DataDirectory(const DataDirectory&) = delete;
  DataDirectory& operator=(const DataDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  int lock_fd_ = -1;
};

}  // namespace sibyl::server
