#pragma once
// Strict UTF-8 validation (RFC 3629), as Java's UTF-8 decoder applies it:
// no overlong forms, no UTF-16 surrogates (U+D800..U+DFFF), nothing past
// U+10FFFF, no truncated sequences.

#include <string_view>

namespace sibyl::types {

[[nodiscard]] bool IsValidUtf8(std::string_view text);

}  // namespace sibyl::types
