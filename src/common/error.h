#pragma once
// The error taxonomy of the CQL native protocol (native_protocol_v5.spec,
// section 9). Every error a client sees is one of these codes; the numeric
// values are the wire values — do not change them.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "common/bytes.h"

namespace sibyl {

enum class ErrorCode : int32_t {
  kServerError = 0x0000,
  kProtocolError = 0x000A,
  kBadCredentials = 0x0100,
  kUnavailable = 0x1000,
  kOverloaded = 0x1001,
  kIsBootstrapping = 0x1002,
  kTruncateError = 0x1003,
  kWriteTimeout = 0x1100,
  kReadTimeout = 0x1200,
  kReadFailure = 0x1300,
  kFunctionFailure = 0x1400,
  kWriteFailure = 0x1500,
  kCdcWriteFailure = 0x1600,
  kCasWriteUnknown = 0x1700,
  kSyntaxError = 0x2000,
  kUnauthorized = 0x2100,
  kInvalid = 0x2200,
  kConfigError = 0x2300,
  kAlreadyExists = 0x2400,
  kUnprepared = 0x2500,
};

// Extra body fields that some error codes carry after the message.
struct AlreadyExistsInfo {
  std::string keyspace;
  std::string table;  // empty for a keyspace
};
struct UnpreparedInfo {
  Bytes id;
};
struct UnavailableInfo {
  uint16_t consistency;
  int32_t required;
  int32_t alive;
};
// Coordinator-side failures (native_protocol_v5.spec section 8). `write_type`
// is the spec's name: SIMPLE, BATCH, UNLOGGED_BATCH, COUNTER, BATCH_LOG, CAS,
// VIEW, CDC.
struct WriteTimeoutInfo {
  uint16_t consistency;
  int32_t received;
  int32_t block_for;
  std::string write_type;
  int16_t contentions = 0;  // v5, sent only when cas_timeout
  // A lightweight transaction's timeout (4.1's CasWriteTimeoutException):
  // its contentions go out from v5 on; before v5 it is a plain WriteTimeout
  // of type CAS ("Operation timed out - received only N responses.").
  bool cas_timeout = false;
};
struct ReadTimeoutInfo {
  uint16_t consistency;
  int32_t received;
  int32_t block_for;
  bool data_present;
};
// A replica that failed and why (v5 <reasonmap>; v4 sends only the count).
struct FailureReason {
  Bytes address;  // 4 or 16 bytes
  uint16_t code;
};
struct ReadFailureInfo {
  uint16_t consistency;
  int32_t received;
  int32_t block_for;
  std::vector<FailureReason> failures;
  bool data_present;
};
struct WriteFailureInfo {
  uint16_t consistency;
  int32_t received;
  int32_t block_for;
  std::vector<FailureReason> failures;
  std::string write_type;
};
struct FunctionFailureInfo {
  std::string keyspace;
  std::string function;
  std::vector<std::string> argument_types;
};
struct CasWriteUnknownInfo {
  uint16_t consistency;
  int32_t received;
  int32_t block_for;
};
using ErrorDetail = std::variant<std::monostate, AlreadyExistsInfo, UnpreparedInfo, UnavailableInfo,
                                 WriteTimeoutInfo, ReadTimeoutInfo, ReadFailureInfo,
                                 WriteFailureInfo, FunctionFailureInfo, CasWriteUnknownInfo>;

// An error that ends a request and goes back to the client. Thrown where a
// statement cannot proceed (parse, validation); the dispatcher turns it into
// an ERROR message. Never thrown across a RocksDB callback.
class CqlError : public std::runtime_error {
 public:
  CqlError(ErrorCode code, std::string message, ErrorDetail detail = {})
      : std::runtime_error(std::move(message)), code_(code), detail_(std::move(detail)) {}
  ErrorCode code() const { return code_; }
  const ErrorDetail& detail() const { return detail_; }

 private:
  ErrorCode code_;
  ErrorDetail detail_;
};

[[noreturn]] inline void ThrowInvalid(std::string message) {
  throw CqlError(ErrorCode::kInvalid, std::move(message));
}
[[noreturn]] inline void ThrowProtocol(std::string message) {
  throw CqlError(ErrorCode::kProtocolError, std::move(message));
}
[[noreturn]] inline void ThrowConfig(std::string message) {
  throw CqlError(ErrorCode::kConfigError, std::move(message));
}

}  // namespace sibyl
