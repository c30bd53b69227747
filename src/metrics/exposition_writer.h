#pragma once
// Writes Prometheus' text exposition format, version 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/):
//
//   # HELP sibyl_cql_requests_total CQL requests received, by operation.
//   # TYPE sibyl_cql_requests_total counter
//   sibyl_cql_requests_total{operation="query"} 42
//
// A family (HELP and TYPE lines) is begun once and its samples follow it,
// before the next family begins: a collector writes each of its families
// whole. Label values are escaped (\ as \\, " as \", newline as \n), HELP
// text likewise but for the quote; values are integers, or doubles in their
// shortest exact form, with +Inf, -Inf and NaN spelled as Prometheus does.
//
// Thread-safety: none; one writer per scrape.

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "metrics/duration_histogram.h"

namespace sibyl::metrics {

enum class MetricType { kCounter, kGauge, kHistogram };

struct Label {
  std::string_view name;
  std::string_view value;
};

class ExpositionWriter {
 public:
  // Begins a family: its HELP and TYPE lines. `name` is the family's name,
  // without _bucket/_sum/_count for a histogram.
  void Family(std::string_view name, std::string_view help, MetricType type);

  void Sample(std::string_view name, std::span<const Label> labels, uint64_t value);
  void Sample(std::string_view name, std::span<const Label> labels, double value);
  void Sample(std::string_view name, std::initializer_list<Label> labels, uint64_t value) {
    Sample(name, std::span<const Label>(labels.begin(), labels.size()), value);
  }
  void Sample(std::string_view name, std::initializer_list<Label> labels, double value) {
    Sample(name, std::span<const Label>(labels.begin(), labels.size()), value);
  }

  // The _bucket (with an `le` label after `labels`), _sum and _count
  // samples of the histogram family `name`.
  void Histogram(std::string_view name, std::span<const Label> labels,
                 const DurationHistogram::Snapshot& snapshot);
  void Histogram(std::string_view name, std::initializer_list<Label> labels,
                 const DurationHistogram::Snapshot& snapshot) {
    Histogram(name, std::span<const Label>(labels.begin(), labels.size()), snapshot);
  }

  const std::string& text() const { return out_; }
  std::string Take() { return std::move(out_); }

 private:
  void BeginSample(std::string_view name, std::string_view suffix, std::span<const Label> labels,
                   const Label* extra);

  std::string out_;
};

// A label value or HELP text escaped for the format (exposed for tests).
std::string EscapeLabelValue(std::string_view value);
// A sample value as the format writes it: "+Inf", "-Inf", "NaN", or the
// shortest text that reads back as the same double.
std::string FormatValue(double value);

}  // namespace sibyl::metrics
