#pragma once
// The failures of a conversation with etcd, typed so that callers can tell
// "etcd is not there" (retry later, keep serving what is published) from
// "etcd refused this request" (a bug or a limit, such as a value past
// etcd's --max-request-bytes). Messages are one line and name the
// endpoints, so that an operator reading a DDL error knows where to look.

#include <stdexcept>
#include <string>

namespace sibyl::metadata {

class EtcdError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// No endpoint answered in time (refused, unreachable, timed out, or etcd
// answered that it has no leader). For a request that changes something
// the outcome may be unknown: the message says so.
class EtcdUnavailable : public EtcdError {
 public:
  using EtcdError::EtcdError;
};

// etcd answered with an error (its gRPC status code and message), e.g.
// "etcdserver: request is too large" or a compacted revision.
class EtcdRequestFailed : public EtcdError {
 public:
  EtcdRequestFailed(int code, const std::string& message) : EtcdError(message), code_(code) {}
  int code() const {
    return code_;
  }  // the gRPC status code (3 InvalidArgument, 11 OutOfRange, ...)

 private:
  int code_;
};

}  // namespace sibyl::metadata
