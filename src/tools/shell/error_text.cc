#include "tools/shell/error_text.h"

#include <cstdio>
#include <variant>

#include "protocol/request.h"

namespace sibyl::tools::shell {
namespace {

struct ErrorClass {
  const char* name;     // the Python exception's class
  const char* summary;  // ErrorMessage.summary
  // Whether the driver raises an exception built from summary_msg() (class
  // name, then "Error from server: code=... [summary] message=..."), rather
  // than the ErrorMessage itself, whose .message cqlsh prints bare.
  bool with_summary;
};

ErrorClass ClassOf(ErrorCode code) {
  switch (code) {
    case ErrorCode::kServerError:
      return {"ServerError", "Server error", false};
    case ErrorCode::kProtocolError:
      return {"ProtocolException", "Protocol error", false};
    case ErrorCode::kBadCredentials:
      return {"BadCredentials", "Bad credentials", false};
    case ErrorCode::kUnavailable:
      return {"Unavailable", "Unavailable exception", true};
    case ErrorCode::kOverloaded:
      return {"OverloadedErrorMessage", "Coordinator node overloaded", false};
    case ErrorCode::kIsBootstrapping:
      return {"IsBootstrappingErrorMessage", "Coordinator node is bootstrapping", false};
    case ErrorCode::kTruncateError:
      return {"TruncateError", "Error during truncate", false};
    case ErrorCode::kWriteTimeout:
      return {"WriteTimeout", "Coordinator node timed out waiting for replica nodes' responses",
              true};
    case ErrorCode::kReadTimeout:
      return {"ReadTimeout", "Coordinator node timed out waiting for replica nodes' responses",
              true};
    case ErrorCode::kReadFailure:
      return {"ReadFailure", "Replica(s) failed to execute read", true};
    case ErrorCode::kFunctionFailure:
      return {"FunctionFailure", "User Defined Function failure", true};
    case ErrorCode::kWriteFailure:
      return {"WriteFailure", "Replica(s) failed to execute write", true};
    case ErrorCode::kCdcWriteFailure:
      return {"CDCWriteException", "Failed to execute write due to CDC space exhaustion.", false};
    case ErrorCode::kCasWriteUnknown:
      return {"CASWriteUnknownErrorMessage", "Unknown", false};
    case ErrorCode::kSyntaxError:
      return {"SyntaxException", "Syntax error in CQL query", false};
    case ErrorCode::kUnauthorized:
      return {"Unauthorized", "Unauthorized", true};
    case ErrorCode::kInvalid:
      return {"InvalidRequest", "Invalid query", true};
    case ErrorCode::kConfigError:
      return {"ConfigurationException", "Query invalid because of configuration issue", false};
    case ErrorCode::kAlreadyExists:
      return {"AlreadyExists", "Item already exists", false};
    case ErrorCode::kUnprepared:
      return {"PreparedQueryNotFound", "Matching prepared statement not found on this node", false};
  }
  return {"ErrorMessage", "Unknown", true};
}

std::string Quoted(const std::string& text) { return "'" + text + "'"; }

// Python's repr of a dict of the driver's info, as the exception's text ends.
std::string TimeoutInfo(uint16_t consistency, int32_t block_for, int32_t received) {
  return "{'consistency': " + Quoted(protocol::ConsistencyName(consistency)) +
         ", 'required_responses': " + std::to_string(block_for) +
         ", 'received_responses': " + std::to_string(received);
}

// cassandra.policies.WriteType's values, which the driver's info shows.
int WriteTypeValue(const std::string& name) {
  static const char* const kNames[] = {"SIMPLE",    "BATCH", "UNLOGGED_BATCH", "COUNTER",
                                       "BATCH_LOG", "CAS",   "VIEW",           "CDC"};
  for (int i = 0; i < 8; ++i) {
    if (name == kNames[i]) return i;
  }
  return -1;
}

std::string FailureInfo(uint16_t consistency, int32_t block_for, int32_t received,
                        const std::vector<FailureReason>& failures) {
  std::string info = TimeoutInfo(consistency, block_for, received) +
                     ", 'failures': " + std::to_string(failures.size());
  if (!failures.empty()) {
    info += ", 'error_code_map': {";
    for (size_t i = 0; i < failures.size(); ++i) {
      if (i > 0) info += ", ";
      std::string address;
      for (size_t b = 0; b < failures[i].address.size(); ++b) {
        if (b > 0) address += '.';
        address += std::to_string(static_cast<unsigned char>(failures[i].address[b]));
      }
      char code[8];
      std::snprintf(code, sizeof code, "0x%04x", failures[i].code);
      info += Quoted(address) + ": " + Quoted(code);
    }
    info += "}";
  }
  return info;
}

std::string InfoSuffix(const ErrorDetail& detail) {
  if (const auto* u = std::get_if<UnavailableInfo>(&detail)) {
    return " info={'consistency': " + Quoted(protocol::ConsistencyName(u->consistency)) +
           ", 'required_replicas': " + std::to_string(u->required) +
           ", 'alive_replicas': " + std::to_string(u->alive) + "}";
  }
  if (const auto* w = std::get_if<WriteTimeoutInfo>(&detail)) {
    return " info=" + TimeoutInfo(w->consistency, w->block_for, w->received) +
           ", 'write_type': " + std::to_string(WriteTypeValue(w->write_type)) + "}";
  }
  if (const auto* r = std::get_if<ReadTimeoutInfo>(&detail)) {
    return " info=" + TimeoutInfo(r->consistency, r->block_for, r->received) +
           ", 'data_retrieved': " + (r->data_present ? "True" : "False") + "}";
  }
  if (const auto* f = std::get_if<ReadFailureInfo>(&detail)) {
    return " info=" + FailureInfo(f->consistency, f->block_for, f->received, f->failures) + "}";
  }
  if (const auto* f = std::get_if<WriteFailureInfo>(&detail)) {
    return " info=" + FailureInfo(f->consistency, f->block_for, f->received, f->failures) + "}";
  }
  return "";
}

}  // namespace

std::string ErrorText(const client::ErrorResponse& error) {
  const ErrorClass cls = ClassOf(error.code);
  const std::string prefix = std::string(cls.name) + ": ";
  if (const auto* exists = std::get_if<AlreadyExistsInfo>(&error.detail)) {
    return prefix + (exists->table.empty()
                         ? "Keyspace '" + exists->keyspace + "' already exists"
                         : "Table '" + exists->keyspace + "." + exists->table + "' already exists");
  }
  if (!cls.with_summary) return prefix + error.message;
  char code[8];
  std::snprintf(code, sizeof code, "%04x", static_cast<unsigned>(error.code));
  return prefix + "Error from server: code=" + code + " [" + cls.summary + "] message=\"" +
         error.message + "\"" + InfoSuffix(error.detail);
}

std::string TransportFailureText(const client::TransportFailure& failure) {
  if (failure.timed_out) {
    return "OperationTimedOut: errors={}, last_host=None: " + failure.message;
  }
  return "NoHostAvailable: " + failure.message;
}

}  // namespace sibyl::tools::shell
