// Format: values as cqlsh (Cassandra 4.1's cqlshlib/formatting.py with its
// default settings) prints them.

#include <arpa/inet.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>

#include "common/error.h"
#include "common/hex.h"
#include "types/big_number.h"
#include "types/cql_identifier.h"
#include "types/serialized_cursor.h"
#include "types/uuid.h"
#include "types/value_codec.h"
#include "types/vector_layout.h"
#include "types/vint.h"

namespace sibyl::types {
namespace {

// cqlsh's default float_precision and double_precision.
constexpr int kFloatPrecision = 5;
constexpr int64_t kMillisPerDay = 86'400'000;

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

struct CivilDate {
  int64_t year;
  unsigned month;
  unsigned day;
};

// Proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's
// civil_from_days), valid far beyond the range printed.
CivilDate CivilFromDays(int64_t days) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const auto doe = static_cast<unsigned>(days - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned day = doy - (153 * mp + 2) / 5 + 1;
  const unsigned month = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<int64_t>(yoe) + era * 400 + (month <= 2), month, day};
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// Python's datetime covers years 1..9999; cqlsh prints the raw number
// outside that range.
bool PrintableYear(int64_t year) { return year >= 1 && year <= 9999; }

void AppendTimestamp(std::string& out, int64_t millis) {
  const int64_t days = FloorDiv(millis, kMillisPerDay);
  const int64_t millis_of_day = millis - days * kMillisPerDay;
  const CivilDate date = CivilFromDays(days);
  if (!PrintableYear(date.year)) {
    out.append(std::to_string(millis));
    return;
  }
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%04" PRId64 "-%02u-%02u %02d:%02d:%02d.%03d000+0000",
                date.year, date.month, date.day, static_cast<int>(millis_of_day / 3'600'000),
                static_cast<int>(millis_of_day / 60'000 % 60),
                static_cast<int>(millis_of_day / 1000 % 60),
                static_cast<int>(millis_of_day % 1000));
  out.append(buffer);
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

// duration_as_str: 1y2mo3d4h5m6s7ms8us9ns, a leading '-' when negative.
void AppendDuration(std::string& out, BytesView v) {
  int64_t parts[3];
  size_t offset = 0;
  for (int64_t& part : parts) {
    const auto decoded = ReadSignedVint(v.substr(offset));
    part = static_cast<int64_t>(decoded->value);
    offset += decoded->size;
  }
  const auto [months, days, nanos] = parts;
  if (months < 0 || days < 0 || nanos < 0) out.push_back('-');
  auto unit = [&](uint64_t dividend, uint64_t divisor, const char* name) -> uint64_t {
    if (dividend == 0 || dividend < divisor) return dividend;
    out.append(std::to_string(dividend / divisor)).append(name);
    return dividend % divisor;
  };
  const auto magnitude = [](int64_t x) {
    return x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
  };
  unit(unit(magnitude(months), 12, "y"), 1, "mo");
  unit(magnitude(days), 1, "d");
  if (nanos != 0) {
    uint64_t rest = unit(magnitude(nanos), 3'600'000'000'000, "h");
    rest = unit(rest, 60'000'000'000, "m");
    rest = unit(rest, 1'000'000'000, "s");
    rest = unit(rest, 1'000'000, "ms");
    rest = unit(rest, 1'000, "us");
    unit(rest, 1, "ns");
  }
}

void AppendInet(std::string& out, BytesView v) {
  char buffer[INET6_ADDRSTRLEN];
  const int family = v.size() == 4 ? AF_INET : AF_INET6;
  if (inet_ntop(family, v.data(), buffer, sizeof buffer) == nullptr) {
    AppendHexBlob(out, v);
    return;
  }
  out.append(buffer);
}

void AppendValue(std::string& out, const CqlType& type, BytesView v, bool nested);

void AppendElements(std::string& out, const CqlType& type, BytesView v) {
  SerializedCursor cursor(v);
  const int32_t count = v.empty() ? 0 : cursor.ReadInt32().value_or(0);
  const bool map = type.kind() == Kind::kMap;
  out.push_back(type.kind() == Kind::kList ? '[' : '{');
  for (int32_t i = 0; i < count; ++i) {
    if (i > 0) out.append(", ");
    AppendValue(out, *type.params()[0], cursor.ReadElement().bytes, true);
    if (map) {
      out.append(": ");
      AppendValue(out, *type.params()[1], cursor.ReadElement().bytes, true);
    }
  }
  out.push_back(type.kind() == Kind::kList ? ']' : '}');
}

void AppendComponents(std::string& out, const CqlType& type, BytesView v) {
  const bool udt = type.kind() == Kind::kUdt;
  SerializedCursor cursor(v);
  out.push_back(udt ? '{' : '(');
  for (size_t i = 0; i < type.params().size(); ++i) {
    // A tuple shows the components it has; a UDT shows every field.
    if (!udt && cursor.at_end()) break;
    if (i > 0) out.append(", ");
    if (udt) out.append(MaybeQuoteIdentifier(type.field_names()[i])).append(": ");
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
      AppendTimestamp(out, DecodeBigint(v));
      return;
    case Kind::kDate:
      AppendDate(out, v);
      return;
    case Kind::kTime:
      AppendTime(out, DecodeBigint(v));
      return;
    case Kind::kDuration:
      AppendDuration(out, v);
      return;
    case Kind::kInet:
      AppendInet(out, v);
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
