// The gateway's JSON, both ways, on strings captured from etcd 3.4.

#include "metadata/etcd_messages.h"

#include <gtest/gtest.h>

namespace sibyl::metadata {
namespace {

TEST(EtcdMessagesTest, Base64RoundTripsEveryLength) {
  std::string data;
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(DecodeBase64(EncodeBase64(data)), data) << "length " << i;
    data += static_cast<char>(i * 37);
  }
  EXPECT_EQ(EncodeBase64("/a/epoch"), "L2EvZXBvY2g=");
  EXPECT_THROW((void)DecodeBase64("abc"), std::invalid_argument);
  EXPECT_THROW((void)DecodeBase64("a*c="), std::invalid_argument);
}

TEST(EtcdMessagesTest, PrefixEndIncrementsTheLastByteThatCan) {
  EXPECT_EQ(PrefixEnd("/sibyl/log/"), "/sibyl/log0");
  EXPECT_EQ(PrefixEnd(std::string("a\xff", 2)), "b");
  EXPECT_EQ(PrefixEnd(std::string("\xff", 1)), std::string(1, '\0'));
}

TEST(EtcdMessagesTest, EncodesRequests) {
  RangeRequest range{.key = "/a", .range_end = "/b", .limit = 5, .revision = 9, .descending = true};
  EXPECT_EQ(RangeToJson(range), R"({"key":"L2E=","range_end":"L2I=","limit":"5","revision":"9",)"
                                R"("sort_order":"DESCEND","sort_target":"KEY"})");
  TxnRequest txn;
  txn.compare = {Compare::ValueEquals("/e", "1"), Compare::VersionEquals("/f", 0)};
  txn.success = {PutRequest{.key = "/e", .value = "2"}, DeleteRangeRequest{.key = "/g"}};
  txn.failure = {RangeRequest{.key = "/e"}};
  EXPECT_EQ(TxnToJson(txn),
            R"({"compare":[{"key":"L2U=","target":"VALUE","result":"EQUAL","value":"MQ=="},)"
            R"({"key":"L2Y=","target":"VERSION","result":"EQUAL","version":"0"}],)"
            R"("success":[{"request_put":{"key":"L2U=","value":"Mg=="}},)"
            R"({"request_delete_range":{"key":"L2c="}}],)"
            R"("failure":[{"request_range":{"key":"L2U="}}]})");
  EXPECT_EQ(WatchCreateToJson("/p", "/q", 7),
            R"({"create_request":{"key":"L3A=","range_end":"L3E=","start_revision":"7"}})");
}

TEST(EtcdMessagesTest, ParsesRangeAndTxnReplies) {
  const RangeResponse range = ParseRangeResponse(
      R"({"header":{"cluster_id":"1","member_id":"2","revision":"2","raft_term":"2"},)"
      R"("kvs":[{"key":"L2EvZXBvY2g=","create_revision":"2","mod_revision":"2","version":"1",)"
      R"("value":"MQ=="}],"count":"1"})");
  EXPECT_EQ(range.revision, 2);
  ASSERT_EQ(range.kvs.size(), 1u);
  EXPECT_EQ(range.kvs[0].key, "/a/epoch");
  EXPECT_EQ(range.kvs[0].value, "1");
  EXPECT_EQ(range.kvs[0].version, 1);
  EXPECT_FALSE(range.more);

  const TxnResponse txn = ParseTxnResponse(
      R"({"header":{"revision":"3"},"succeeded":true,"responses":[)"
      R"({"response_put":{"header":{"revision":"3"}}},)"
      R"({"response_range":{"header":{"revision":"3"},"kvs":[{"key":"L2E=","value":"Mg==",)"
      R"("mod_revision":"3"}],"count":"1"}}]})");
  EXPECT_TRUE(txn.succeeded);
  ASSERT_EQ(txn.responses.size(), 2u);
  EXPECT_FALSE(txn.responses[0].has_value());
  ASSERT_TRUE(txn.responses[1].has_value());
  EXPECT_EQ(txn.responses[1]->kvs.at(0).value, "2");
  // A failed compare leaves "succeeded" out.
  EXPECT_FALSE(ParseTxnResponse(R"({"header":{"revision":"3"}})").succeeded);
  EXPECT_THROW((void)ParseRangeResponse("[1]"), std::invalid_argument);
  EXPECT_THROW((void)ParseRangeResponse(R"({"kvs":[{"key":"***"}]})"), std::invalid_argument);
}

TEST(EtcdMessagesTest, ParsesWatchMessages) {
  const WatchMessage created =
      ParseWatchMessage(R"({"result":{"header":{"revision":"4"},"created":true}})");
  EXPECT_TRUE(created.created);
  EXPECT_TRUE(created.events.empty());
  const WatchMessage events = ParseWatchMessage(
      R"({"result":{"header":{"revision":"4"},"events":[{"kv":{"key":"L2E=","value":"MQ==",)"
      R"("mod_revision":"2"}},{"type":"DELETE","kv":{"key":"L2E=","mod_revision":"4"}}]}})");
  ASSERT_EQ(events.events.size(), 2u);
  EXPECT_EQ(events.events[0].type, WatchEvent::Type::kPut);
  EXPECT_EQ(events.events[0].kv.value, "1");
  EXPECT_EQ(events.events[1].type, WatchEvent::Type::kDelete);
  EXPECT_EQ(events.events[1].kv.mod_revision, 4);
  const WatchMessage compacted = ParseWatchMessage(
      R"({"result":{"header":{"raft_term":"2"},"canceled":true,"compact_revision":"3"}})");
  EXPECT_TRUE(compacted.canceled);
  EXPECT_EQ(compacted.compact_revision, 3);
}

TEST(EtcdMessagesTest, ParsesGatewayErrors) {
  const GatewayError error = ParseGatewayError(
      R"({"error":"etcdserver: mvcc: required revision has been compacted",)"
      R"("message":"etcdserver: mvcc: required revision has been compacted","code":11})");
  EXPECT_EQ(error.code, 11);
  EXPECT_EQ(error.message, "etcdserver: mvcc: required revision has been compacted");
  const GatewayError stream =
      ParseGatewayError(R"({"error":{"grpc_code":14,"http_code":503,"message":"no leader"}})");
  EXPECT_EQ(stream.code, 14);
  EXPECT_EQ(stream.message, "no leader");
  const GatewayError garbage = ParseGatewayError("404 page not found");
  EXPECT_EQ(garbage.code, 2);
  EXPECT_EQ(garbage.message, "404 page not found");
}

}  // namespace
}  // namespace sibyl::metadata
