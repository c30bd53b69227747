#pragma once
// The messages of etcd's v3 API that Sibyl uses, and their JSON form on
// the gRPC gateway (/v3/kv/range, /v3/kv/put, /v3/kv/deleterange,
// /v3/kv/txn, /v3/lease/*, /v3/watch). On the gateway keys and values are
// base64, 64-bit integers are JSON strings ("revision":"12"), and fields
// equal to their default are left out. Encoders and decoders touch no
// socket: they are tested on strings.
//
// Ranges follow etcd: `range_end` empty means the one key `key`; otherwise
// the keys in [key, range_end). PrefixEnd(p) is the range_end of every key
// that starts with p.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace sibyl::metadata {

struct KeyValue {
  std::string key{};
  std::string value{};
  int64_t create_revision = 0;
  int64_t mod_revision = 0;
  int64_t version = 0;  // 0 for a key that does not exist (or was deleted)
  int64_t lease = 0;
};

struct RangeRequest {
  std::string key{};
  std::string range_end{};  // empty: `key` alone
  int64_t limit = 0;        // 0: no limit
  int64_t revision = 0;     // 0: the latest
  bool descending = false;  // by key; ascending otherwise
};

struct RangeResponse {
  int64_t revision = 0;  // the store's revision when the range was read
  std::vector<KeyValue> kvs{};
  bool more = false;  // limit cut the result short
  int64_t count = 0;  // keys in the range
};

struct PutRequest {
  std::string key{};
  std::string value{};
  int64_t lease = 0;
};

struct DeleteRangeRequest {
  std::string key{};
  std::string range_end{};
};

struct Compare {
  enum class Target { kVersion, kCreateRevision, kModRevision, kValue };
  enum class Result { kEqual, kGreater, kLess, kNotEqual };
  std::string key{};
  Target target = Target::kValue;
  Result result = Result::kEqual;
  std::string value{};  // for kValue
  int64_t number = 0;   // for the other targets

  static Compare ValueEquals(std::string key, std::string value);
  static Compare VersionEquals(std::string key, int64_t version);  // 0: the key does not exist
  static Compare ModRevisionEquals(std::string key, int64_t revision);
};

using TxnOp = std::variant<PutRequest, DeleteRangeRequest, RangeRequest>;

struct TxnRequest {
  std::vector<Compare> compare;  // all must hold for `success` to run
  std::vector<TxnOp> success;
  std::vector<TxnOp> failure;
};

struct TxnResponse {
  int64_t revision = 0;
  bool succeeded = false;
  // One per operation of the branch that ran: the range's result for a
  // range, nullopt for a put or a delete.
  std::vector<std::optional<RangeResponse>> responses;
};

struct WatchEvent {
  enum class Type { kPut, kDelete };
  Type type = Type::kPut;
  KeyValue kv;
};

// One message of a watch stream.
struct WatchMessage {
  int64_t revision = 0;
  bool created = false;
  bool canceled = false;
  int64_t compact_revision = 0;  // set when canceled because the start revision was compacted
  std::string cancel_reason{};
  std::vector<WatchEvent> events;
};

// An error the gateway answered with.
struct GatewayError {
  int code = 2;  // gRPC status code (2: unknown)
  std::string message{};
};

[[nodiscard]] std::string PrefixEnd(std::string_view prefix);

[[nodiscard]] std::string EncodeBase64(std::string_view data);
// Throws std::invalid_argument when `text` is not base64.
[[nodiscard]] std::string DecodeBase64(std::string_view text);

[[nodiscard]] std::string RangeToJson(const RangeRequest& request);
[[nodiscard]] std::string PutToJson(const PutRequest& request);
[[nodiscard]] std::string DeleteRangeToJson(const DeleteRangeRequest& request);
[[nodiscard]] std::string TxnToJson(const TxnRequest& request);
[[nodiscard]] std::string WatchCreateToJson(const std::string& key, const std::string& range_end,
                                            int64_t start_revision);
[[nodiscard]] std::string LeaseGrantToJson(int64_t ttl_seconds);
[[nodiscard]] std::string LeaseIdToJson(int64_t lease);

// Decoders: throw std::invalid_argument when the text is not the message.
[[nodiscard]] RangeResponse ParseRangeResponse(std::string_view json);
[[nodiscard]] int64_t ParseRevision(std::string_view json);      // a put's header revision
[[nodiscard]] int64_t ParseDeletedCount(std::string_view json);  // deleterange's "deleted"
[[nodiscard]] TxnResponse ParseTxnResponse(std::string_view json);
[[nodiscard]] WatchMessage ParseWatchMessage(std::string_view json);
struct LeaseGrant {
  int64_t id = 0;
  int64_t ttl = 0;  // seconds; 0 or less from a keepalive: the lease is gone
};
[[nodiscard]] LeaseGrant ParseLeaseResponse(std::string_view json);
// Never throws: a body that is not the gateway's error gives code 2 and the body.
[[nodiscard]] GatewayError ParseGatewayError(std::string_view json);

}  // namespace sibyl::metadata
