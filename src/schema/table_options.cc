#include "schema/table_options.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "common/ascii_case.h"
#include "common/error.h"
#include "schema/describe_cql.h"
#include "schema/java_numbers.h"

namespace sibyl::schema {
namespace {

// BloomCalculations.minSupportedBloomFilterFpChance() in Cassandra 4.1.
constexpr double kMinBloomFilterFpChance = 6.71e-05;

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return AsciiUpper(a) == AsciiUpper(b);
}

std::string InvalidSpeculativeRetry(std::string_view text) {
  return "Invalid value " + std::string(text) + " for option 'speculative_retry'";
}

// DecimalFormat("#.####"): at most four decimals, no trailing zeros.
std::string FormatPercentile(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.4f", value);
  std::string text(buffer);
  while (!text.empty() && text.back() == '0') text.pop_back();
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text;
}

enum class RetryKind { kNone, kAlways, kPercentile, kFixed, kHybrid };

struct RetryPolicy {
  RetryKind kind;
  std::string text;  // toString()
};

RetryPolicy ParseRetryPolicy(std::string_view text, std::string_view whole) {
  static const std::regex kPercentile("^([0-9.]+)p(ercentile)?$", std::regex::icase);
  static const std::regex kFixed("^([0-9.]+)ms$", std::regex::icase);
  static const std::regex kHybrid("^(MIN|MAX)\\(([0-9.]+[a-z]+)\\s*,\\s*([0-9.]+[a-z]+)\\)$",
                                  std::regex::icase);
  const std::string value(text);
  if (EqualsIgnoreCase(value, "ALWAYS")) return {RetryKind::kAlways, "ALWAYS"};
  if (EqualsIgnoreCase(value, "NONE")) return {RetryKind::kNone, "NONE"};
  std::smatch match;
  if (std::regex_match(value, match, kPercentile)) {
    const std::optional<double> percentile = ParseJavaDouble(match[1].str());
    if (!percentile) ThrowConfig(InvalidSpeculativeRetry(whole));
    if (*percentile <= 0.0 || *percentile >= 100.0) {
      ThrowConfig("Invalid value " + std::string(whole) +
                  " for PERCENTILE option 'speculative_retry': must be between (0.0 and 100.0)");
    }
    return {RetryKind::kPercentile, FormatPercentile(*percentile) + "p"};
  }
  if (std::regex_match(value, match, kFixed)) {
    const std::optional<double> millis = ParseJavaDouble(match[1].str());
    if (!millis) ThrowConfig(InvalidSpeculativeRetry(whole));
    // Parsed as a double and kept as an int, as Cassandra does.
    return {RetryKind::kFixed, std::to_string(static_cast<int64_t>(*millis)) + "ms"};
  }
  if (std::regex_match(value, match, kHybrid)) {
    RetryPolicy first = ParseRetryPolicy(match[2].str(), whole);
    RetryPolicy second = ParseRetryPolicy(match[3].str(), whole);
    const bool mixed = (first.kind == RetryKind::kPercentile && second.kind == RetryKind::kFixed) ||
                       (first.kind == RetryKind::kFixed && second.kind == RetryKind::kPercentile);
    if (!mixed) {
      ThrowConfig(InvalidSpeculativeRetry(whole) +
                  ": if both sides of MIN/MAX are of the same kind, use that kind directly");
    }
    if (first.kind == RetryKind::kFixed) std::swap(first, second);
    return {RetryKind::kHybrid,
            AsciiUpper(match[1].str()) + "(" + first.text + "," + second.text + ")"};
  }
  ThrowConfig(InvalidSpeculativeRetry(whole));
}

std::string ReadRepairOption(std::string_view text) {
  const std::string upper = AsciiUpper(text);
  if (upper != "BLOCKING" && upper != "NONE") {
    ThrowConfig("No enum constant org.apache.cassandra.service.reads.repair.ReadRepairStrategy." +
                upper);
  }
  return upper;
}

void ValidateTableParams(const TableParams& p) {
  if (p.bloom_filter_fp_chance <= kMinBloomFilterFpChance || p.bloom_filter_fp_chance > 1) {
    ThrowConfig("bloom_filter_fp_chance must be larger than " +
                JavaDoubleToString(kMinBloomFilterFpChance) +
                " and less than or equal to 1.0 (got " +
                JavaDoubleToString(p.bloom_filter_fp_chance) + ")");
  }
  if (p.crc_check_chance < 0 || p.crc_check_chance > 1.0) {
    ThrowConfig(
        "crc_check_chance must be larger than or equal to 0 and smaller than or equal to 1.0 "
        "(got " +
        JavaDoubleToString(p.crc_check_chance) + ")");
  }
  if (p.default_time_to_live < 0) {
    ThrowConfig("default_time_to_live must be greater than or equal to 0 (got " +
                std::to_string(p.default_time_to_live) + ")");
  }
  if (p.default_time_to_live > kMaxTtlSeconds) {
    ThrowConfig("default_time_to_live must be less than or equal to " +
                std::to_string(kMaxTtlSeconds) + " (got " + std::to_string(p.default_time_to_live) +
                ")");
  }
  if (p.gc_grace_seconds < 0) {
    ThrowConfig("gc_grace_seconds must be greater than or equal to 0 (got " +
                std::to_string(p.gc_grace_seconds) + ")");
  }
  if (p.min_index_interval < 1) {
    ThrowConfig("min_index_interval must be greater than or equal to 1 (got " +
                std::to_string(p.min_index_interval) + ")");
  }
  if (p.max_index_interval < p.min_index_interval) {
    ThrowConfig("max_index_interval must be greater than or equal to min_index_interval (" +
                std::to_string(p.min_index_interval) + ") (got " +
                std::to_string(p.max_index_interval) + ")");
  }
  if (p.memtable_flush_period_in_ms < 0) {
    ThrowConfig("memtable_flush_period_in_ms must be greater than or equal to 0 (got " +
                std::to_string(p.memtable_flush_period_in_ms) + ")");
  }
}

}  // namespace

void ValidateTableOptionNames(const PropertyDefinitions& options) {
  options.Validate({"additional_write_policy", "bloom_filter_fp_chance", "caching", "cdc",
                    "comment", "compaction", "compression", "crc_check_chance",
                    "default_time_to_live", "extensions", "gc_grace_seconds", "id",
                    "max_index_interval", "memtable", "memtable_flush_period_in_ms",
                    "min_index_interval", "read_repair", "speculative_retry"});
}

std::optional<types::Uuid> TableIdOption(const PropertyDefinitions& options) {
  const std::optional<std::string> id = options.GetString("id");
  if (!id) return std::nullopt;
  std::optional<types::Uuid> parsed = types::Uuid::Parse(*id);
  if (!parsed) ThrowConfig("Invalid table id");
  return parsed;
}

TableParams BuildTableParams(const PropertyDefinitions& options, TableParams p, bool new_table) {
  ValidateTableOptionNames(options);
  if (options.Has("bloom_filter_fp_chance")) {
    p.bloom_filter_fp_chance = options.GetDouble("bloom_filter_fp_chance");
  }
  if (auto caching = options.GetMap("caching")) p.caching = BuildCaching(*caching);
  if (auto comment = options.GetString("comment")) p.comment = *comment;
  if (auto compaction = options.GetMap("compaction")) {
    p.compaction = BuildCompaction(*compaction);
    if (new_table && !options.Has("bloom_filter_fp_chance")) {
      p.bloom_filter_fp_chance = IsLeveledCompaction(p.compaction) ? 0.1 : 0.01;
    }
  }
  if (auto compression = options.GetMap("compression")) {
    std::optional<double> crc_check_chance;
    p.compression = BuildCompression(*compression, crc_check_chance);
    if (crc_check_chance) p.crc_check_chance = *crc_check_chance;
  }
  if (auto memtable = options.GetString("memtable")) {
    if (*memtable != "default") {
      ThrowConfig("Memtable configuration \"" + *memtable + "\" not found.");
    }
    p.memtable.reset();  // the default configuration, which system_schema leaves null
  }
  if (options.Has("default_time_to_live")) {
    p.default_time_to_live = options.GetInt("default_time_to_live");
  }
  if (options.Has("gc_grace_seconds")) p.gc_grace_seconds = options.GetInt("gc_grace_seconds");
  if (options.Has("max_index_interval")) {
    p.max_index_interval = options.GetInt("max_index_interval");
  }
  if (options.Has("memtable_flush_period_in_ms")) {
    p.memtable_flush_period_in_ms = options.GetInt("memtable_flush_period_in_ms");
  }
  if (options.Has("min_index_interval")) {
    p.min_index_interval = options.GetInt("min_index_interval");
  }
  if (auto retry = options.GetString("speculative_retry")) {
    p.speculative_retry = NormalizeSpeculativeRetry(*retry);
  }
  if (auto policy = options.GetString("additional_write_policy")) {
    p.additional_write_policy = NormalizeSpeculativeRetry(*policy);
  }
  if (options.Has("crc_check_chance")) p.crc_check_chance = options.GetDouble("crc_check_chance");
  if (options.Has("cdc")) p.cdc = options.GetBoolean("cdc", false);
  if (auto read_repair = options.GetString("read_repair")) {
    p.read_repair = ReadRepairOption(*read_repair);
  }
  // `extensions` is accepted and, as in Cassandra 4.1, not applied from CQL.
  ValidateTableParams(p);
  return p;
}

OptionMap BuildCaching(const GivenMap& given) {
  GivenMap rest = given;
  bool cache_keys = false;
  if (auto it = rest.find("keys"); it != rest.end()) {
    if (EqualsIgnoreCase(it->second, "ALL")) {
      cache_keys = true;
    } else if (!EqualsIgnoreCase(it->second, "NONE")) {
      ThrowConfig("Invalid value '" + it->second +
                  "' for caching sub-option 'keys': only 'ALL' and 'NONE' are allowed");
    }
    rest.erase(it);
  }
  std::string rows = "NONE";
  if (auto it = rest.find("rows_per_partition"); it != rest.end()) {
    if (EqualsIgnoreCase(it->second, "ALL")) {
      rows = "ALL";
    } else if (EqualsIgnoreCase(it->second, "NONE")) {
      rows = "NONE";
    } else if (IsJavaNumeric(it->second)) {
      const std::optional<int32_t> count = ParseJavaInt(it->second);
      if (!count) ThrowConfig("For input string: \"" + it->second + "\"");
      rows = *count == 0 ? "NONE" : std::to_string(*count);
    } else {
      ThrowConfig("Invalid value '" + it->second +
                  "' for caching sub-option 'rows_per_partition': only 'ALL', 'NONE', and integer "
                  "values are allowed");
    }
    rest.erase(it);
  }
  if (!rest.empty()) {
    std::string names;
    for (const auto& [key, value] : rest) names += (names.empty() ? "" : ", ") + key;
    ThrowConfig("Invalid caching sub-options [" + names +
                "]: only 'keys' and 'rows_per_partition' are allowed");
  }
  return {{"keys", cache_keys ? "ALL" : "NONE"}, {"rows_per_partition", rows}};
}

std::string NormalizeSpeculativeRetry(std::string_view text) {
  return ParseRetryPolicy(text, text).text;
}

}  // namespace sibyl::schema
