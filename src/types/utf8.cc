#include "types/utf8.h"

#include <cstdint>

namespace sibyl::types {

bool IsValidUtf8(std::string_view text) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    const uint8_t lead = *p;
    if (lead < 0x80) {
      ++p;
      continue;
    }
    int continuation;
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
      return false;  // C0, C1 (overlong), F5..FF, or a stray continuation byte
    }
    if (end - p <= continuation) return false;
    if (p[1] < second_min || p[1] > second_max) return false;
    for (int i = 2; i <= continuation; ++i) {
      if ((p[i] & 0xC0) != 0x80) return false;
    }
    p += continuation + 1;
  }
  return true;
}

}  // namespace sibyl::types
