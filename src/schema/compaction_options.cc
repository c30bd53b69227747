// The `compaction` table option: CompactionParams.fromMap and validate, with
// the sub-options each of Cassandra 4.1's strategies accepts
// (AbstractCompactionStrategy, SizeTieredCompactionStrategyOptions,
// LeveledCompactionStrategy, TimeWindowCompactionStrategyOptions).

#include <set>

#include "common/error.h"
#include "schema/describe_cql.h"
#include "schema/java_numbers.h"
#include "schema/table_options.h"

namespace sibyl::schema {
namespace {

constexpr std::string_view kCompactionPackage = "org.apache.cassandra.db.compaction.";
constexpr std::string_view kSizeTiered = "SizeTieredCompactionStrategy";
constexpr std::string_view kLeveled = "LeveledCompactionStrategy";
constexpr std::string_view kTimeWindow = "TimeWindowCompactionStrategy";

const std::string* Find(const OptionMap& options, const std::string& key) {
  auto it = options.find(key);
  return it == options.end() ? nullptr : &it->second;
}

bool IsTrueOrFalse(std::string_view value) {
  std::string lower(value);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower == "true" || lower == "false";
}

std::string NotParsableInt(const std::string& value, std::string_view key) {
  return value + " is not a parsable int (base10) for " + std::string(key);
}

// AbstractCompactionStrategy.validateOptions: the options every strategy takes.
void ValidateCommonOptions(const OptionMap& options, std::set<std::string>& unchecked) {
  if (const std::string* value = Find(options, "tombstone_threshold")) {
    const std::optional<double> threshold = ParseJavaDouble(*value);
    if (!threshold) ThrowConfig(NotParsableInt(*value, "tombstone_threshold"));
    if (*threshold < 0) {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%f", *threshold);
      ThrowConfig(std::string("tombstone_threshold must be greater than 0, but was ") + buffer);
    }
  }
  if (const std::string* value = Find(options, "tombstone_compaction_interval")) {
    const std::optional<int64_t> interval = ParseJavaLong(*value);
    if (!interval) ThrowConfig(NotParsableInt(*value, "tombstone_compaction_interval"));
    if (*interval < 0) {
      ThrowConfig("tombstone_compaction_interval must be greater than 0, but was " +
                  std::to_string(*interval));
    }
  }
  if (const std::string* value = Find(options, "unchecked_tombstone_compaction")) {
    if (!IsTrueOrFalse(*value)) {
      ThrowConfig("'unchecked_tombstone_compaction' should be either 'true' or 'false', not '" +
                  *value + "'");
    }
  }
  if (const std::string* value = Find(options, "log_all")) {
    if (!IsTrueOrFalse(*value)) {
      ThrowConfig("'log_all' should either be 'true' or 'false', not " + *value);
    }
  }
  if (const std::string* value = Find(options, "enabled")) {
    if (!IsTrueOrFalse(*value)) {
      ThrowConfig("enabled should either be 'true' or 'false', not " + *value);
    }
  }
  if (const std::string* value = Find(options, "provide_overlapping_tombstones")) {
    std::string upper = *value;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (upper != "NONE" && upper != "ROW" && upper != "CELL") {
      ThrowConfig("Invalid value " + upper +
                  " for 'provide_overlapping_tombstones' compaction sub-option - must be one of "
                  "the following [NONE, ROW, CELL].");
    }
  }
  for (const char* key :
       {"tombstone_threshold", "tombstone_compaction_interval", "unchecked_tombstone_compaction",
        "log_all", "enabled", "only_purge_repaired_tombstones", "provide_overlapping_tombstones",
        "min_threshold", "max_threshold"}) {
    unchecked.erase(key);
  }
}

double ParseBucket(const OptionMap& options, const char* key, double default_value) {
  const std::string* value = Find(options, key);
  if (value == nullptr) return default_value;
  const std::optional<double> parsed = ParseJavaDouble(*value);
  if (!parsed) ThrowConfig(*value + " is not a parsable float for " + key);
  return *parsed;
}

// SizeTieredCompactionStrategyOptions.validateOptions (also used by LCS and TWCS).
void ValidateSizeTieredOptions(const OptionMap& options, std::set<std::string>& unchecked) {
  if (const std::string* value = Find(options, "min_sstable_size")) {
    const std::optional<int64_t> size = ParseJavaLong(*value);
    if (!size) ThrowConfig(NotParsableInt(*value, "min_sstable_size"));
    if (*size < 0) ThrowConfig("min_sstable_size must be non negative: " + std::to_string(*size));
  }
  const double low = ParseBucket(options, "bucket_low", 0.5);
  const double high = ParseBucket(options, "bucket_high", 1.5);
  if (high <= low) {
    ThrowConfig("bucket_high value (" + JavaDoubleToString(high) +
                ") is less than or equal to the bucket_low value (" + JavaDoubleToString(low) +
                ")");
  }
  for (const char* key : {"min_sstable_size", "bucket_low", "bucket_high"}) unchecked.erase(key);
}

void ValidatePositiveInt(const OptionMap& options, const char* key) {
  const std::string* value = Find(options, key);
  if (value == nullptr) return;
  const std::optional<int32_t> parsed = ParseJavaInt(*value);
  if (!parsed) ThrowConfig(NotParsableInt(*value, key));
  if (*parsed < 1) {
    ThrowConfig(std::string(key) + " must be larger than 0, but was " + std::to_string(*parsed));
  }
}

void ValidateLeveledOptions(const OptionMap& options, std::set<std::string>& unchecked) {
  ValidatePositiveInt(options, "sstable_size_in_mb");
  ValidatePositiveInt(options, "fanout_size");
  for (const char* key : {"sstable_size_in_mb", "fanout_size", "single_sstable_uplevel"}) {
    unchecked.erase(key);
  }
  ValidateSizeTieredOptions(options, unchecked);
}

void ValidateTimeWindowOptions(const OptionMap& options, std::set<std::string>& unchecked) {
  if (const std::string* value = Find(options, "timestamp_resolution")) {
    static const std::set<std::string> kUnits{
        "MICROSECONDS", "MILLISECONDS", "SECONDS", "MINUTES", "HOURS", "DAYS", "NANOSECONDS"};
    if (kUnits.count(*value) == 0) ThrowConfig(*value + " is not valid for timestamp_resolution");
  }
  if (const std::string* value = Find(options, "compaction_window_unit")) {
    if (*value != "MINUTES" && *value != "HOURS" && *value != "DAYS") {
      ThrowConfig(*value + " is not valid for compaction_window_unit");
    }
  }
  if (const std::string* value = Find(options, "compaction_window_size")) {
    const std::optional<int32_t> size = ParseJavaInt(*value);
    if (!size) ThrowConfig(NotParsableInt(*value, "compaction_window_size"));
    if (*size < 1) {
      ThrowConfig(std::to_string(*size) + " must be greater than 1 for compaction_window_size");
    }
  }
  if (const std::string* value = Find(options, "expired_sstable_check_frequency_seconds")) {
    const std::optional<int64_t> seconds = ParseJavaLong(*value);
    if (!seconds) ThrowConfig(NotParsableInt(*value, "expired_sstable_check_frequency_seconds"));
    if (*seconds < 0) {
      ThrowConfig("expired_sstable_check_frequency_seconds must not be negative, but was " +
                  std::to_string(*seconds));
    }
  }
  if (const std::string* value = Find(options, "unsafe_aggressive_sstable_expiration")) {
    if (!IsTrueOrFalse(*value)) {
      ThrowConfig("unsafe_aggressive_sstable_expiration should either be 'true' or 'false', not '" +
                  *value + "'");
    }
  }
  for (const char* key :
       {"timestamp_resolution", "compaction_window_unit", "compaction_window_size",
        "expired_sstable_check_frequency_seconds", "unsafe_aggressive_sstable_expiration"}) {
    unchecked.erase(key);
  }
  ValidateSizeTieredOptions(options, unchecked);
}

int32_t Threshold(const OptionMap& options, const char* key) {
  const std::string& value = options.at(key);
  if (!IsJavaNumeric(value)) {
    ThrowConfig("Invalid value " + value + " for '" + key +
                "' compaction sub-option - must be an integer");
  }
  const std::optional<int32_t> parsed = ParseJavaInt(value);
  if (!parsed) ThrowConfig("For input string: \"" + value + "\"");
  return *parsed;
}

}  // namespace

OptionMap BuildCompaction(const GivenMap& given) {
  OptionMap options(given.begin(), given.end());
  auto class_it = options.find("class");
  if (class_it == options.end()) {
    ThrowConfig("Missing sub-option 'class' for the 'compaction' option");
  }
  const std::string name = class_it->second;
  const std::string full =
      name.find('.') != std::string::npos ? name : std::string(kCompactionPackage) + name;
  const std::string simple = full.substr(full.rfind('.') + 1);
  const bool known = full.compare(0, kCompactionPackage.size(), kCompactionPackage) == 0 &&
                     (simple == kSizeTiered || simple == kLeveled || simple == kTimeWindow);
  if (!known) ThrowConfig("Unable to find compaction strategy class '" + full + "'");
  options.erase(class_it);
  options.emplace("min_threshold", "4");
  options.emplace("max_threshold", "32");

  std::set<std::string> unchecked;
  for (const auto& [key, value] : options) unchecked.insert(key);
  ValidateCommonOptions(options, unchecked);
  if (simple == kSizeTiered) {
    ValidateSizeTieredOptions(options, unchecked);
  } else if (simple == kLeveled) {
    ValidateLeveledOptions(options, unchecked);
  } else {
    ValidateTimeWindowOptions(options, unchecked);
  }
  if (!unchecked.empty()) {
    std::string names;
    for (const auto& key : unchecked) names += (names.empty() ? "" : ", ") + key;
    ThrowConfig("Properties specified [" + names + "] are not understood by " + simple);
  }
  const int32_t min_threshold = Threshold(options, "min_threshold");
  const int32_t max_threshold = Threshold(options, "max_threshold");
  if (min_threshold <= 0 || max_threshold <= 0) {
    ThrowConfig(
        "Disabling compaction by setting compaction thresholds to 0 has been removed, set the "
        "compaction option 'enabled' to false instead.");
  }
  if (min_threshold <= 1) {
    ThrowConfig("Min compaction threshold cannot be less than 2 (got " +
                std::to_string(min_threshold) + ")");
  }
  if (min_threshold > max_threshold) {
    ThrowConfig("Min compaction threshold (got " + std::to_string(min_threshold) +
                ") cannot be greater than max compaction threshold (got " +
                std::to_string(max_threshold) + ")");
  }
  options["class"] = full;
  return options;
}

bool IsLeveledCompaction(const OptionMap& compaction) {
  auto it = compaction.find("class");
  return it != compaction.end() &&
         it->second == std::string(kCompactionPackage) + std::string(kLeveled);
}

}  // namespace sibyl::schema
