#pragma once
// A small synchronous client for etcd's v3 API through its JSON gateway
// (HTTP/1.1): ranges, puts, deletes, transactions and leases. Watches have
// their own connection and thread: etcd_watch.h.
//
//   EtcdClient etcd({.endpoints = {"127.0.0.1:2379"}});
//   etcd.Put("/k", "v");
//   RangeResponse r = etcd.Range({.key = "/k"});
//
// Failover: requests go to the endpoint that last answered; when it cannot
// be reached the next is tried, in order, each within the connect timeout.
// A read (Range) is retried on every endpoint whatever went wrong. A write
// (Put, DeleteRange, Txn, lease calls) moves on only when the connection
// could not be made, since then nothing was sent; once sent, a lost reply
// throws EtcdUnavailable saying the outcome is unknown, rather than risk
// applying the write twice. A compare-and-swap writer resolves that doubt
// by reading (metadata_log.h).
//
// Every failure is an exception: EtcdUnavailable (no endpoint answered,
// timeouts, "no leader"), EtcdRequestFailed (etcd refused the request). No
// call blocks longer than (connect + request timeout) per endpoint tried,
// plus name resolution when endpoints are names.
//
// Thread-safety: every method may be called from any thread concurrently;
// each request has its own connection.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "metadata/etcd_error.h"
#include "metadata/etcd_messages.h"
#include "metadata/etcd_transport.h"

namespace sibyl::metadata {

struct EtcdOptions {
  // "host:port" or "http://host:port", as etcd's --advertise-client-urls.
  std::vector<std::string> endpoints;
  std::chrono::milliseconds connect_timeout{1000};  // Default: 1 s per endpoint
  std::chrono::milliseconds request_timeout{5000};  // Default: 5 s
};

class EtcdClient {
 public:
  // Throws std::invalid_argument when there is no endpoint or one cannot
  // be parsed. Connects to nothing yet.
  explicit EtcdClient(const EtcdOptions& options);

  [[nodiscard]] RangeResponse Range(const RangeRequest& request);
  // Returns the store's revision after the put.
  int64_t Put(const PutRequest& request);
  // Returns how many keys were deleted.
  int64_t DeleteRange(const DeleteRangeRequest& request);
  [[nodiscard]] TxnResponse Txn(const TxnRequest& request);
  // A lease of `ttl_seconds`; keys put with it vanish when it expires.
  [[nodiscard]] LeaseGrant GrantLease(int64_t ttl_seconds);
  // Renews `lease`; the returned ttl is 0 when the lease no longer exists.
  [[nodiscard]] LeaseGrant KeepAliveLease(int64_t lease);

  const std::vector<EtcdEndpoint>& endpoints() const { return endpoints_; }
  const HttpTimeouts& timeouts() const { return timeouts_; }

 private:
  // POSTs `body` to `target`, failing over as the class comment says, and
  // returns the body of a 200 reply.
  std::string Call(std::string_view target, const std::string& body, bool idempotent);

  std::vector<EtcdEndpoint> endpoints_;
  HttpTimeouts timeouts_;
  std::atomic<size_t> preferred_{0};  // the endpoint that answered last
};

}  // namespace sibyl::metadata
