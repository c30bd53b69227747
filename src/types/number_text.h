#pragma once
// Numbers as Java reads and writes them, since Cassandra converts CQL number
// literals with Java's parsers (Integer.parseInt, Double.parseDouble, ...)
// and writes them back with Double.toString.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sibyl::types {

// Long.parseLong / Integer.parseInt / Short.parseShort / Byte.parseByte: an
// optional '+' or '-', then one or more ASCII digits, within [min, max].
[[nodiscard]] std::optional<int64_t> ParseJavaInteger(std::string_view text, int64_t min,
                                                      int64_t max);
[[nodiscard]] inline std::optional<int64_t> ParseJavaLong(std::string_view text) {
  return ParseJavaInteger(text, INT64_MIN, INT64_MAX);
}

// Double.parseDouble / Float.parseFloat for decimal text: [+-] digits with an
// optional fraction and exponent, an optional f/F/d/D suffix, or NaN and
// [+-]Infinity. Correctly rounded; too large becomes infinite and too small
// zero, as in Java. nullopt when the text is not a number.
[[nodiscard]] std::optional<double> ParseJavaDouble(std::string_view text);
[[nodiscard]] std::optional<float> ParseJavaFloat(std::string_view text);

// Double.toString / Float.toString with the shortest digits that read back
// exactly: "1.0", "0.001", "1.0E7", "1.5E-5", "-0.0", "NaN", "-Infinity".
// Every result is also a valid CQL float literal.
[[nodiscard]] std::string JavaDoubleToString(double value);
[[nodiscard]] std::string JavaFloatToString(float value);

}  // namespace sibyl::types
