// token(k1, ..., kn) relations as Cassandra 4.1's TokenRelation prepares them
// and TokenRestriction merges them.

#include <algorithm>
#include <string>

#include "common/error.h"
#include "query/restrictions/restriction_preparation.h"

namespace sibyl::query::restriction_preparation {
namespace {

using Op = cql::Relation::Op;
using schema::TableMetadata;

std::string PartitionKeyNames(const TableMetadata& table) {
  std::string names;
  for (size_t i = 0; i < table.partition_key_size(); ++i) {
    names += (i ? ", " : "") + table.columns[i].name;
  }
  return names;
}

// TokenRelation.toReceivers: token() names exactly the partition key, in order.
void CheckTokenColumns(const TableMetadata& table, const std::vector<size_t>& columns) {
  const size_t pk = table.partition_key_size();
  bool exact = columns.size() == pk;
  for (size_t i = 0; exact && i < pk; ++i) exact = columns[i] == i;
  if (exact) return;
  for (size_t i = 0; i < pk; ++i) {
    if (std::find(columns.begin(), columns.end(), i) == columns.end()) {
      ThrowInvalid(
          "The token() function must be applied to all partition key components or none of them");
    }
  }
  std::vector<size_t> sorted = columns;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
    ThrowInvalid("The token() function contains duplicate partition key components");
  }
  for (size_t column : columns) {
    if (column >= pk) {
      ThrowInvalid("The token() function must contains only partition key components");
    }
  }
  ThrowInvalid("The token function arguments must be in the partition key order: " +
               PartitionKeyNames(table));
}

}  // namespace

TokenRestriction PrepareToken(const TableMetadata& table, const cql::Relation& relation,
                              BindSpecCollector& binds) {
  const Op op = relation.op;
  if (op == Op::kIn || op == Op::kContains || op == Op::kContainsKey || op == Op::kLike) {
    ThrowInvalid(std::string(OperatorText(op)) + " cannot be used with the token function");
  }
  std::vector<size_t> columns;
  for (const std::string& name : relation.columns)
    columns.push_back(table.ExistingColumnIndex(name));
  CheckTokenColumns(table, columns);
  if (table.is_virtual) {
    ThrowInvalid("token() restrictions on virtual tables are not supported by Sibyl yet");
  }
  // The Murmur3 partitioner's token validator is LongType (bigint).
  const types::TypePtr bigint = types::CqlType::Native(types::Kind::kBigint);
  PreparedTerm term = PrepareTerm(relation.terms.at(0), "partition key token", bigint, binds);
  TokenRestriction r;
  switch (op) {
    case Op::kEq:
      r.eq = std::move(term);
      break;
    case Op::kGt:
    case Op::kGte:
      r.lower = std::move(term);
      r.lower_inclusive = op == Op::kGte;
      break;
    case Op::kLt:
    case Op::kLte:
      r.upper = std::move(term);
      r.upper_inclusive = op == Op::kLte;
      break;
    default:
      ThrowInvalid(std::string("Unsupported \"") + OperatorText(op) +
                   "\" relation: " + RelationText(relation));
  }
  return r;
}

void MergeToken(TokenRestriction& existing, TokenRestriction added, const TableMetadata& table) {
  const std::string names = PartitionKeyNames(table);
  if (existing.eq) {
    ThrowInvalid(names + " cannot be restricted by more than one relation if it includes an Equal");
  }
  if (added.eq) {
    ThrowInvalid("Columns \"" + names +
                 "\" cannot be restricted by both an equality and an inequality relation");
  }
  MergeSliceBounds(existing, added, names);
}

}  // namespace sibyl::query::restriction_preparation
