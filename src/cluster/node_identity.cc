// The node identity file, `<data dir>/node_identity`:
//
//   # Sibyl node identity: written at first start, read at every start. ...
//   host_id: 0e5b4c1a-7d7b-4c1e-9f0e-5d7e9c1b2a3f
//   tokens: -9017023442271011010,-4567,...,8817026745612000123
//
// Lines starting with '#' and blank lines are ignored; tokens are sorted,
// distinct, comma-separated signed 64-bit integers.

#include "cluster/node_identity.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "types/uuid.h"

namespace sibyl::cluster {
namespace {

namespace fs = std::filesystem;

constexpr const char* kFileName = "node_identity";

[[noreturn]] void Fail(const std::string& message) { throw std::runtime_error(message); }

std::string Trim(std::string_view s) {
  const auto begin = s.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos) return {};
  const auto end = s.find_last_not_of(" \t\r");
  return std::string(s.substr(begin, end - begin + 1));
}

std::vector<dht::Token> ParseTokens(const std::string& text, const std::string& where) {
  std::vector<dht::Token> tokens;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = Trim(std::string_view(text).substr(start, comma - start));
    dht::Token token = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), token);
    if (item.empty() || error != std::errc() || end != item.data() + item.size()) {
      Fail(where + ": '" + item + "' is not a token (a signed 64-bit integer)");
    }
    if (token == dht::kMinimumToken)
      Fail(where + ": the minimum token " + item + " cannot be owned");
    tokens.push_back(token);
    start = comma + 1;
  }
  std::sort(tokens.begin(), tokens.end());
  if (std::adjacent_find(tokens.begin(), tokens.end()) != tokens.end()) {
    Fail(where + ": tokens repeat");
  }
  return tokens;
}

NodeIdentity ReadIdentity(const fs::path& path) {
  std::ifstream in(path);
  if (!in) Fail("Cannot read node identity " + path.string() + ": " + std::strerror(errno));
  NodeIdentity identity;
  bool have_host_id = false;
  bool have_tokens = false;
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    const std::string trimmed = Trim(line);
    if (trimmed.empty() || trimmed[0] == '#') continue;
    const std::string where =
        "Invalid node identity " + path.string() + " line " + std::to_string(line_number);
    const auto colon = trimmed.find(':');
    if (colon == std::string::npos) Fail(where + ": expected 'key: value'");
    const std::string key = Trim(std::string_view(trimmed).substr(0, colon));
    const std::string value = Trim(std::string_view(trimmed).substr(colon + 1));
    if (key == "host_id") {
      const auto uuid = types::Uuid::Parse(value);
      if (!uuid) Fail(where + ": '" + value + "' is not a UUID");
      identity.host_id = uuid->bytes;
      have_host_id = true;
    } else if (key == "tokens") {
      identity.tokens = ParseTokens(value, where);
      have_tokens = true;
    } else {
      Fail(where + ": unknown key '" + key + "'");
    }
  }
  if (in.bad()) Fail("Cannot read node identity " + path.string() + ": " + std::strerror(errno));
  if (!have_host_id) Fail("Invalid node identity " + path.string() + ": no host_id");
  if (!have_tokens) Fail("Invalid node identity " + path.string() + ": no tokens");
  return identity;
}

std::string Serialize(const NodeIdentity& identity) {
  std::ostringstream out;
  out << "# Sibyl node identity: written at first start, read at every start.\n"
         "# The ring knows this node by these tokens; do not edit.\n";
  out << "host_id: " << types::Uuid{identity.host_id}.ToString() << "\n";
  out << "tokens: ";
  for (size_t i = 0; i < identity.tokens.size(); ++i) {
    if (i > 0) out << ',';
    out << identity.tokens[i];
  }
  out << "\n";
  return out.str();
}

// Writes `contents` to `path` so that a crash leaves either the old file or
// the new one: a temporary file, fsynced, renamed over, then the directory
// fsynced so the rename itself is durable.
void WriteAtomically(const fs::path& path, const std::string& contents) {
  const fs::path temp = path.string() + ".tmp";
  const auto fail = [&](const char* action) {
    const int saved = errno;
    Fail("Cannot write node identity " + path.string() + " (" + action +
         "): " + std::strerror(saved));
  };
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("open");
  size_t written = 0;
  while (written < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int saved = errno;
      ::close(fd);
      errno = saved;
      fail("write");
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    fail("fsync");
  }
  if (::close(fd) != 0) fail("close");
  if (::rename(temp.c_str(), path.c_str()) != 0) fail("rename");
  const int dir_fd = ::open(path.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) fail("open directory");
  if (::fsync(dir_fd) != 0) {
    const int saved = errno;
    ::close(dir_fd);
    errno = saved;
    fail("fsync directory");
  }
  ::close(dir_fd);
}

}  // namespace

NodeIdentity LoadOrCreateNodeIdentity(const std::filesystem::path& data_dir, int num_tokens,
                                      std::string& warning) {
  warning.clear();
  std::error_code error;
  fs::create_directories(data_dir, error);
  if (error) Fail("Cannot create data directory " + data_dir.string() + ": " + error.message());
  const fs::path path = data_dir / kFileName;

  if (fs::exists(path, error)) {
    NodeIdentity identity = ReadIdentity(path);
    if (static_cast<int>(identity.tokens.size()) != num_tokens) {
      warning = "Node identity " + path.string() + " holds " +
                std::to_string(identity.tokens.size()) + " tokens but num_tokens is " +
                std::to_string(num_tokens) +
                "; keeping the stored tokens (a node's tokens do not change once it owns them)";
    }
    return identity;
  }
  if (error) Fail("Cannot read node identity " + path.string() + ": " + error.message());
  if (num_tokens < 1) Fail("Cannot create a node identity: num_tokens must be at least 1");

  NodeIdentity identity;
  identity.host_id = types::Uuid::Random().bytes;
  std::random_device entropy;
  std::seed_seq seed{entropy(), entropy(), entropy(), entropy()};
  std::mt19937_64 rng(seed);
  identity.tokens = dht::RandomTokens(num_tokens, rng);
  WriteAtomically(path, Serialize(identity));
  return identity;
}

bool HasNodeIdentity(const std::filesystem::path& data_dir) {
  std::error_code error;
  return fs::exists(data_dir / kFileName, error);
}

void SaveNodeIdentity(const std::filesystem::path& data_dir, const NodeIdentity& identity) {
  WriteAtomically(data_dir / kFileName, Serialize(identity));
}

}  // namespace sibyl::cluster
