#include "tools/shell/completion.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

#include "tools/shell/shell_text.h"
#include "types/cql_identifier.h"

namespace sibyl::tools::shell {
namespace {

constexpr std::array<std::string_view, 31> kStarters = {
    "ALTER",  "APPLY",  "BEGIN",  "CAPTURE",  "CLEAR",    "CLS",    "CONSISTENCY", "COPY",
    "CREATE", "DELETE", "DESC",   "DESCRIBE", "DROP",     "EXIT",   "EXPAND",      "GRANT",
    "HELP",   "INSERT", "LIST",   "LOGIN",    "PAGING",   "QUIT",   "REVOKE",      "SELECT",
    "SERIAL", "SHOW",   "SOURCE", "TRACING",  "TRUNCATE", "UPDATE", "USE"};

constexpr std::array<std::string_view, 77> kKeywords = {
    "ADD",       "AGGREGATE",    "ALL",       "ALLOW",      "AND",      "APPLY",        "AS",
    "ASC",       "BATCH",        "BY",        "CLUSTERING", "COMPACT",  "CONTAINS",     "COUNT",
    "COUNTER",   "CUSTOM",       "DEFAULT",   "DESC",       "DISTINCT", "ENTRIES",      "EXISTS",
    "FILTERING", "FROM",         "FROZEN",    "FULL",       "FUNCTION", "FUNCTIONS",    "GROUP",
    "IF",        "IN",           "INDEX",     "INTO",       "IS",       "JSON",         "KEY",
    "KEYS",      "KEYSPACE",     "KEYSPACES", "LIMIT",      "LOGGED",   "MATERIALIZED", "NOT",
    "NULL",      "OFF",          "ON",        "OR",         "ORDER",    "PARTITION",    "PER",
    "PRIMARY",   "RENAME",       "REPLACE",   "SET",        "STATIC",   "TABLE",        "TABLES",
    "TIMESTAMP", "TO",           "TOKEN",     "TRIGGER",    "TTL",      "TYPE",         "TYPES",
    "UNLOGGED",  "UNSET",        "USING",     "VALUES",     "VIEW",     "WHERE",        "WITH",
    "WRITETIME", "MAXWRITETIME", "CAST",      "LIKE",       "EXPAND",   "PAGING",       "HEADER"};

constexpr std::array<std::string_view, 30> kTypeNames = {
    "ascii",    "bigint",  "blob",   "boolean", "counter",  "date", "decimal", "double",
    "duration", "float",   "inet",   "int",     "smallint", "text", "time",    "timestamp",
    "timeuuid", "tinyint", "uuid",   "varchar", "varint",   "list", "set",     "map",
    "tuple",    "frozen",  "vector", "static",  "PRIMARY",  "KEY"};

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '"';
}

// The words of `text` (names, keywords), skipping strings and punctuation,
// each with the punctuation character that came before it ('\0' if none).
struct Word {
  std::string text;
  char before = '\0';
};

std::vector<Word> Words(std::string_view text) {
  std::vector<Word> words;
  char punctuation = '\0';
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\'') {  // skip a string
      ++i;
      while (i < text.size() && text[i] != '\'') ++i;
      ++i;
      punctuation = '\'';
      continue;
    }
    if (IsNameChar(c)) {
      const size_t begin = i;
      while (i < text.size() && IsNameChar(text[i])) ++i;
      words.push_back({std::string(text.substr(begin, i - begin)), punctuation});
      punctuation = '\0';
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(c))) punctuation = c;
    ++i;
  }
  return words;
}

// A name as written in a statement, unquoted and case-folded as CQL does.
std::string NameAsWritten(std::string_view word) {
  if (word.size() >= 2 && word.front() == '"' && word.back() == '"') {
    return std::string(word.substr(1, word.size() - 2));
  }
  return AsciiLower(word);
}

bool StartsWithFolded(std::string_view candidate, std::string_view partial) {
  if (partial.size() > candidate.size()) return false;
  for (size_t i = 0; i < partial.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(candidate[i])) !=
        std::tolower(static_cast<unsigned char>(partial[i]))) {
      return false;
    }
  }
  return true;
}

const std::vector<std::string>* Find(const std::map<std::string, std::vector<std::string>>& map,
                                     const std::string& key) {
  const auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

class Collector {
 public:
  explicit Collector(std::string_view partial) : partial_(partial) {}
  void Add(std::string_view candidate) {
    // "Quoted" names complete from their first letter too.
    const bool quoted_match = !candidate.empty() && candidate.front() == '"' &&
                              (partial_.empty() || partial_.front() != '"') &&
                              StartsWithFolded(candidate.substr(1), partial_);
    if (quoted_match || StartsWithFolded(candidate, partial_)) {
      found_.insert(std::string(candidate));
    }
  }
  void AddName(std::string_view prefix, std::string_view name) {
    Add(std::string(prefix) + types::MaybeQuoteIdentifier(name));
  }
  std::vector<std::string> Take() { return {found_.begin(), found_.end()}; }

 private:
  std::string_view partial_;
  std::set<std::string> found_;
};

// Tables (and, without a keyspace prefix, keyspaces) for a table position.
void AddTables(Collector& out, std::string_view partial, const SchemaCatalog& catalog,
               const std::string& keyspace) {
  const size_t dot = partial.find('.');
  if (dot != std::string_view::npos) {
    const std::string prefix(partial.substr(0, dot + 1));
    if (const auto* tables = Find(catalog.tables, NameAsWritten(partial.substr(0, dot)))) {
      for (const auto& table : *tables) out.AddName(prefix, table);
    }
    return;
  }
  if (const auto* tables = Find(catalog.tables, keyspace)) {
    for (const auto& table : *tables) out.AddName("", table);
  }
  for (const auto& name : catalog.keyspaces) out.AddName("", name);
}

}  // namespace

std::string_view PartialWord(std::string_view line) {
  size_t begin = line.size();
  while (begin > 0 && IsNameChar(line[begin - 1])) --begin;
  return line.substr(begin);
}

std::vector<std::string> CompletionCandidates(std::string_view line, const SchemaCatalog& catalog,
                                              const std::string& keyspace) {
  const std::string_view partial = PartialWord(line);
  const std::vector<Word> words = Words(line.substr(0, line.size() - partial.size()));
  Collector out(partial);
  if (words.empty()) {
    for (std::string_view starter : kStarters) out.Add(starter);
    return out.Take();
  }
  const std::string first = AsciiUpper(words.front().text);
  const std::string previous = AsciiUpper(words.back().text);
  // The keyspace the statement names, if any (USE'd otherwise).
  std::string statement_keyspace = keyspace;
  std::vector<std::string> tables_named;
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    const std::string w = AsciiUpper(words[i].text);
    if (w == "FROM" || w == "INTO" || w == "UPDATE" || w == "TABLE" || w == "ON" ||
        w == "TRUNCATE" || (w == "COPY" && i == 0)) {
      std::string name = words[i + 1].text;
      const size_t dot = name.find('.');
      std::string ks = keyspace;
      if (dot != std::string::npos) {
        ks = NameAsWritten(name.substr(0, dot));
        name = name.substr(dot + 1);
      }
      statement_keyspace = ks;
      tables_named.push_back(ks + "." + NameAsWritten(name));
    }
  }
  if (previous == "USE" || previous == "KEYSPACE" ||
      (previous == "EXISTS" && words.size() >= 4 &&
       AsciiUpper(words[words.size() - 4].text) == "KEYSPACE")) {
    for (const auto& name : catalog.keyspaces) out.AddName("", name);
    return out.Take();
  }
  if (previous == "FROM" || previous == "INTO" || previous == "UPDATE" || previous == "TABLE" ||
      previous == "TRUNCATE" || previous == "ON" || (previous == "COPY" && words.size() == 1)) {
    AddTables(out, partial, catalog, keyspace);
    return out.Take();
  }
  if (previous == "TYPE") {
    if (const auto* types = Find(catalog.user_types, keyspace)) {
      for (const auto& name : *types) out.AddName("", name);
    }
    return out.Take();
  }
  if (words.size() == 1 && (first == "DESCRIBE" || first == "DESC")) {
    for (std::string_view w :
         {"KEYSPACES", "KEYSPACE", "TABLES", "TABLE", "TYPES", "TYPE", "FUNCTIONS", "FUNCTION",
          "AGGREGATES", "AGGREGATE", "CLUSTER", "SCHEMA", "FULL", "INDEX", "MATERIALIZED"}) {
      out.Add(w);
    }
    AddTables(out, partial, catalog, keyspace);
    return out.Take();
  }
  // A column's type in CREATE TABLE / CREATE TYPE / ALTER ... ADD: the word
  // before is a name that followed '(' or ','.
  const bool defines_columns =
      first == "CREATE" ||
      (first == "ALTER" && std::any_of(words.begin(), words.end(),
                                       [](const Word& w) { return AsciiUpper(w.text) == "ADD"; }));
  const bool after_add = words.size() >= 2 && AsciiUpper(words[words.size() - 2].text) == "ADD";
  if (defines_columns && previous != "ADD" &&
      (words.back().before == '(' || words.back().before == ',' || after_add)) {
    for (std::string_view type : kTypeNames) out.Add(type);
    if (const auto* types = Find(catalog.user_types, statement_keyspace)) {
      for (const auto& name : *types) out.AddName("", name);
    }
    return out.Take();
  }
  for (std::string_view keyword : kKeywords) out.Add(keyword);
  for (const auto& table : tables_named) {
    if (const auto* columns = Find(catalog.columns, table)) {
      for (const auto& column : *columns) out.AddName("", column);
    }
  }
  return out.Take();
}

}  // namespace sibyl::tools::shell
