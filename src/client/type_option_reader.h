#pragma once
// Reads a protocol [option] (native_protocol_v5.spec 4.2.5.2) back into a
// CQL type: the client-side mirror of CqlType::EncodeOption.
//
// What the wire does not carry comes back as a default: collections and UDTs
// are not marked frozen. Vectors, which travel as custom types named
// "org.apache.cassandra.db.marshal.VectorType(<element class> , <n>)", come
// back as vectors; other custom types stay CqlType::Custom holding the class
// name.

#include "protocol/wire_reader.h"
#include "types/cql_type.h"

namespace sibyl::client {

// Throws CqlError(kProtocolError) on a truncated option, an unknown type id,
// or nesting deeper than 64 levels.
[[nodiscard]] types::TypePtr ReadTypeOption(protocol::WireReader& reader);

}  // namespace sibyl::client
