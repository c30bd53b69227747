#include "cql/utf16.h"

#include <cstdint>

#include "types/utf8.h"

namespace sibyl::cql {
namespace {

constexpr char16_t kReplacement = 0xFFFD;

uint32_t CodePointAt(std::string_view text, size_t pos, const Utf8CodePoint& cp) {
  auto byte = [&](size_t i) { return static_cast<uint32_t>(static_cast<unsigned char>(text[i])); };
  switch (cp.bytes) {
    case 2:
      return (byte(pos) & 0x1F) << 6 | (byte(pos + 1) & 0x3F);
    case 3:
      return (byte(pos) & 0x0F) << 12 | (byte(pos + 1) & 0x3F) << 6 | (byte(pos + 2) & 0x3F);
    case 4:
      return (byte(pos) & 0x07) << 18 | (byte(pos + 1) & 0x3F) << 12 | (byte(pos + 2) & 0x3F) << 6 |
             (byte(pos + 3) & 0x3F);
    default:
      return byte(pos) < 0x80 ? byte(pos) : kReplacement;
  }
}

}  // namespace

Utf8CodePoint DecodeUtf8At(std::string_view text, size_t pos) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  unsigned char lead = byte(pos);
  if (lead < 0x80) return {1, 1};
  size_t length = lead >= 0xF0 && lead <= 0xF4   ? 4
                  : lead >= 0xE0 && lead <= 0xEF ? 3
                  : lead >= 0xC2 && lead <= 0xDF ? 2
                                                 : 0;
  if (length == 0 || pos + length > text.size()) return {1, 1};
  for (size_t i = 1; i < length; ++i) {
    if ((byte(pos + i) & 0xC0) != 0x80) return {1, 1};
  }
  // Overlong three- and four-byte forms, surrogates and values past
  // U+10FFFF are malformed too.
  unsigned char second = byte(pos + 1);
  if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F) ||
      (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F)) {
    return {1, 1};
  }
  return {length, length == 4 ? 2 : 1};
}

std::u16string ToUtf16(std::string_view text) {
  std::u16string out;
  out.reserve(text.size());
  for (size_t pos = 0; pos < text.size();) {
    Utf8CodePoint cp = DecodeUtf8At(text, pos);
    uint32_t c = CodePointAt(text, pos, cp);
    if (c >= 0x10000) {
      c -= 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 + (c >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + (c & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(c));
    }
    pos += cp.bytes;
  }
  return out;
}

std::string ToUtf8(std::u16string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    uint32_t c = text[i];
    if (c >= 0xD800 && c <= 0xDBFF && i + 1 < text.size() && text[i + 1] >= 0xDC00 &&
        text[i + 1] <= 0xDFFF) {
      c = 0x10000 + ((c - 0xD800) << 10) + (text[i + 1] - 0xDC00);
      ++i;
    } else if (c >= 0xD800 && c <= 0xDFFF) {
      c = kReplacement;  // a lone surrogate, left by a cut inside a pair
    }
    types::AppendUtf8(out, c);
  }
  return out;
}

size_t Utf16Length(std::string_view text) {
  size_t units = 0;
  for (size_t pos = 0; pos < text.size();) {
    Utf8CodePoint cp = DecodeUtf8At(text, pos);
    units += cp.utf16_units;
    pos += cp.bytes;
  }
  return units;
}

}  // namespace sibyl::cql
