// EtcdClient against a real etcd: every call, failover, and the typed
// errors when etcd is not there.

#include "metadata/etcd_client.h"

#include <gtest/gtest.h>

#include "metadata/etcd_test_util.h"

namespace sibyl::metadata {
namespace {

class EtcdClientTest : public ::testing::Test {
 protected:
  testing::EtcdServer etcd_;
  EtcdClient client_{etcd_.options()};
};

TEST_F(EtcdClientTest, PutRangeAndDelete) {
  const int64_t first = client_.Put({.key = "/t/a", .value = "1"});
  client_.Put({.key = "/t/b", .value = std::string("\0\xff", 2)});
  client_.Put({.key = "/u", .value = "elsewhere"});
  client_.Put({.key = "/t/a", .value = "2"});

  const RangeResponse one = client_.Range({.key = "/t/a"});
  ASSERT_EQ(one.kvs.size(), 1u);
  EXPECT_EQ(one.kvs[0].value, "2");
  EXPECT_EQ(one.kvs[0].version, 2);

  const RangeResponse prefix = client_.Range({.key = "/t/", .range_end = PrefixEnd("/t/")});
  ASSERT_EQ(prefix.kvs.size(), 2u);
  EXPECT_EQ(prefix.kvs[1].value, std::string("\0\xff", 2));

  // An older revision shows the older value.
  const RangeResponse old = client_.Range({.key = "/t/a", .revision = first});
  EXPECT_EQ(old.kvs.at(0).value, "1");

  RangeRequest last{.key = "/t/", .range_end = PrefixEnd("/t/"), .limit = 1, .descending = true};
  const RangeResponse limited = client_.Range(last);
  ASSERT_EQ(limited.kvs.size(), 1u);
  EXPECT_EQ(limited.kvs[0].key, "/t/b");
  EXPECT_TRUE(limited.more);

  EXPECT_EQ(client_.DeleteRange({.key = "/t/", .range_end = PrefixEnd("/t/")}), 2);
  EXPECT_TRUE(client_.Range({.key = "/t/a"}).kvs.empty());
  EXPECT_EQ(client_.Range({.key = "/u"}).kvs.size(), 1u);
}

TEST_F(EtcdClientTest, TxnRunsOneBranch) {
  TxnRequest create;
  create.compare = {Compare::VersionEquals("/cas", 0)};
  create.success = {PutRequest{.key = "/cas", .value = "1"}};
  create.failure = {RangeRequest{.key = "/cas"}};
  EXPECT_TRUE(client_.Txn(create).succeeded);
  const TxnResponse again = client_.Txn(create);
  EXPECT_FALSE(again.succeeded);
  ASSERT_EQ(again.responses.size(), 1u);
  ASSERT_TRUE(again.responses[0].has_value());
  EXPECT_EQ(again.responses[0]->kvs.at(0).value, "1");

  const int64_t revision = client_.Range({.key = "/cas"}).kvs.at(0).mod_revision;
  TxnRequest swap;
  swap.compare = {Compare::ModRevisionEquals("/cas", revision), Compare::ValueEquals("/cas", "1")};
  swap.success = {PutRequest{.key = "/cas", .value = "2"}, RangeRequest{.key = "/cas"}};
  const TxnResponse swapped = client_.Txn(swap);
  ASSERT_TRUE(swapped.succeeded);
  EXPECT_FALSE(swapped.responses.at(0).has_value());
  EXPECT_EQ(swapped.responses.at(1)->kvs.at(0).value, "2");
  EXPECT_FALSE(client_.Txn(swap).succeeded);
}

TEST_F(EtcdClientTest, LeasesExpireKeys) {
  const LeaseGrant lease = client_.GrantLease(60);
  EXPECT_NE(lease.id, 0);
  EXPECT_EQ(lease.ttl, 60);
  client_.Put({.key = "/leased", .value = "x", .lease = lease.id});
  EXPECT_EQ(client_.Range({.key = "/leased"}).kvs.at(0).lease, lease.id);
  EXPECT_EQ(client_.KeepAliveLease(lease.id).ttl, 60);
  EXPECT_LE(client_.KeepAliveLease(12345).ttl, 0);  // no such lease
}

TEST_F(EtcdClientTest, RefusedRequestsAreTyped) {
  client_.Put({.key = "/k", .value = "v"});
  try {
    (void)client_.Range({.key = "/k", .revision = 1000000});
    ADD_FAILURE() << "expected an error";
  } catch (const EtcdRequestFailed& e) {
    EXPECT_EQ(e.code(), 11);
    EXPECT_NE(std::string(e.what()).find("future revision"), std::string::npos) << e.what();
  }
}

TEST_F(EtcdClientTest, FailsOverToAnEndpointThatAnswers) {
  const std::string dead = "127.0.0.1:" + std::to_string(testing::FreePort());
  EtcdClient client({.endpoints = {dead, "http://" + etcd_.endpoint()},
                     .connect_timeout = std::chrono::milliseconds(500)});
  // A write may move on: the dead endpoint refused the connection.
  EXPECT_GT(client.Put({.key = "/f", .value = "1"}), 0);
  EXPECT_EQ(client.Range({.key = "/f"}).kvs.at(0).value, "1");
}

TEST(EtcdClientUnavailableTest, NoEtcdIsATypedErrorNamingTheEndpoints) {
  const std::string a = "127.0.0.1:" + std::to_string(testing::FreePort());
  const std::string b = "127.0.0.1:" + std::to_string(testing::FreePort());
  EtcdClient client({.endpoints = {a, b},
                     .connect_timeout = std::chrono::milliseconds(300),
                     .request_timeout = std::chrono::milliseconds(300)});
  for (int i = 0; i < 2; ++i) {
    try {
      if (i == 0) (void)client.Range({.key = "/k"});
      if (i == 1) client.Put({.key = "/k", .value = "v"});
      ADD_FAILURE() << "expected EtcdUnavailable";
    } catch (const EtcdUnavailable& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("etcd unavailable (endpoints " + a + ", " + b + ")"),
                std::string::npos)
          << message;
      EXPECT_EQ(message.find('\n'), std::string::npos);
    }
  }
}

TEST(EtcdClientUnavailableTest, AnEndpointThatNeverAnswersTimesOut) {
  // A listening socket that never accepts: the connection is made by the
  // kernel, the request is never answered.
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor silent(
      io, boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0));
  const std::string endpoint = "127.0.0.1:" + std::to_string(silent.local_endpoint().port());
  EtcdClient client({.endpoints = {endpoint},
                     .connect_timeout = std::chrono::milliseconds(300),
                     .request_timeout = std::chrono::milliseconds(300)});
  try {
    (void)client.Range({.key = "/k"});
    ADD_FAILURE() << "expected EtcdUnavailable";
  } catch (const EtcdUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("timed out"), std::string::npos) << e.what();
  }
  // A write whose request went out may have been applied: the error says so.
  try {
    client.Put({.key = "/k", .value = "v"});
    ADD_FAILURE() << "expected EtcdUnavailable";
  } catch (const EtcdUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("may or may not have been applied"), std::string::npos)
        << e.what();
  }
}

TEST(EtcdClientOptionsTest, RejectsBadEndpoints) {
  EXPECT_THROW(EtcdClient({.endpoints = {}}), std::invalid_argument);
  EXPECT_THROW(EtcdClient({.endpoints = {"localhost"}}), std::invalid_argument);
  EXPECT_THROW(EtcdClient({.endpoints = {"https://127.0.0.1:2379"}}), std::invalid_argument);
  EXPECT_EQ(EtcdEndpoint::Parse("http://[::1]:2379/").ToString(), "[::1]:2379");
}

}  // namespace
}  // namespace sibyl::metadata
