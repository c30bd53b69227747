#include "metadata/etcd_client.h"

#include <stdexcept>

namespace sibyl::metadata {
namespace {

// gRPC status codes etcd uses when it cannot serve now (no leader, leader
// changed, request timed out inside etcd): worth another endpoint.
constexpr int kGrpcDeadlineExceeded = 4;
constexpr int kGrpcUnavailable = 14;

template <typename Parse>
auto ParseReply(std::string_view target, const std::string& body, Parse parse) {
  try {
    return parse(body);
  } catch (const std::invalid_argument& e) {
    throw EtcdRequestFailed(
        2, std::string("unexpected etcd reply to ") + std::string(target) + ": " + e.what());
  }
}

}  // namespace

EtcdClient::EtcdClient(const EtcdOptions& options)
    : timeouts_{options.connect_timeout, options.request_timeout} {
  if (options.endpoints.empty()) throw std::invalid_argument("no etcd endpoint configured");
  for (const std::string& endpoint : options.endpoints) {
    endpoints_.push_back(EtcdEndpoint::Parse(endpoint));
  }
}

std::string EtcdClient::Call(std::string_view target, const std::string& body, bool idempotent) {
  const size_t start = preferred_.load(std::memory_order_relaxed);
  std::string failures;
  for (size_t i = 0; i < endpoints_.size(); ++i) {
    const size_t index = (start + i) % endpoints_.size();
    const EtcdEndpoint& endpoint = endpoints_[index];
    std::string failure;
    try {
      const HttpReply reply = PostJson(endpoint, target, body, timeouts_);
      if (reply.status == 200) {
        preferred_.store(index, std::memory_order_relaxed);
        return reply.body;
      }
      const GatewayError error = ParseGatewayError(reply.body);
      if (error.code != kGrpcUnavailable && error.code != kGrpcDeadlineExceeded) {
        throw EtcdRequestFailed(error.code, "etcd at " + endpoint.ToString() + " refused " +
                                                std::string(target) + ": " + error.message);
      }
      failure = endpoint.ToString() + ": " + error.message;
      if (!idempotent) {
        throw EtcdUnavailable("etcd at " + endpoint.ToString() + " could not complete " +
                              std::string(target) + " (" + error.message +
                              "); it may or may not have been applied");
      }
    } catch (const HttpFailure& e) {
      if (e.stage() == HttpFailure::Stage::kExchange && !idempotent) {
        throw EtcdUnavailable("etcd " + std::string(target) + " failed: " + e.what() +
                              "; it may or may not have been applied");
      }
      failure = e.what();
    }
    if (!failures.empty()) failures += "; ";
    failures += failure;
  }
  throw EtcdUnavailable("etcd unavailable (endpoints " + DescribeEndpoints(endpoints_) +
                        "): " + failures);
}

RangeResponse EtcdClient::Range(const RangeRequest& request) {
  constexpr std::string_view kTarget = "/v3/kv/range";
  return ParseReply(kTarget, Call(kTarget, RangeToJson(request), true), ParseRangeResponse);
}

int64_t EtcdClient::Put(const PutRequest& request) {
  constexpr std::string_view kTarget = "/v3/kv/put";
  return ParseReply(kTarget, Call(kTarget, PutToJson(request), false), ParseRevision);
}

int64_t EtcdClient::DeleteRange(const DeleteRangeRequest& request) {
  constexpr std::string_view kTarget = "/v3/kv/deleterange";
  return ParseReply(kTarget, Call(kTarget, DeleteRangeToJson(request), false), ParseDeletedCount);
}

TxnResponse EtcdClient::Txn(const TxnRequest& request) {
  constexpr std::string_view kTarget = "/v3/kv/txn";
  return ParseReply(kTarget, Call(kTarget, TxnToJson(request), false), ParseTxnResponse);
}

LeaseGrant EtcdClient::GrantLease(int64_t ttl_seconds) {
  constexpr std::string_view kTarget = "/v3/lease/grant";
  return ParseReply(kTarget, Call(kTarget, LeaseGrantToJson(ttl_seconds), false),
                    ParseLeaseResponse);
}

LeaseGrant EtcdClient::KeepAliveLease(int64_t lease) {
  // A streaming RPC on the gateway: one request, one reply, then the
  // gateway ends the stream. Renewing twice is harmless, hence idempotent.
  constexpr std::string_view kTarget = "/v3/lease/keepalive";
  return ParseReply(kTarget, Call(kTarget, LeaseIdToJson(lease), true), ParseLeaseResponse);
}

}  // namespace sibyl::metadata
