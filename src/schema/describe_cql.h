#pragma once
// The CQL text that recreates a schema element, exactly as Cassandra 4.1
// prints it in DESCRIBE results and snapshot schema files
// (SchemaElement.toCqlString: KeyspaceMetadata, TableMetadata, TableParams,
// UserType, IndexMetadata; formatting rules of cql3/CqlBuilder):
//
//   CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': '1'}
//   AND durable_writes = true;
//
//   CREATE TABLE ks.t (
//       k int,
//       c text,
//       s int static,
//       v int,
//       PRIMARY KEY (k, c)
//   ) WITH CLUSTERING ORDER BY (c DESC)
//       AND additional_write_policy = '99p'
//       ...
//       AND speculative_retry = '99p';
//
// Names are quoted only where CQL needs it (types::MaybeQuoteIdentifier),
// option maps are printed in key order, and doubles as Java prints them
// ("0.01", "1.0", "1.0E-4"). Elements of a virtual keyspace come out as a
// commented-out "VIRTUAL ..." structure, since CQL cannot recreate them.

#include <string>
#include <vector>

#include "schema/table_metadata.h"
#include "types/cql_type.h"

namespace sibyl::schema {

struct CqlTextOptions {
  // WITH INTERNALS: the table's `ID = <uuid>` option. Default: false.
  bool with_internals = false;
  // CREATE ... IF NOT EXISTS. Default: false (DESCRIBE never adds it).
  bool if_not_exists = false;
};

// `is_virtual`: the keyspace comes from the virtual keyspace registry
// (system_views, system_virtual_schema).
[[nodiscard]] std::string KeyspaceCql(const KeyspaceMetadata& keyspace, bool is_virtual,
                                      const CqlTextOptions& options = {});

// `is_virtual`: the table belongs to a virtual keyspace; only its comment is
// printed as an option then, as Cassandra does.
[[nodiscard]] std::string TableCql(const TableMetadata& table, bool is_virtual,
                                   const CqlTextOptions& options = {});

// ViewMetadata.toCqlString: CREATE MATERIALIZED VIEW ks.v AS, then on
// indented lines SELECT (* or the view's columns), FROM ks.base, WHERE (the
// stored where_clause) and PRIMARY KEY, then " WITH " on a line of its own
// and the options (default_time_to_live left out, as 4.1 does for views).
// REQUIRES: view.is_view().
[[nodiscard]] std::string ViewCql(const TableMetadata& view, const CqlTextOptions& options = {});

// REQUIRES: user_type.kind() == types::Kind::kUdt, with its fields.
[[nodiscard]] std::string UserTypeCql(const types::CqlType& user_type,
                                      const CqlTextOptions& options = {});

// REQUIRES: `index` is one of table.indexes.
[[nodiscard]] std::string IndexCql(const TableMetadata& table, const IndexMetadata& index,
                                   const CqlTextOptions& options = {});

// The columns in the order CREATE TABLE lists them (TableMetadata.
// allColumnsInCreateOrder): partition key and clustering columns by position,
// then static columns, then regular ones; within each of the last two,
// single-cell columns before multi-cell ones (non-frozen collections and
// UDTs), each group by name bytes.
[[nodiscard]] std::vector<const ColumnMetadata*> ColumnsInCreateOrder(const TableMetadata& table);

// The keyspace's user types, each after the types it uses (Types.sortedStream:
// a depth-first walk over the types in name order, dependencies first).
[[nodiscard]] std::vector<types::TypePtr> UserTypesInDependencyOrder(
    const KeyspaceMetadata& keyspace);

// `value` as Java's Double.toString writes it: "0.01", "1.0", "1.0E-4",
// "1.2345678E7", "NaN", "Infinity", "-0.0" (shortest round-trip digits).
[[nodiscard]] std::string JavaDoubleToString(double value);

}  // namespace sibyl::schema
