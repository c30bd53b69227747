#include "protocol/request_encoder.h"

#include "protocol/wire_format.h"

namespace sibyl::protocol {

namespace {

void AppendValue(Bytes& out, const Value& value) {
  switch (value.kind) {
    case Value::Kind::kBytes:
      AppendBytes(out, value.bytes);
      return;
    case Value::Kind::kNull:
      AppendBE32(out, 0xFFFFFFFFu);  // -1
      return;
    case Value::Kind::kUnset:
      AppendBE32(out, 0xFFFFFFFEu);  // -2 (v4+; the caller must not send unset before v4)
      return;
  }
}

// <consistency><flags>[values][page size][paging state][serial][timestamp]
// [keyspace][now] in the order of native_protocol_v5.spec 4.1.4.
void AppendQueryParameters(Bytes& out, int version, const QueryOptions& o) {
  uint32_t flags = 0;
  if (!o.values.empty()) flags |= kQueryFlagValues;
  if (o.skip_metadata) flags |= kQueryFlagSkipMetadata;
  if (o.page_size > 0) flags |= kQueryFlagPageSize;
  if (o.paging_state) flags |= kQueryFlagPagingState;
  if (o.serial_consistency) flags |= kQueryFlagSerialConsistency;
  if (o.default_timestamp) flags |= kQueryFlagDefaultTimestamp;
  if (version >= 5 && o.keyspace) flags |= kQueryFlagKeyspace;
  if (version >= 5 && o.now_in_seconds) flags |= kQueryFlagNowInSeconds;

  AppendBE16(out, static_cast<uint16_t>(o.consistency));
  if (version >= 5) {
    AppendBE32(out, flags);
  } else {
    AppendU8(out, static_cast<uint8_t>(flags));
  }
  if (flags & kQueryFlagValues) {
    AppendBE16(out, static_cast<uint16_t>(o.values.size()));
    for (const Value& v : o.values) AppendValue(out, v);
  }
  if (flags & kQueryFlagPageSize) AppendBE32(out, static_cast<uint32_t>(o.page_size));
  if (flags & kQueryFlagPagingState) AppendBytes(out, *o.paging_state);
  if (flags & kQueryFlagSerialConsistency) {
    AppendBE16(out, static_cast<uint16_t>(*o.serial_consistency));
  }
  if (flags & kQueryFlagDefaultTimestamp) {
    AppendBE64(out, static_cast<uint64_t>(*o.default_timestamp));
  }
  if (flags & kQueryFlagKeyspace) AppendString(out, *o.keyspace);
  if (flags & kQueryFlagNowInSeconds) AppendBE32(out, static_cast<uint32_t>(*o.now_in_seconds));
}

}  // namespace

size_t BeginRequest(Bytes& out, int version, int16_t stream, Opcode opcode, uint8_t flags) {
  size_t offset = out.size();
  AppendU8(out, static_cast<uint8_t>(version & 0x7F));
  AppendU8(out, flags);
  AppendBE16(out, static_cast<uint16_t>(stream));
  AppendU8(out, static_cast<uint8_t>(opcode));
  AppendBE32(out, 0);
  return offset;
}

void EncodeStartup(Bytes& out, int version, int16_t stream,
                   std::span<const StartupOption> options) {
  const size_t header = BeginRequest(out, version, stream, Opcode::kStartup);
  AppendBE16(out, static_cast<uint16_t>(options.size()));
  for (const auto& [key, value] : options) {
    AppendString(out, key);
    AppendString(out, value);
  }
  PatchLength(out, header);
}

void EncodeOptions(Bytes& out, int version, int16_t stream) {
  BeginRequest(out, version, stream, Opcode::kOptions);
}

void EncodeQuery(Bytes& out, int version, int16_t stream, std::string_view query,
                 const QueryOptions& options) {
  const size_t header = BeginRequest(out, version, stream, Opcode::kQuery);
  AppendLongString(out, query);
  AppendQueryParameters(out, version, options);
  PatchLength(out, header);
}

void EncodePrepare(Bytes& out, int version, int16_t stream, std::string_view query,
                   std::optional<std::string_view> keyspace) {
  const size_t header = BeginRequest(out, version, stream, Opcode::kPrepare);
  AppendLongString(out, query);
  if (version >= 5) {
    constexpr uint32_t kPrepareFlagKeyspace = 0x01;
    AppendBE32(out, keyspace ? kPrepareFlagKeyspace : 0);
    if (keyspace) AppendString(out, *keyspace);
  }
  PatchLength(out, header);
}

void EncodeExecute(Bytes& out, int version, int16_t stream, BytesView id,
                   BytesView result_metadata_id, const QueryOptions& options) {
  const size_t header = BeginRequest(out, version, stream, Opcode::kExecute);
  AppendShortBytes(out, id);
  if (version >= 5) AppendShortBytes(out, result_metadata_id);
  AppendQueryParameters(out, version, options);
  PatchLength(out, header);
}

void EncodeRegister(Bytes& out, int version, int16_t stream,
                    std::span<const std::string_view> event_types) {
  const size_t header = BeginRequest(out, version, stream, Opcode::kRegister);
  AppendStringList(out, event_types);
  PatchLength(out, header);
}

}  // namespace sibyl::protocol
