#pragma once
// Tab completion for the shell: what may come next at the cursor, from CQL's
// keywords, the shell's commands and the schema (keyspaces, tables, columns,
// user types). A light reading of the statement so far, not a parser:
//
//   SEL<tab>                      SELECT            (statement starters, upper case)
//   SELECT * FROM us<tab>         users             (tables of the keyspace in use, keyspaces)
//   SELECT * FROM killrvideo.vi<tab>  killrvideo.videos
//   USE kil<tab>                  killrvideo
//   SELECT * FROM users WHERE em<tab>  email        (columns of the tables named)
//   CREATE TABLE t (id uu<tab>    uuid              (types, user types included)

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace sibyl::tools::shell {

// The schema names completion offers, read from system_schema.
struct SchemaCatalog {
  std::vector<std::string> keyspaces;
  std::map<std::string, std::vector<std::string>> tables;      // by keyspace
  std::map<std::string, std::vector<std::string>> columns;     // by "keyspace.table"
  std::map<std::string, std::vector<std::string>> user_types;  // by keyspace
  // "partition_key", "clustering", "static", "regular", by "keyspace.table"
  // then column: what colours a result's column names.
  std::map<std::string, std::map<std::string, std::string>> column_kinds;
};

// Every word that may replace the partial word ending `line` (the text before
// the cursor, the statement's earlier lines included), sorted, without
// duplicates. Names needing quotes come back "quoted". `keyspace`: the one
// in use (may be empty).
std::vector<std::string> CompletionCandidates(std::string_view line, const SchemaCatalog& catalog,
                                              const std::string& keyspace);

// The partial word `CompletionCandidates` completes: the end of `line` made
// of name characters, dots and double quotes.
std::string_view PartialWord(std::string_view line);

}  // namespace sibyl::tools::shell
