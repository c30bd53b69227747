#include "tools/shell/line_source.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace sibyl::tools::shell {

bool StreamLineSource::Fill() {
  if (at_end_) return false;
  while (true) {
    if (stop_ != nullptr && stop_->load()) {
      at_end_ = true;
      return false;
    }
    pollfd waiting{fd_, POLLIN, 0};
    const int ready = poll(&waiting, 1, 100);
    if (ready == 0 || (ready < 0 && errno == EINTR)) continue;
    char chunk[65536];
    const ssize_t n = read(fd_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      at_end_ = true;
      return false;
    }
    buffer_.append(chunk, static_cast<size_t>(n));
    return true;
  }
}

InputLine StreamLineSource::ReadLine(const std::string& /*prompt*/) {
  InputLine line;
  size_t end = buffer_.find('\n', offset_);
  while (end == std::string::npos) {
    // Keep only the unread part before reading more.
    buffer_.erase(0, offset_);
    offset_ = 0;
    const size_t searched = buffer_.size();
    if (!Fill()) break;
    end = buffer_.find('\n', searched);
  }
  if (end == std::string::npos) {
    if (offset_ >= buffer_.size()) return line;  // the end: nothing left
    end = buffer_.size();                        // a last line without '\n'
  }
  line.text = buffer_.substr(offset_, end - offset_);
  offset_ = end + 1;
  if (!line.text.empty() && line.text.back() == '\r') line.text.pop_back();
  ++line_number_;
  line.kind = InputLine::Kind::kLine;
  return line;
}

}  // namespace sibyl::tools::shell
