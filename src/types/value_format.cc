// Format: values as cqlsh (Cassandra 4.1's cqlshlib/formatting.py with its
// default settings) prints them.

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>

#include "common/error.h"
#include "common/hex.h"
#include "types/big_number.h"
#include "types/civil_date.h"
#include "types/duration_literal.h"
#include "types/serialized_cursor.h"
#include "types/uuid.h"
#include "types/value_codec.h"
#include "types/vector_layout.h"

namespace sibyl::types {
namespace {

// cqlsh's default float_precision and double_precision.
constexpr int kFloatPrecision = 5;

void AppendHexBlob(std::string& out, BytesView v) {
  out.append("0x");
  AppendHex(out, v);
}

// format_value_text: backslashes doubled, control characters (U+0000..U+001F
// and U+007F..U+00A0) shown as Python escapes, quotes doubled when quoted.
void AppendText(std::string& out, BytesView v, bool quote) {
  if (quote) out.push_back('\'');
  for (size_t i = 0; i < v.size(); ++i) {
    const auto c = static_cast<unsigned char>(v[i]);
    uint32_t control = 0x100;  // none
    size_t width = 1;
    if (c < 0x20 || c == 0x7f) {
      control = c;
    } else if (c == 0xC2 && i + 1 < v.size() && static_cast<unsigned char>(v[i + 1]) <= 0xA0) {
      control = static_cast<unsigned char>(v[i + 1]);  // U+0080..U+00A0
      width = 2;
    }
    if (control != 0x100) {
      if (control == '\t') {
        out.append("\\t");
      } else if (control == '\n') {
        out.append("\\n");
      } else if (control == '\r') {
        out.append("\\r");
      } else {
        char escape[8];
        std::snprintf(escape, sizeof escape, "\\x%02x", control);
        out.append(escape);
      }
      i += width - 1;
      continue;
    }
    if (c == '\\') {
      out.append("\\\\");
    } else if (c == '\'' && quote) {
      out.append("''");
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  if (quote) out.push_back('\'');
}

// format_floating_point_type: NaN/Infinity spelled out, otherwise %g with the
// precision widened by the digits left of the point, so that numbers below
// 10^precision are not put in scientific notation.
void AppendFloating(std::string& out, double value) {
  if (std::isnan(value)) {
    out.append("NaN");
    return;
  }
  if (std::isinf(value)) {
    out.append(value > 0 ? "Infinity" : "-Infinity");
    return;
  }
  int precision = kFloatPrecision;
  if (std::fabs(value) > std::numeric_limits<double>::epsilon()) {
    // Python's int() truncates toward zero.
    const auto exponent = static_cast<int>(std::log10(std::fabs(value)));
    if (exponent >= -4 && exponent < precision) precision += exponent + 1;
  }
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
  out.append(buffer);
}

// Python's datetime covers years 1..9999; cqlsh prints the raw number
// outside that range.
bool PrintableYear(int64_t year) { return year >= 1 && year <= 9999; }

// strftime's %Y as glibc writes it for Python: no zero padding below 1000.
void AppendYear(std::string& out, int64_t year) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, year < 1000 ? "%" PRId64 : "%04" PRId64, year);
  out.append(buffer);
}

// format_value_timestamp: quoted inside collections, tuples and UDTs.
void AppendTimestamp(std::string& out, int64_t millis, bool quote) {
  if (quote) out.push_back('\'');
  const int64_t days = FloorDiv(millis, kMillisPerDay);
  const int64_t millis_of_day = FloorMod(millis, kMillisPerDay);
  const CivilDate date = CivilFromDays(days);
  if (!PrintableYear(date.year)) {
    out.append(std::to_string(millis));
  } else {
    AppendYear(out, date.year);
    char buffer[64];
    std::snprintf(
        buffer, sizeof buffer, "-%02u-%02u %02d:%02d:%02d.%03d000+0000", date.month, date.day,
        static_cast<int>(millis_of_day / 3'600'000), static_cast<int>(millis_of_day / 60'000 % 60),
        static_cast<int>(millis_of_day / 1000 % 60), static_cast<int>(millis_of_day % 1000));
    out.append(buffer);
  }
  if (quote) out.push_back('\'');
}

void AppendDate(std::string& out, BytesView v) {
  const int64_t days = DecodeDate(v);
  const CivilDate date = CivilFromDays(days);
  if (!PrintableYear(date.year)) {
    out.append(std::to_string(days));
    return;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%04" PRId64 "-%02u-%02u", date.year, date.month, date.day);
  out.append(buffer);
}

void AppendTime(std::string& out, int64_t nanos) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%02" PRId64 ":%02" PRId64 ":%02" PRId64 ".%09" PRId64,
                nanos / 3'600'000'000'000, nanos / 60'000'000'000 % 60, nanos / 1'000'000'000 % 60,
                nanos % 1'000'000'000);
  out.append(buffer);
}

// The driver gives inet values as strings; cqlsh quotes them inside collections.
void AppendInet(std::string& out, BytesView v, bool quote) {
  char buffer[INET6_ADDRSTRLEN];
  const int family = v.size() == 4 ? AF_INET : AF_INET6;
  if (inet_ntop(family, v.data(), buffer, sizeof buffer) == nullptr) {
    AppendHexBlob(out, v);
    return;
  }
  if (quote) out.push_back('\'');
  out.append(buffer);
  if (quote) out.push_back('\'');
}

// cqlsh sorts set elements and map keys with Python's ordering, which
// differs from Cassandra's for UUIDs (by their 128-bit value, so by bytes)
// and inet addresses (strings).
bool DisplayOrderDiffers(const CqlType& type) {
  return type.kind() == Kind::kUuid || type.kind() == Kind::kTimeuuid || type.kind() == Kind::kInet;
}

bool DisplayLess(const CqlType& type, BytesView a, BytesView b) {
  if (type.kind() == Kind::kInet) {
    std::string sa, sb;
    AppendInet(sa, a, false);
    AppendInet(sb, b, false);
    return sa < sb;
  }
  return a < b;
}

void AppendValue(std::string& out, const CqlType& type, BytesView v, bool nested);

void AppendElements(std::string& out, const CqlType& type, BytesView v) {
  SerializedCursor cursor(v);
  const int32_t count = v.empty() ? 0 : cursor.ReadInt32().value_or(0);
  const bool map = type.kind() == Kind::kMap;
  std::vector<std::pair<BytesView, BytesView>> entries;
  entries.reserve(static_cast<size_t>(count));
  for (int32_t i = 0; i < count; ++i) {
    const BytesView key = cursor.ReadElement().bytes;
    entries.emplace_back(key, map ? cursor.ReadElement().bytes : BytesView());
  }
  const CqlType& key_type = *type.params()[0];
  if (type.kind() != Kind::kList && DisplayOrderDiffers(key_type)) {
    std::stable_sort(entries.begin(), entries.end(), [&](const auto& a, const auto& b) {
      return DisplayLess(key_type, a.first, b.first);
    });
  }
  out.push_back(type.kind() == Kind::kList ? '[' : '{');
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i > 0) out.append(", ");
    AppendValue(out, key_type, entries[i].first, true);
    if (map) {
      out.append(": ");
      AppendValue(out, *type.params()[1], entries[i].second, true);
    }
  }
  out.push_back(type.kind() == Kind::kList ? ']' : '}');
}

// Whether Python's namedtuple takes `name` as a field name (ASCII subset:
// an identifier that is not a keyword and does not start with '_').
bool IsPythonFieldName(std::string_view name) {
  static constexpr std::string_view kKeywords[] = {
      "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
  if (name.empty() || name[0] == '_' || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u) && c != '_' && u < 0x80) return false;
  }
  return std::find(std::begin(kKeywords), std::end(kKeywords), name) == std::end(kKeywords);
}

// The field names the Python driver's UDT named tuple ends up with: the
// declared names, or, when namedtuple refuses one of them, field_<i>_ for
// each name it refuses (cassandra.util._positional_rename_invalid_identifiers).
std::vector<std::string> DisplayFieldNames(const CqlType& type) {
  std::vector<std::string> names = type.field_names();
  if (std::all_of(names.begin(), names.end(), IsPythonFieldName)) return names;
  for (size_t i = 0; i < names.size(); ++i) {
    if (!IsPythonFieldName(names[i])) names[i] = "field_" + std::to_string(i) + "_";
  }
  return names;
}

void AppendComponents(std::string& out, const CqlType& type, BytesView v) {
  const bool udt = type.kind() == Kind::kUdt;
  const std::vector<std::string> field_names =
      udt ? DisplayFieldNames(type) : std::vector<std::string>();
  SerializedCursor cursor(v);
  out.push_back(udt ? '{' : '(');
  for (size_t i = 0; i < type.params().size(); ++i) {
    // A tuple shows the components it has; a UDT shows every field.
    if (!udt && cursor.at_end()) break;
    if (i > 0) out.append(", ");
    // The driver's named tuple gives the field name, unquoted.
    if (udt) AppendText(out, field_names[i], false);
    if (udt) out.append(": ");
    const auto element = cursor.at_end()
                             ? SerializedCursor::Element{SerializedCursor::Status::kNull, {}}
                             : cursor.ReadElement();
    if (element.status == SerializedCursor::Status::kValue) {
      AppendValue(out, *type.params()[i], element.bytes, true);
    } else {
      out.append("null");
    }
  }
  out.push_back(udt ? '}' : ')');
}

void AppendValue(std::string& out, const CqlType& type, BytesView v, bool nested) {
  const bool textual = type.kind() == Kind::kText || type.kind() == Kind::kAscii;
  if (v.empty() && !textual && type.kind() != Kind::kBlob && !type.is_collection()) return;
  switch (type.kind()) {
    case Kind::kText:
    case Kind::kAscii:
      AppendText(out, v, nested);
      return;
    case Kind::kInt:
      out.append(std::to_string(DecodeInt(v)));
      return;
    case Kind::kBigint:
    case Kind::kCounter:
      out.append(std::to_string(DecodeBigint(v)));
      return;
    case Kind::kSmallint:
      out.append(std::to_string(DecodeSmallint(v)));
      return;
    case Kind::kTinyint:
      out.append(std::to_string(DecodeTinyint(v)));
      return;
    case Kind::kBoolean:
      out.append(DecodeBoolean(v) ? "True" : "False");
      return;
    case Kind::kDouble:
      AppendFloating(out, DecodeDouble(v));
      return;
    case Kind::kFloat:
      AppendFloating(out, DecodeFloat(v));
      return;
    case Kind::kVarint:
      out.append(VarintToString(v));
      return;
    case Kind::kDecimal:
      out.append(DecimalToString(v));
      return;
    case Kind::kUuid:
    case Kind::kTimeuuid:
      out.append(Uuid::FromBytes(v).ToString());
      return;
    case Kind::kTimestamp:
      AppendTimestamp(out, DecodeBigint(v), nested);
      return;
    case Kind::kDate:
      AppendDate(out, v);
      return;
    case Kind::kTime:
      AppendTime(out, DecodeBigint(v));
      return;
    case Kind::kDuration:
      // duration_as_str: 1y2mo3d4h5m6s7ms8us9ns, a leading '-' when negative.
      out.append(DurationToString(DecodeDuration(v)));
      return;
    case Kind::kInet:
      AppendInet(out, v, nested);
      return;
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
      AppendElements(out, type, v);
      return;
    case Kind::kTuple:
    case Kind::kUdt:
      AppendComponents(out, type, v);
      return;
    case Kind::kVector: {
      out.push_back('[');
      const auto elements = SplitVector(type, v);
      for (size_t i = 0; i < elements.size(); ++i) {
        if (i > 0) out.append(", ");
        AppendValue(out, *type.params()[0], elements[i], true);
      }
      out.push_back(']');
      return;
    }
    case Kind::kBlob:
    case Kind::kCustom:
      AppendHexBlob(out, v);
      return;
  }
}

}  // namespace

std::string Format(const CqlType& type, BytesView serialized) {
  std::string out;
  try {
    Validate(type, serialized);
  } catch (const CqlError&) {
    AppendHexBlob(out, serialized);
    return out;
  }
  AppendValue(out, type, serialized, false);
  return out;
}

}  // namespace sibyl::types
