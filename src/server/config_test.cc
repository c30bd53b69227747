#include "server/config.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "server/command_line.h"

namespace sibyl::server {
namespace {

// `name` with this process's id: other test processes may run at the same time.
std::filesystem::path WriteTemp(const std::string& name, const std::string& text) {
  auto path = std::filesystem::temp_directory_path() / (std::to_string(getpid()) + "-" + name);
  std::ofstream(path) << text;
  return path;
}

TEST(ConfigTest, DefaultsAreCassandras) {
  Config c;
  EXPECT_EQ(c.cluster_name, "Test Cluster");
  EXPECT_EQ(c.native_address(), "127.0.0.1");
  EXPECT_EQ(c.native_transport_port, 9042);
  EXPECT_EQ(c.native_transport_max_frame_size, 16u * 1024 * 1024);
  EXPECT_EQ(c.num_tokens, 16);
  EXPECT_EQ(c.data_dir(), "sibyl-data");
  EXPECT_EQ(c.datacenter, "datacenter1");
  EXPECT_EQ(c.rack, "rack1");
  EXPECT_EQ(c.commitlog_sync_group_window.count(), 0);
}

TEST(ConfigTest, PrometheusKeys) {
  Config c;
  EXPECT_TRUE(c.prometheus_enabled);
  EXPECT_EQ(c.prometheus_port, 9180);
  EXPECT_EQ(c.metrics_address(), "127.0.0.1");
  SetConfigValue(c, "listen_address", "127.0.0.2");
  EXPECT_EQ(c.metrics_address(), "127.0.0.2");  // follows listen_address
  SetConfigValue(c, "prometheus_address", "127.0.0.3");
  SetConfigValue(c, "prometheus_port", "0");
  SetConfigValue(c, "prometheus_enabled", "false");
  EXPECT_EQ(c.metrics_address(), "127.0.0.3");
  EXPECT_EQ(c.prometheus_port, 0);
  EXPECT_FALSE(c.prometheus_enabled);
  EXPECT_THROW(SetConfigValue(c, "prometheus_port", "70000"), ConfigError);
  EXPECT_THROW(SetConfigValue(c, "prometheus_address", "nowhere at all"), ConfigError);
  EXPECT_NE(DescribeConfigKeys().find("--prometheus-port PORT"), std::string::npos);
}

TEST(ConfigTest, GroupSyncNeedsItsWindow) {
  Config c;
  SetConfigValue(c, "commitlog_sync", "group");
  try {
    ValidateConfig(c);
    FAIL() << "group sync without a window was accepted";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "Missing value for commitlog_sync_group_window.");
  }
  SetConfigValue(c, "commitlog_sync_group_window", "15ms");
  ValidateConfig(c);
}

TEST(ConfigTest, APeriodIsOnlyForPeriodicSync) {
  Config batch;
  SetConfigValue(batch, "commitlog_sync", "batch");
  ValidateConfig(batch);  // the default period does not count as given
  SetConfigValue(batch, "commitlog_sync_period", "5000ms");
  EXPECT_THROW(ValidateConfig(batch), ConfigError);
  Config group;
  SetConfigValue(group, "commitlog_sync", "group");
  SetConfigValue(group, "commitlog_sync_group_window", "15ms");
  SetConfigValue(group, "commitlog_sync_period_in_ms", "5000");
  EXPECT_THROW(ValidateConfig(group), ConfigError);
  Config periodic;
  SetConfigValue(periodic, "commitlog_sync_period", "0ms");
  EXPECT_THROW(ValidateConfig(periodic), ConfigError);
}

TEST(ConfigTest, SizesAndDurationsInCassandra41Units) {
  Config c;
  SetConfigValue(c, "native_transport_max_frame_size", "32MiB");
  EXPECT_EQ(c.native_transport_max_frame_size, 32u << 20);
  SetConfigValue(c, "native_transport_max_frame_size_in_mb", "8");
  EXPECT_EQ(c.native_transport_max_frame_size, 8u << 20);
  SetConfigValue(c, "commitlog_sync_period", "2s");
  EXPECT_EQ(c.commitlog_sync_period.count(), 2000);
  SetConfigValue(c, "commitlog_sync_period_in_ms", "150");
  EXPECT_EQ(c.commitlog_sync_period.count(), 150);
  EXPECT_THROW(SetConfigValue(c, "native_transport_max_frame_size", "16MB"), ConfigError);
  EXPECT_THROW(SetConfigValue(c, "native_transport_max_frame_size", "512MiB"), ConfigError);
  EXPECT_THROW(SetConfigValue(c, "commitlog_sync_period", "10 parsecs"), ConfigError);
}

TEST(ConfigTest, BadValuesNameTheKey) {
  Config c;
  try {
    SetConfigValue(c, "native_transport_port", "90422");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("native_transport_port"), std::string::npos);
  }
  EXPECT_THROW(SetConfigValue(c, "listen_address", "not-an-ip"), ConfigError);
  EXPECT_THROW(SetConfigValue(c, "commitlog_sync", "sometimes"), ConfigError);
  EXPECT_THROW(SetConfigValue(c, "num_tokens", "0"), ConfigError);
  EXPECT_THROW(SetConfigValue(c, "partitioner", "RandomPartitioner"), ConfigError);
  EXPECT_THROW(SetConfigValue(c, "no_such_key", "1"), ConfigError);
}

TEST(ConfigTest, PaxosVariantIsV1OrV2AndV2ByDefault) {
  Config c;
  EXPECT_EQ(c.paxos_variant, PaxosVariantSetting::kV2);
  SetConfigValue(c, "paxos_variant", "v1");
  EXPECT_EQ(c.paxos_variant, PaxosVariantSetting::kV1);
  SetConfigValue(c, "paxos_variant", "v2");
  EXPECT_EQ(c.paxos_variant, PaxosVariantSetting::kV2);
  EXPECT_THROW(
      SetConfigValue(c, "paxos_variant", "v2_without_linearizable_reads_or_rejected_writes"),
      ConfigError);
  EXPECT_THROW(SetConfigValue(c, "paxos_variant", "v3"), ConfigError);
}

TEST(ConfigTest, BootstrapAndStreamingKeys) {
  Config c;
  EXPECT_TRUE(c.auto_bootstrap);
  EXPECT_EQ(c.stream_throughput_outbound, 24u * 1024 * 1024);
  SetConfigValue(c, "auto_bootstrap", "false");
  EXPECT_FALSE(c.auto_bootstrap);
  SetConfigValue(c, "stream_throughput_outbound", "10MiB/s");
  EXPECT_EQ(c.stream_throughput_outbound, 10u * 1024 * 1024);
  SetConfigValue(c, "stream_throughput_outbound", "0B/s");
  EXPECT_EQ(c.stream_throughput_outbound, 0u);
  SetConfigValue(c, "stream_throughput_outbound_megabits_per_sec", "200");
  EXPECT_EQ(c.stream_throughput_outbound, 25'000'000u);
  EXPECT_THROW(SetConfigValue(c, "stream_throughput_outbound", "10MiB"), ConfigError);
}

TEST(ConfigTest, YamlFileWithListsAndIgnoredKeys) {
  auto path = WriteTemp("sibyl-config-test.yaml",
                        "cluster_name: 'Prod'\n"
                        "num_tokens: 4\n"
                        "data_file_directories:\n  - /tmp/a\n  - /tmp/b\n"
                        "commitlog_sync: batch\n"
                        "concurrent_reads: 32\n");
  Config c;
  auto warnings = LoadConfigFile(c, path);
  EXPECT_EQ(c.cluster_name, "Prod");
  EXPECT_EQ(c.num_tokens, 4);
  ASSERT_EQ(c.data_file_directories.size(), 2u);
  EXPECT_EQ(c.data_dir(), "/tmp/a");
  EXPECT_EQ(c.commitlog_sync, CommitlogSync::kBatch);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("concurrent_reads"), std::string::npos);
}

TEST(ConfigTest, MaterializedViewKeys) {
  Config defaults;
  // Sibyl enables views by default (Cassandra 4.1 does not).
  EXPECT_TRUE(defaults.materialized_views_enabled);
  EXPECT_FALSE(defaults.materialized_views_strict_primary_key_selection);
  auto path = WriteTemp("sibyl-config-views.yaml",
                        "materialized_views_enabled: false\n"
                        "materialized_views_strict_primary_key_selection: true\n");
  Config c;
  EXPECT_TRUE(LoadConfigFile(c, path).empty());
  EXPECT_FALSE(c.materialized_views_enabled);
  EXPECT_TRUE(c.materialized_views_strict_primary_key_selection);
  // Cassandra 4.0's name.
  auto old_name = WriteTemp("sibyl-config-views-40.yaml", "enable_materialized_views: false\n");
  Config c40;
  EXPECT_TRUE(LoadConfigFile(c40, old_name).empty());
  EXPECT_FALSE(c40.materialized_views_enabled);
}

TEST(ConfigTest, ViewOutboxLimit) {
  EXPECT_EQ(Config{}.view_outbox_max_pending, 10000);
  auto path = WriteTemp("sibyl-config-view-outbox.yaml", "view_outbox_max_pending: 250\n");
  Config c;
  EXPECT_TRUE(LoadConfigFile(c, path).empty());
  EXPECT_EQ(c.view_outbox_max_pending, 250);
}

TEST(ConfigTest, UnknownYamlKeyIsRefusedAsCassandraDoes) {
  auto path = WriteTemp("sibyl-config-unknown.yaml", "cluster_nmae: x\n");
  Config c;
  try {
    LoadConfigFile(c, path);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("Please remove properties [cluster_nmae]"),
              std::string::npos);
  }
}

TEST(ConfigTest, ClusterKeysReadAsCassandraYamlWritesThem) {
  auto path =
      WriteTemp("sibyl-config-cluster.yaml",
                "seed_provider:\n"
                "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider\n"
                "    parameters:\n"
                "      - seeds: \"127.0.0.1:7000, 127.0.0.2\"\n"
                "endpoint_snitch: org.apache.cassandra.locator.GossipingPropertyFileSnitch\n"
                "write_request_timeout: 500ms\n"
                "read_request_timeout_in_ms: 700\n"
                "range_request_timeout: 3s\n"
                "max_hint_window: 1h\n"
                "hinted_handoff_enabled: false\n"
                "hinted_handoff_throttle_in_kb: 2048\n"
                "metadata_store: etcd\n"
                "etcd_endpoints: http://127.0.0.1:2379,http://127.0.0.2:2379\n");
  Config c;
  const auto warnings = LoadConfigFile(c, path);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(c.seeds, (std::vector<std::string>{"127.0.0.1:7000", "127.0.0.2"}));
  EXPECT_EQ(c.endpoint_snitch, "GossipingPropertyFileSnitch");
  EXPECT_EQ(c.write_request_timeout.count(), 500);
  EXPECT_EQ(c.read_request_timeout.count(), 700);
  EXPECT_EQ(c.range_request_timeout.count(), 3000);
  EXPECT_EQ(c.max_hint_window, std::chrono::hours(1));
  EXPECT_FALSE(c.hinted_handoff_enabled);
  EXPECT_EQ(c.hinted_handoff_throttle, 2048u * 1024);
  EXPECT_EQ(c.metadata_store, "etcd");
  EXPECT_EQ(c.etcd_endpoints.size(), 2u);
  EXPECT_EQ(c.config_directory, std::filesystem::absolute(path).parent_path());
}

TEST(ConfigTest, ClusterDefaultsAreCassandras) {
  Config c;
  EXPECT_EQ(c.seeds, (std::vector<std::string>{"127.0.0.1:7000"}));
  EXPECT_EQ(c.read_request_timeout.count(), 5000);
  EXPECT_EQ(c.range_request_timeout.count(), 10000);
  EXPECT_EQ(c.write_request_timeout.count(), 2000);
  EXPECT_EQ(c.counter_write_request_timeout.count(), 5000);
  EXPECT_EQ(c.max_hint_window, std::chrono::hours(3));
  EXPECT_TRUE(c.hinted_handoff_enabled);
  EXPECT_EQ(c.metadata_store, "local");
  EXPECT_EQ(c.native_transport_max_threads, 128);
}

TEST(ConfigTest, DiskUsageIntervalsDefaultToCassandrasAndMustBePositive) {
  Config c;
  EXPECT_EQ(c.disk_usage_monitor_interval, std::chrono::seconds(30));
  EXPECT_EQ(c.disk_usage_notify_interval, std::chrono::minutes(30));
  SetConfigValue(c, "disk_usage_monitor_interval", "100ms");
  SetConfigValue(c, "disk_usage_notify_interval", "0ms");
  EXPECT_EQ(c.disk_usage_monitor_interval.count(), 100);
  EXPECT_EQ(c.disk_usage_notify_interval.count(), 0);
  EXPECT_NO_THROW(ValidateConfig(c));
  SetConfigValue(c, "disk_usage_monitor_interval", "0ms");
  EXPECT_THROW(ValidateConfig(c), ConfigError);
}

TEST(ConfigTest, BadClusterValuesNameTheKey) {
  Config c;
  auto message = [&](const std::string& key, const std::string& value) {
    try {
      SetConfigValue(c, key, value);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message("endpoint_snitch", "Ec2Snitch"),
            "Invalid value 'Ec2Snitch' for endpoint_snitch: Sibyl supports SimpleSnitch and "
            "GossipingPropertyFileSnitch");
  EXPECT_EQ(message("metadata_store", "zookeeper"),
            "Invalid value 'zookeeper' for metadata_store: expected local or etcd");
  EXPECT_EQ(message("etcd_endpoints", "127.0.0.1:2379"),
            "Invalid value '127.0.0.1:2379' for etcd_endpoints: each endpoint must be an http:// "
            "URL");
  EXPECT_EQ(message("hinted_handoff_enabled", "maybe"),
            "Invalid value 'maybe' for hinted_handoff_enabled: expected true or false");
  EXPECT_EQ(message("seeds", " , "), "Invalid value ' , ' for seeds: no seed given");
  EXPECT_EQ(message("write_request_timeout", "2 fortnights"),
            "Invalid value '2 fortnights' for write_request_timeout: accepted units are ns, us, "
            "ms, s, m, h, d");
}

TEST(ConfigTest, OnlySimpleSeedProviderIsKnown) {
  auto path = WriteTemp("sibyl-config-seeds.yaml",
                        "seed_provider:\n  - class_name: com.example.K8sSeedProvider\n");
  Config c;
  try {
    LoadConfigFile(c, path);
    FAIL() << "an unknown seed provider was accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "Invalid value 'com.example.K8sSeedProvider' for seed_provider: Sibyl supports only "
              "org.apache.cassandra.locator.SimpleSeedProvider");
  }
}

TEST(CommandLineTest, FlagsOverrideTheFile) {
  auto path =
      WriteTemp("sibyl-config-flags.yaml", "native_transport_port: 9100\ncluster_name: A\n");
  auto options = ParseStartArguments({"--config", path.string(), "--native-transport-port", "9043",
                                      "--listen-address=127.0.0.2", "--data-dir", "/tmp/sibyl-x"});
  EXPECT_EQ(options.config.native_transport_port, 9043);
  EXPECT_EQ(options.config.cluster_name, "A");
  EXPECT_EQ(options.config.listen_address, "127.0.0.2");
  EXPECT_EQ(options.config.data_dir(), "/tmp/sibyl-x");
}

TEST(CommandLineTest, UnknownFlagAndMissingValue) {
  EXPECT_THROW(ParseStartArguments({"--no-such-flag", "1"}), ConfigError);
  EXPECT_THROW(ParseStartArguments({"--native-transport-port"}), ConfigError);
  EXPECT_THROW(ParseStartArguments({"stray"}), ConfigError);
}

TEST(CommandLineTest, HelpListsEveryKey) {
  const std::string usage = StartUsage();
  for (const char* flag :
       {"--native-transport-port", "--listen-address", "--data-dir", "--config", "--commitlog-sync",
        "--num-tokens", "--native-transport-max-frame-size"}) {
    EXPECT_NE(usage.find(flag), std::string::npos) << flag;
  }
}

}  // namespace
}  // namespace sibyl::server
