#include "tools/admin/admin_options.h"

#include <charconv>
#include <tuple>
#include <utility>

namespace sibyl::tools::admin {
namespace {

uint16_t ParsePort(const std::string& value) {
  int port = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), port);
  if (error != std::errc() || end != value.data() + value.size() || port < 1 || port > 65535) {
    throw AdminUsageError("--port expects a number from 1 to 65535, not '" + value + "'");
  }
  return static_cast<uint16_t>(port);
}

// KEYSPACE.VIEW, both names non-empty: keyspace names cannot hold a dot, so
// the one dot splits them.
std::pair<std::string, std::string> ParseViewName(const std::string& value) {
  const size_t dot = value.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == value.size() ||
      value.find('.', dot + 1) != std::string::npos) {
    throw AdminUsageError("verify-view expects KEYSPACE.VIEW, not '" + value + "'");
  }
  return {value.substr(0, dot), value.substr(dot + 1)};
}

// tablestats' KEYSPACE or KEYSPACE.TABLE.
TableSelection ParseSelection(const std::string& value) {
  const size_t dot = value.find('.');
  if (dot == std::string::npos) return {value, ""};
  if (dot == 0 || dot + 1 == value.size() || value.find('.', dot + 1) != std::string::npos) {
    throw AdminUsageError("tablestats expects KEYSPACE or KEYSPACE.TABLE, not '" + value + "'");
  }
  return {value.substr(0, dot), value.substr(dot + 1)};
}

// The arguments after the command of flush, tablestats and tablehistograms,
// which take more than one.
void ParseTableArguments(const std::vector<std::string>& positional, AdminOptions& options) {
  const std::vector<std::string> rest(positional.begin() + 1, positional.end());
  if (options.view == AdminView::kFlush) {
    if (!rest.empty()) {
      options.keyspace = rest.front();
      options.tables.assign(rest.begin() + 1, rest.end());
    }
  } else if (options.view == AdminView::kTableStats) {
    for (const std::string& value : rest) options.selections.push_back(ParseSelection(value));
  } else {
    // nodetool's words for anything but KEYSPACE TABLE or KEYSPACE.TABLE.
    const char* usage = "tablehistograms requires keyspace and table name arguments";
    if (rest.size() == 2) {
      options.keyspace = rest[0];
      options.tables = {rest[1]};
    } else if (rest.size() == 1) {
      const size_t dot = rest[0].find('.');
      if (dot == std::string::npos || dot == 0 || dot + 1 == rest[0].size() ||
          rest[0].find('.', dot + 1) != std::string::npos) {
        throw AdminUsageError(usage);
      }
      options.keyspace = rest[0].substr(0, dot);
      options.tables = {rest[0].substr(dot + 1)};
    } else {
      throw AdminUsageError(usage);
    }
  }
}

}  // namespace

AdminOptions ParseAdminArguments(const std::vector<std::string>& args) {
  AdminOptions options;
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      options.help = true;
      return options;
    }
    if (arg == "--host" || arg == "--port") {
      if (i + 1 >= args.size()) throw AdminUsageError("missing value for " + arg);
      const std::string& value = args[++i];
      if (arg == "--host") {
        options.node.host = value;
      } else {
        options.node.port = ParsePort(value);
      }
    } else if (arg == "--repair") {
      options.repair = true;
    } else if (arg == "--force" || arg == "-f") {
      options.force = true;
    } else if (arg.rfind("--", 0) == 0) {
      throw AdminUsageError("unknown option " + arg + " (see sibyl admin --help)");
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.empty()) throw AdminUsageError("missing command (see sibyl admin --help)");
  const std::string& command = positional[0];
  if (command == "status") {
    options.view = AdminView::kStatus;
  } else if (command == "ring") {
    options.view = AdminView::kRing;
  } else if (command == "describering") {
    options.view = AdminView::kDescribeRing;
    if (positional.size() < 2) throw AdminUsageError("describering needs a keyspace name");
  } else if (command == "decommission") {
    options.view = AdminView::kDecommission;
    if (positional.size() > 1) {
      throw AdminUsageError("unexpected argument '" + positional[1] + "' (see sibyl admin --help)");
    }
  } else if (command == "removenode") {
    options.view = AdminView::kRemoveNode;
    if (positional.size() != 2) {
      throw AdminUsageError("removenode needs a host id, status or force (see sibyl admin --help)");
    }
    options.removal = positional[1];
  } else if (command == "indexes") {
    options.view = AdminView::kIndexes;
  } else if (command == "views") {
    options.view = AdminView::kViews;
  } else if (command == "verify-view") {
    options.view = AdminView::kVerifyView;
    if (positional.size() < 2) throw AdminUsageError("verify-view needs KEYSPACE.VIEW");
  } else if (command == "flush" || command == "tablestats" || command == "tablehistograms") {
    options.view = command == "flush"        ? AdminView::kFlush
                   : command == "tablestats" ? AdminView::kTableStats
                                             : AdminView::kTableHistograms;
    if (options.repair) {
      throw AdminUsageError("--repair applies to verify-view only (see sibyl admin --help)");
    }
    ParseTableArguments(positional, options);
    return options;
  } else {
    throw AdminUsageError("unknown command '" + command + "' (see sibyl admin --help)");
  }
  if (options.force && options.view != AdminView::kDecommission) {
    throw AdminUsageError("--force applies to decommission only (see sibyl admin --help)");
  }
  if (positional.size() > 2) {
    throw AdminUsageError("unexpected argument '" + positional[2] + "' (see sibyl admin --help)");
  }
  if (options.repair && options.view != AdminView::kVerifyView) {
    throw AdminUsageError("--repair applies to verify-view only (see sibyl admin --help)");
  }
  if (options.view == AdminView::kVerifyView) {
    std::tie(options.keyspace, options.view_name) = ParseViewName(positional[1]);
  } else if (positional.size() == 2) {
    options.keyspace = positional[1];
  }
  return options;
}

std::string AdminUsage() {
  return "Usage: sibyl admin [--host H] [--port P] <command>\n"
         "\n"
         "What nodetool shows, asked of one node over CQL (its system_views.gossip_info\n"
         "and schema tables), printed as nodetool 4.1 prints it. indexes, views,\n"
         "verify-view, flush, tablestats and tablehistograms ask every member of the\n"
         "cluster in turn (its system_views.index_builds, view_builds, view_checks,\n"
         "flushes, table_stats, table_latencies and partition_stats).\n"
         "\n"
         "Commands:\n"
         "  status [KEYSPACE]        every node: Up/Down, address, load, tokens, ownership,\n"
         "                           host id, rack (ownership effective for KEYSPACE)\n"
         "  ring [KEYSPACE]          every token of the ring with its node\n"
         "  decommission             the node asked leaves the ring: it streams every\n"
         "                           range it holds to the node taking it over, leaves\n"
         "                           the cluster, then stops (nothing printed when done);\n"
         "                           --force: even when fewer nodes than a keyspace's\n"
         "                           replication factor remain\n"
         "  removenode HOST_ID       a dead node leaves the ring: the nodes taking its\n"
         "                           ranges stream them from the replicas that remain\n"
         "  removenode status|force  the removal under way on the node asked; force\n"
         "                           ends it at once, without waiting for streams\n"
         "  describering KEYSPACE    the token ranges and their replicas for KEYSPACE\n"
         "  indexes [KEYSPACE]       every node's secondary index builds: status,\n"
         "                           partitions built, last token, failure (of KEYSPACE)\n"
         "  views [KEYSPACE]         every node's materialized view builds, as indexes\n"
         "  verify-view KEYSPACE.VIEW [--repair]\n"
         "                           every node checks the view against its base table:\n"
         "                           rows missing, unexpected or different; --repair\n"
         "                           rewrites those rows from the base. Exits 1 when\n"
         "                           rows still differ or a node was not checked\n"
         "  flush [KEYSPACE [TABLE...]]\n"
         "                           every node writes the tables' memtables to SSTables\n"
         "                           (every table of KEYSPACE, or of every keyspace).\n"
         "                           Exits 1 when a node was not flushed\n"
         "  tablestats [KEYSPACE[.TABLE]...]\n"
         "                           every node's figures of its tables: SSTables, space\n"
         "                           used, memtable, local reads and writes, bloom filter\n"
         "  tablehistograms KEYSPACE TABLE\n"
         "                           every node's read and write latency percentiles and\n"
         "                           partition sizes and cell counts of the table (also\n"
         "                           KEYSPACE.TABLE)\n"
         "\n"
         "Options:\n"
         "  --host H                 the node to ask (default 127.0.0.1)\n"
         "  --port P                 its CQL port (default 9042)\n"
         "  --help                   show this help\n";
}

}  // namespace sibyl::tools::admin
