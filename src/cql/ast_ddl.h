#pragma once
// Schema and role definition statements: CREATE / ALTER / DROP of KEYSPACE,
// TABLE, TYPE, INDEX (and CUSTOM INDEX), MATERIALIZED VIEW, FUNCTION,
// AGGREGATE, TRIGGER, ROLE and USER. Parallel to Cassandra 4.1's
// cql3/statements/schema/*.Raw and the role statements of cql3/statements.
//
// Types are kept as their canonical CQL spelling ("map<text, int>",
// "frozen<address>", "ks.address", "vector<float, 3>"), as the type parser
// writes them; types::ParseCqlType reads them back when the statement is
// prepared. Nothing here is checked against the schema, and options are not
// validated: the schema layer does that, with Cassandra's messages.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cql/ast_common.h"
#include "cql/ast_select.h"

namespace sibyl::cql {

// ---------------------------------------------------------------------------
// WITH options (Parser.g's properties / property / propertyValue).

// The value of one `name = value` option.
struct OptionValue {
  enum class Kind {
    kConstant,  // a constant: 'text', 42, -1.5, true, a uuid, 0xff, 1h, NaN
    kKeyword,   // an unreserved keyword used as a value (e.g. `= ALL`)
    kMap,       // a map literal of constants: {'class': 'SimpleStrategy', 'replication_factor': 3}
  };
  Kind kind = Kind::kConstant;
  // For kConstant, which constant (Term::Kind::kString, kInteger, kFloat,
  // kBoolean, kUuid, kBlob or kDuration).
  Term::Kind constant_kind = Term::Kind::kString;
  // Cassandra's getRawText(): for strings the unescaped contents, for
  // booleans "true" or "false", for other constants and for keywords the
  // text as written ("42", "-0.5", "NaN", "ALL"; native type keywords in
  // lower case); empty for kMap.
  std::string text;
  // For kMap: the entries in the order written, keys and values as raw
  // texts (as `text` above). Keys are unique (a repeated key is a syntax
  // error, as in Cassandra); keys and values that are not constants were
  // refused by the parser ("Invalid property value: ...").
  std::vector<std::pair<std::string, std::string>> entries;
};

struct Option {
  std::string name;  // normalized like an identifier (unquoted: lower case)
  OptionValue value;
};

// In the order written; names are unique (a repeated name is the syntax
// error "Multiple definition for property <name>").
using Options = std::vector<Option>;

// ---------------------------------------------------------------------------
// KEYSPACE

// CREATE KEYSPACE [IF NOT EXISTS] ks WITH options
struct CreateKeyspaceStatement {
  std::string keyspace;
  bool if_not_exists = false;
  Options options;
};

// ALTER KEYSPACE [IF EXISTS] ks WITH options
struct AlterKeyspaceStatement {
  std::string keyspace;
  bool if_exists = false;
  Options options;
};

// DROP KEYSPACE [IF EXISTS] ks
struct DropKeyspaceStatement {
  std::string keyspace;
  bool if_exists = false;
};

// ---------------------------------------------------------------------------
// TABLE

// `name type [STATIC]` in CREATE TABLE and ALTER TABLE ADD.
struct ColumnDefinition {
  std::string name;
  std::string type;  // canonical CQL spelling
  bool is_static = false;
};

// CREATE TABLE [IF NOT EXISTS] [ks.]t (columns..., PRIMARY KEY (...))
//   [WITH option AND COMPACT STORAGE AND CLUSTERING ORDER BY (c DESC, ...)]
//
// The parser raises what Cassandra raises while parsing (InvalidRequest:
// "Multiple PRIMARY KEY specified for table 'ks.t' (exactly one required)",
// "Duplicate column 'c' declaration for table 'ks.t'", "Duplicate column 'c'
// in CLUSTERING ORDER BY clause for table 'ks.t'"; the table as written,
// "t" without a keyspace). Everything else is for the schema layer when it
// prepares the statement: no PRIMARY KEY at all ("No PRIMARY KEY specifed
// for table 't' (exactly one required)", sic), unknown or repeated key
// columns, COMPACT STORAGE.
struct CreateTableStatement {
  QualifiedName table;
  bool if_not_exists = false;
  std::vector<ColumnDefinition> columns;  // in declaration order
  // From `c type PRIMARY KEY` or `PRIMARY KEY (pk, c1, c2)` /
  // `PRIMARY KEY ((pk1, pk2), c1)`; empty when no primary key was declared.
  std::vector<std::string> partition_key;
  std::vector<std::string> clustering_columns;
  // CLUSTERING ORDER BY, in the order written (each column has ASC or DESC).
  std::vector<Ordering> clustering_order;
  // WITH COMPACT STORAGE: Cassandra 4.1 still creates such tables (behind
  // the compact_tables_enabled guardrail) with its own validation.
  bool compact_storage = false;
  Options options;
};

// ALTER TABLE [IF EXISTS] [ks.]t <one alteration>
struct AlterTableStatement {
  enum class Kind {
    kAlterColumnType,     // ALTER c TYPE t (Cassandra 4.1 refuses it when prepared)
    kAddColumns,          // ADD [IF NOT EXISTS] c t [STATIC] | ADD (c t [STATIC], ...)
    kDropColumns,         // DROP [IF EXISTS] c | DROP (c, ...) [USING TIMESTAMP n]
    kRenameColumns,       // RENAME [IF EXISTS] a TO b [AND c TO d ...]
    kDropCompactStorage,  // DROP COMPACT STORAGE
    kWithOptions,         // WITH options
  };
  QualifiedName table;
  bool if_exists = false;
  Kind kind = Kind::kWithOptions;
  bool if_column_exists = false;      // DROP IF EXISTS, RENAME IF EXISTS
  bool if_column_not_exists = false;  // ADD IF NOT EXISTS
  // kAddColumns: the new columns; kAlterColumnType: one entry, the column
  // and its new type.
  std::vector<ColumnDefinition> added_columns;
  std::vector<std::string> dropped_columns;                  // kDropColumns
  std::optional<int64_t> drop_timestamp;                     // kDropColumns: USING TIMESTAMP n
  std::vector<std::pair<std::string, std::string>> renames;  // kRenameColumns: (from, to)
  Options options;                                           // kWithOptions
};

// DROP TABLE [IF EXISTS] [ks.]t
struct DropTableStatement {
  QualifiedName table;
  bool if_exists = false;
};

// ---------------------------------------------------------------------------
// TYPE

// `name type` in CREATE TYPE and ALTER TYPE ADD / ALTER.
struct FieldDefinition {
  std::string name;
  std::string type;  // canonical CQL spelling
};

// CREATE TYPE [IF NOT EXISTS] [ks.]name (field type, ...)
struct CreateTypeStatement {
  QualifiedName type;
  bool if_not_exists = false;
  std::vector<FieldDefinition> fields;  // in declaration order; duplicates checked when prepared
};

// ALTER TYPE [IF EXISTS] [ks.]name <one alteration>
struct AlterTypeStatement {
  enum class Kind {
    kAlterFieldType,  // ALTER f TYPE t (refused when prepared, as in Cassandra 4.1)
    kAddField,        // ADD [IF NOT EXISTS] f t
    kRenameFields,    // RENAME [IF EXISTS] a TO b [AND c TO d ...]
  };
  QualifiedName type;
  bool if_exists = false;
  Kind kind = Kind::kAddField;
  bool if_field_exists = false;                              // RENAME IF EXISTS
  bool if_field_not_exists = false;                          // ADD IF NOT EXISTS
  FieldDefinition field;                                     // kAddField, kAlterFieldType
  std::vector<std::pair<std::string, std::string>> renames;  // kRenameFields: (from, to)
};

// DROP TYPE [IF EXISTS] [ks.]name
struct DropTypeStatement {
  QualifiedName type;
  bool if_exists = false;
};

// ---------------------------------------------------------------------------
// INDEX

// One target of CREATE INDEX (IndexTarget.Raw).
struct IndexTarget {
  enum class Kind {
    kSimple,   // c: Cassandra decides what is indexed when prepared (VALUES for collections)
    kValues,   // VALUES(c)
    kKeys,     // KEYS(c)
    kEntries,  // ENTRIES(c)
    kFull,     // FULL(c)
  };
  Kind kind = Kind::kSimple;
  std::string column;
};

// CREATE [CUSTOM] INDEX [IF NOT EXISTS] [name] ON [ks.]t (targets)
//   [USING 'class'] [WITH OPTIONS = {...}]
struct CreateIndexStatement {
  QualifiedName table;
  std::optional<std::string> index_name;  // unset: Cassandra derives one
  bool custom = false;                    // CREATE CUSTOM INDEX
  bool if_not_exists = false;
  std::vector<IndexTarget> targets;         // may be empty (refused when prepared)
  std::optional<std::string> custom_class;  // USING 'class'
  Options options;                          // IndexAttributes
};

// DROP INDEX [IF EXISTS] [ks.]name
struct DropIndexStatement {
  QualifiedName index;
  bool if_exists = false;
};

// ---------------------------------------------------------------------------
// MATERIALIZED VIEW

// CREATE MATERIALIZED VIEW [IF NOT EXISTS] [ks.]v AS
//   SELECT selectors FROM [ks.]base [WHERE ...] PRIMARY KEY (...)
//   [WITH option AND CLUSTERING ORDER BY (...)]
// (WITH COMPACT STORAGE is a syntax error, as in Cassandra 4.1.)
struct CreateViewStatement {
  QualifiedName view;
  bool if_not_exists = false;
  bool select_star = false;  // SELECT * (then `selectors` is empty)
  std::vector<Selector> selectors;
  QualifiedName base_table;
  std::vector<Relation> where;
  std::vector<std::string> partition_key;
  std::vector<std::string> clustering_columns;
  std::vector<Ordering> clustering_order;
  Options options;
};

// ALTER MATERIALIZED VIEW [IF EXISTS] [ks.]v WITH options
struct AlterViewStatement {
  QualifiedName view;
  bool if_exists = false;
  Options options;
};

// DROP MATERIALIZED VIEW [IF EXISTS] [ks.]v
struct DropViewStatement {
  QualifiedName view;
  bool if_exists = false;
};

// ---------------------------------------------------------------------------
// FUNCTION and AGGREGATE

// CREATE [OR REPLACE] FUNCTION [IF NOT EXISTS] [ks.]f (arg type, ...)
//   (CALLED | RETURNS NULL) ON NULL INPUT RETURNS type LANGUAGE lang AS 'body'
struct CreateFunctionStatement {
  QualifiedName function;
  bool or_replace = false;
  bool if_not_exists = false;
  std::vector<FieldDefinition> arguments;  // (name, type)
  bool called_on_null_input = false;
  std::string return_type;
  std::string language;  // lower-cased
  std::string body;
};

// DROP FUNCTION [IF EXISTS] [ks.]f [(type, ...)]
struct DropFunctionStatement {
  QualifiedName function;
  bool if_exists = false;
  bool arguments_specified = false;  // an argument list was written, even ()
  std::vector<std::string> argument_types;
};

// CREATE [OR REPLACE] AGGREGATE [IF NOT EXISTS] [ks.]a (type, ...)
//   SFUNC f STYPE type [FINALFUNC f] [INITCOND term]
struct CreateAggregateStatement {
  QualifiedName aggregate;
  bool or_replace = false;
  bool if_not_exists = false;
  std::vector<std::string> argument_types;
  std::string state_function;  // unqualified: it lives in the aggregate's keyspace
  std::string state_type;
  std::optional<std::string> final_function;
  std::optional<Term> initial_condition;
};

// DROP AGGREGATE [IF EXISTS] [ks.]a [(type, ...)]
struct DropAggregateStatement {
  QualifiedName aggregate;
  bool if_exists = false;
  bool arguments_specified = false;
  std::vector<std::string> argument_types;
};

// ---------------------------------------------------------------------------
// TRIGGER

// CREATE TRIGGER [IF NOT EXISTS] name ON [ks.]t USING 'class'
struct CreateTriggerStatement {
  std::string trigger;
  QualifiedName table;
  std::string trigger_class;
  bool if_not_exists = false;
};

// DROP TRIGGER [IF EXISTS] name ON [ks.]t
struct DropTriggerStatement {
  std::string trigger;
  QualifiedName table;
  bool if_exists = false;
};

// ---------------------------------------------------------------------------
// ROLE and USER. CREATE/ALTER/DROP USER are the role statements written the
// old way, as in Cassandra (`user_form` tells them apart for messages).

// Role options (RoleOptions, DCPermissions). Each is unset when not given;
// giving one twice is a syntax error.
struct RoleOptions {
  std::optional<std::string> password;         // PASSWORD = '...' (USER: PASSWORD '...')
  std::optional<std::string> hashed_password;  // HASHED PASSWORD = '...'
  std::optional<bool> superuser;               // SUPERUSER = bool (USER: SUPERUSER/NOSUPERUSER)
  std::optional<bool> login;                   // LOGIN = bool
  // OPTIONS = {...}: custom options for the role manager, raw texts in order.
  std::optional<std::vector<std::pair<std::string, std::string>>> custom_options;
  // ACCESS TO ALL DATACENTERS (all_datacenters) or ACCESS TO DATACENTERS
  // {'dc1', ...} (datacenters); neither: unchanged (ALTER) or all (CREATE).
  bool all_datacenters = false;
  std::optional<std::vector<std::string>> datacenters;
};

// CREATE ROLE [IF NOT EXISTS] r [WITH options]
// CREATE USER [IF NOT EXISTS] u [WITH PASSWORD '...'] [SUPERUSER | NOSUPERUSER]
// The defaults Cassandra fills in while parsing are filled in: CREATE ROLE
// has login and superuser false unless given; CREATE USER has login true
// and superuser false unless given.
struct CreateRoleStatement {
  std::string role;  // normalized (see RoleName below)
  bool if_not_exists = false;
  RoleOptions options;
  bool user_form = false;
};

// ALTER ROLE [IF EXISTS] r [WITH options]
// ALTER USER [IF EXISTS] u [WITH PASSWORD '...'] [SUPERUSER | NOSUPERUSER]
struct AlterRoleStatement {
  std::string role;
  bool if_exists = false;
  RoleOptions options;
  bool user_form = false;
};

// DROP ROLE [IF EXISTS] r / DROP USER [IF EXISTS] u
struct DropRoleStatement {
  std::string role;
  bool if_exists = false;
  bool user_form = false;
};

// Role names: an unquoted identifier or keyword is lower-cased; a quoted
// name or a string literal keeps its case. User names (the USER forms) keep
// the case of an unquoted identifier too, as in Cassandra.

}  // namespace sibyl::cql
