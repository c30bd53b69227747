#pragma once
// The node's metrics: the collectors components add, rendered together in
// Prometheus' text format for each scrape of GET /metrics (docs/metrics.md).
//
// This is the extension point: a component with something to report adds a
// collector, a function that writes its families into the scrape's
// ExpositionWriter, reading counters it keeps itself (metrics/counter.h,
// metrics/duration_histogram.h) or asking its own state (RocksDB
// properties, the hint store's files). Nothing is copied into the registry
// between scrapes, so what a collector costs is paid only when scraped.
//
//   MetricRegistry registry;
//   auto id = registry.Add("storage", [&](ExpositionWriter& out) { ... });
//   std::string text = registry.Render();
//   registry.Remove(id);      // before what the collector reads goes away
//
// Family names must be unique across collectors (each writes its own).
//
// Thread-safety: every method from any thread. Render() holds the registry's
// mutex while the collectors run, so Remove() returns only once no scrape
// uses the collector; a collector must therefore not call Add or Remove.
// Collectors run on the scraping thread (the metrics endpoint's), never on a
// request path.

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "metrics/exposition_writer.h"

namespace sibyl::metrics {

class MetricRegistry {
 public:
  using Collector = std::function<void(ExpositionWriter&)>;
  using CollectorId = uint64_t;

  // `name` says whose collector it is, for the log when one throws.
  CollectorId Add(std::string name, Collector collector);
  void Remove(CollectorId id);

  // Every collector's families, in the order they were added. A collector
  // that throws is left out of this scrape (nothing it wrote is kept, so no
  // family is cut short) and the failure is logged.
  std::string Render() const;

 private:
  struct Entry {
    CollectorId id;
    std::string name;
    Collector collect;
  };

  mutable std::mutex mutex_;
  std::vector<Entry> collectors_;  // GUARDED_BY(mutex_)
  CollectorId next_id_ = 1;        // GUARDED_BY(mutex_)
};

}  // namespace sibyl::metrics
