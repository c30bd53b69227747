#include "tools/admin/table_histograms.h"

#include <array>
#include <cmath>
#include <cstdio>

namespace sibyl::tools::admin {
namespace {

constexpr std::array<const char*, 7> kRows = {"50%", "75%", "95%", "98%", "99%", "Min", "Max"};

// The seven figures of a row order, or nullopt.
std::array<double, 7> Figures(const std::optional<LatencyPercentiles>& p) {
  if (!p || p->count == 0) return {0, 0, 0, 0, 0, 0, 0};
  return {double(p->p50), double(p->p75), double(p->p95), double(p->p98),
          double(p->p99), double(p->min), double(p->max)};
}

std::array<double, 7> Figures(const PartitionMeasure* m) {
  if (m == nullptr) {
    const double nan = std::nan("");
    return {nan, nan, nan, nan, nan, nan, nan};
  }
  return {double(m->p50), double(m->p75), double(m->p95), double(m->p98),
          double(m->p99), double(m->min), double(m->max)};
}

// Java's String.format("%Ns", ...) / ("%N.Df", ...): right-aligned, NaN as "NaN".
std::string Right(const std::string& text, size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}
std::string Number(double value, int decimals, size_t width) {
  if (std::isnan(value)) return Right("NaN", width);
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return Right(text, width);
}
std::string Left(const std::string& text, size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

}  // namespace

std::string FormatTableHistograms(const std::string& keyspace, const std::string& table,
                                  const TableHistogramsAnswer& answer) {
  const PartitionMeasure* bytes = answer.partitions.Find(keyspace, table, "bytes");
  const PartitionMeasure* cells = answer.partitions.Find(keyspace, table, "cells");
  if (bytes == nullptr || cells == nullptr) bytes = cells = nullptr;
  std::string out;
  if (bytes == nullptr) {
    out +=
        "No SSTables exists, unable to calculate 'Partition Size' and 'Cell Count' "
        "percentiles\n";
  }
  out += keyspace + "/" + table + " histograms\n";
  out += Left("Percentile", 10) + Right("Write Latency", 18) + Right("Read Latency", 18) +
         Right("Partition Size", 18) + Right("Cell Count", 18) + "\n";
  out += Left("", 10) + Right("(micros)", 18) + Right("(micros)", 18) + Right("(bytes)", 18) +
         Right("", 18) + "\n";
  const auto writes = Figures(answer.writes);
  const auto reads = Figures(answer.reads);
  const auto sizes = Figures(bytes);
  const auto counts = Figures(cells);
  for (size_t i = 0; i < kRows.size(); ++i) {
    out += Left(kRows[i], 10) + Number(writes[i], 2, 18) + Number(reads[i], 2, 18) +
           Number(sizes[i], 0, 18) + Number(counts[i], 0, 18) + "\n";
  }
  out += "\n";
  return out;
}

std::string FormatClusterTableHistograms(const std::string& keyspace, const std::string& table,
                                         const std::vector<NodeTableHistograms>& nodes) {
  std::vector<NodeSection> sections;
  for (const NodeTableHistograms& node : nodes) {
    NodeSection& section = sections.emplace_back();
    section.address = node.address;
    if (!node.unavailable.empty()) {
      section.line = node.unavailable;
      continue;
    }
    section.line = FormatTableHistograms(keyspace, table, node.answer);
    while (!section.line.empty() && section.line.back() == '\n') section.line.pop_back();
  }
  return FormatNodeSections(sections);
}

}  // namespace sibyl::tools::admin
