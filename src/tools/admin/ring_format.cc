#include "tools/admin/ring_format.h"

#include <algorithm>
#include <map>
#include <vector>

#include "tools/admin/nodetool_numbers.h"

namespace sibyl::tools::admin {
namespace {

// Java's "%-Ns": left-aligned, padded to at least `width`, never cut.
std::string Pad(const std::string& text, size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

struct RingLine {
  dht::Token token;
  const MemberState* member;
};

std::string Line(size_t address_width, const std::string& address, const std::string& rack,
                 const std::string& status, const std::string& state, const std::string& load,
                 const std::string& owns, const std::string& token) {
  return Pad(address, address_width) + "  " + Pad(rack, 12) + Pad(status, 7) + Pad(state, 8) +
         Pad(load, 16) + Pad(owns, 20) + Pad(token, 44) + '\n';
}

std::string StatusWord(const MemberState& member) {
  if (!member.alive) return "?";
  return *member.alive ? "Up" : "Down";
}

}  // namespace

std::string FormatRing(const ClusterMembers& cluster, const OwnershipChoice& ownership) {
  std::map<std::string, std::vector<RingLine>> by_datacenter;
  size_t address_width = 0;
  bool vnodes = false;
  for (const MemberState& member : cluster.members) {
    if (member.tokens.empty()) continue;
    vnodes |= member.tokens.size() > 1;
    const std::string with_port = member.address + ":" + std::to_string(member.storage_port);
    address_width = std::max(address_width, with_port.size());
    for (dht::Token token : member.tokens) {
      by_datacenter[member.datacenter].push_back({token, &member});
    }
  }

  std::string out = "\n";
  for (auto& [datacenter, lines] : by_datacenter) {
    std::sort(lines.begin(), lines.end(),
              [](const RingLine& a, const RingLine& b) { return a.token < b.token; });
    out += "Datacenter: " + datacenter + "\n==========\n";
    out += Line(address_width, "Address", "Rack", "Status", "State", "Load", "Owns", "Token");
    if (lines.size() > 1) {
      out += Line(address_width, "", "", "", "", "", "", std::to_string(lines.back().token));
    } else {
      out += '\n';
    }
    for (const RingLine& line : lines) {
      const MemberState& member = *line.member;
      const auto owned = ownership.by_node.find(member.host_id);
      const std::string owns = ownership.effective && owned != ownership.by_node.end()
                                   ? FormatPercent(owned->second, 2)
                                   : "?";
      const std::string load = member.load_bytes ? FormatFileSize(*member.load_bytes) : "?";
      out += Line(address_width, member.address, member.rack, StatusWord(member), "Normal", load,
                  owns, std::to_string(line.token));
    }
    out += '\n';
  }
  if (vnodes) {
    out +=
        "  Warning: \"nodetool ring\" is used to output all the tokens of a node.\n"
        "  To view status related info of a node use \"nodetool status\" instead.\n\n";
  }
  out += "\n  ";
  if (!ownership.note.empty()) out += "Note: " + ownership.note + '\n';
  return out;
}

}  // namespace sibyl::tools::admin
