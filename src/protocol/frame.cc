#include "protocol/frame.h"

namespace sibyl::protocol {

DecodeStatus DecodeHeader(BytesView buffer, FrameHeader& header) {
  if (buffer.size() < kHeaderSize) return DecodeStatus::kNeedMore;
  const auto* u = reinterpret_cast<const unsigned char*>(buffer.data());
  header.version = u[0] & 0x7F;
  header.is_response = (u[0] & 0x80) != 0;
  header.flags = u[1];
  header.stream = static_cast<int16_t>(LoadBE16(buffer.data() + 2));
  header.opcode = u[4];
  header.length = LoadBE32(buffer.data() + 5);
  return DecodeStatus::kComplete;
}

size_t BeginResponse(Bytes& out, int version, uint8_t flags, int16_t stream, Opcode opcode) {
  size_t offset = out.size();
  AppendU8(out, static_cast<uint8_t>(0x80 | version));
  AppendU8(out, flags);
  AppendBE16(out, static_cast<uint16_t>(stream));
  AppendU8(out, static_cast<uint8_t>(opcode));
  AppendBE32(out, 0);
  return offset;
}

void PatchLength(Bytes& out, size_t header_offset) {
  StoreBE32(out.data() + header_offset + 5,
            static_cast<uint32_t>(out.size() - header_offset - kHeaderSize));
}

}  // namespace sibyl::protocol
