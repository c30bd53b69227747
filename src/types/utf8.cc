#include "types/utf8.h"

#include <algorithm>
#include <cstdint>

namespace sibyl::types {

namespace {

// The length of the well-formed character starting at `p`, or 0 when the
// bytes there start an ill-formed sequence; *maximal is then set to the
// length of that sequence's maximal prefix that could have started a
// character (at least 1), which is what one U+FFFD replaces.
size_t CharacterLength(const uint8_t* p, const uint8_t* end, size_t* maximal) {
  const uint8_t lead = *p;
  if (lead < 0x80) return 1;
  size_t continuation;
  // The accepted range of the byte after the lead byte; it is narrower than
  // 80..BF exactly where overlongs, surrogates or > U+10FFFF would start.
  uint8_t second_min = 0x80, second_max = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    continuation = 1;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    continuation = 2;
    if (lead == 0xE0) second_min = 0xA0;  // overlong below U+0800
    if (lead == 0xED) second_max = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    continuation = 3;
    if (lead == 0xF0) second_min = 0x90;  // overlong below U+10000
    if (lead == 0xF4) second_max = 0x8F;  // above U+10FFFF
  } else {
    *maximal = 1;  // C0, C1 (overlong), F5..FF, or a stray continuation byte
    return 0;
  }
  size_t i = 1;
  for (; i <= continuation && p + i < end; ++i) {
    const uint8_t min = i == 1 ? second_min : 0x80;
    const uint8_t max = i == 1 ? second_max : 0xBF;
    if (p[i] < min || p[i] > max) break;
  }
  if (i == continuation + 1) return i;
  *maximal = i;
  return 0;
}

}  // namespace

bool IsValidUtf8(std::string_view text) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    if (*p < 0x80) {
      ++p;
      continue;
    }
    size_t maximal = 0;
    const size_t length = CharacterLength(p, end, &maximal);
    if (length == 0) return false;
    p += length;
  }
  return true;
}

namespace {

bool IsContinuation(uint8_t b) { return (b & 0xC0) == 0x80; }

// The length the JDK's decoder reports for a malformed sequence at `p` (its
// malformedN and the checks of decodeArrayLoop), or 0 when the sequence is
// well formed. `left` bytes remain from `p`.
size_t JavaMalformedLength(const uint8_t* p, size_t left) {
  const uint8_t b1 = p[0];
  if (b1 < 0x80) return 0;
  if (b1 >= 0xC2 && b1 <= 0xDF) {
    if (left < 2) return left;
    return IsContinuation(p[1]) ? 0 : 1;
  }
  if (b1 >= 0xE0 && b1 <= 0xEF) {
    auto malformed_2 = [&](uint8_t b2) {
      return (b1 == 0xE0 && (b2 & 0xE0) == 0x80) || !IsContinuation(b2);
    };
    if (left < 3) return left > 1 && malformed_2(p[1]) ? 1 : left;
    if (malformed_2(p[1])) return 1;
    if (!IsContinuation(p[2])) return 2;
    if (b1 == 0xED && p[1] >= 0xA0) return 3;  // a UTF-16 surrogate
    return 0;
  }
  if (b1 >= 0xF0 && b1 <= 0xF7) {
    auto malformed_2 = [&](uint8_t b2) {
      return b1 > 0xF4 || (b1 == 0xF0 && (b2 < 0x90 || b2 > 0xBF)) ||
             (b1 == 0xF4 && (b2 & 0xF0) != 0x80) || !IsContinuation(b2);
    };
    if (left < 4) {
      if (b1 > 0xF4 || (left > 1 && malformed_2(p[1]))) return 1;
      if (left > 2 && !IsContinuation(p[2])) return 2;
      return left;
    }
    if (malformed_2(p[1])) return 1;
    if (!IsContinuation(p[2])) return 2;
    if (!IsContinuation(p[3])) return 3;
    return 0;
  }
  return 1;  // C0, C1, F8..FF, or a continuation byte where a character starts
}

}  // namespace

std::optional<MalformedUtf8> FindMalformedUtf8(std::string_view text) {
  const auto* begin = reinterpret_cast<const uint8_t*>(text.data());
  const auto* end = begin + text.size();
  for (const uint8_t* p = begin; p < end;) {
    if (*p < 0x80) {
      ++p;
      continue;
    }
    size_t maximal = 0;
    const size_t length = CharacterLength(p, end, &maximal);
    if (length == 0) {
      const size_t reported = JavaMalformedLength(p, static_cast<size_t>(end - p));
      return MalformedUtf8{static_cast<size_t>(p - begin), reported == 0 ? 1 : reported};
    }
    p += length;
  }
  return std::nullopt;
}

std::string ToValidUtf8(std::string_view text, size_t max_bytes) {
  static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
  std::string out;
  out.reserve(std::min(text.size(), max_bytes));
  const auto* begin = reinterpret_cast<const uint8_t*>(text.data());
  const auto* end = begin + text.size();
  for (const uint8_t* p = begin; p < end;) {
    size_t maximal = 0;
    const size_t length = CharacterLength(p, end, &maximal);
    const std::string_view piece =
        length > 0 ? std::string_view(reinterpret_cast<const char*>(p), length) : kReplacement;
    if (out.size() + piece.size() > max_bytes) break;
    out.append(piece);
    p += length > 0 ? length : maximal;
  }
  return out;
}

void AppendUtf8(std::string& out, uint32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

}  // namespace sibyl::types
