#include "metrics/http_request_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sibyl::metrics {
namespace {

HttpRequestParser Parser(size_t max = 8192) { return HttpRequestParser({.max_head_bytes = max}); }

TEST(HttpRequestParser, ParsesAScrape) {
  auto parser = Parser();
  const std::string head =
      "GET /metrics?x=1 HTTP/1.1\r\nHost: localhost:9180\r\nAccept: text/plain\r\n\r\n";
  ASSERT_EQ(parser.Feed(head), HttpParse::kComplete);
  EXPECT_EQ(parser.consumed(), head.size());
  EXPECT_EQ(parser.request().method, "GET");
  EXPECT_EQ(parser.request().path, "/metrics");
  EXPECT_EQ(parser.request().minor_version, 1);
  EXPECT_TRUE(parser.request().keep_alive);
  EXPECT_FALSE(parser.request().has_body);
}

TEST(HttpRequestParser, TakesBytesOneAtATimeAndLeavesPipelinedOnes) {
  auto parser = Parser();
  const std::string head = "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n";
  for (size_t i = 0; i + 1 < head.size(); ++i) {
    ASSERT_EQ(parser.Feed(head.substr(i, 1)), HttpParse::kNeedMore) << i;
  }
  ASSERT_EQ(parser.Feed(head.substr(head.size() - 1) + "GET /next"), HttpParse::kComplete);
  EXPECT_EQ(parser.consumed(), 1u);  // "GET /next" is the next request's
  EXPECT_TRUE(parser.request().keep_alive);
  EXPECT_EQ(parser.request().minor_version, 0);
  parser.Reset();
  EXPECT_EQ(parser.Feed("GET /next HTTP/1.1\r\n\r\n"), HttpParse::kComplete);
  EXPECT_EQ(parser.request().path, "/next");
}

TEST(HttpRequestParser, TargetForms) {
  auto parser = Parser();
  ASSERT_EQ(parser.Feed("GET http://127.0.0.1:9180/metrics?a HTTP/1.1\r\n\r\n"),
            HttpParse::kComplete);
  EXPECT_EQ(parser.request().path, "/metrics");
  parser.Reset();
  ASSERT_EQ(parser.Feed("GET http://127.0.0.1:9180 HTTP/1.1\r\n\r\n"), HttpParse::kComplete);
  EXPECT_EQ(parser.request().path, "/");
  parser.Reset();
  ASSERT_EQ(parser.Feed("OPTIONS * HTTP/1.1\r\n\r\n"), HttpParse::kComplete);
  EXPECT_EQ(parser.request().path, "*");
  for (const char* bad : {"GET ?/metrics HTTP/1.1\r\n\r\n", "GET metrics HTTP/1.1\r\n\r\n"}) {
    parser.Reset();
    EXPECT_EQ(parser.Feed(bad), HttpParse::kBad) << bad;
  }
}

TEST(HttpRequestParser, ConnectionCloseAndBodies) {
  auto parser = Parser();
  ASSERT_EQ(parser.Feed("GET /metrics HTTP/1.1\r\nconnection: close\r\n\r\n"),
            HttpParse::kComplete);
  EXPECT_FALSE(parser.request().keep_alive);
  parser.Reset();
  ASSERT_EQ(parser.Feed("GET /metrics HTTP/1.0\r\n\r\n"), HttpParse::kComplete);
  EXPECT_FALSE(parser.request().keep_alive);  // 1.0 closes unless asked
  parser.Reset();
  ASSERT_EQ(parser.Feed("POST /metrics HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"),
            HttpParse::kComplete);
  EXPECT_TRUE(parser.request().has_body);
  parser.Reset();
  EXPECT_EQ(parser.Feed("POST / HTTP/1.1\r\nContent-Length: lots\r\n\r\n"), HttpParse::kBad);
}

TEST(HttpRequestParser, RefusesGarbage) {
  using namespace std::string_literals;
  for (const std::string& bad : std::vector<std::string>{
           "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n"s,  // a TLS hello, say
           "GET\r\n\r\n"s, "GET /metrics\r\n\r\n"s, "GET /metrics HTTP/2.0\r\n\r\n"s,
           "GET /metrics FTP/1.1\r\n\r\n"s, "GET  /metrics HTTP/1.1\r\n\r\n"s,
           "G(T /metrics HTTP/1.1\r\n\r\n"s, "GET /metrics HTTP/1.1\r\nno colon here\r\n\r\n"s,
           "GET /metrics HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n"s,
           "GET /met\0rics HTTP/1.1\r\n\r\n"s}) {
    auto parser = Parser();
    EXPECT_EQ(parser.Feed(bad), HttpParse::kBad) << bad;
  }
}

TEST(HttpRequestParser, RefusesHugeHeadsWithoutKeepingThem) {
  auto parser = Parser(1024);
  EXPECT_EQ(parser.Feed("GET /metrics HTTP/1.1\r\n"), HttpParse::kNeedMore);
  const std::string field = "X-Filler: " + std::string(200, 'a') + "\r\n";
  HttpParse state = HttpParse::kNeedMore;
  for (int i = 0; i < 1000 && state == HttpParse::kNeedMore; ++i) state = parser.Feed(field);
  EXPECT_EQ(state, HttpParse::kTooLarge);
  // A complete head just over the limit is refused too.
  auto exact = Parser(64);
  EXPECT_EQ(exact.Feed("GET /metrics HTTP/1.1\r\nX: " + std::string(40, 'b') + "\r\n\r\n"),
            HttpParse::kTooLarge);
}

}  // namespace
}  // namespace sibyl::metrics
