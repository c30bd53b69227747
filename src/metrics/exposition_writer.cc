#include "metrics/exposition_writer.h"

#include <charconv>
#include <cmath>

namespace sibyl::metrics {
namespace {

// `quote`: whether `"` is escaped too (label values, not HELP text).
void AppendEscaped(std::string& out, std::string_view text, bool quote) {
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '"' && quote) {
      out += "\\\"";
    } else {
      out += c;
    }
  }
}

void AppendInteger(std::string& out, uint64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

void AppendDouble(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "NaN";
  } else if (std::isinf(value)) {
    out += value > 0 ? "+Inf" : "-Inf";
  } else {
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
  }
}

const char* TypeName(MetricType type) {
  switch (type) {
    case MetricType::kCounter:
      return "counter";
    case MetricType::kGauge:
      return "gauge";
    case MetricType::kHistogram:
      return "histogram";
  }
  return "untyped";
}

// The `le` values of DurationHistogram's buckets, in seconds.
std::string BoundText(size_t bucket) {
  if (bucket >= DurationHistogram::kBoundsNanos.size()) return "+Inf";
  // Fixed notation ("0.0001", not "1e-04"): what people grep for and write
  // in queries (le="0.0001").
  char buffer[32];
  const double seconds = static_cast<double>(DurationHistogram::kBoundsNanos[bucket]) / 1e9;
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, seconds, std::chars_format::fixed);
  return std::string(buffer, result.ptr);
}

}  // namespace

std::string EscapeLabelValue(std::string_view value) {
  std::string out;
  AppendEscaped(out, value, /*quote=*/true);
  return out;
}

std::string FormatValue(double value) {
  std::string out;
  AppendDouble(out, value);
  return out;
}

void ExpositionWriter::Family(std::string_view name, std::string_view help, MetricType type) {
  out_ += "# HELP ";
  out_ += name;
  out_ += ' ';
  AppendEscaped(out_, help, /*quote=*/false);
  out_ += "\n# TYPE ";
  out_ += name;
  out_ += ' ';
  out_ += TypeName(type);
  out_ += '\n';
}

void ExpositionWriter::BeginSample(std::string_view name, std::string_view suffix,
                                   std::span<const Label> labels, const Label* extra) {
  out_ += name;
  out_ += suffix;
  if (!labels.empty() || extra != nullptr) {
    out_ += '{';
    bool first = true;
    auto append = [&](const Label& label) {
      if (!first) out_ += ',';
      first = false;
      out_ += label.name;
      out_ += "=\"";
      AppendEscaped(out_, label.value, /*quote=*/true);
      out_ += '"';
    };
    for (const Label& label : labels) append(label);
    if (extra != nullptr) append(*extra);
    out_ += '}';
  }
  out_ += ' ';
}

void ExpositionWriter::Sample(std::string_view name, std::span<const Label> labels,
                              uint64_t value) {
  BeginSample(name, {}, labels, nullptr);
  AppendInteger(out_, value);
  out_ += '\n';
}

void ExpositionWriter::Sample(std::string_view name, std::span<const Label> labels, double value) {
  BeginSample(name, {}, labels, nullptr);
  AppendDouble(out_, value);
  out_ += '\n';
}

void ExpositionWriter::Histogram(std::string_view name, std::span<const Label> labels,
                                 const DurationHistogram::Snapshot& snapshot) {
  for (size_t i = 0; i < DurationHistogram::kBuckets; ++i) {
    const std::string bound = BoundText(i);
    const Label le{"le", bound};
    BeginSample(name, "_bucket", labels, &le);
    AppendInteger(out_, snapshot.cumulative[i]);
    out_ += '\n';
  }
  BeginSample(name, "_sum", labels, nullptr);
  AppendDouble(out_, snapshot.sum_seconds);
  out_ += '\n';
  BeginSample(name, "_count", labels, nullptr);
  AppendInteger(out_, snapshot.count);
  out_ += '\n';
}

}  // namespace sibyl::metrics
