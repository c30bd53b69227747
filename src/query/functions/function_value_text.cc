#include "query/functions/function_value_text.h"

#include <cstdio>

#include "common/hex.h"
#include "query/functions/function_big_number.h"
#include "types/big_number.h"
#include "types/civil_date.h"
#include "types/date_time_literal.h"
#include "types/duration_literal.h"
#include "types/number_text.h"
#include "types/uuid.h"
#include "types/value_codec.h"
#include "types/vector_layout.h"

namespace sibyl::query {
namespace {

using types::Kind;

std::string Pad(int64_t value, int width) {
  std::string digits = std::to_string(value);
  if (static_cast<int>(digits.size()) < width) {
    digits.insert(0, static_cast<size_t>(width - static_cast<int>(digits.size())), '0');
  }
  return digits;
}

// java.time's "yyyy" (year of era, padded to 4, '+' beyond 9999).
std::string YearText(int64_t year) {
  const int64_t year_of_era = year <= 0 ? 1 - year : year;
  return (year_of_era > 9999 ? "+" : "") + Pad(year_of_era, 4);
}

std::string DurationText(BytesView v) { return types::DurationToString(types::DecodeDuration(v)); }

bool IsText(Kind kind) { return kind == Kind::kText || kind == Kind::kAscii; }

std::string FloatingJson(double value, bool is_float) {
  if (value != value || value - value != 0) return "null";  // NaN, infinities
  return is_float ? types::JavaFloatToString(static_cast<float>(value))
                  : types::JavaDoubleToString(value);
}

}  // namespace

std::string JavaTimestampText(int64_t millis, char separator) {
  const int64_t days = types::FloorDiv(millis, types::kMillisPerDay);
  const int64_t ms_of_day = types::FloorMod(millis, types::kMillisPerDay);
  const types::CivilDate date = types::CivilFromDays(days);
  std::string out = YearText(date.year) + "-" + Pad(date.month, 2) + "-" + Pad(date.day, 2);
  out += separator;
  out += Pad(ms_of_day / 3'600'000, 2) + ":" + Pad(ms_of_day / 60'000 % 60, 2) + ":" +
         Pad(ms_of_day / 1000 % 60, 2) + "." + Pad(ms_of_day % 1000, 3) + "Z";
  return out;
}

std::string JavaTimeText(int64_t nanos) {
  const int64_t seconds = nanos / 1'000'000'000;
  return Pad(seconds / 3600, 2) + ":" + Pad(seconds / 60 % 60, 2) + ":" + Pad(seconds % 60, 2) +
         "." + Pad(nanos % 1'000'000'000, 9);
}

std::string JavaInetText(BytesView address) {
  std::string out;
  if (address.size() == 4) {
    for (size_t i = 0; i < 4; ++i) {
      if (i > 0) out += '.';
      out += std::to_string(static_cast<uint8_t>(address[i]));
    }
    return out;
  }
  char group[8];
  for (size_t i = 0; i + 1 < address.size(); i += 2) {
    if (i > 0) out += ':';
    std::snprintf(group, sizeof group, "%x", LoadBE16(address.data() + i));
    out += group;
  }
  return out;
}

std::string CastText(const types::CqlType& type, BytesView v) {
  switch (type.kind()) {
    case Kind::kTinyint:
      return std::to_string(types::DecodeTinyint(v));
    case Kind::kSmallint:
      return std::to_string(types::DecodeSmallint(v));
    case Kind::kInt:
      return std::to_string(types::DecodeInt(v));
    case Kind::kBigint:
    case Kind::kCounter:
      return std::to_string(types::DecodeBigint(v));
    case Kind::kFloat:
      return types::JavaFloatToString(types::DecodeFloat(v));
    case Kind::kDouble:
      return types::JavaDoubleToString(types::DecodeDouble(v));
    case Kind::kDecimal:
      return function_internal::JavaDecimalString(function_internal::DecodeDecimal(v));
    case Kind::kVarint:
      return types::VarintToString(v);
    case Kind::kBoolean:
      return types::DecodeBoolean(v) ? "true" : "false";
    case Kind::kInet:
      return JavaInetText(v);
    case Kind::kTimestamp:
      return JavaTimestampText(types::DecodeBigint(v), 'T');
    case Kind::kDate:
      return types::JavaLocalDateString(types::DecodeDate(v));
    case Kind::kTime:
      return JavaTimeText(types::DecodeBigint(v));
    case Kind::kUuid:
    case Kind::kTimeuuid:
      return types::Uuid::FromBytes(v).ToString();
    default:
      return std::string(v);  // ascii and text
  }
}

std::string ToJsonText(const types::CqlType& type, const std::optional<BytesView>& value) {
  if (!value) return "null";
  const BytesView v = *value;
  const Kind kind = type.kind();
  if (IsText(kind)) return QuoteJsonString(v);
  if (v.empty() && type.is_native() && kind != Kind::kBlob) return "\"\"";
  switch (kind) {
    case Kind::kBlob:
      return "\"0x" + ToHex(v) + "\"";
    case Kind::kFloat:
      return FloatingJson(types::DecodeFloat(v), true);
    case Kind::kDouble:
      return FloatingJson(types::DecodeDouble(v), false);
    case Kind::kTimestamp:
      return "\"" + JavaTimestampText(types::DecodeBigint(v), ' ') + "\"";
    case Kind::kDate:
    case Kind::kTime:
    case Kind::kUuid:
    case Kind::kTimeuuid:
    case Kind::kInet:
      return "\"" + CastText(type, v) + "\"";
    case Kind::kDuration:
      return "\"" + DurationText(v) + "\"";
    case Kind::kList:
    case Kind::kSet:
    case Kind::kVector: {
      const std::vector<BytesView> elements =
          kind == Kind::kVector ? types::SplitVector(type, v) : types::DecodeListElements(v);
      std::string out = "[";
      for (size_t i = 0; i < elements.size(); ++i) {
        if (i > 0) out += ", ";
        out += ToJsonText(*type.params()[0], elements[i]);
      }
      return out + "]";
    }
    case Kind::kMap: {
      std::string out = "{";
      bool first = true;
      for (const auto& [key, mapped] : types::DecodeMapEntries(v)) {
        if (!first) out += ", ";
        first = false;
        const std::string key_json = ToJsonText(*type.params()[0], key);
        // Keys must be JSON strings: non-string keys are their JSON, quoted.
        out += key_json.starts_with('"') ? key_json : QuoteJsonString(key_json);
        out += ": " + ToJsonText(*type.params()[1], mapped);
      }
      return out + "}";
    }
    case Kind::kTuple: {
      const auto components = types::DecodeTupleComponents(v);
      std::string out = "[";
      for (size_t i = 0; i < type.params().size(); ++i) {
        if (i > 0) out += ", ";
        out += ToJsonText(*type.params()[i], i < components.size() ? components[i] : std::nullopt);
      }
      return out + "]";
    }
    case Kind::kUdt: {
      const auto components = types::DecodeTupleComponents(v);
      std::string out = "{";
      for (size_t i = 0; i < type.field_names().size(); ++i) {
        if (i > 0) out += ", ";
        std::string name = type.field_names()[i];
        bool lower = true;
        for (char c : name) lower = lower && !(c >= 'A' && c <= 'Z');
        if (!lower) name = "\"" + name + "\"";  // case-sensitive names keep their quotes
        out += QuoteJsonString(name) + ": " +
               ToJsonText(*type.params()[i], i < components.size() ? components[i] : std::nullopt);
      }
      return out + "}";
    }
    default:
      return CastText(type, v);  // numbers, booleans, counters
  }
}

}  // namespace sibyl::query
