#include "cluster/streaming/stream_progress.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace sibyl::cluster::streaming {

StreamProgress::StreamProgress(std::filesystem::path directory, const types::Uuid& plan_id)
    : file_(directory / (plan_id.ToString() + ".stream")) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    throw std::runtime_error("Cannot create " + directory.string() + ": " + error.message());
  }
  std::ifstream in(file_);
  std::string line;
  while (std::getline(in, line)) {
    if (in.eof()) break;  // no newline: a torn append
    std::istringstream fields(line);
    std::string table;
    SliceKey key;
    if (!(fields >> table >> key.start >> key.end)) continue;
    const auto id = types::Uuid::Parse(table);
    if (!id) continue;
    key.table_id = *id;
    done_.insert(key);
  }
}

bool StreamProgress::Done(const types::Uuid& table_id, const storage::TokenRange& slice) const {
  return done_.contains(SliceKey{table_id, slice.start, slice.end});
}

void StreamProgress::MarkDone(const types::Uuid& table_id, const storage::TokenRange& slice) {
  const std::string line = table_id.ToString() + " " + std::to_string(slice.start) + " " +
                           std::to_string(slice.end) + "\n";
  const int fd = ::open(file_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0)
    throw std::runtime_error("Cannot open " + file_.string() + ": " + std::strerror(errno));
  const bool written = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) &&
                       ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!written) {
    throw std::runtime_error("Cannot record stream progress in " + file_.string() + ": " +
                             std::strerror(saved));
  }
  done_.insert(SliceKey{table_id, slice.start, slice.end});
}

void StreamProgress::Remove() {
  std::error_code ignored;
  std::filesystem::remove(file_, ignored);
  done_.clear();
}

}  // namespace sibyl::cluster::streaming
