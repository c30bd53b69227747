#pragma once
// Strict UTF-8 validation (RFC 3629), as Java's UTF-8 decoder applies it:
// no overlong forms, no UTF-16 surrogates (U+D800..U+DFFF), nothing past
// U+10FFFF, no truncated sequences.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sibyl::types {

[[nodiscard]] bool IsValidUtf8(std::string_view text);

// Where Java's strict UTF-8 decoder (sun.nio.cs.UTF_8, REPORT) stops on
// `text`: the offset of the first malformed sequence and the length its
// MalformedInputException reports ("Input length = N"), which for a
// sequence cut short by the end of the text is the number of bytes left.
// nullopt when `text` is valid.
struct MalformedUtf8 {
  size_t offset = 0;
  size_t length = 0;
};
[[nodiscard]] std::optional<MalformedUtf8> FindMalformedUtf8(std::string_view text);

// `text` with every maximal ill-formed subsequence replaced by U+FFFD, as
// Java's decoder (and the Unicode standard's "best practice") replaces them,
// then cut to at most `max_bytes` bytes at a character boundary. For text
// that must go out as UTF-8 whatever it quotes (error messages).
[[nodiscard]] std::string ToValidUtf8(std::string_view text, size_t max_bytes = std::string::npos);

// Appends the UTF-8 encoding of one code point (REQUIRES: code_point <= 0x10FFFF).
void AppendUtf8(std::string& out, uint32_t code_point);

}  // namespace sibyl::types
