#include "metrics/exposition_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace sibyl::metrics {
namespace {

TEST(ExpositionWriter, WritesHelpTypeAndSamples) {
  ExpositionWriter out;
  out.Family("sibyl_things_total", "Things counted.", MetricType::kCounter);
  out.Sample("sibyl_things_total", {{"kind", "a"}, {"where", "here"}}, uint64_t{42});
  out.Sample("sibyl_things_total", {}, uint64_t{0});
  out.Family("sibyl_level", "A gauge.", MetricType::kGauge);
  out.Sample("sibyl_level", {}, 0.25);
  EXPECT_EQ(out.text(),
            "# HELP sibyl_things_total Things counted.\n"
            "# TYPE sibyl_things_total counter\n"
            "sibyl_things_total{kind=\"a\",where=\"here\"} 42\n"
            "sibyl_things_total 0\n"
            "# HELP sibyl_level A gauge.\n"
            "# TYPE sibyl_level gauge\n"
            "sibyl_level 0.25\n");
}

TEST(ExpositionWriter, EscapesLabelValuesAndHelp) {
  EXPECT_EQ(EscapeLabelValue("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  ExpositionWriter out;
  // HELP escapes backslash and newline, not the quote.
  out.Family("m", "say \"hi\"\\\nbye", MetricType::kGauge);
  out.Sample("m", {{"table", "we\"ird\\na\nme"}}, uint64_t{1});
  EXPECT_EQ(out.text(),
            "# HELP m say \"hi\"\\\\\\nbye\n"
            "# TYPE m gauge\n"
            "m{table=\"we\\\"ird\\\\na\\nme\"} 1\n");
}

TEST(ExpositionWriter, FormatsSpecialValues) {
  EXPECT_EQ(FormatValue(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(FormatValue(-std::numeric_limits<double>::infinity()), "-Inf");
  EXPECT_EQ(FormatValue(std::nan("")), "NaN");
  EXPECT_EQ(FormatValue(1.0), "1");
  EXPECT_EQ(FormatValue(0.1), "0.1");
}

TEST(ExpositionWriter, WritesHistogramBucketsSumAndCount) {
  DurationHistogram histogram;
  histogram.Observe(std::chrono::microseconds(50));   // first bucket
  histogram.Observe(std::chrono::microseconds(100));  // on the bound: still the first
  histogram.Observe(std::chrono::milliseconds(3));    // le 0.005
  histogram.Observe(std::chrono::seconds(20));        // +Inf only
  ExpositionWriter out;
  out.Family("lat_seconds", "Latency.", MetricType::kHistogram);
  out.Histogram("lat_seconds", {{"operation", "query"}}, histogram.snapshot());
  const std::string expected =
      "# HELP lat_seconds Latency.\n"
      "# TYPE lat_seconds histogram\n"
      "lat_seconds_bucket{operation=\"query\",le=\"0.0001\"} 2\n"
      "lat_seconds_bucket{operation=\"query\",le=\"0.00025\"} 2\n"
      "lat_seconds_bucket{operation=\"query\",le=\"0.0005\"} 2\n"
      "lat_seconds_bucket{operation=\"query\",le=\"0.001\"} 2\n"
      "lat_seconds_bucket{operation=\"query\",le=\"0.0025\"} 2\n"
      "lat_seconds_bucket{operation=\"query\",le=\"0.005\"} 3\n"
      "lat_seconds_bucket{operation=\"query\",le=\"0.01\"} 3\n"
      "lat_seconds_bucket{operation=\"query\",le=\"0.025\"} 3\n"
      "lat_seconds_bucket{operation=\"query\",le=\"0.05\"} 3\n"
      "lat_seconds_bucket{operation=\"query\",le=\"0.1\"} 3\n"
      "lat_seconds_bucket{operation=\"query\",le=\"0.25\"} 3\n"
      "lat_seconds_bucket{operation=\"query\",le=\"0.5\"} 3\n"
      "lat_seconds_bucket{operation=\"query\",le=\"1\"} 3\n"
      "lat_seconds_bucket{operation=\"query\",le=\"2.5\"} 3\n"
      "lat_seconds_bucket{operation=\"query\",le=\"5\"} 3\n"
      "lat_seconds_bucket{operation=\"query\",le=\"10\"} 3\n"
      "lat_seconds_bucket{operation=\"query\",le=\"+Inf\"} 4\n"
      "lat_seconds_sum{operation=\"query\"} 20.00315\n"
      "lat_seconds_count{operation=\"query\"} 4\n";
  EXPECT_EQ(out.text(), expected);
}

TEST(ExpositionWriter, HistogramWithoutLabels) {
  DurationHistogram histogram;
  ExpositionWriter out;
  out.Histogram("h", {}, histogram.snapshot());
  EXPECT_NE(out.text().find("h_bucket{le=\"+Inf\"} 0\nh_sum 0\nh_count 0\n"), std::string::npos);
}

}  // namespace
}  // namespace sibyl::metrics
