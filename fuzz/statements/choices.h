#pragma once
// Where the statement fuzzer's decisions come from: a byte string read front
// to back. libFuzzer hands one in (and mutates it: a changed byte changes
// one decision); the seeded runner makes one from a seed. Once the bytes run
// out every decision is 0 and exhausted() says so, so an input is always a
// finite, reproducible program.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace sibyl::fuzz {

class Choices {
 public:
  explicit Choices(std::string_view bytes) : bytes_(bytes) {}

  // A number in [0, n); 0 when n <= 1 or the bytes have run out.
  uint32_t Below(size_t n) {
    if (n <= 1) return 0;
    uint64_t value = 0;
    for (uint64_t range = n - 1; range > 0; range >>= 8) value = (value << 8) | NextByte();
    return static_cast<uint32_t>(value % n);
  }
  // True with probability percent / 100.
  bool Percent(uint32_t percent) { return Below(100) < percent; }
  // A number in [low, high].
  int64_t Between(int64_t low, int64_t high) {
    return low + static_cast<int64_t>(Below(static_cast<size_t>(high - low + 1)));
  }
  template <typename T>
  const T& Pick(const std::vector<T>& items) {
    return items[Below(items.size())];
  }
  template <typename T, size_t N>
  const T& Pick(const T (&items)[N]) {
    return items[Below(N)];
  }

  bool exhausted() const { return position_ >= bytes_.size(); }
  size_t position() const { return position_; }

 private:
  uint8_t NextByte() {
    if (position_ >= bytes_.size()) return 0;
    return static_cast<uint8_t>(bytes_[position_++]);
  }

  std::string_view bytes_;
  size_t position_ = 0;
};

}  // namespace sibyl::fuzz
