#include "query/read/paging_state.h"

#include "common/error.h"

namespace sibyl::query {
namespace {

constexpr uint8_t kFormatVersion = 1;

[[noreturn]] void ThrowMalformed() { ThrowProtocol("Invalid value for the paging state"); }

class Reader {
 public:
  explicit Reader(BytesView in) : in_(in) {}
  const char* Take(size_t n) {
    if (in_.size() - pos_ < n) ThrowMalformed();
    const char* p = in_.data() + pos_;
    pos_ += n;
    return p;
  }
  uint8_t U8() { return static_cast<uint8_t>(*Take(1)); }
  uint16_t U16() { return LoadBE16(Take(2)); }
  int32_t I32() { return static_cast<int32_t>(LoadBE32(Take(4))); }
  Bytes Blob() {
    const int32_t n = I32();
    if (n < 0) ThrowMalformed();
    return Bytes(Take(static_cast<size_t>(n)), static_cast<size_t>(n));
  }
  bool done() const { return pos_ == in_.size(); }

 private:
  BytesView in_;
  size_t pos_ = 0;
};

void AppendBlob(Bytes& out, BytesView blob) {
  AppendBE32(out, static_cast<uint32_t>(blob.size()));
  out.append(blob);
}

}  // namespace

Bytes PagingState::Serialize() const {
  Bytes out;
  AppendU8(out, kFormatVersion);
  AppendBE32(out, static_cast<uint32_t>(remaining));
  AppendBE32(out, static_cast<uint32_t>(returned_in_partition));
  AppendBlob(out, partition_key);
  AppendBE16(out, static_cast<uint16_t>(clustering.size()));
  for (const auto& value : clustering) AppendBlob(out, value);
  return out;
}

PagingState PagingState::Parse(BytesView serialized) {
  Reader reader(serialized);
  if (reader.U8() != kFormatVersion) ThrowMalformed();
  PagingState state;
  state.remaining = reader.I32();
  state.returned_in_partition = reader.I32();
  if (state.remaining < -1 || state.returned_in_partition < 0) ThrowMalformed();
  state.partition_key = reader.Blob();
  const uint16_t clustering_count = reader.U16();
  for (uint16_t i = 0; i < clustering_count; ++i) state.clustering.push_back(reader.Blob());
  if (!reader.done()) ThrowMalformed();
  return state;
}

}  // namespace sibyl::query
