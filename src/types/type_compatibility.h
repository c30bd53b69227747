#pragma once
// Cassandra 4.1's rules for replacing one type by another
// (AbstractType.isCompatibleWith, isValueCompatibleWith and
// isSerializationCompatibleWith), each read as "new_type can replace
// old_type":
//
//   IsCompatibleWith          every old value is a valid new value and sorts
//                             the same (needed where values are ordered:
//                             clustering columns, set elements, map keys).
//                             text <- ascii; blob <- ascii, text; a tuple or
//                             UDT with more components <- fewer; collections
//                             element by element; frozen and non-frozen never.
//   IsValueCompatibleWith     every old value reads as a sensible new value,
//                             order aside: blob <- anything; varint <- int,
//                             bigint, timestamp; bigint <-> timestamp;
//                             time <- bigint; date <- int; uuid <- timeuuid;
//                             UDTs of one keyspace by field (new fields may
//                             be added at the end, types must stay
//                             compatible).
//   IsSerializationCompatibleWith  value-compatible, and stored the same way:
//                             same fixed width (or both variable) and both
//                             multi-cell or both not. blob <- text or frozen
//                             collections, but not int or non-frozen ones.
//
// Where Cassandra 4.1 uses them: ALTER TABLE ... ALTER ... TYPE and ALTER
// TYPE ... ALTER ... TYPE are refused outright ("Altering column types is no
// longer supported", "Altering field types is no longer supported"). What
// remains is ALTER TABLE ADD of a column that was dropped before: the new
// type must be IsSerializationCompatibleWith the dropped one, else
//   Cannot re-add previously dropped column 'b' of type blob, incompatible with previous type
//   map<int, int>
// (4.0.12+ / 4.1.4+; earlier versions used IsValueCompatibleWith). The
// dropped type is recorded with user types expanded to tuples
// (ExpandUserTypes), so a dropped UDT column cannot come back as that UDT.
//
// Clustering order is not part of CqlType: Cassandra's ReversedType only
// matches another ReversedType for IsCompatibleWith and is ignored by
// IsValueCompatibleWith; the schema layer applies that itself.

#include "types/cql_type.h"

namespace sibyl::types {

[[nodiscard]] bool IsCompatibleWith(const CqlType& new_type, const CqlType& old_type);
[[nodiscard]] bool IsValueCompatibleWith(const CqlType& new_type, const CqlType& old_type);
[[nodiscard]] bool IsSerializationCompatibleWith(const CqlType& new_type, const CqlType& old_type);

// AbstractType.expandUserTypes: every user type, at any depth, replaced by
// the frozen tuple of its (expanded) field types. Collections keep their
// frozenness.
[[nodiscard]] TypePtr ExpandUserTypes(const TypePtr& type);

}  // namespace sibyl::types
