#include "guardrails/guardrails.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <stdexcept>

#include "common/config_values.h"
#include "common/error.h"
#include "common/java_number_format.h"
#include "protocol/request.h"

namespace sibyl::guardrails {
namespace {

using G = GuardrailId;

[[noreturn]] void Invalid(std::string message) { throw std::invalid_argument(std::move(message)); }

std::string Trim(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const size_t last = text.find_last_not_of(" \t");
  return std::string(text.substr(first, last - first + 1));
}

bool IsNullText(std::string_view text) { return text.empty() || text == "null" || text == "~"; }

std::optional<int64_t> ParseLong(std::string_view text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// "64KiB" → (64, "KiB").
std::optional<std::pair<int64_t, std::string_view>> SplitQuantity(std::string_view text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0) return std::nullopt;
  const std::optional<int64_t> number = ParseLong(text.substr(0, digits));
  if (!number) return std::nullopt;
  return std::make_pair(*number, text.substr(digits));
}

// A number and a unit of `units` ("64KiB", "12h") as a count of the
// smallest unit; `example` names the form in the error.
template <typename UnitSize>
int64_t ParseQuantity(std::string_view key, std::string_view text, UnitSize unit_size,
                      std::string_view example) {
  const auto quantity = SplitQuantity(text);
  const std::optional<uint64_t> unit = quantity ? unit_size(quantity->second) : std::nullopt;
  if (!unit) {
    Invalid("Invalid value for " + std::string(key) + ": '" + std::string(text) + "' is not " +
            std::string(example));
  }
  if (static_cast<uint64_t>(quantity->first) >
      static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) / *unit) {
    Invalid("Invalid value for " + std::string(key) + ": '" + std::string(text) + "' is too large");
  }
  return quantity->first * static_cast<int64_t>(*unit);
}

int64_t ParseBytes(std::string_view key, std::string_view text) {
  return ParseQuantity(key, text, DataStorageUnitBytes,
                       "a data storage value such as 64KiB (units B, KiB, MiB, GiB)");
}

int64_t ParseDurationMicros(std::string_view key, std::string_view text) {
  static const std::map<std::string_view, uint64_t> kUnits{
      {"us", 1},       {"µs", 1},           {"ms", 1000},        {"s", 1000000},
      {"m", 60000000}, {"h", 3600000000ll}, {"d", 86400000000ll}};
  const auto micros = [](std::string_view unit) -> std::optional<uint64_t> {
    const auto it = kUnits.find(unit);
    if (it == kUnits.end()) return std::nullopt;
    return it->second;
  };
  return ParseQuantity(key, text, micros, "a duration such as 12h (units us, ms, s, m, h, d)");
}

bool ParseBoolean(std::string_view key, std::string_view text) {
  const std::optional<bool> parsed = ParseYamlBoolean(text);
  if (!parsed) {
    Invalid("Invalid value for " + std::string(key) + ": '" + std::string(text) +
            "' is not true or false");
  }
  return *parsed;
}

// GuardrailsOptions' checks of one threshold value (thresholds of counts,
// percentages and sizes; -1 or empty disables).
int64_t ParseThreshold(const GuardrailDefinition& definition, std::string_view key,
                       std::string_view text) {
  const std::string k(key);
  switch (definition.unit) {
    case ThresholdUnit::kBytes: {
      if (IsNullText(text)) return kDisabled;
      const int64_t bytes = ParseBytes(key, text);
      if (bytes == 0) {
        Invalid("Invalid value for " + k +
                ": 0 is not allowed; if attempting to disable use an empty value");
      }
      return bytes;
    }
    case ThresholdUnit::kDuration:
      // 0 is allowed: a timestamp may not stray from now at all.
      return IsNullText(text) ? kDisabled : ParseDurationMicros(key, text);
    case ThresholdUnit::kCount:
    case ThresholdUnit::kPercent: {
      const std::optional<int64_t> value = ParseLong(text);
      if (!value)
        Invalid("Invalid value for " + k + ": '" + std::string(text) + "' is not a number");
      if (*value == kDisabled) return kDisabled;
      if (*value == 0) {
        Invalid("Invalid value for " + k + ": 0 is not allowed; if attempting to disable use -1");
      }
      if (*value < 0) {
        Invalid("Invalid value " + std::to_string(*value) + " for " + k +
                ": negative values are not allowed, outside of -1 which disables the guardrail");
      }
      // Cassandra keeps most count thresholds in an int; the partition ones
      // are longs.
      const bool is_long =
          definition.id == G::kPartitionTombstones || definition.id == G::kPartitionRows;
      const int64_t maximum = definition.unit == ThresholdUnit::kPercent ? 100
                              : is_long ? std::numeric_limits<int64_t>::max()
                                        : std::numeric_limits<int32_t>::max();
      if (*value > maximum) {
        Invalid("Invalid value " + std::to_string(*value) + " for " + k +
                ": maximum allowed value is " + std::to_string(maximum));
      }
      return *value;
    }
  }
  return kDisabled;
}

// "[ALL, ANY]", "ALL, ANY" or "" → its items.
std::vector<std::string> ParseList(std::string_view text) {
  std::string body = Trim(text);
  if (body.size() >= 2 && body.front() == '[' && body.back() == ']') {
    body = body.substr(1, body.size() - 2);
  }
  std::vector<std::string> items;
  size_t start = 0;
  while (start <= body.size()) {
    const size_t comma = std::min(body.find(',', start), body.size());
    std::string item = Trim(std::string_view(body).substr(start, comma - start));
    if (item.size() >= 2 && (item.front() == '\'' || item.front() == '"') &&
        item.back() == item.front()) {
      item = item.substr(1, item.size() - 2);
    }
    if (!item.empty()) items.push_back(std::move(item));
    start = comma + 1;
  }
  return items;
}

constexpr uint16_t kLevelCount = static_cast<uint16_t>(protocol::Consistency::kNodeLocal) + 1;

uint16_t ParseLevel(std::string_view key, const std::string& name) {
  std::string upper = name;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  for (uint16_t code = 0; code < kLevelCount; ++code) {
    if (upper == protocol::ConsistencyName(code)) return code;
  }
  Invalid("Invalid value for " + std::string(key) + ": '" + name + "' is not a consistency level");
}

// TableAttributes.allKeywords() of 4.1 and 5.0.
const std::set<std::string, std::less<>>& TablePropertyNames() {
  static const std::set<std::string, std::less<>> kNames{"additional_write_policy",
                                                         "allow_auto_snapshot",
                                                         "bloom_filter_fp_chance",
                                                         "caching",
                                                         "cdc",
                                                         "comment",
                                                         "compaction",
                                                         "compression",
                                                         "crc_check_chance",
                                                         "default_time_to_live",
                                                         "extensions",
                                                         "gc_grace_seconds",
                                                         "id",
                                                         "incremental_backups",
                                                         "max_index_interval",
                                                         "memtable",
                                                         "memtable_flush_period_in_ms",
                                                         "min_index_interval",
                                                         "read_repair",
                                                         "speculative_retry"};
  return kNames;
}

std::string JoinList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out + "]";
}

std::vector<std::string> LevelNames(uint32_t mask) {
  std::vector<std::string> names;
  for (uint16_t code = 0; code < kLevelCount; ++code) {
    if (mask & (1u << code)) names.emplace_back(protocol::ConsistencyName(code));
  }
  return names;
}

// What one key sets, parsed and checked alone.
struct PendingValue {
  GuardrailKey target{};
  std::string text;               // as shown by Get
  int64_t threshold = kDisabled;  // thresholds
  bool flag = false;              // flags
  std::set<std::string> values;   // values guardrails
  uint32_t level_mask = 0;        // consistency-level guardrails
};

PendingValue Parse(std::string_view key, std::string_view raw) {
  const std::optional<GuardrailKey> target = FindGuardrailKey(key);
  if (!target) Invalid("Unknown guardrail key '" + std::string(key) + "'");
  const GuardrailDefinition& definition = Definition(target->id);
  PendingValue pending;
  pending.target = *target;
  const std::string text = Trim(raw);
  switch (target->field) {
    case GuardrailField::kWarnThreshold:
    case GuardrailField::kFailThreshold:
      pending.threshold = ParseThreshold(definition, key, text);
      pending.text = IsNullText(text) && (definition.unit == ThresholdUnit::kBytes ||
                                          definition.unit == ThresholdUnit::kDuration)
                         ? std::string()
                         : text;
      break;
    case GuardrailField::kMaxDiskSize:
      pending.threshold = IsNullText(text) ? kDisabled : ParseBytes(key, text);
      if (pending.threshold == 0) {
        Invalid("Invalid value for " + std::string(key) +
                ": 0 is not allowed; if attempting to disable use an empty value");
      }
      pending.text = IsNullText(text) ? std::string() : text;
      break;
    case GuardrailField::kEnabled:
    case GuardrailField::kWarnedFlag:
      pending.flag = ParseBoolean(key, text);
      pending.text = pending.flag ? "true" : "false";
      break;
    case GuardrailField::kWarnedValues:
    case GuardrailField::kIgnoredValues:
    case GuardrailField::kDisallowedValues: {
      const bool levels = definition.id != G::kTableProperties;
      for (const std::string& item : ParseList(text)) {
        if (levels) {
          pending.level_mask |= 1u << ParseLevel(key, item);
        } else {
          std::string lower = item;
          std::transform(lower.begin(), lower.end(), lower.begin(),
                         [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
          if (!TablePropertyNames().count(lower)) {
            Invalid("Invalid value for " + std::string(key) + ": '" + item +
                    "' do not parse as valid table properties");
          }
          pending.values.insert(lower);
        }
      }
      pending.text = levels ? JoinList(LevelNames(pending.level_mask))
                            : JoinList({pending.values.begin(), pending.values.end()});
      break;
    }
  }
  return pending;
}

}  // namespace

Guardrails::Guardrails() {
  std::vector<std::pair<std::string, std::string>> defaults;
  for (const GuardrailDefinition& d : AllGuardrails()) {
    State& state = Slot(d.id);
    Texts& texts = texts_[static_cast<size_t>(d.id)];
    switch (d.kind) {
      case GuardrailKind::kMaxThreshold:
      case GuardrailKind::kMinThreshold:
        if (d.id == G::kReplicaDiskUsage) break;
        state.warn = ParseThreshold(d, d.name, d.default_warn);
        state.fail = ParseThreshold(d, d.name, d.default_fail);
        texts.warn = d.default_warn;
        texts.fail = d.default_fail;
        break;
      case GuardrailKind::kFlag:
        state.enabled = d.default_enabled;
        state.warned = d.default_warned;
        break;
      case GuardrailKind::kValues:
        break;
    }
  }
}

void Guardrails::Set(std::string_view key, std::string_view value) {
  Apply({{std::string(key), std::string(value)}});
}

void Guardrails::CheckValue(std::string_view key, std::string_view value) {
  (void)Parse(key, value);
}

void Guardrails::Apply(const std::vector<std::pair<std::string, std::string>>& settings) {
  std::vector<PendingValue> pending;
  pending.reserve(settings.size());
  for (const auto& [key, value] : settings) pending.push_back(Parse(key, value));
  const uint64_t capacity = disk_capacity_bytes_.load(kRelaxed);
  for (const PendingValue& p : pending) {
    if (p.target.field == GuardrailField::kMaxDiskSize && capacity != 0 &&
        p.threshold != kDisabled && static_cast<uint64_t>(p.threshold) > capacity) {
      Invalid("Invalid value for data_disk_usage_max_disk_size: " + p.text +
              " specified, but only " + FormatFileSize(static_cast<int64_t>(capacity)) +
              " are actually available on disk");
    }
  }

  std::lock_guard lock(mutex_);
  // Each touched threshold's warn and fail after the change, checked as a pair.
  std::map<G, std::pair<int64_t, int64_t>> thresholds;
  for (const PendingValue& p : pending) {
    const bool warn = p.target.field == GuardrailField::kWarnThreshold;
    if (!warn && p.target.field != GuardrailField::kFailThreshold) continue;
    auto [it, fresh] = thresholds.try_emplace(
        p.target.id, std::make_pair(WarnThreshold(p.target.id), FailThreshold(p.target.id)));
    (warn ? it->second.first : it->second.second) = p.threshold;
  }
  for (const auto& [id, pair] : thresholds) {
    const auto [warn, fail] = pair;
    if (warn == kDisabled || fail == kDisabled) continue;
    const GuardrailDefinition& d = Definition(id);
    const std::string warn_key = GuardrailKeyName(d, GuardrailField::kWarnThreshold);
    if (d.kind == GuardrailKind::kMaxThreshold && warn > fail) {
      Invalid("The warn threshold " + std::to_string(warn) + " for " + warn_key +
              " should be lower than the fail threshold " + std::to_string(fail));
    }
    if (d.kind == GuardrailKind::kMinThreshold && warn < fail) {
      Invalid("The warn threshold " + std::to_string(warn) + " for " + warn_key +
              " should be greater than the fail threshold " + std::to_string(fail));
    }
  }

  for (PendingValue& p : pending) {
    State& state = Slot(p.target.id);
    Texts& texts = texts_[static_cast<size_t>(p.target.id)];
    switch (p.target.field) {
      case GuardrailField::kWarnThreshold:
        state.warn.store(p.threshold, kRelaxed);
        texts.warn = std::move(p.text);
        break;
      case GuardrailField::kFailThreshold:
        state.fail.store(p.threshold, kRelaxed);
        texts.fail = std::move(p.text);
        break;
      case GuardrailField::kMaxDiskSize:
        max_disk_size_bytes_.store(p.threshold, kRelaxed);
        max_disk_size_ = std::move(p.text);
        break;
      case GuardrailField::kEnabled:
        state.enabled.store(p.flag, kRelaxed);
        break;
      case GuardrailField::kWarnedFlag:
        state.warned.store(p.flag, kRelaxed);
        break;
      case GuardrailField::kWarnedValues:
        state.warned_levels.store(p.level_mask, kRelaxed);
        texts.warned = std::move(p.values);
        break;
      case GuardrailField::kIgnoredValues:
        texts.ignored = std::move(p.values);
        break;
      case GuardrailField::kDisallowedValues:
        state.disallowed_levels.store(p.level_mask, kRelaxed);
        texts.disallowed = std::move(p.values);
        break;
    }
  }
}

std::optional<std::string> Guardrails::Get(std::string_view key) const {
  const std::optional<GuardrailKey> target = FindGuardrailKey(key);
  if (!target) return std::nullopt;
  const GuardrailDefinition& d = Definition(target->id);
  const State& state = Slot(target->id);
  std::lock_guard lock(mutex_);
  const Texts& texts = texts_[static_cast<size_t>(target->id)];
  const auto shown = [](const std::string& text) -> std::optional<std::string> {
    if (text.empty()) return std::nullopt;
    return text;
  };
  const auto set_text = [&](const std::set<std::string>& values, uint32_t levels) {
    return d.id == G::kTableProperties ? JoinList({values.begin(), values.end()})
                                       : JoinList(LevelNames(levels));
  };
  switch (target->field) {
    case GuardrailField::kWarnThreshold:
      return shown(texts.warn);
    case GuardrailField::kFailThreshold:
      return shown(texts.fail);
    case GuardrailField::kMaxDiskSize:
      return shown(max_disk_size_);
    case GuardrailField::kEnabled:
      return state.enabled.load(kRelaxed) ? "true" : "false";
    case GuardrailField::kWarnedFlag:
      return state.warned.load(kRelaxed) ? "true" : "false";
    case GuardrailField::kWarnedValues:
      return set_text(texts.warned, state.warned_levels.load(kRelaxed));
    case GuardrailField::kIgnoredValues:
      return set_text(texts.ignored, 0);
    case GuardrailField::kDisallowedValues:
      return set_text(texts.disallowed, state.disallowed_levels.load(kRelaxed));
  }
  return std::nullopt;
}

std::vector<std::pair<std::string, std::optional<std::string>>> Guardrails::AllSettings() const {
  std::vector<std::pair<std::string, std::optional<std::string>>> settings;
  for (const GuardrailDefinition& d : AllGuardrails()) {
    for (GuardrailField field : {GuardrailField::kWarnThreshold, GuardrailField::kFailThreshold,
                                 GuardrailField::kEnabled, GuardrailField::kWarnedFlag,
                                 GuardrailField::kWarnedValues, GuardrailField::kIgnoredValues,
                                 GuardrailField::kDisallowedValues, GuardrailField::kMaxDiskSize}) {
      std::string key = GuardrailKeyName(d, field);
      const std::optional<GuardrailKey> target = FindGuardrailKey(key);
      if (!target || target->id != d.id || target->field != field) continue;
      settings.emplace_back(key, Get(key));
    }
  }
  std::sort(settings.begin(), settings.end());
  return settings;
}

std::string Guardrails::Decorate(const GuardrailDefinition& definition, std::string_view message) {
  std::string decorated = "Guardrail " + std::string(definition.name) + " violated: ";
  decorated += message;
  if (!definition.reason.empty()) {
    decorated += message.ends_with('.') ? " " : ". ";
    decorated += definition.reason;
  }
  return decorated;
}

bool Guardrails::ShouldNotify(GuardrailId id, bool warning) const {
  const State& state = Slot(id);
  const int64_t interval = state.min_notify_interval_ms.load(kRelaxed);
  if (interval == 0) return true;
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now().time_since_epoch())
                          .count();
  std::atomic<int64_t>& last = warning ? state.last_warn_ms : state.last_fail_ms;
  int64_t told = last.load(kRelaxed);
  // One of the threads racing past the interval tells it.
  while (now - told >= interval) {
    if (last.compare_exchange_weak(told, now, kRelaxed)) return true;
  }
  return false;
}

void Guardrails::SetMinNotifyInterval(GuardrailId id, std::chrono::milliseconds interval) {
  Slot(id).min_notify_interval_ms.store(interval.count(), kRelaxed);
}

void Guardrails::Warn(const GuardrailDefinition& definition, std::string_view message,
                      std::vector<std::string>* warnings) const {
  if (warnings != nullptr && ShouldNotify(definition.id, /*warning=*/true)) {
    warnings->push_back(Decorate(definition, message));
  }
}

void Guardrails::Fail(const GuardrailDefinition& definition, std::string_view message,
                      std::vector<std::string>* warnings) const {
  std::string decorated = Decorate(definition, message);
  // Cassandra's Guardrail.fail warns as well: the text reaches the client
  // with the error response.
  if (warnings != nullptr && ShouldNotify(definition.id, /*warning=*/false)) {
    warnings->push_back(decorated);
  }
  ThrowInvalid(std::move(decorated));
}

void Guardrails::SetDiskCapacity(uint64_t bytes) { disk_capacity_bytes_.store(bytes, kRelaxed); }

std::optional<uint64_t> Guardrails::MaxDiskSize() const {
  const int64_t bytes = max_disk_size_bytes_.load(kRelaxed);
  if (bytes == kDisabled) return std::nullopt;
  return static_cast<uint64_t>(bytes);
}

DiskUsageState Guardrails::ClassifyDiskUsage(int64_t percent) const {
  const int64_t warn = WarnThreshold(G::kLocalDataDiskUsage);
  const int64_t fail = FailThreshold(G::kLocalDataDiskUsage);
  if (warn == kDisabled && fail == kDisabled) return DiskUsageState::kNotAvailable;
  if (fail != kDisabled && percent > fail) return DiskUsageState::kFull;
  if (warn != kDisabled && percent > warn) return DiskUsageState::kStuffed;
  return DiskUsageState::kSpacious;
}

std::optional<Guardrails::Violation> Guardrails::CheckLocalDiskUsage(int64_t percent) const {
  const DiskUsageState state = ClassifyDiskUsage(percent);
  if (!IsStuffedOrFull(state)) return std::nullopt;
  const bool failed = state == DiskUsageState::kFull;
  if (!ShouldNotify(G::kLocalDataDiskUsage, !failed)) return std::nullopt;
  const GuardrailDefinition& d = Definition(G::kLocalDataDiskUsage);
  const int64_t threshold = failed ? FailThreshold(d.id) : WarnThreshold(d.id);
  return Violation{failed,
                   Decorate(d, d.message(!failed, DiskUsageStateText(state), percent, threshold))};
}

void Guardrails::GuardReplicaDiskUsage(DiskUsageState replica,
                                       std::vector<std::string>* warnings) const {
  // Cassandra's texts leave the replica out: its address is not the client's business.
  const GuardrailDefinition& d = Definition(G::kReplicaDiskUsage);
  if (replica == DiskUsageState::kFull) {
    Fail(d, "Write request failed because disk usage exceeds failure threshold", warnings);
  }
  if (replica == DiskUsageState::kStuffed) {
    Warn(d, "Replica disk usage exceeds warning threshold", warnings);
  }
}

void Guardrails::Guard(GuardrailId id, int64_t value, std::string_view what,
                       std::vector<std::string>* warnings) const {
  const int64_t warn = WarnThreshold(id);
  const int64_t fail = FailThreshold(id);
  if (warn == kDisabled && fail == kDisabled) return;
  GuardAgainst(id, value, what, warn == kDisabled ? std::nullopt : std::optional(warn),
               fail == kDisabled ? std::nullopt : std::optional(fail), warnings);
}

void Guardrails::GuardAgainst(GuardrailId id, int64_t value, std::string_view what,
                              std::optional<int64_t> warn_threshold,
                              std::optional<int64_t> fail_threshold,
                              std::vector<std::string>* warnings) const {
  const GuardrailDefinition& d = Definition(id);
  const bool is_max = d.kind == GuardrailKind::kMaxThreshold;
  const auto crosses = [&](std::optional<int64_t> threshold) {
    return threshold && (is_max ? value > *threshold : value < *threshold);
  };
  if (crosses(fail_threshold)) Fail(d, d.message(false, what, value, *fail_threshold), warnings);
  if (crosses(warn_threshold)) Warn(d, d.message(true, what, value, *warn_threshold), warnings);
}

void Guardrails::EnsureEnabled(GuardrailId id, std::vector<std::string>* warnings,
                               std::string_view feature) const {
  const GuardrailDefinition& d = Definition(id);
  const State& state = Slot(id);
  const std::string_view name = feature.empty() ? d.feature : feature;
  if (!state.enabled.load(kRelaxed)) Fail(d, std::string(name) + " is not allowed", warnings);
  if (state.warned.load(kRelaxed)) Warn(d, std::string(name) + " is not recommended", warnings);
}

void Guardrails::GuardConsistencyLevels(GuardrailId id, std::span<const uint16_t> levels,
                                        std::vector<std::string>* warnings) const {
  const State& state = Slot(id);
  const uint32_t disallowed = state.disallowed_levels.load(kRelaxed);
  const uint32_t warned = state.warned_levels.load(kRelaxed);
  if ((disallowed | warned) == 0) return;
  uint32_t given = 0;
  for (uint16_t level : levels) {
    if (level < kLevelCount) given |= 1u << level;
  }
  const GuardrailDefinition& d = Definition(id);
  if (given & disallowed) {
    Fail(d,
         "Provided values " + JoinList(LevelNames(given & disallowed)) + " are not allowed for " +
             std::string(d.feature) +
             " (disallowed values are: " + JoinList(LevelNames(disallowed)) + ")",
         warnings);
  }
  if (given & warned) {
    Warn(d,
         "Provided values " + JoinList(LevelNames(given & warned)) + " are not recommended for " +
             std::string(d.feature) + " (warned values are: " + JoinList(LevelNames(warned)) + ")",
         warnings);
  }
}

std::set<std::string> Guardrails::GuardTableProperties(const std::set<std::string>& properties,
                                                       std::vector<std::string>* warnings) const {
  Texts texts;
  {
    std::lock_guard lock(mutex_);
    texts = texts_[static_cast<size_t>(G::kTableProperties)];
  }
  const GuardrailDefinition& d = Definition(G::kTableProperties);
  const auto matching = [&](const std::set<std::string>& configured) {
    std::vector<std::string> found;
    std::set_intersection(properties.begin(), properties.end(), configured.begin(),
                          configured.end(), std::back_inserter(found));
    return found;
  };
  const auto describe = [&](const std::vector<std::string>& found, std::string_view verdict,
                            std::string_view kind, const std::set<std::string>& configured) {
    return "Provided values " + JoinList(found) + " are " + std::string(verdict) + " for " +
           std::string(d.feature) + " (" + std::string(kind) +
           " values are: " + JoinList({configured.begin(), configured.end()}) + ")";
  };
  if (const auto found = matching(texts.disallowed); !found.empty()) {
    Fail(d, describe(found, "not allowed", "disallowed", texts.disallowed), warnings);
  }
  std::set<std::string> ignored;
  if (const auto found = matching(texts.ignored); !found.empty()) {
    Warn(d,
         "Ignoring provided values " + JoinList(found) + " as they are not supported for " +
             std::string(d.feature) + " (ignored values are: " +
             JoinList({texts.ignored.begin(), texts.ignored.end()}) + ")",
         warnings);
    ignored.insert(found.begin(), found.end());
  }
  std::set<std::string> remaining;
  std::set_difference(properties.begin(), properties.end(), ignored.begin(), ignored.end(),
                      std::inserter(remaining, remaining.end()));
  std::vector<std::string> warned_found;
  std::set_intersection(remaining.begin(), remaining.end(), texts.warned.begin(),
                        texts.warned.end(), std::back_inserter(warned_found));
  if (!warned_found.empty()) {
    Warn(d, describe(warned_found, "not recommended", "warned", texts.warned), warnings);
  }
  return ignored;
}

}  // namespace sibyl::guardrails
