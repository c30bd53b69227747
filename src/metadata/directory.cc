#include "metadata/directory.h"

#include <stdexcept>

namespace sibyl::metadata {
namespace {

void AppendString(Bytes& out, std::string_view text) {
  AppendBE32(out, static_cast<uint32_t>(text.size()));
  out.append(text);
}

// Reads the encoding front to back; every read checks what is left.
class Reader {
 public:
  explicit Reader(BytesView data) : data_(data) {}

  BytesView Take(size_t n) {
    if (data_.size() < n) throw std::runtime_error("directory encoding is truncated");
    const BytesView taken = data_.substr(0, n);
    data_.remove_prefix(n);
    return taken;
  }
  uint32_t U32() { return LoadBE32(Take(4).data()); }
  int32_t I32() { return static_cast<int32_t>(U32()); }
  int64_t I64() { return static_cast<int64_t>(LoadBE64(Take(8).data())); }
  std::string String() { return std::string(Take(U32())); }
  // A count of items at least `item_size` bytes each, checked against what
  // is left so that a corrupt count cannot make us allocate gigabytes.
  uint32_t Count(size_t item_size) {
    const uint32_t n = U32();
    if (n > data_.size() / item_size) throw std::runtime_error("directory count is too large");
    return n;
  }
  bool done() const { return data_.empty(); }

 private:
  BytesView data_;
};

NodeRecord ReadNode(Reader& in) {
  NodeRecord node;
  node.host_id = types::Uuid::FromBytes(in.Take(16));
  node.broadcast_address = in.String();
  node.storage_port = in.I32();
  node.native_address = in.String();
  node.native_port = in.I32();
  node.datacenter = in.String();
  node.rack = in.String();
  const uint32_t tokens = in.Count(8);
  node.tokens.reserve(tokens);
  for (uint32_t i = 0; i < tokens; ++i) node.tokens.push_back(in.I64());
  node.release_version = in.String();
  return node;
}

}  // namespace

const NodeRecord* Directory::Find(const types::Uuid& host_id) const {
  const auto it = nodes_.find(host_id);
  return it == nodes_.end() ? nullptr : &it->second;
}

Directory Directory::With(NodeRecord record) const {
  NodeMap nodes = nodes_;
  const types::Uuid id = record.host_id;
  nodes.insert_or_assign(id, std::move(record));
  return Directory(std::move(nodes));
}

Directory Directory::Without(const types::Uuid& host_id) const {
  NodeMap nodes = nodes_;
  nodes.erase(host_id);
  return Directory(std::move(nodes));
}

Bytes EncodeDirectory(const Directory& directory) {
  Bytes out;
  AppendBE32(out, static_cast<uint32_t>(directory.size()));
  for (const auto& [id, node] : directory.nodes()) {
    out.append(id.View());
    AppendString(out, node.broadcast_address);
    AppendBE32(out, static_cast<uint32_t>(node.storage_port));
    AppendString(out, node.native_address);
    AppendBE32(out, static_cast<uint32_t>(node.native_port));
    AppendString(out, node.datacenter);
    AppendString(out, node.rack);
    AppendBE32(out, static_cast<uint32_t>(node.tokens.size()));
    for (const dht::Token token : node.tokens) AppendBE64(out, static_cast<uint64_t>(token));
    AppendString(out, node.release_version);
  }
  uint32_t moving = 0;
  for (const auto& [id, node] : directory.nodes()) moving += node.state != NodeState::kNormal;
  if (moving == 0) return out;
  AppendBE32(out, moving);
  for (const auto& [id, node] : directory.nodes()) {
    if (node.state == NodeState::kNormal) continue;
    out.append(id.View());
    out.push_back(static_cast<char>(node.state));
  }
  return out;
}

Directory DecodeDirectory(BytesView data) {
  Reader in(data);
  Directory::NodeMap nodes;
  // A node takes at least 16 + 8 × 4 bytes.
  const uint32_t n = in.Count(48);
  for (uint32_t i = 0; i < n; ++i) {
    NodeRecord node = ReadNode(in);
    const types::Uuid id = node.host_id;
    if (!nodes.emplace(id, std::move(node)).second) {
      throw std::runtime_error("directory lists host " + id.ToString() + " twice");
    }
  }
  if (!in.done()) {
    const uint32_t moving = in.Count(17);
    if (moving == 0) throw std::runtime_error("directory lists an empty set of node states");
    for (uint32_t i = 0; i < moving; ++i) {
      const types::Uuid id = types::Uuid::FromBytes(in.Take(16));
      const auto state = static_cast<uint8_t>(in.Take(1)[0]);
      const auto it = nodes.find(id);
      if (it == nodes.end()) {
        throw std::runtime_error("directory gives a state to unknown host " + id.ToString());
      }
      if (state == static_cast<uint8_t>(NodeState::kNormal) ||
          state > static_cast<uint8_t>(NodeState::kLeavingReadNew)) {
        throw std::runtime_error("directory has an unknown node state " + std::to_string(state));
      }
      it->second.state = static_cast<NodeState>(state);
    }
  }
  if (!in.done()) throw std::runtime_error("directory encoding has trailing bytes");
  return Directory(std::move(nodes));
}

schema::PeerInfo ToPeerInfo(const NodeRecord& record) {
  schema::PeerInfo peer;
  peer.address = record.broadcast_address;
  peer.port = record.storage_port;
  peer.native_address = record.native_address;
  peer.native_port = record.native_port;
  peer.data_center = record.datacenter;
  peer.rack = record.rack;
  peer.host_id = record.host_id;
  peer.release_version = record.release_version;
  for (const dht::Token token : record.tokens) peer.tokens.push_back(std::to_string(token));
  return peer;
}

}  // namespace sibyl::metadata
