#include "types/value_to_literal.h"

#include <arpa/inet.h>

#include <cinttypes>
#include <cstdio>

#include "common/error.h"
#include "common/hex.h"
#include "types/big_number.h"
#include "types/civil_date.h"
#include "types/cql_identifier.h"
#include "types/date_time_literal.h"
#include "types/duration_literal.h"
#include "types/number_text.h"
#include "types/serialized_cursor.h"
#include "types/uuid.h"
#include "types/value_codec.h"
#include "types/vector_layout.h"

namespace sibyl::types {
namespace {

void AppendQuoted(std::string& out, BytesView text) {
  out.push_back('\'');
  for (char c : text) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  out.push_back('\'');
}

// Cassandra's TimestampSerializer.toCQLLiteral form, yyyy-MM-dd'T'HH:mm:ss.SSSZ
// in UTC; years before 1 have no such form, so the milliseconds stand in.
void AppendTimestampLiteral(std::string& out, int64_t millis) {
  const int64_t days = FloorDiv(millis, kMillisPerDay);
  const int64_t millis_of_day = FloorMod(millis, kMillisPerDay);
  const CivilDate date = CivilFromDays(days);
  if (date.year < 1) {
    out.append(std::to_string(millis));
    return;
  }
  char buffer[80];
  std::snprintf(buffer, sizeof buffer, "'%04" PRId64 "-%02u-%02uT%02d:%02d:%02d.%03dZ'", date.year,
                date.month, date.day, static_cast<int>(millis_of_day / 3'600'000),
                static_cast<int>(millis_of_day / 60'000 % 60),
                static_cast<int>(millis_of_day / 1000 % 60),
                static_cast<int>(millis_of_day % 1000));
  out.append(buffer);
}

void AppendTimeLiteral(std::string& out, int64_t nanos) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "'%02" PRId64 ":%02" PRId64 ":%02" PRId64 ".%09" PRId64 "'",
                nanos / 3'600'000'000'000, nanos / 60'000'000'000 % 60, nanos / 1'000'000'000 % 60,
                nanos % 1'000'000'000);
  out.append(buffer);
}

void AppendInetLiteral(std::string& out, BytesView v) {
  char buffer[INET6_ADDRSTRLEN];
  inet_ntop(v.size() == 4 ? AF_INET : AF_INET6, v.data(), buffer, sizeof buffer);
  AppendQuoted(out, buffer);
}

void AppendLiteral(std::string& out, const CqlType& type, BytesView v);

void AppendCollectionLiteral(std::string& out, const CqlType& type, BytesView v) {
  const bool list = type.kind() == Kind::kList;
  out.push_back(list ? '[' : '{');
  if (type.kind() == Kind::kMap) {
    const auto entries = DecodeMapEntries(v.empty() ? BytesView("\0\0\0\0", 4) : v);
    for (size_t i = 0; i < entries.size(); ++i) {
      if (i > 0) out.append(", ");
      AppendLiteral(out, *type.params()[0], entries[i].first);
      out.append(": ");
      AppendLiteral(out, *type.params()[1], entries[i].second);
    }
  } else {
    const auto elements = DecodeListElements(v.empty() ? BytesView("\0\0\0\0", 4) : v);
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i > 0) out.append(", ");
      AppendLiteral(out, *type.params()[0], elements[i]);
    }
  }
  out.push_back(list ? ']' : '}');
}

void AppendComponentLiterals(std::string& out, const CqlType& type, BytesView v) {
  const auto components = DecodeTupleComponents(v);
  const bool udt = type.kind() == Kind::kUdt;
  if (!udt && components.empty()) {
    ThrowInvalid("The empty value of " + type.ToCql() + " has no CQL literal");
  }
  out.push_back(udt ? '{' : '(');
  // A UDT value may predate fields added since; they read as null.
  const size_t count = udt ? type.params().size() : components.size();
  for (size_t i = 0; i < count; ++i) {
    if (i > 0) out.append(", ");
    if (udt) out.append(MaybeQuoteIdentifier(type.field_names()[i])).append(": ");
    if (i < components.size() && components[i]) {
      AppendLiteral(out, *type.params()[i], *components[i]);
    } else {
      out.append("null");
    }
  }
  out.push_back(udt ? '}' : ')');
}

void AppendVectorLiteral(std::string& out, const CqlType& type, BytesView v) {
  out.push_back('[');
  const auto elements = SplitVector(type, v);
  for (size_t i = 0; i < elements.size(); ++i) {
    if (i > 0) out.append(", ");
    AppendLiteral(out, *type.params()[0], elements[i]);
  }
  out.push_back(']');
}

void AppendBlobLiteral(std::string& out, BytesView v) {
  out.append("0x");
  AppendHex(out, v);
}

void AppendDateLiteral(std::string& out, BytesView v) {
  out.push_back('\'');
  out.append(JavaLocalDateString(DecodeDate(v)));
  out.push_back('\'');
}

void AppendDurationLiteral(std::string& out, BytesView v) {
  const std::string text = DurationToString(DecodeDuration(v));
  out.append(text.empty() ? "0s" : text);  // a zero duration prints as nothing
}

// The literal of `type`'s empty value (zero bytes). Returns false, writing
// nothing, for the collections, tuples and user types, whose empty value is
// written as their other values are.
bool AppendEmptyValueLiteral(std::string& out, const CqlType& type) {
  switch (type.kind()) {
    case Kind::kText:
    case Kind::kAscii:
    case Kind::kTimestamp:  // TimestampType.fromString("") is the empty value
    case Kind::kInet:       // and so is InetAddressType's
      out.append("''");
      return true;
    case Kind::kBlob:
    case Kind::kCustom:
      out.append("0x");
      return true;
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
    case Kind::kTuple:
    case Kind::kUdt:
      return false;
    default:
      out.append("blobas").append(type.ToCql()).append("(0x)");
      return true;
  }
}

void AppendLiteral(std::string& out, const CqlType& type, BytesView v) {
  if (v.empty() && AppendEmptyValueLiteral(out, type)) return;
  switch (type.kind()) {
    case Kind::kText:
    case Kind::kAscii:
      AppendQuoted(out, v);
      return;
    case Kind::kBlob:
    case Kind::kCustom:
      AppendBlobLiteral(out, v);
      return;
    case Kind::kBoolean:
      out.append(DecodeBoolean(v) ? "true" : "false");
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
    case Kind::kVarint:
      out.append(VarintToString(v));
      return;
    case Kind::kDecimal:
      out.append(DecimalToString(v));  // BigDecimal.toString reads back with the same scale
      return;
    case Kind::kDouble:
      out.append(JavaDoubleToString(DecodeDouble(v)));
      return;
    case Kind::kFloat:
      out.append(JavaFloatToString(DecodeFloat(v)));
      return;
    case Kind::kUuid:
    case Kind::kTimeuuid:
      out.append(Uuid::FromBytes(v).ToString());
      return;
    case Kind::kInet:
      AppendInetLiteral(out, v);
      return;
    case Kind::kTimestamp:
      AppendTimestampLiteral(out, DecodeBigint(v));
      return;
    case Kind::kDate:
      AppendDateLiteral(out, v);
      return;
    case Kind::kTime:
      AppendTimeLiteral(out, DecodeBigint(v));
      return;
    case Kind::kDuration:
      AppendDurationLiteral(out, v);
      return;
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
      AppendCollectionLiteral(out, type, v);
      return;
    case Kind::kTuple:
    case Kind::kUdt:
      AppendComponentLiterals(out, type, v);
      return;
    case Kind::kVector:
      AppendVectorLiteral(out, type, v);
      return;
  }
}

}  // namespace

std::string ToCqlLiteral(const CqlType& type, BytesView value) {
  Validate(type, value);
  std::string out;
  AppendLiteral(out, type, value);
  return out;
}

}  // namespace sibyl::types
