#include "server/live_data_size.h"

#include <system_error>

namespace sibyl::server {

std::optional<int64_t> LiveDataSize(const std::filesystem::path& engine_directory) {
  std::error_code error;
  std::filesystem::directory_iterator it(engine_directory, error);
  if (error) return std::nullopt;
  int64_t total = 0;
  for (; it != std::filesystem::directory_iterator(); it.increment(error)) {
    if (error) return std::nullopt;
    if (it->path().extension() != ".sst") continue;
    std::error_code size_error;
    const auto size = it->file_size(size_error);
    if (!size_error) total += static_cast<int64_t>(size);
  }
  return total;
}

}  // namespace sibyl::server
