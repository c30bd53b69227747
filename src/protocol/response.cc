// Response bodies other than ROWS and PREPARED (see rows_result.cc).

#include "protocol/response.h"

#include <optional>
#include <string>
#include <type_traits>

#include "protocol/wire_format.h"

namespace sibyl::protocol {

namespace {

void EncodeFailures(Bytes& out, const std::vector<FailureReason>& failures, int version) {
  if (version < 5) {
    AppendBE32(out, static_cast<uint32_t>(failures.size()));
    return;
  }
  AppendBE32(out, static_cast<uint32_t>(failures.size()));
  for (const FailureReason& failure : failures) {
    AppendU8(out, static_cast<uint8_t>(failure.address.size()));
    out.append(failure.address);
    AppendBE16(out, failure.code);
  }
}

const char* ChangeTypeName(SchemaChange::Type type) {
  switch (type) {
    case SchemaChange::Type::kCreated:
      return "CREATED";
    case SchemaChange::Type::kUpdated:
      return "UPDATED";
    case SchemaChange::Type::kDropped:
      return "DROPPED";
  }
  return "UPDATED";
}

const char* TargetName(SchemaChange::Target target) {
  switch (target) {
    case SchemaChange::Target::kKeyspace:
      return "KEYSPACE";
    case SchemaChange::Target::kTable:
      return "TABLE";
    case SchemaChange::Target::kType:
      return "TYPE";
    case SchemaChange::Target::kFunction:
      return "FUNCTION";
    case SchemaChange::Target::kAggregate:
      return "AGGREGATE";
  }
  return "KEYSPACE";
}

// <change_type><target><options>, shared by the RESULT and EVENT forms.
void EncodeSchemaChangeBody(Bytes& out, const SchemaChange& change) {
  AppendString(out, ChangeTypeName(change.type));
  AppendString(out, TargetName(change.target));
  AppendString(out, change.keyspace);
  switch (change.target) {
    case SchemaChange::Target::kKeyspace:
      return;
    case SchemaChange::Target::kTable:
    case SchemaChange::Target::kType:
      AppendString(out, change.name);
      return;
    case SchemaChange::Target::kFunction:
    case SchemaChange::Target::kAggregate:
      AppendString(out, change.name);
      AppendStringList(out, change.argument_types);
      return;
  }
}

void EncodeNodeEvent(Bytes& out, std::string_view event, std::string_view change, BytesView address,
                     int32_t port) {
  AppendString(out, event);
  AppendString(out, change);
  AppendU8(out, static_cast<uint8_t>(address.size()));
  out.append(address);
  AppendBE32(out, static_cast<uint32_t>(port));
}

}  // namespace

void EncodeError(Bytes& out, ErrorCode code, std::string_view message) {
  AppendBE32(out, static_cast<uint32_t>(code));
  AppendString(out, message);
}

namespace {

CqlError WriteTimeoutAsCas(uint16_t consistency, int32_t received, int32_t block_for) {
  return CqlError(ErrorCode::kWriteTimeout,
                  "Operation timed out - received only " + std::to_string(received) + " responses.",
                  WriteTimeoutInfo{consistency, received, block_for, "CAS"});
}

// 4.1's ErrorMessage.getBackwardsCompatibleException: before v5, a CAS
// timeout and CAS_WRITE_UNKNOWN are WriteTimeouts of type CAS.
std::optional<CqlError> BeforeV5(const CqlError& error) {
  const WriteTimeoutInfo* timeout = std::get_if<WriteTimeoutInfo>(&error.detail());
  const CasWriteUnknownInfo* unknown = std::get_if<CasWriteUnknownInfo>(&error.detail());
  if (timeout != nullptr && timeout->cas_timeout) {
    return WriteTimeoutAsCas(timeout->consistency, timeout->received, timeout->block_for);
  }
  if (error.code() == ErrorCode::kCasWriteUnknown && unknown != nullptr) {
    return WriteTimeoutAsCas(unknown->consistency, unknown->received, unknown->block_for);
  }
  return std::nullopt;
}

}  // namespace

void EncodeError(Bytes& out, const CqlError& error, int version) {
  if (version < 5) {
    if (const std::optional<CqlError> older = BeforeV5(error)) {
      return EncodeError(out, *older, version);
    }
  }
  EncodeError(out, error.code(), error.what());
  std::visit(
      [&](const auto& d) {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, AlreadyExistsInfo>) {
          AppendString(out, d.keyspace);
          AppendString(out, d.table);
        } else if constexpr (std::is_same_v<T, UnpreparedInfo>) {
          AppendShortBytes(out, d.id);
        } else if constexpr (std::is_same_v<T, UnavailableInfo>) {
          AppendBE16(out, d.consistency);
          AppendBE32(out, static_cast<uint32_t>(d.required));
          AppendBE32(out, static_cast<uint32_t>(d.alive));
        } else if constexpr (std::is_same_v<T, WriteTimeoutInfo>) {
          AppendBE16(out, d.consistency);
          AppendBE32(out, static_cast<uint32_t>(d.received));
          AppendBE32(out, static_cast<uint32_t>(d.block_for));
          AppendString(out, d.write_type);
          if (version >= 5 && d.cas_timeout) {
            AppendBE16(out, static_cast<uint16_t>(d.contentions));
          }
        } else if constexpr (std::is_same_v<T, ReadTimeoutInfo>) {
          AppendBE16(out, d.consistency);
          AppendBE32(out, static_cast<uint32_t>(d.received));
          AppendBE32(out, static_cast<uint32_t>(d.block_for));
          AppendU8(out, d.data_present ? 1 : 0);
        } else if constexpr (std::is_same_v<T, ReadFailureInfo>) {
          AppendBE16(out, d.consistency);
          AppendBE32(out, static_cast<uint32_t>(d.received));
          AppendBE32(out, static_cast<uint32_t>(d.block_for));
          EncodeFailures(out, d.failures, version);
          AppendU8(out, d.data_present ? 1 : 0);
        } else if constexpr (std::is_same_v<T, WriteFailureInfo>) {
          AppendBE16(out, d.consistency);
          AppendBE32(out, static_cast<uint32_t>(d.received));
          AppendBE32(out, static_cast<uint32_t>(d.block_for));
          EncodeFailures(out, d.failures, version);
          AppendString(out, d.write_type);
        } else if constexpr (std::is_same_v<T, FunctionFailureInfo>) {
          AppendString(out, d.keyspace);
          AppendString(out, d.function);
          AppendStringList(out, d.argument_types);
        } else if constexpr (std::is_same_v<T, CasWriteUnknownInfo>) {
          AppendBE16(out, d.consistency);
          AppendBE32(out, static_cast<uint32_t>(d.received));
          AppendBE32(out, static_cast<uint32_t>(d.block_for));
        }
      },
      error.detail());
}

void EncodeSupported(Bytes& out, const std::map<std::string, std::vector<std::string>>& options) {
  AppendBE16(out, static_cast<uint16_t>(options.size()));
  for (const auto& [key, values] : options) {
    AppendString(out, key);
    AppendStringList(out, values);
  }
}

void EncodeAuthenticate(Bytes& out, std::string_view authenticator) {
  AppendString(out, authenticator);
}

void EncodeVoidResult(Bytes& out) { AppendBE32(out, static_cast<uint32_t>(ResultKind::kVoid)); }

void EncodeSetKeyspaceResult(Bytes& out, std::string_view keyspace) {
  AppendBE32(out, static_cast<uint32_t>(ResultKind::kSetKeyspace));
  AppendString(out, keyspace);
}

void EncodeSchemaChangeResult(Bytes& out, const SchemaChange& change) {
  AppendBE32(out, static_cast<uint32_t>(ResultKind::kSchemaChange));
  EncodeSchemaChangeBody(out, change);
}

void EncodeSchemaChangeEvent(Bytes& out, const SchemaChange& change) {
  AppendString(out, "SCHEMA_CHANGE");
  EncodeSchemaChangeBody(out, change);
}

void EncodeTopologyChangeEvent(Bytes& out, std::string_view change, BytesView address,
                               int32_t port) {
  EncodeNodeEvent(out, "TOPOLOGY_CHANGE", change, address, port);
}

void EncodeStatusChangeEvent(Bytes& out, std::string_view change, BytesView address, int32_t port) {
  EncodeNodeEvent(out, "STATUS_CHANGE", change, address, port);
}

}  // namespace sibyl::protocol
