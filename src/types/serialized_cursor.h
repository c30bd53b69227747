#pragma once
// A read position in a serialized collection, tuple or UDT value: the
// [int]-length-prefixed layout shared by lists, sets, maps (v3+ protocol),
// tuples and user types. Internal to the types library.

#include <cstdint>
#include <optional>

#include "common/bytes.h"

namespace sibyl::types {

class SerializedCursor {
 public:
  enum class Status { kValue, kNull, kTruncated };
  struct Element {
    Status status;
    BytesView bytes;  // valid when status == kValue
  };

  explicit SerializedCursor(BytesView data) : data_(data) {}

  size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ == data_.size(); }

  // A big-endian [int]; nullopt (position unchanged) if fewer than 4 bytes remain.
  std::optional<int32_t> ReadInt32() {
    if (remaining() < 4) return std::nullopt;
    const auto v = static_cast<int32_t>(LoadBE32(data_.data() + pos_));
    pos_ += 4;
    return v;
  }

  // [int] n, then n bytes; a negative n is a null element.
  Element ReadElement() {
    const auto length = ReadInt32();
    if (!length) return {Status::kTruncated, {}};
    if (*length < 0) return {Status::kNull, {}};
    if (remaining() < static_cast<size_t>(*length)) return {Status::kTruncated, {}};
    BytesView bytes = data_.substr(pos_, static_cast<size_t>(*length));
    pos_ += static_cast<size_t>(*length);
    return {Status::kValue, bytes};
  }

 private:
  BytesView data_;
  size_t pos_ = 0;
};

}  // namespace sibyl::types
