#include "tools/stress/stress_options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace sibyl::tools {

namespace {

[[noreturn]] void Fail(const std::string& message) {
  throw StressUsageError(message + " (see sibyl stress --help)");
}

// A plain decimal number, optionally scaled by a k/M suffix ("20k" = 20000).
double ParseNumber(std::string_view option, std::string_view text) {
  double scale = 1;
  std::string_view digits = text;
  if (!digits.empty() && (digits.back() == 'k' || digits.back() == 'K')) {
    scale = 1e3;
    digits.remove_suffix(1);
  } else if (!digits.empty() && (digits.back() == 'm' || digits.back() == 'M')) {
    scale = 1e6;
    digits.remove_suffix(1);
  }
  double value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() ||
      !std::isfinite(value)) {
    Fail("Invalid value '" + std::string(text) + "' for --" + std::string(option));
  }
  return value * scale;
}

// A whole number in [min, max].
uint64_t ParseCount(std::string_view option, std::string_view text, uint64_t min, uint64_t max) {
  const double value = ParseNumber(option, text);
  if (value != std::floor(value) || value < static_cast<double>(min) ||
      value > static_cast<double>(max)) {
    Fail("Invalid value '" + std::string(text) + "' for --" + std::string(option) +
         ": expected a whole number from " + std::to_string(min) + " to " + std::to_string(max));
  }
  return static_cast<uint64_t>(value);
}

int ParseInt(std::string_view option, std::string_view text, int min, int max) {
  return static_cast<int>(
      ParseCount(option, text, static_cast<uint64_t>(min), static_cast<uint64_t>(max)));
}

Workload ParseWorkload(const std::string& name) {
  if (name == "write") return Workload::kWrite;
  if (name == "read") return Workload::kRead;
  if (name == "mixed") return Workload::kMixed;
  if (name == "counter") return Workload::kCounter;
  if (name == "scan") return Workload::kScan;
  if (name == "lwt") return Workload::kLwt;
  Fail("Unknown workload '" + name + "': expected write, read, mixed, counter, scan or lwt");
}

// A consistency level by its name, any case. SERIAL and LOCAL_SERIAL only
// for reads (CheckStressOptionsAgree): Paxos reads.
protocol::Consistency ParseConsistency(const std::string& name) {
  std::string upper = name;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const auto level :
       {protocol::Consistency::kAny, protocol::Consistency::kOne, protocol::Consistency::kTwo,
        protocol::Consistency::kThree, protocol::Consistency::kQuorum, protocol::Consistency::kAll,
        protocol::Consistency::kLocalQuorum, protocol::Consistency::kEachQuorum,
        protocol::Consistency::kLocalOne, protocol::Consistency::kSerial,
        protocol::Consistency::kLocalSerial}) {
    if (upper == protocol::ConsistencyName(static_cast<uint16_t>(level))) return level;
  }
  Fail("Unknown consistency level '" + name +
       "' for --consistency: expected ANY, ONE, TWO, THREE, QUORUM, ALL, LOCAL_QUORUM, "
       "EACH_QUORUM, LOCAL_ONE, SERIAL or LOCAL_SERIAL");
}

// An unquoted CQL identifier: what --keyspace and --table accept.
void CheckIdentifier(std::string_view option, const std::string& name) {
  bool ok = !name.empty() && name.size() <= 48 && !(name[0] >= '0' && name[0] <= '9');
  for (char c : name) {
    ok = ok &&
         ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_');
  }
  if (!ok) {
    Fail("Invalid name '" + name + "' for --" + std::string(option) +
         ": expected letters, digits and underscores (at most 48)");
  }
}

// What the command line named, where leaving it out means something: a
// default that depends on another option, or a combination to refuse.
struct StressOptionsGiven {
  bool workload = false;
  bool duration = false;
  bool table = false;
  bool value_size = false;
  bool lwt_condition = false;
};

// The options without a value. False when `name` is not one of them.
bool ApplyStressFlag(const std::string& name, StressOptions& o) {
  if (name == "no-schema") {
    o.no_schema = true;
  } else if (name == "populate") {
    o.populate = true;
  } else if (name == "json") {
    o.json = true;
  } else {
    return false;
  }
  return true;
}

// --host's comma-separated list; no entry may be empty.
std::vector<std::string> ParseHostList(const std::string& value) {
  std::vector<std::string> hosts;
  size_t start = 0;
  while (start <= value.size()) {
    const size_t comma = std::min(value.find(',', start), value.size());
    if (comma == start) Fail("Empty host in --host '" + value + "'");
    hosts.push_back(value.substr(start, comma - start));
    start = comma + 1;
  }
  return hosts;
}

// Where and how the requests go. False when `name` is not one of these options.
bool ApplyConnectionOption(const std::string& name, const std::string& value, StressOptions& o) {
  if (name == "host") {
    o.hosts = ParseHostList(value);
  } else if (name == "port") {
    o.port = static_cast<uint16_t>(ParseInt(name, value, 1, 65535));
  } else if (name == "protocol") {
    o.protocol_version = ParseInt(name, value, 4, 5);
  } else if (name == "connections") {
    o.connections = ParseInt(name, value, 1, 1024);
  } else if (name == "concurrency") {
    o.concurrency = ParseInt(name, value, 1, 32768);
  } else if (name == "threads") {
    o.threads = ParseInt(name, value, 1, 256);
  } else if (name == "timeout") {
    o.timeout = ParseDuration(name, value);
    if (o.timeout.count() == 0) Fail("--timeout must be longer than 0");
  } else if (name == "consistency") {
    o.consistency = ParseConsistency(value);
  } else {
    return false;
  }
  return true;
}

// How long the run lasts and how fast it goes. False when `name` is not one
// of these options.
bool ApplyPaceOption(const std::string& name, const std::string& value, StressOptions& o,
                     StressOptionsGiven& given) {
  if (name == "duration") {
    o.duration = ParseDuration(name, value);
    if (o.duration.count() == 0) Fail("--duration must be longer than 0");
    given.duration = true;
  } else if (name == "ops") {
    o.ops = ParseCount(name, value, 1, uint64_t{1} << 62);
  } else if (name == "warmup") {
    o.warmup = ParseDuration(name, value);
  } else if (name == "rate") {
    std::string_view number = value;
    if (number.size() > 2 && number.substr(number.size() - 2) == "/s") number.remove_suffix(2);
    const double rate = ParseNumber(name, number);
    if (rate <= 0) Fail("Invalid value '" + value + "' for --rate: expected e.g. 20000/s");
    o.rate = rate;
  } else {
    return false;
  }
  return true;
}

// The schema stress uses and the rows it writes and reads. False when
// `name` is not one of these options.
bool ApplyDataOption(const std::string& name, const std::string& value, StressOptions& o,
                     StressOptionsGiven& given) {
  if (name == "partitions") {
    o.partitions = ParseCount(name, value, 1, uint64_t{1} << 62);
  } else if (name == "rows-per-partition") {
    o.rows_per_partition = ParseCount(name, value, 1, uint64_t{1} << 40);
  } else if (name == "columns") {
    o.columns = ParseInt(name, value, 1, 1024);
  } else if (name == "value-size") {
    o.value_size = ParseInt(name, value, 0, 16 * 1024 * 1024);
    given.value_size = true;
  } else if (name == "slice") {
    o.slice = ParseInt(name, value, 1, 1 << 20);
  } else if (name == "ratio") {
    const size_t colon = value.find(':');
    if (colon == std::string::npos) Fail("Invalid value '" + value + "' for --ratio: expected W:R");
    o.write_ratio = ParseInt(name, value.substr(0, colon), 0, 1000000);
    o.read_ratio = ParseInt(name, value.substr(colon + 1), 0, 1000000);
    if (o.write_ratio + o.read_ratio == 0) Fail("--ratio 0:0 leaves nothing to do");
  } else if (name == "lwt-condition") {
    if (value == "applies") {
      o.lwt_applies = true;
    } else if (value == "fails") {
      o.lwt_applies = false;
    } else {
      Fail("Invalid value '" + value + "' for --lwt-condition: expected applies or fails");
    }
    given.lwt_condition = true;
  } else if (name == "replication-factor") {
    o.replication_factor = ParseInt(name, value, 1, 100);
  } else if (name == "keyspace") {
    CheckIdentifier(name, value);
    o.keyspace = value;
  } else if (name == "table") {
    CheckIdentifier(name, value);
    o.table = value;
    given.table = true;
  } else {
    return false;
  }
  return true;
}

// The rules between options, once every argument is read.
void CheckStressOptionsAgree(const StressOptions& o, const StressOptionsGiven& given) {
  if (!given.workload) Fail("Missing workload: expected write, read, mixed, counter, scan or lwt");
  if (given.duration && o.ops) Fail("--duration and --ops cannot both be given");
  if (o.partitions > (uint64_t{1} << 62) / o.rows_per_partition) {
    Fail("--partitions × --rows-per-partition must be below 2^62");
  }
  if (o.workload == Workload::kCounter && given.value_size) {
    // Counters have no value size; refusing beats silently ignoring it.
    Fail("--value-size does not apply to the counter workload");
  }
  const bool serial = o.consistency == protocol::Consistency::kSerial ||
                      o.consistency == protocol::Consistency::kLocalSerial;
  if (serial && (o.workload != Workload::kRead || o.populate)) {
    Fail("--consistency SERIAL or LOCAL_SERIAL applies to the read workload, without --populate");
  }
  if (given.lwt_condition && o.workload != Workload::kLwt) {
    Fail("--lwt-condition applies to the lwt workload");
  }
  if (o.populate && o.workload != Workload::kRead && o.workload != Workload::kMixed &&
      o.workload != Workload::kScan) {
    Fail("--populate applies to the read, mixed and scan workloads");
  }
}

}  // namespace

std::string_view WorkloadName(Workload workload) {
  switch (workload) {
    case Workload::kWrite:
      return "write";
    case Workload::kRead:
      return "read";
    case Workload::kMixed:
      return "mixed";
    case Workload::kCounter:
      return "counter";
    case Workload::kScan:
      return "scan";
    case Workload::kLwt:
      return "lwt";
  }
  return "?";
}

std::chrono::milliseconds ParseDuration(std::string_view option, std::string_view text) {
  double unit_ms = 1000;  // a bare number is seconds
  std::string_view digits = text;
  auto strip = [&](std::string_view suffix, double ms) {
    if (digits.size() > suffix.size() && digits.substr(digits.size() - suffix.size()) == suffix) {
      digits.remove_suffix(suffix.size());
      unit_ms = ms;
      return true;
    }
    return false;
  };
  strip("ms", 1) || strip("s", 1000) || strip("m", 60000) || strip("h", 3600000);
  double value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || value < 0 ||
      !std::isfinite(value) || value * unit_ms > 1e12) {
    Fail("Invalid duration '" + std::string(text) + "' for --" + std::string(option) +
         ": expected e.g. 10s, 500ms, 2m");
  }
  return std::chrono::milliseconds(static_cast<int64_t>(std::llround(value * unit_ms)));
}

StressOptions ParseStressArguments(const std::vector<std::string>& args) {
  StressOptions o;
  StressOptionsGiven given;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      o.help = true;
      return o;
    }
    if (arg.rfind("--", 0) != 0) {
      if (given.workload) Fail("Unexpected argument '" + arg + "'");
      o.workload = ParseWorkload(arg);
      given.workload = true;
      continue;
    }
    std::string name = arg.substr(2);
    if (ApplyStressFlag(name, o)) continue;
    std::string value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
    } else {
      if (i + 1 >= args.size()) Fail("Missing value for --" + name);
      value = args[++i];
    }
    if (!ApplyConnectionOption(name, value, o) && !ApplyPaceOption(name, value, o, given) &&
        !ApplyDataOption(name, value, o, given)) {
      Fail("Unknown option --" + name);
    }
  }
  CheckStressOptionsAgree(o, given);
  if (!given.table) o.table = o.workload == Workload::kCounter ? "counter1" : "standard1";
  return o;
}

std::string StressUsage() {
  return "Usage: sibyl stress <write|read|mixed|counter|scan|lwt> [options]\n"
         "\n"
         "Load generator over the CQL native protocol: prepared statements, N connections\n"
         "with M requests in flight each, latency percentiles from a histogram.\n"
         "\n"
         "Workloads:\n"
         "  write    INSERT one row per operation, rows in order over the key space\n"
         "  read     SELECT one row by primary key (or --slice K rows of a partition)\n"
         "  mixed    writes and reads in --ratio W:R, keys uniform over the key space\n"
         "  counter  UPDATE ... SET v0 = v0 + 1 on a counter table\n"
         "  scan     SELECT * over the whole table, 1000 rows a page; one op per page\n"
         "  lwt      UPDATE ... IF v0 != 0x, a lightweight transaction that applies (every\n"
         "           Paxos round runs), keys uniform (--partitions 1: one contended key);\n"
         "           --consistency is the commit level, SERIAL the Paxos one\n"
         "\n"
         "Options:\n"
         "  --host H[,H...]          node address (127.0.0.1); several: token-aware over\n"
         "                           the whole ring, discovered from the first that answers\n"
         "  --port P                 native transport port (9042)\n"
         "  --protocol 4|5           protocol version (4)\n"
         "  --connections N          connections (4)\n"
         "  --concurrency M          requests in flight per connection, or token-aware per\n"
         "                           set of connections to every node (16)\n"
         "  --threads T              client io threads (1)\n"
         "  --duration D             measured time, e.g. 10s, 500ms, 2m (10s)\n"
         "  --ops N                  measured operations instead of --duration\n"
         "  --warmup D               run first, not measured (2s)\n"
         "  --rate R/s               fixed rate over all connections; latency counts from\n"
         "                           each operation's intended start (unthrottled)\n"
         "  --timeout D              per request and for connecting (5s)\n"
         "  --partitions N           partitions in the key space (10000)\n"
         "  --rows-per-partition K   clustering rows per partition (1)\n"
         "  --columns C              value columns (1)\n"
         "  --value-size B           bytes per value (32)\n"
         "  --slice K                read: rows per read (1 = point read)\n"
         "  --ratio W:R              mixed: writes to reads (1:1)\n"
         "  --lwt-condition C        lwt: applies (IF v0 != 0x) or fails (IF v0 = 0x,\n"
         "                           [applied] false) (applies)\n"
         "  --consistency CL         consistency level: ONE, QUORUM, ALL, LOCAL_ONE, ... (ONE);\n"
         "                           read: SERIAL or LOCAL_SERIAL too (Paxos reads)\n"
         "  --replication-factor N   of the keyspace stress creates, SimpleStrategy (1)\n"
         "  --keyspace KS            keyspace (sibyl_stress)\n"
         "  --table T                table (standard1; counter1 for counter)\n"
         "  --no-schema              use the existing keyspace and table\n"
         "  --populate               read/mixed/scan: write every row first, not measured\n"
         "  --json                   final report as one JSON object on stdout\n"
         "  --help                   show this help\n"
         "\n"
         "A live line each second goes to stderr: elapsed, ops/s, p50/p99/p99.9 (ms),\n"
         "errors, timeouts. Exit status: 0 after a run, 1 when the node cannot be\n"
         "reached, the schema is missing or a connection fails, 2 for a bad command line.\n";
}

}  // namespace sibyl::tools
