#pragma once
// Terms written in CQL — constants, collection, tuple, UDT and vector
// literals — converted to the serialized value of the type that receives
// them, with Cassandra 4.1's (and 5.0's, for vectors) acceptance rules and
// messages (Constants, Lists, Sets, Maps, Tuples, UserTypes, Vectors).
//
// Literal is independent of the cql AST: the query layer maps its terms onto
// it. Bind markers and function calls are the query layer's business; their
// values come in as kValue (and a bound "unset" as kUnset), so a tuple or
// UDT literal holding markers is converted at execution time by building a
// Literal with the bound values in place.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "types/constant_literal.h"
#include "types/cql_type.h"

namespace sibyl::types {

struct Literal {
  enum class Kind : uint8_t {
    kConstant,  // constant_kind and text
    kNull,      // NULL
    kList,      // [a, b]: a list, or a vector when the receiver is one
    kSet,       // {a, b}; {} is both the empty set and the empty map
    kMap,       // {k: v, ...}: elements alternate key, value
    kTuple,     // (a, b)
    kUdt,       // {f: v, ...}: field_names[i] names elements[i]
    kValue,     // an evaluated term (bound value, function result): value,
                // nullopt for null; value_type if known (for assignment
                // tests); text shows the term in messages
    kUnset,     // a bound value the client left unset
  };

  Kind kind = Kind::kNull;
  ConstantKind constant_kind = ConstantKind::kString;
  std::string text;
  std::vector<Literal> elements;
  std::vector<std::string> field_names;  // kUdt: unquoted (case as declared)
  std::optional<Bytes> value;            // kValue
  TypePtr value_type;                    // kValue, may be null

  static Literal Constant(ConstantKind kind, std::string text);
  static Literal Null() { return Literal(); }
  static Literal Collection(Kind kind, std::vector<Literal> elements);
  static Literal Udt(std::vector<std::string> field_names, std::vector<Literal> values);
  static Literal Value(std::optional<Bytes> value, TypePtr type, std::string text);
  static Literal Unset();

  // The term as Cassandra shows it in messages (Term.Raw.getText): 'text'
  // quoted, NULL, [1, 2], {k: v}, (1, 'a'), {f: 1}.
  [[nodiscard]] std::string ToText() const;
};

// Whether `literal` fits `receiver`: exactly, weakly, or not at all.
[[nodiscard]] AssignmentResult TestAssignment(const Literal& literal, const CqlType& receiver);

// The serialized value of `literal` as a value of `type`, or nullopt for
// null. `receiver` names the receiver in messages (usually the column name);
// elements are named as Cassandra names them: value(c), key(c), c[0], c.f.
// `now_millis` is what the timestamp 'now' means. Set elements come out
// sorted and deduplicated, map entries sorted by key (the last of equal
// keys kept), tuples with as many components as written, UDTs with every
// field (null for those not written).
//
// Throws CqlError(kInvalid) with Cassandra's messages, among them:
//   Invalid list literal for l of type set<int>
//   Invalid list literal for l: value 'a' is not of type int
//   Invalid map literal for m: key 1 is not of type text
//   Invalid set literal for s of type map<int, int>      (non-empty {..} for a map)
//   Invalid tuple type literal for t of type int
//   Invalid tuple literal for t: too many elements. Type frozen<tuple<int>> expects 1 but got 2
//   Invalid tuple literal for t: component 0 is not of type int
//   Invalid user type literal for u: field a is not of type int
//   Unknown field 'x' in value of user defined type address
//   Invalid vector literal for v of type vector<float, 3>; expected 3 elements, but given 2
//   null is not supported inside collections
//   null is not supported inside vectors
//   Invalid null value for counter increment/decrement
//   Invalid list literal for l: bind variables are not supported inside collection literals
//     (kUnset in a list, set or map: there it stands for a bind marker)
//   Invalid unset value for tuple field number 1                      (kUnset)
//   Invalid unset value for field 'a' of user defined type address    (kUnset, frozen UDT)
// and every constant's conversion message (constant_literal.h). A kUnset
// field of a non-frozen UDT is the empty value, as Cassandra writes it.
// REQUIRES: literal is not kUnset at the top level (an unset value is not
// written at all; the caller skips it).
[[nodiscard]] std::optional<Bytes> ConvertLiteral(const Literal& literal, std::string_view receiver,
                                                  const CqlType& type, int64_t now_millis);

// The first step of ConvertLiteral for a list, set, map, tuple, UDT or
// vector literal, which is also the first step of preparing one whose
// elements are bound later (Lists, Sets, Maps, Tuples, UserTypes:
// Literal.validateAssignableTo): that `type` takes a literal of that kind
// and every element passes its assignment test (a kUnset element stands
// for a marker and fits anything). Throws the messages above. Does nothing
// for other kinds.
void ValidateAssignable(const Literal& literal, std::string_view receiver, const CqlType& type);

// For each field of the UDT `type`, in the type's order, the index in
// literal.elements of the value the literal gives it (the last one naming
// it, as the grammar's map keeps it), or -1.
[[nodiscard]] std::vector<int> UdtFieldIndexes(const Literal& literal, const CqlType& type);

// Throws "Unknown field 'x' in value of user defined type address" for the
// first field `literal` names that `type` does not have.
void CheckUdtFieldsKnown(const Literal& literal, const CqlType& type);

}  // namespace sibyl::types
