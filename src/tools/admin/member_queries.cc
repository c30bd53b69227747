#include "tools/admin/member_queries.h"

namespace sibyl::tools::admin {

NodeAddress NativeAddressOf(const MemberState& member, uint16_t fallback_port) {
  NodeAddress node;
  const std::string& native = member.native_address;
  const bool wildcard = native.empty() || native == "0.0.0.0" || native == "::";
  node.host = wildcard ? member.address : native;
  node.port = member.native_port != 0 ? member.native_port : fallback_port;
  return node;
}

}  // namespace sibyl::tools::admin
