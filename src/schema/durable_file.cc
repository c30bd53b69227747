#include "schema/durable_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace sibyl::schema {
namespace {

std::string ErrnoText(const std::string& what, const std::filesystem::path& path) {
  return what + " " + path.string() + ": " + std::strerror(errno);
}

// Writes `data` to `path` and fsyncs it; throws std::runtime_error.
void WriteFileDurably(const std::filesystem::path& path, BytesView data) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(ErrnoText("cannot create", path));
  size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string message = ErrnoText("cannot write", path);
      ::close(fd);
      throw std::runtime_error(message);
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const std::string message = ErrnoText("cannot fsync", path);
    ::close(fd);
    throw std::runtime_error(message);
  }
  if (::close(fd) != 0) throw std::runtime_error(ErrnoText("cannot close", path));
}

void SyncDirectory(const std::filesystem::path& directory) {
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(ErrnoText("cannot open", directory));
  const int result = ::fsync(fd);
  ::close(fd);
  if (result != 0) throw std::runtime_error(ErrnoText("cannot fsync", directory));
}

}  // namespace

void ReplaceFileDurably(const std::filesystem::path& path, const std::filesystem::path& temporary,
                        BytesView data) {
  WriteFileDurably(temporary, data);
  std::filesystem::rename(temporary, path);
  SyncDirectory(path.has_parent_path() ? path.parent_path() : std::filesystem::path("."));
}

}  // namespace sibyl::schema
