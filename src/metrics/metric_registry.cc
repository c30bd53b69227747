#include "metrics/metric_registry.h"

#include <spdlog/spdlog.h>

#include <exception>

namespace sibyl::metrics {

MetricRegistry::CollectorId MetricRegistry::Add(std::string name, Collector collector) {
  std::lock_guard lock(mutex_);
  const CollectorId id = next_id_++;
  collectors_.push_back({id, std::move(name), std::move(collector)});
  return id;
}

void MetricRegistry::Remove(CollectorId id) {
  std::lock_guard lock(mutex_);
  std::erase_if(collectors_, [id](const Entry& entry) { return entry.id == id; });
}

std::string MetricRegistry::Render() const {
  std::lock_guard lock(mutex_);
  std::string out;
  for (const Entry& entry : collectors_) {
    // Each collector writes into its own writer, so one that throws halfway
    // leaves no half-written family in the scrape.
    ExpositionWriter writer;
    try {
      entry.collect(writer);
    } catch (const std::exception& e) {
      spdlog::warn("Metrics collector {} failed, left out of this scrape: {}", entry.name,
                   e.what());
      continue;
    }
    out += writer.text();
  }
  return out;
}

}  // namespace sibyl::metrics
