#pragma once
// The cluster's members as the metadata log records them: one NodeRecord
// per host id, with what placement and drivers need (addresses, datacenter,
// rack, tokens) — the inputs of system.local / system.peers. A Directory is
// an immutable snapshot, shared by pointer (DirectoryPtr) like a Schema:
// a change builds a new one.
//
// Byte encoding (integers big-endian), the payload of a directory entry of
// the log (metadata_log_entry.h):
//
//   directory := u32 n | node × n                      (by host id, ascending)
//   node      := 16 bytes host_id | str broadcast_address | i32 storage_port
//                | str native_address | i32 native_port | str datacenter | str rack
//                | u32 n | i64 token × n | str release_version
//   str       := u32 length | bytes
//   then, when some member is not NORMAL:
//   states    := u32 n | (16 bytes host_id | u8 state) × n   (NodeState; the
//                NORMAL members are left out, so a directory of NORMAL
//                members encodes as it did before states existed)
//
// A change of format is a new log entry format version.
//
// Thread-safety: a Directory is immutable; share it freely.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "dht/token.h"
#include "schema/local_node_info.h"
#include "types/uuid.h"

namespace sibyl::metadata {

// Where a member stands in the ring (the steps of issue 31's joins and
// leaves, after Cassandra's TCM): a NORMAL member's tokens place data. A
// range moving has two placements, one read and both written:
//   kJoining         "write both, read old": the member's tokens place
//                    writes only (it is a pending replica while it streams);
//   kJoiningReadNew  "write both, read new": its tokens place reads too, and
//                    the replicas it displaces still get writes;
//   kLeaving         "write both, read old": its tokens still place data,
//                    and the members taking its ranges get writes too;
//   kLeavingReadNew  "write both, read new": reads go to those members, and
//                    it still gets writes until it is gone.
enum class NodeState : uint8_t {
  kNormal = 0,
  kJoining = 1,
  kLeaving = 2,
  kJoiningReadNew = 3,
  kLeavingReadNew = 4,
};

inline bool IsJoining(NodeState state) {
  return state == NodeState::kJoining || state == NodeState::kJoiningReadNew;
}
inline bool IsLeaving(NodeState state) {
  return state == NodeState::kLeaving || state == NodeState::kLeavingReadNew;
}

struct NodeRecord {
  types::Uuid host_id;
  std::string broadcast_address;  // textual IP, as system.peers.peer
  int32_t storage_port = 7000;
  std::string native_address;
  int32_t native_port = 9042;
  std::string datacenter;
  std::string rack;
  std::vector<dht::Token> tokens;  // sorted
  std::string release_version;
  NodeState state = NodeState::kNormal;

  bool operator==(const NodeRecord&) const = default;
};

class Directory {
 public:
  using NodeMap = std::map<types::Uuid, NodeRecord>;

  Directory() = default;
  explicit Directory(NodeMap nodes) : nodes_(std::move(nodes)) {}

  const NodeMap& nodes() const { return nodes_; }
  size_t size() const { return nodes_.size(); }
  bool empty() const { return nodes_.empty(); }
  // nullptr when no member has this id.
  const NodeRecord* Find(const types::Uuid& host_id) const;

  // A copy with `record` added or replacing the record of its host id.
  [[nodiscard]] Directory With(NodeRecord record) const;
  // A copy without `host_id` (the same members when it is not one).
  [[nodiscard]] Directory Without(const types::Uuid& host_id) const;

  bool operator==(const Directory&) const = default;

 private:
  NodeMap nodes_;
};
using DirectoryPtr = std::shared_ptr<const Directory>;

[[nodiscard]] Bytes EncodeDirectory(const Directory& directory);
// Throws std::runtime_error when `data` is not a whole directory.
[[nodiscard]] Directory DecodeDirectory(BytesView data);

// A member as system.peers shows it (tokens in decimal).
[[nodiscard]] schema::PeerInfo ToPeerInfo(const NodeRecord& record);

}  // namespace sibyl::metadata
