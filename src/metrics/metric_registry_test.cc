#include "metrics/metric_registry.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "metrics/counter.h"

namespace sibyl::metrics {
namespace {

TEST(MetricRegistry, RendersCollectorsInOrderAndForgetsRemovedOnes) {
  MetricRegistry registry;
  Counter requests;
  requests.Add(3);
  const auto first = registry.Add("first", [&](ExpositionWriter& out) {
    out.Family("a_total", "A.", MetricType::kCounter);
    out.Sample("a_total", {}, requests.value());
  });
  registry.Add("second", [](ExpositionWriter& out) {
    out.Family("b", "B.", MetricType::kGauge);
    out.Sample("b", {}, uint64_t{7});
  });
  EXPECT_EQ(registry.Render(),
            "# HELP a_total A.\n# TYPE a_total counter\na_total 3\n"
            "# HELP b B.\n# TYPE b gauge\nb 7\n");
  registry.Remove(first);
  EXPECT_EQ(registry.Render(), "# HELP b B.\n# TYPE b gauge\nb 7\n");
}

TEST(MetricRegistry, CollectorThatThrowsIsLeftOutWhole) {
  MetricRegistry registry;
  registry.Add("broken", [](ExpositionWriter& out) {
    out.Family("half", "Half written.", MetricType::kGauge);
    throw std::runtime_error("gone");
  });
  registry.Add("fine", [](ExpositionWriter& out) {
    out.Family("ok", "Fine.", MetricType::kGauge);
    out.Sample("ok", {}, uint64_t{1});
  });
  EXPECT_EQ(registry.Render(), "# HELP ok Fine.\n# TYPE ok gauge\nok 1\n");
}

}  // namespace
}  // namespace sibyl::metrics
