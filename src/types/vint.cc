#include "types/vint.h"

#include <bit>

namespace sibyl::types {

std::optional<DecodedVint> ReadUnsignedVint(BytesView in) {
  if (in.empty()) return std::nullopt;
  const auto first = static_cast<uint8_t>(in[0]);
  const int extra = std::countl_one(first);
  if (in.size() < static_cast<size_t>(extra) + 1) return std::nullopt;
  // With 8 extra bytes the first byte holds no value bits.
  uint64_t value = extra >= 8 ? 0 : (first & (0xFFu >> extra));
  for (int i = 1; i <= extra; ++i) value = value << 8 | static_cast<uint8_t>(in[i]);
  return DecodedVint{value, static_cast<size_t>(extra) + 1};
}

std::optional<DecodedVint> ReadSignedVint(BytesView in) {
  auto decoded = ReadUnsignedVint(in);
  if (!decoded) return std::nullopt;
  decoded->value = (decoded->value >> 1) ^ (0 - (decoded->value & 1));
  return decoded;
}

void AppendUnsignedVint(Bytes& out, uint64_t value) {
  // Same size rule as VIntCoding.computeUnsignedVIntSize: 7 value bits in one
  // byte, then one more byte per 7 bits, 9 bytes at most.
  const int significant_bits = 64 - std::countl_zero(value | 1);
  const int size = significant_bits > 56 ? 9 : (significant_bits + 6) / 7;
  if (size == 1) {
    out.push_back(static_cast<char>(value));
    return;
  }
  const int extra = size - 1;
  const size_t start = out.size();
  for (int i = extra; i >= 0; --i) {
    out.push_back(static_cast<char>(i >= 8 ? 0 : value >> (8 * i)));
  }
  out[start] = static_cast<char>(static_cast<uint8_t>(out[start]) | (0xFF00u >> extra));
}

void AppendSignedVint(Bytes& out, int64_t value) {
  const auto v = static_cast<uint64_t>(value);
  AppendUnsignedVint(out, (v << 1) ^ (0 - (v >> 63)));
}

}  // namespace sibyl::types
