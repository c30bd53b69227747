#include "tools/shell/help_topics.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace sibyl::tools::shell {
namespace {

struct Topic {
  const char* name;
  const char* text;
};

const Topic kShellTopics[] = {
    {"CAPTURE",
     "CAPTURE '<file>';   CAPTURE OFF;   CAPTURE;\n\n"
     "  Appends query results to <file> instead of printing them (errors still go to\n"
     "  the terminal); OFF stops, and CAPTURE alone tells where output goes.\n"},
    {"CLEAR", "CLEAR   (or CLS)\n\n  Clears the terminal.\n"},
    {"CLS", "CLS   (or CLEAR)\n\n  Clears the terminal.\n"},
    {"CONSISTENCY",
     "CONSISTENCY [<level>]\n\n"
     "  Shows, or sets for the statements that follow, the consistency level: ANY,\n"
     "  ONE, TWO, THREE, QUORUM, ALL, LOCAL_ONE, LOCAL_QUORUM, EACH_QUORUM, SERIAL,\n"
     "  LOCAL_SERIAL. The default is ONE.\n"},
    {"COPY",
     "COPY <table> [(<column>, ...)] TO '<file>' [WITH <option> = <value> [AND ...]];\n"
     "COPY <table> [(<column>, ...)] FROM '<file>' [WITH <option> = <value> [AND ...]];\n\n"
     "  Exports a table to a CSV file or imports one, printing progress and a\n"
     "  summary. Options: HEADER (false), DELIMITER (','), QUOTE ('\"'), ESCAPE ('\\'),\n"
     "  NULL (''); PAGESIZE (1000) for TO; MAXROWS (-1: all), SKIPROWS (0),\n"
     "  MAXPARSEERRORS (-1: no limit), MAXINSERTERRORS (1000), ERRFILE\n"
     "  (import_<ks>_<table>.err, where rows that fail go) and TTL for FROM.\n"
     "  STDOUT / STDIN in place of '<file>' use the terminal.\n"},
    {"DESC", "DESC is DESCRIBE: see HELP DESCRIBE.\n"},
    {"DESCRIBE",
     "DESCRIBE KEYSPACES | KEYSPACE [<ks>] | TABLES | TABLE <t> | TYPES | TYPE <ty> |\n"
     "         FUNCTIONS | AGGREGATES | INDEX <i> | SCHEMA | FULL SCHEMA | CLUSTER | <name>\n\n"
     "  Prints the schema as CQL statements that recreate it (the node answers:\n"
     "  DESCRIBE is a CQL statement in Cassandra 4.0 and later).\n"},
    {"EXIT", "EXIT   (or QUIT)\n\n  Ends the shell.\n"},
    {"EXPAND",
     "EXPAND [ON | OFF]\n\n"
     "  Shows each row of a result vertically, one \"column | value\" line per\n"
     "  column; EXPAND alone tells whether it is on.\n"},
    {"HELP", "HELP [<topic> ...]\n\n  Lists the topics, or prints help on each one named.\n"},
    {"LOGIN", "LOGIN <user> [<password>]\n\n  Sibyl does not authenticate users yet.\n"},
    {"PAGING",
     "PAGING [ON | OFF | <page size>]\n\n"
     "  Fetches results a page at a time (100 rows by default), pausing at\n"
     "  ---MORE--- between pages on a terminal; OFF fetches whole results at once.\n"},
    {"QUIT", "QUIT   (or EXIT)\n\n  Ends the shell.\n"},
    {"SERIAL",
     "SERIAL CONSISTENCY [SERIAL | LOCAL_SERIAL]\n\n"
     "  Shows or sets the consistency level of the Paxos phase of conditional\n"
     "  (IF ...) writes. The default is SERIAL.\n"},
    {"SHOW",
     "SHOW VERSION   SHOW HOST\n\n"
     "  Prints the shell's, the node's, CQL's and the protocol's versions, or the\n"
     "  cluster and address the shell is connected to.\n"},
    {"SOURCE",
     "SOURCE '<file>'\n\n"
     "  Runs the statements and commands of <file> as if typed, without pausing\n"
     "  between pages.\n"},
    {"TRACING",
     "TRACING [ON | OFF]\n\n"
     "  Sibyl does not record query traces yet: TRACING ON says so and changes\n"
     "  nothing.\n"},
};

const Topic kCqlTopics[] = {
    {"ALTER_KEYSPACE",
     "ALTER KEYSPACE <ks> WITH replication = {...} [AND durable_writes = ...];\n"},
    {"ALTER_TABLE",
     "ALTER TABLE <t> ADD <column> <type> | DROP <column> | RENAME <c> TO <c2> |\n"
     "                WITH <option> = <value> [AND ...];\n"},
    {"ALTER_TYPE", "ALTER TYPE <type> ADD <field> <type> | RENAME <field> TO <field2>;\n"},
    {"APPLY", "APPLY BATCH ends a batch: see HELP BEGIN.\n"},
    {"BEGIN",
     "BEGIN [UNLOGGED | COUNTER] BATCH [USING TIMESTAMP <t>]\n"
     "  <insert, update or delete>; ...\n"
     "APPLY BATCH;\n"},
    {"CREATE_FUNCTION",
     "CREATE [OR REPLACE] FUNCTION [IF NOT EXISTS] <f>(<arg> <type>, ...)\n"
     "  (CALLED | RETURNS NULL) ON NULL INPUT RETURNS <type> LANGUAGE <l> AS '<body>';\n"},
    {"CREATE_AGGREGATE",
     "CREATE [OR REPLACE] AGGREGATE [IF NOT EXISTS] <a>(<type>, ...)\n"
     "  SFUNC <f> STYPE <type> [FINALFUNC <f>] [INITCOND <value>];\n"},
    {"CREATE_INDEX", "CREATE [CUSTOM] INDEX [IF NOT EXISTS] [<name>] ON <t> (<column>);\n"},
    {"CREATE_KEYSPACE",
     "CREATE KEYSPACE [IF NOT EXISTS] <ks>\n"
     "  WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"},
    {"CREATE_TABLE",
     "CREATE TABLE [IF NOT EXISTS] <t> (<column> <type> [STATIC], ...,\n"
     "  PRIMARY KEY ((<partition key>, ...), <clustering column>, ...))\n"
     "  [WITH CLUSTERING ORDER BY (<c> ASC|DESC, ...)] [AND <option> = <value> ...];\n"},
    {"CREATE_TYPE", "CREATE TYPE [IF NOT EXISTS] <type> (<field> <type>, ...);\n"},
    {"DELETE",
     "DELETE [<column>, <column>[<key>], ...] FROM <t> [USING TIMESTAMP <t>]\n"
     "  WHERE <key restrictions> [IF EXISTS | IF <conditions>];\n"},
    {"DROP_KEYSPACE", "DROP KEYSPACE [IF EXISTS] <ks>;\n"},
    {"DROP_TABLE", "DROP TABLE [IF EXISTS] <t>;\n"},
    {"DROP_TYPE", "DROP TYPE [IF EXISTS] <type>;\n"},
    {"DROP_FUNCTION", "DROP FUNCTION [IF EXISTS] <f>[(<type>, ...)];\n"},
    {"DROP_AGGREGATE", "DROP AGGREGATE [IF EXISTS] <a>[(<type>, ...)];\n"},
    {"INSERT",
     "INSERT INTO <t> (<column>, ...) VALUES (<value>, ...) [IF NOT EXISTS]\n"
     "  [USING TTL <seconds> [AND TIMESTAMP <microseconds>]];\n"
     "INSERT INTO <t> JSON '<object>' [DEFAULT NULL | DEFAULT UNSET];\n"},
    {"SELECT",
     "SELECT [JSON] [DISTINCT] * | <selector> [AS <alias>], ... FROM <t>\n"
     "  [WHERE <restrictions>] [GROUP BY <columns>] [ORDER BY <c> ASC|DESC]\n"
     "  [PER PARTITION LIMIT <n>] [LIMIT <n>] [ALLOW FILTERING];\n"},
    {"TRUNCATE", "TRUNCATE [TABLE] <t>;\n"},
    {"TYPES",
     "ascii bigint blob boolean counter date decimal double duration float inet int\n"
     "smallint text time timestamp timeuuid tinyint uuid varchar varint,\n"
     "list<T> set<T> map<K, V> tuple<T, ...> frozen<T> vector<T, n> and user types.\n"},
    {"UPDATE",
     "UPDATE <t> [USING TTL <seconds> [AND TIMESTAMP <microseconds>]]\n"
     "  SET <column> = <value>, <counter> = <counter> + <n>, <list> = <list> + [...], ...\n"
     "  WHERE <key restrictions> [IF EXISTS | IF <conditions>];\n"},
    {"USE", "USE <keyspace>;\n\n  Makes <keyspace> the one unqualified names refer to.\n"},
};

template <size_t N>
std::vector<std::string> Names(const Topic (&topics)[N]) {
  std::vector<std::string> names;
  for (const Topic& t : topics) names.emplace_back(t.name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

std::vector<std::string> ShellHelpTopics() { return Names(kShellTopics); }
std::vector<std::string> CqlHelpTopics() { return Names(kCqlTopics); }

std::optional<std::string> HelpText(const std::string& topic) {
  std::string upper = topic;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const Topic& t : kShellTopics) {
    if (upper == t.name) return std::string(t.text);
  }
  for (const Topic& t : kCqlTopics) {
    if (upper == t.name) return std::string(t.text);
  }
  return std::nullopt;
}

}  // namespace sibyl::tools::shell
