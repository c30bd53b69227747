#pragma once
// Cassandra works on the query as a Java string, so the positions it reports
// (columns, snippet offsets) count UTF-16 code units. These helpers convert
// between the UTF-8 text Sibyl holds and those units. A malformed UTF-8 byte
// stands for one replacement character (U+FFFD), one unit.

#include <cstddef>
#include <string>
#include <string_view>

namespace sibyl::cql {

struct Utf8CodePoint {
  size_t bytes;     // length of the sequence at the position (1 for a malformed byte)
  int utf16_units;  // 2 for characters outside the BMP, else 1
};

// REQUIRES: pos < text.size().
[[nodiscard]] Utf8CodePoint DecodeUtf8At(std::string_view text, size_t pos);

[[nodiscard]] std::u16string ToUtf16(std::string_view text);
[[nodiscard]] std::string ToUtf8(std::u16string_view text);
[[nodiscard]] size_t Utf16Length(std::string_view text);

}  // namespace sibyl::cql
