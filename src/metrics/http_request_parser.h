#pragma once
// Reads the head of an HTTP/1.x request (request line and header fields)
// from bytes as they arrive, for the metrics endpoint. Free of sockets: it
// eats bytes and answers complete / bad / too large / need more, so it is
// tested on byte arrays.
//
//   HttpRequestParser parser({.max_head_bytes = 8192});
//   switch (parser.Feed(bytes)) { case HttpParse::kComplete: ... parser.request() ... }
//
// Only what a scrape needs is kept: the method, the path (the target
// without its query), the version, whether the client wants the connection
// kept open, and whether a body follows (the endpoint answers and closes
// rather than read one). Bytes after the head are left for the next
// request (HTTP pipelining): Feed reports how many it consumed.
//
// Thread-safety: none; one parser per connection.

#include <cstddef>
#include <string>
#include <string_view>

namespace sibyl::metrics {

enum class HttpParse {
  kNeedMore,  // no complete head yet
  kComplete,  // request() is set
  kBad,       // not an HTTP/1.x request head: answer 400 and close
  kTooLarge,  // the head is longer than max_head_bytes: answer 431 and close
};

struct HttpRequest {
  std::string method;
  std::string path;  // the target up to any '?'
  int minor_version = 1;
  bool keep_alive = true;  // HTTP/1.1 unless "Connection: close"; 1.0 only with keep-alive
  bool has_body = false;   // Content-Length > 0 or Transfer-Encoding
};

class HttpRequestParser {
 public:
  struct Options {
    // Longest request head accepted, request line and fields. Default: 8 KiB.
    size_t max_head_bytes = 8192;
  };
  explicit HttpRequestParser(Options options) : options_(options) {}

  // Takes the next bytes of the stream. After kComplete, consumed() says how
  // many of `bytes` belonged to the head; Reset() starts the next request.
  HttpParse Feed(std::string_view bytes);
  size_t consumed() const { return consumed_; }
  const HttpRequest& request() const { return request_; }
  void Reset();

 private:
  HttpParse Parse(std::string_view head);

  Options options_;
  std::string head_;  // the bytes of the head seen so far
  size_t consumed_ = 0;
  HttpRequest request_;
};

}  // namespace sibyl::metrics
