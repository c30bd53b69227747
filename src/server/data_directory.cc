#include "server/data_directory.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "server/config.h"

namespace sibyl::server {

DataDirectory::DataDirectory(const std::filesystem::path& path) : path_(path) {
  std::error_code ec;
  std::filesystem::create_directories(path_, ec);
  if (ec) {
    throw ConfigError("Cannot create data directory " + path_.string() + ": " + ec.message());
  }
  const auto lock_path = path_ / "LOCK";
  lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) {
    throw ConfigError("Data directory " + path_.string() +
                      " is not writable: " + std::strerror(errno));
  }
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw ConfigError("Data directory " + path_.string() + " is in use by another sibyl process");
  }
  // open(O_CREAT) can succeed on an existing file in a read-only directory;
  // creating a new file proves the directory itself is writable.
  const auto probe = path_ / ".write-probe";
  int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0 || ::write(fd, "ok", 2) != 2) {
    int err = errno;
    if (fd >= 0) ::close(fd);
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw ConfigError("Data directory " + path_.string() +
                      " is not writable: " + std::strerror(err));
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

DataDirectory::~DataDirectory() {
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

}  // namespace sibyl::server
