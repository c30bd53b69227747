#pragma once
// Reads the storage layer's own binary encodings (Mutation::SerializeTo,
// read_command_codec.h): bytes, unsigned and signed vints, length-prefixed
// blobs and counts. Never trusts a length: anything that does not fit what
// is left is reported, never read past and never used to size an
// allocation. The encodings' readers build on it.
//
// Not thread-safe: one reader per input.

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/bytes.h"
#include "types/vint.h"

namespace sibyl::storage {

class SerialReader {
 public:
  // `what` names the encoding in errors: "Malformed serialized <what>: ...".
  SerialReader(BytesView in, const char* what) : in_(in), what_(what) {}

  bool at_end() const { return in_.empty(); }
  size_t remaining() const { return in_.size(); }

  uint8_t U8() {
    if (in_.empty()) Fail("truncated");
    const auto v = static_cast<uint8_t>(in_[0]);
    in_.remove_prefix(1);
    return v;
  }
  BytesView Fixed(size_t n) {
    if (in_.size() < n) Fail("truncated");
    BytesView v = in_.substr(0, n);
    in_.remove_prefix(n);
    return v;
  }
  uint64_t Unsigned() {
    const auto decoded = types::ReadUnsignedVint(in_);
    if (!decoded) Fail("truncated");
    in_.remove_prefix(decoded->size);
    return decoded->value;
  }
  int64_t Signed() {
    const auto decoded = types::ReadSignedVint(in_);
    if (!decoded) Fail("truncated");
    in_.remove_prefix(decoded->size);
    return static_cast<int64_t>(decoded->value);
  }
  int32_t Int32() {
    const int64_t v = Signed();
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
      Fail("a 32-bit field out of range");
    }
    return static_cast<int32_t>(v);
  }
  Bytes Blob() {
    const uint64_t length = Unsigned();
    if (length > in_.size()) Fail("a length beyond the input");
    return Bytes(Fixed(static_cast<size_t>(length)));
  }
  // A count of items that each take at least one byte: one larger than what
  // is left is corrupt (and must not size an allocation).
  size_t Count() {
    const uint64_t n = Unsigned();
    if (n > in_.size()) Fail("a count beyond the input");
    return static_cast<size_t>(n);
  }

  [[noreturn]] void Fail(const std::string& why) const {
    throw std::runtime_error(std::string("Malformed serialized ") + what_ + ": " + why);
  }

 private:
  BytesView in_;
  const char* what_;
};

}  // namespace sibyl::storage
