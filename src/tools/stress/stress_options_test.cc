#include "tools/stress/stress_options.h"

#include <gtest/gtest.h>

namespace sibyl::tools {
namespace {

using std::chrono::milliseconds;

StressOptions Parse(std::vector<std::string> args) { return ParseStressArguments(args); }

std::string ErrorOf(std::vector<std::string> args) {
  try {
    (void)ParseStressArguments(args);
  } catch (const StressUsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(StressOptionsTest, Defaults) {
  const StressOptions o = Parse({"write"});
  EXPECT_EQ(o.workload, Workload::kWrite);
  EXPECT_EQ(o.hosts, std::vector<std::string>{"127.0.0.1"});
  EXPECT_FALSE(o.token_aware());
  EXPECT_EQ(o.consistency, protocol::Consistency::kOne);
  EXPECT_EQ(o.replication_factor, 1);
  EXPECT_EQ(o.port, 9042);
  EXPECT_EQ(o.protocol_version, 4);
  EXPECT_EQ(o.connections, 4);
  EXPECT_EQ(o.concurrency, 16);
  EXPECT_EQ(o.threads, 1);
  EXPECT_EQ(o.duration, milliseconds(10000));
  EXPECT_FALSE(o.ops);
  EXPECT_EQ(o.warmup, milliseconds(2000));
  EXPECT_FALSE(o.rate);
  EXPECT_EQ(o.timeout, milliseconds(5000));
  EXPECT_EQ(o.partitions, 10000u);
  EXPECT_EQ(o.rows_per_partition, 1u);
  EXPECT_EQ(o.columns, 1);
  EXPECT_EQ(o.value_size, 32);
  EXPECT_EQ(o.slice, 1);
  EXPECT_EQ(o.write_ratio, 1);
  EXPECT_EQ(o.read_ratio, 1);
  EXPECT_EQ(o.keyspace, "sibyl_stress");
  EXPECT_EQ(o.table, "standard1");
  EXPECT_FALSE(o.no_schema);
  EXPECT_FALSE(o.populate);
  EXPECT_FALSE(o.json);
  EXPECT_EQ(Parse({"counter"}).table, "counter1");
}

TEST(StressOptionsTest, EveryOption) {
  const StressOptions o = Parse({"--host",
                                 "db1",
                                 "mixed",
                                 "--port=9043",
                                 "--protocol",
                                 "5",
                                 "--connections",
                                 "8",
                                 "--concurrency",
                                 "32",
                                 "--threads",
                                 "2",
                                 "--ops",
                                 "10k",
                                 "--warmup",
                                 "500ms",
                                 "--rate",
                                 "20000/s",
                                 "--timeout",
                                 "1.5s",
                                 "--partitions",
                                 "1M",
                                 "--rows-per-partition",
                                 "10",
                                 "--columns",
                                 "3",
                                 "--value-size",
                                 "100",
                                 "--slice",
                                 "5",
                                 "--ratio",
                                 "1:3",
                                 "--keyspace",
                                 "ks",
                                 "--table",
                                 "t1",
                                 "--no-schema",
                                 "--populate",
                                 "--json",
                                 "--consistency",
                                 "local_quorum",
                                 "--replication-factor",
                                 "3"});
  EXPECT_EQ(o.consistency, protocol::Consistency::kLocalQuorum);
  EXPECT_EQ(o.replication_factor, 3);
  EXPECT_EQ(o.workload, Workload::kMixed);
  EXPECT_EQ(o.hosts, std::vector<std::string>{"db1"});
  EXPECT_EQ(o.port, 9043);
  EXPECT_EQ(o.protocol_version, 5);
  EXPECT_EQ(o.connections, 8);
  EXPECT_EQ(o.concurrency, 32);
  EXPECT_EQ(o.threads, 2);
  EXPECT_EQ(o.ops, 10000u);
  EXPECT_EQ(o.warmup, milliseconds(500));
  EXPECT_EQ(o.rate, 20000.0);
  EXPECT_EQ(o.timeout, milliseconds(1500));
  EXPECT_EQ(o.partitions, 1000000u);
  EXPECT_EQ(o.rows_per_partition, 10u);
  EXPECT_EQ(o.columns, 3);
  EXPECT_EQ(o.value_size, 100);
  EXPECT_EQ(o.slice, 5);
  EXPECT_EQ(o.write_ratio, 1);
  EXPECT_EQ(o.read_ratio, 3);
  EXPECT_EQ(o.keyspace, "ks");
  EXPECT_EQ(o.table, "t1");
  EXPECT_TRUE(o.no_schema);
  EXPECT_TRUE(o.populate);
  EXPECT_TRUE(o.json);
}

TEST(StressOptionsTest, Durations) {
  EXPECT_EQ(ParseDuration("d", "10s"), milliseconds(10000));
  EXPECT_EQ(ParseDuration("d", "250ms"), milliseconds(250));
  EXPECT_EQ(ParseDuration("d", "2m"), milliseconds(120000));
  EXPECT_EQ(ParseDuration("d", "1h"), milliseconds(3600000));
  EXPECT_EQ(ParseDuration("d", "3"), milliseconds(3000));
  EXPECT_EQ(ParseDuration("d", "0s"), milliseconds(0));
  EXPECT_THROW((void)ParseDuration("d", "s"), StressUsageError);
  EXPECT_THROW((void)ParseDuration("d", "-1s"), StressUsageError);
  EXPECT_THROW((void)ParseDuration("d", "10x"), StressUsageError);
  EXPECT_THROW((void)ParseDuration("d", ""), StressUsageError);
}

TEST(StressOptionsTest, Errors) {
  EXPECT_EQ(ErrorOf({}),
            "Missing workload: expected write, read, mixed, counter, scan or lwt "
            "(see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"frob"}),
            "Unknown workload 'frob': expected write, read, mixed, counter, scan or lwt "
            "(see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"write", "read"}), "Unexpected argument 'read' (see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"write", "--bogus", "1"}), "Unknown option --bogus (see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"write", "--port"}), "Missing value for --port (see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"write", "--port", "70000"}),
            "Invalid value '70000' for --port: expected a whole number from 1 to 65535 "
            "(see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"write", "--connections", "two"}),
            "Invalid value 'two' for --connections (see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"write", "--protocol", "3"}),
            "Invalid value '3' for --protocol: expected a whole number from 4 to 5 "
            "(see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"write", "--duration", "5s", "--ops", "100"}),
            "--duration and --ops cannot both be given (see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"write", "--rate", "-5/s"}),
            "Invalid value '-5/s' for --rate: expected e.g. 20000/s (see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"mixed", "--ratio", "3"}),
            "Invalid value '3' for --ratio: expected W:R (see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"mixed", "--ratio", "0:0"}),
            "--ratio 0:0 leaves nothing to do (see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"write", "--table", "a-b"}),
            "Invalid name 'a-b' for --table: expected letters, digits and underscores (at most "
            "48) (see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"write", "--populate"}),
            "--populate applies to the read, mixed and scan workloads (see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"write", "--lwt-condition", "fails"}),
            "--lwt-condition applies to the lwt workload (see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"lwt", "--lwt-condition", "maybe"}),
            "Invalid value 'maybe' for --lwt-condition: expected applies or fails (see sibyl "
            "stress --help)");
  EXPECT_EQ(ErrorOf({"counter", "--value-size", "8"}),
            "--value-size does not apply to the counter workload (see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"write", "--duration", "0s"}),
            "--duration must be longer than 0 (see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"write", "--ops", "1.5"}),
            "Invalid value '1.5' for --ops: expected a whole number from 1 to 4611686018427387904 "
            "(see sibyl stress --help)");
}

TEST(StressOptionsTest, SeveralHostsMakeTheRunTokenAware) {
  const StressOptions o = Parse({"write", "--host", "127.0.0.1,127.0.0.2,127.0.0.3"});
  EXPECT_EQ(o.hosts, (std::vector<std::string>{"127.0.0.1", "127.0.0.2", "127.0.0.3"}));
  EXPECT_TRUE(o.token_aware());
  EXPECT_EQ(ErrorOf({"write", "--host", "a,,b"}),
            "Empty host in --host 'a,,b' (see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"write", "--host", ""}), "Empty host in --host '' (see sibyl stress --help)");
  EXPECT_EQ(ErrorOf({"write", "--consistency", "FEW"}),
            "Unknown consistency level 'FEW' for --consistency: expected ANY, ONE, TWO, THREE, "
            "QUORUM, ALL, LOCAL_QUORUM, EACH_QUORUM, LOCAL_ONE, SERIAL or LOCAL_SERIAL (see sibyl "
            "stress --help)");
  // Paxos reads: the read workload only, on rows written before.
  EXPECT_EQ(Parse({"read", "--consistency", "serial"}).consistency, protocol::Consistency::kSerial);
  EXPECT_EQ(Parse({"read", "--consistency", "LOCAL_SERIAL"}).consistency,
            protocol::Consistency::kLocalSerial);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"write", "--consistency", "SERIAL"},
        std::vector<std::string>{"lwt", "--consistency", "SERIAL"},
        std::vector<std::string>{"read", "--populate", "--consistency", "SERIAL"}}) {
    EXPECT_EQ(ErrorOf(args),
              "--consistency SERIAL or LOCAL_SERIAL applies to the read workload, without "
              "--populate (see sibyl stress --help)");
  }
}

TEST(StressOptionsTest, HelpStopsParsing) {
  EXPECT_TRUE(Parse({"--help"}).help);
  EXPECT_TRUE(Parse({"write", "-h", "--bogus"}).help);
  EXPECT_NE(StressUsage().find("--rate R/s"), std::string::npos);
}

}  // namespace
}  // namespace sibyl::tools
