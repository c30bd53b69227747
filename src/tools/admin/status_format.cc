#include "tools/admin/status_format.h"

#include <map>
#include <vector>

#include "tools/admin/nodetool_numbers.h"
#include "tools/admin/text_table.h"

namespace sibyl::tools::admin {
namespace {

std::string StatusLetter(const MemberState& member) {
  if (!member.alive) return "?";
  return *member.alive ? "U" : "D";
}

// nodetool's second letter: Normal, Leaving, Joining.
std::string StateLetter(const MemberState& member) {
  if (member.status == "BOOT") return "J";
  if (member.status == "LEAVING") return "L";
  return "N";
}

std::string Owns(const MemberState& member, const OwnershipChoice& ownership) {
  const auto it = ownership.by_node.find(member.host_id);
  if (!ownership.effective || it == ownership.by_node.end()) return "?";
  return FormatPercent(it->second, 1);
}

}  // namespace

std::string FormatStatus(const ClusterMembers& cluster, const OwnershipChoice& ownership) {
  // Members without tokens are not on the ring: nodetool lists the ring's endpoints.
  std::map<std::string, std::vector<const MemberState*>> by_datacenter;
  size_t token_count = 0;
  for (const MemberState& member : cluster.members) {
    if (member.tokens.empty()) continue;
    by_datacenter[member.datacenter].push_back(&member);
    token_count += member.tokens.size();
  }
  // nodetool compares the number of datacenters (not nodes) with the number of tokens.
  const bool token_per_node = !(by_datacenter.size() < token_count);
  const std::string owns_header = ownership.effective ? "Owns (effective)" : "Owns";

  std::vector<TextTable> tables;
  for (const auto& [datacenter, members] : by_datacenter) {
    TextTable& table = tables.emplace_back();
    if (token_per_node) {
      table.Add({"--", "Address", "Load", owns_header, "Host ID", "Token", "Rack"});
    } else {
      table.Add({"--", "Address", "Load", "Tokens", owns_header, "Host ID", "Rack"});
    }
    for (const MemberState* member : members) {
      const std::string status = StatusLetter(*member) + StateLetter(*member);
      const std::string load = member->load_bytes ? FormatFileSize(*member->load_bytes) : "?";
      const std::string owns = Owns(*member, ownership);
      const std::string host_id = member->host_id.ToString();
      if (token_per_node) {
        table.Add({status, member->address, load, owns, host_id,
                   std::to_string(member->tokens.front()), member->rack});
      } else {
        table.Add({status, member->address, load, std::to_string(member->tokens.size()), owns,
                   host_id, member->rack});
      }
    }
  }

  const std::vector<size_t> widths = ColumnWidths(tables);
  std::string out;
  size_t index = 0;
  for (const auto& [datacenter, members] : by_datacenter) {
    if (index > 0) out += '\n';
    const std::string header = "Datacenter: " + datacenter;
    out += header + '\n' + std::string(header.size(), '=') + '\n';
    out += "Status=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n";
    out += Render(tables[index++], widths, "  ");
  }
  out += '\n';
  if (!ownership.note.empty()) out += "Note: " + ownership.note + '\n';
  return out;
}

}  // namespace sibyl::tools::admin
