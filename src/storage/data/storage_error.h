#pragma once
// A failure of the storage engine itself — RocksDB refused a write or a
// read, a stored record does not decode, the commit log cannot sync — as
// opposed to a bad request. It carries two texts (docs/dev/errors.md):
//   - what(): for the client, naming the operation and the table but no
//     engine internals ("Storage failure: write of table <id> failed; the
//     node's log has the details");
//   - detail(): for the operator's log, with the engine's own text (the
//     RocksDB status, the path, the malformed record's description).
// The request dispatcher logs detail() beside the statement and sends
// what() as a Server error. (The coordinator of a cluster will report
// these as Cassandra's ReadFailure / WriteFailure.)

#include <stdexcept>
#include <string>
#include <utility>

namespace sibyl::storage {

class StorageError : public std::runtime_error {
 public:
  // `operation` is what failed ("write", "read", "flush", ...); `table` names
  // the table ("" when none is concerned); `detail` is the engine's text.
  StorageError(const std::string& operation, const std::string& table, std::string detail)
      : std::runtime_error(ClientMessage(operation, table)), detail_(std::move(detail)) {}
  const std::string& detail() const { return detail_; }

 private:
  static std::string ClientMessage(const std::string& operation, const std::string& table) {
    return "Storage failure: " + operation + (table.empty() ? "" : " of table " + table) +
           " failed; the node's log has the details";
  }
  std::string detail_;
};

// A stored record the row builders cannot decode.
[[noreturn]] inline void ThrowMalformedRecord() {
  throw StorageError("read", {}, "malformed stored record");
}

// A read through a secondary index that is still being built (Cassandra
// 4.1's IndexNotAvailableException). A coordinator reports it as a
// ReadFailure, as Cassandra's replicas do.
class IndexNotAvailable : public std::runtime_error {
 public:
  explicit IndexNotAvailable(const std::string& index_name)
      : std::runtime_error("The secondary index '" + index_name + "' is not yet available") {}
};

}  // namespace sibyl::storage
