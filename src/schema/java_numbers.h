#pragma once
// Numbers the way Cassandra's Java code reads them, because the values of
// DDL options are checked with Integer.parseInt, Long.parseLong and
// Double.parseDouble. (Double.toString is describe_cql.h's JavaDoubleToString.)

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sibyl::schema {

// Integer.parseInt: an optional sign then decimal digits, in int range.
[[nodiscard]] std::optional<int32_t> ParseJavaInt(std::string_view text);
// Long.parseLong.
[[nodiscard]] std::optional<int64_t> ParseJavaLong(std::string_view text);
// Double.parseDouble: surrounding whitespace ignored, a trailing f/F/d/D
// allowed, "NaN" and "Infinity" with an optional sign, decimal and
// exponent forms.
[[nodiscard]] std::optional<double> ParseJavaDouble(std::string_view text);
// StringUtils.isNumeric: non-empty and every character a digit.
[[nodiscard]] bool IsJavaNumeric(std::string_view text);

}  // namespace sibyl::schema
