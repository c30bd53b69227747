#include "tools/admin/table_stats.h"

#include <cmath>
#include <cstdio>
#include <map>

#include "tools/admin/admin_error.h"
#include "types/number_text.h"

namespace sibyl::tools::admin {
namespace {

bool Selected(const std::vector<TableSelection>& selections, const TableStats& table) {
  if (selections.empty()) return true;
  for (const TableSelection& selection : selections) {
    if (selection.keyspace != table.keyspace) continue;
    if (selection.table.empty() || selection.table == table.table) return true;
  }
  return false;
}

// A mean latency in milliseconds from a total in µs; NaN without any.
double MeanMillis(int64_t total_micros, int64_t count) {
  if (count <= 0 || total_micros <= 0) return std::nan("");
  return static_cast<double>(total_micros) / static_cast<double>(count) / 1000.0;
}

// Java's printf("%01.3f") (and %01.5f): NaN as "NaN".
std::string Fixed(double value, int decimals) {
  if (std::isnan(value)) return "NaN";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// Java's String.valueOf(double), as nodetool concatenates a double.
std::string JavaDouble(double value) {
  if (std::isnan(value)) return "NaN";
  return types::JavaDoubleToString(value);
}

void Line(std::string& out, const std::string& indent, const std::string& label,
          const std::string& value) {
  out += indent + label + ": " + value + "\n";
}

void FormatTable(const TableStats& t, const PartitionStats& partitions, std::string& out) {
  const std::string indent = "\t\t";
  out += indent + (t.kind == "index" ? "Table (index): " : "Table: ") + t.table + "\n";
  Line(out, indent, "SSTable count", std::to_string(t.sstables));
  Line(out, indent, "Space used (live)", std::to_string(t.live_bytes));
  Line(out, indent, "Space used (total)", std::to_string(t.total_bytes));
  Line(out, indent, "Space used by snapshots (total)", "0");
  // Compressed over uncompressed, as Cassandra's ratio; -1.0 without SSTables.
  const double ratio =
      t.sstables > 0 && t.uncompressed_bytes > 0
          ? static_cast<double>(t.compressed_bytes) / static_cast<double>(t.uncompressed_bytes)
          : -1.0;
  Line(out, indent, "SSTable Compression Ratio", JavaDouble(ratio));
  const PartitionMeasure* bytes = partitions.Find(t.keyspace, t.table, "bytes");
  if (partitions.available) {
    Line(out, indent, "Number of partitions (estimate)", std::to_string(bytes ? bytes->count : 0));
  }
  Line(out, indent, "Memtable cell count", std::to_string(t.memtable_entries));
  Line(out, indent, "Memtable data size", std::to_string(t.memtable_bytes));
  Line(out, indent, "Local read count", std::to_string(t.read_count));
  Line(out, indent, "Local read latency",
       Fixed(MeanMillis(t.read_total_micros, t.read_count), 3) + " ms");
  Line(out, indent, "Local write count", std::to_string(t.write_count));
  Line(out, indent, "Local write latency",
       Fixed(MeanMillis(t.write_total_micros, t.write_count), 3) + " ms");
  Line(out, indent, "Pending flushes", std::to_string(t.pending_flushes));
  Line(out, indent, "Bloom filter space used", std::to_string(t.bloom_filter_bytes));
  if (partitions.available) {
    Line(out, indent, "Compacted partition minimum bytes", std::to_string(bytes ? bytes->min : 0));
    Line(out, indent, "Compacted partition maximum bytes", std::to_string(bytes ? bytes->max : 0));
  }
  out += "\n";
}

}  // namespace

void CheckSelections(const std::vector<TableSelection>& selections, const SchemaTables& schema) {
  std::map<std::string, std::vector<std::string>> unknown_tables;
  for (const TableSelection& selection : selections) {
    const auto keyspace = schema.find(selection.keyspace);
    if (keyspace == schema.end()) throw AdminError("Unknown keyspace: " + selection.keyspace);
    if (!selection.table.empty() && !keyspace->second.contains(selection.table)) {
      unknown_tables[selection.keyspace].push_back(selection.table);
    }
  }
  for (const auto& [keyspace, tables] : unknown_tables) {
    std::string list;
    for (const std::string& table : tables) list += (list.empty() ? "" : ", ") + table;
    throw AdminError("Unknown tables: [" + list + "] in keyspace: " + keyspace);
  }
}

std::string FormatTableStats(const std::vector<TableSelection>& selections,
                             const NodeTableStatsAnswer& answer) {
  struct Keyspace {
    int64_t reads = 0, read_micros = 0, writes = 0, write_micros = 0, pending_flushes = 0;
    std::vector<const TableStats*> selected;
  };
  std::map<std::string, Keyspace> keyspaces;
  for (const TableStats& table : answer.tables) {
    const bool selected = Selected(selections, table);
    auto it = keyspaces.find(table.keyspace);
    if (it == keyspaces.end()) {
      if (!selected && !selections.empty()) {
        // Totals are kept for every table of a keyspace with a selected one.
        bool any = false;
        for (const TableSelection& s : selections) any = any || s.keyspace == table.keyspace;
        if (!any) continue;
      }
      it = keyspaces.emplace(table.keyspace, Keyspace{}).first;
    }
    Keyspace& keyspace = it->second;
    keyspace.reads += table.read_count;
    keyspace.read_micros += table.read_total_micros;
    keyspace.writes += table.write_count;
    keyspace.write_micros += table.write_total_micros;
    keyspace.pending_flushes += table.pending_flushes;
    if (selected) keyspace.selected.push_back(&table);
  }
  std::string out = "Total number of tables: " + std::to_string(answer.tables.size()) + "\n";
  out += "----------------\n";
  for (const auto& [name, keyspace] : keyspaces) {
    if (keyspace.selected.empty()) continue;
    out += "Keyspace : " + name + "\n";
    Line(out, "\t", "Read Count", std::to_string(keyspace.reads));
    Line(out, "\t", "Read Latency",
         JavaDouble(MeanMillis(keyspace.read_micros, keyspace.reads)) + " ms");
    Line(out, "\t", "Write Count", std::to_string(keyspace.writes));
    Line(out, "\t", "Write Latency",
         JavaDouble(MeanMillis(keyspace.write_micros, keyspace.writes)) + " ms");
    Line(out, "\t", "Pending Flushes", std::to_string(keyspace.pending_flushes));
    for (const TableStats* table : keyspace.selected) FormatTable(*table, answer.partitions, out);
    out += "----------------\n";
  }
  return out;
}

std::string FormatClusterTableStats(const std::vector<TableSelection>& selections,
                                    const std::vector<NodeTableStats>& nodes) {
  std::vector<NodeSection> sections;
  for (const NodeTableStats& node : nodes) {
    NodeSection& section = sections.emplace_back();
    section.address = node.address;
    if (!node.unavailable.empty()) {
      section.line = node.unavailable;
      continue;
    }
    section.line = FormatTableStats(selections, node.answer);
    if (!section.line.empty() && section.line.back() == '\n') section.line.pop_back();
  }
  return FormatNodeSections(sections);
}

}  // namespace sibyl::tools::admin
