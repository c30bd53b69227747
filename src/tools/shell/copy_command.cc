#include "tools/shell/copy_command.h"

#include <boost/asio/post.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "common/error.h"
#include "cql/parser.h"
#include "query/terms/literal_conversion.h"
#include "tools/shell/csv_format.h"
#include "tools/shell/import_inserter.h"
#include "tools/shell/shell_text.h"
#include "types/cql_identifier.h"
#include "types/literal.h"
#include "types/value_codec.h"
#include "types/value_to_literal.h"

namespace sibyl::tools::shell {
namespace {

using Clock = std::chrono::steady_clock;

class CopyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// ---------------------------------------------------------------------------
// The statement

struct Token {
  enum class Kind { kWord, kQuotedName, kString, kPunctuation, kEnd } kind = Kind::kEnd;
  std::string text;
};

std::vector<Token> Tokenize(const std::string& statement) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < statement.size()) {
    const char c = statement[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '\'' || c == '"') {
      Token token{c == '\'' ? Token::Kind::kString : Token::Kind::kQuotedName, ""};
      ++i;
      while (true) {
        if (i >= statement.size()) throw CopyError("Improper COPY command: unterminated quote.");
        if (statement[i] == c) {
          if (i + 1 < statement.size() && statement[i + 1] == c) {
            token.text.push_back(c);
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        token.text.push_back(statement[i++]);
      }
      tokens.push_back(std::move(token));
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '+') {
      Token token{Token::Kind::kWord, ""};
      while (i < statement.size() &&
             (std::isalnum(static_cast<unsigned char>(statement[i])) || statement[i] == '_' ||
              statement[i] == '-' || statement[i] == '+' ||
              (statement[i] == '.' && !token.text.empty() &&
               std::isdigit(static_cast<unsigned char>(token.text[0]))))) {
        token.text.push_back(statement[i++]);
      }
      tokens.push_back(std::move(token));
    } else {
      tokens.push_back({Token::Kind::kPunctuation, std::string(1, c)});
      ++i;
    }
  }
  tokens.push_back({});
  return tokens;
}

struct CopyStatement {
  std::string keyspace;
  std::string table;
  std::vector<std::string> columns;  // empty: every column
  bool to = false;
  std::optional<std::string> file;             // nullopt: STDOUT / STDIN
  std::map<std::string, std::string> options;  // lower-case names
};

class StatementReader {
 public:
  explicit StatementReader(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}
  const Token& Peek() const { return tokens_[position_]; }
  Token Next() {
    Token t = tokens_[position_];
    if (position_ + 1 < tokens_.size()) ++position_;
    return t;
  }
  bool Accept(const std::string& punctuation) {
    if (Peek().kind == Token::Kind::kPunctuation && Peek().text == punctuation) {
      Next();
      return true;
    }
    return false;
  }
  bool AcceptWord(const std::string& word) {
    if (Peek().kind == Token::Kind::kWord && AsciiUpper(Peek().text) == word) {
      Next();
      return true;
    }
    return false;
  }
  // A name: a word (case-folded) or a "quoted name" (kept).
  std::string Name(const char* what) {
    const Token t = Next();
    if (t.kind == Token::Kind::kWord) return AsciiLower(t.text);
    if (t.kind == Token::Kind::kQuotedName) return t.text;
    throw CopyError(std::string("Improper COPY command: expected ") + what + ".");
  }

 private:
  std::vector<Token> tokens_;
  size_t position_ = 0;
};

CopyStatement ParseCopy(const std::string& text, const std::string& current_keyspace) {
  StatementReader r(Tokenize(text));
  if (!r.AcceptWord("COPY")) throw CopyError("Improper COPY command.");
  CopyStatement s;
  s.table = r.Name("a table name");
  if (r.Accept(".")) {
    s.keyspace = s.table;
    s.table = r.Name("a table name");
  } else {
    if (current_keyspace.empty()) throw CopyError("Not in any keyspace.");
    s.keyspace = current_keyspace;
  }
  if (r.Accept("(")) {
    do {
      s.columns.push_back(r.Name("a column name"));
    } while (r.Accept(","));
    if (!r.Accept(")")) throw CopyError("Improper COPY command: expected ')'.");
  }
  if (r.AcceptWord("TO")) {
    s.to = true;
  } else if (!r.AcceptWord("FROM")) {
    throw CopyError("Improper COPY command: expected TO or FROM.");
  }
  const Token target = r.Next();
  if (target.kind == Token::Kind::kString) {
    s.file = target.text;
    if (!s.file->empty() && s.file->front() == '~') {
      if (const char* home = std::getenv("HOME")) s.file = std::string(home) + s.file->substr(1);
    }
  } else if (target.kind == Token::Kind::kWord &&
             AsciiUpper(target.text) == (s.to ? "STDOUT" : "STDIN")) {
    s.file.reset();
  } else {
    throw CopyError(std::string("Improper COPY command: expected a quoted file name or ") +
                    (s.to ? "STDOUT." : "STDIN."));
  }
  if (r.AcceptWord("WITH")) {
    do {
      const Token name = r.Next();
      if (name.kind != Token::Kind::kWord)
        throw CopyError("Improper COPY command: expected an option.");
      if (!r.Accept("="))
        throw CopyError("Improper COPY command: expected '=' after " + name.text + ".");
      const Token value = r.Next();
      if (value.kind == Token::Kind::kEnd || value.kind == Token::Kind::kPunctuation) {
        throw CopyError("Improper COPY command: expected a value for " + name.text + ".");
      }
      s.options[AsciiLower(name.text)] = value.text;
    } while (r.AcceptWord("AND"));
  }
  r.Accept(";");
  if (r.Peek().kind != Token::Kind::kEnd) {
    throw CopyError("Improper COPY command: unexpected '" + r.Peek().text + "'.");
  }
  return s;
}

// The options COPY understands, with cqlsh's defaults.
struct CopyOptions {
  CsvDialect dialect;
  bool header = false;
  std::string null_text;
  int page_size = 1000;
  long max_rows = -1;
  long skip_rows = 0;
  long max_parse_errors = -1;
  long max_insert_errors = 1000;
  std::string error_file;
  long ttl = -1;
};

char SingleChar(const std::string& name, const std::string& value) {
  if (value.size() != 1) throw CopyError(name + " must be a single character, not '" + value + "'");
  return value[0];
}

long Whole(const std::string& name, const std::string& value) {
  char* end = nullptr;
  errno = 0;
  const long n = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || errno != 0) {
    throw CopyError("Invalid value for " + AsciiUpper(name) + ": '" + value + "' is not a number");
  }
  return n;
}

CopyOptions ReadOptions(const CopyStatement& s) {
  CopyOptions o;
  o.error_file = "import_" + s.keyspace + "_" + s.table + ".err";
  std::vector<std::string> unknown;
  for (const auto& [name, value] : s.options) {
    if (name == "delimiter") {
      o.dialect.delimiter = SingleChar("DELIMITER", value);
    } else if (name == "quote") {
      o.dialect.quote = SingleChar("QUOTE", value);
    } else if (name == "escape") {
      o.dialect.escape = SingleChar("ESCAPE", value);
    } else if (name == "header") {
      o.header = AsciiLower(value) == "true" || AsciiLower(value) == "yes" || value == "1";
    } else if (name == "null" || name == "nullval") {
      o.null_text = value;
    } else if (s.to && name == "pagesize") {
      o.page_size = static_cast<int>(Whole(name, value));
      if (o.page_size <= 0) throw CopyError("PAGESIZE must be positive");
    } else if (s.to && name == "maxoutputsize" && Whole(name, value) == -1) {
      // cqlsh's default: one file.
    } else if (!s.to && name == "maxrows") {
      o.max_rows = Whole(name, value);
    } else if (!s.to && name == "skiprows") {
      o.skip_rows = Whole(name, value);
    } else if (!s.to && name == "maxparseerrors") {
      o.max_parse_errors = Whole(name, value);
    } else if (!s.to && name == "maxinserterrors") {
      o.max_insert_errors = Whole(name, value);
    } else if (!s.to && name == "errfile") {
      o.error_file = value;
    } else if (!s.to && name == "ttl") {
      o.ttl = Whole(name, value);
    } else {
      unknown.push_back(name);
    }
  }
  if (!unknown.empty()) {
    std::string names;
    for (const auto& n : unknown) names += (names.empty() ? "" : ", ") + n;
    throw CopyError(std::string("Unrecognized COPY ") + (s.to ? "TO" : "FROM") +
                    " options: " + names);
  }
  return o;
}

std::string QualifiedName(const CopyStatement& s) {
  return types::MaybeQuoteIdentifier(s.keyspace) + "." + types::MaybeQuoteIdentifier(s.table);
}

std::string ColumnList(const std::vector<std::string>& columns) {
  std::string list;
  for (const auto& c : columns) list += (list.empty() ? "" : ", ") + types::MaybeQuoteIdentifier(c);
  return list;
}

// ---------------------------------------------------------------------------
// Requests on the connection's own thread

client::Reply Call(client::Connection& connection,
                   std::function<void(client::Connection&, client::Connection::Callback)> start) {
  auto promise = std::make_shared<std::promise<client::Reply>>();
  auto future = promise->get_future();
  auto self = connection.shared_from_this();
  boost::asio::post(connection.executor(), [self, promise, start = std::move(start)] {
    start(*self, [promise](client::Reply&& r) { promise->set_value(std::move(r)); });
  });
  return future.get();  // the connection's request timeout ends every request
}

std::string ReplyError(const client::Reply& reply) {
  if (const auto* e = std::get_if<client::ErrorResponse>(&reply.response)) return e->message;
  if (const auto* f = std::get_if<client::TransportFailure>(&reply.response)) return f->message;
  return "unexpected reply " + client::Describe(reply.response);
}

client::PreparedResponse Prepare(client::Connection& connection, const std::string& cql) {
  client::Reply reply = Call(
      connection, [cql](client::Connection& c, auto done) { c.Prepare(cql, std::move(done)); });
  auto* prepared = std::get_if<client::PreparedResponse>(&reply.response);
  if (prepared == nullptr) throw CopyError(ReplyError(reply));
  return std::move(*prepared);
}

// ---------------------------------------------------------------------------
// Values

// A top-level value as CSV text (see the header).
std::string ExportText(const types::CqlType& type, BytesView value) {
  using types::Kind;
  switch (type.kind()) {
    case Kind::kText:
    case Kind::kAscii:
      return std::string(value);
    case Kind::kFloat:
    case Kind::kDouble:
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
    case Kind::kTuple:
    case Kind::kUdt:
    case Kind::kVector:
      if (value.empty()) return "";
      return types::ToCqlLiteral(type, value);
    default:
      return types::Format(type, value);
  }
}

types::ConstantKind ConstantKindFor(const types::CqlType& type, const std::string& text) {
  using types::ConstantKind;
  using types::Kind;
  switch (type.kind()) {
    case Kind::kTinyint:
    case Kind::kSmallint:
    case Kind::kInt:
    case Kind::kBigint:
    case Kind::kCounter:
    case Kind::kVarint:
      return ConstantKind::kInteger;
    case Kind::kFloat:
    case Kind::kDouble:
    case Kind::kDecimal:
      return text.find_first_of(".eEnNiI") == std::string::npos ? ConstantKind::kInteger
                                                                : ConstantKind::kFloat;
    case Kind::kBoolean:
      return ConstantKind::kBoolean;
    case Kind::kBlob:
      return ConstantKind::kHex;
    case Kind::kUuid:
    case Kind::kTimeuuid:
      return ConstantKind::kUuid;
    case Kind::kDuration:
      return ConstantKind::kDuration;
    default:
      return ConstantKind::kString;
  }
}

bool IsComposite(const types::CqlType& type) {
  using types::Kind;
  const Kind k = type.kind();
  return k == Kind::kList || k == Kind::kSet || k == Kind::kMap || k == Kind::kTuple ||
         k == Kind::kUdt || k == Kind::kVector;
}

// A CSV field as the value of a column. Throws CqlError or CopyError.
std::optional<Bytes> ImportValue(const CsvField& field, const protocol::ColumnSpec& column,
                                 const std::string& null_text, int64_t now_millis) {
  if (!field.quoted && field.text == null_text) return std::nullopt;
  const types::CqlType& type = *column.type;
  using types::Kind;
  if (type.kind() == Kind::kText || type.kind() == Kind::kAscii) {
    Bytes value(field.text);
    types::Validate(type, value);
    return value;
  }
  if (IsComposite(type)) {
    // The field is a CQL literal: let the CQL parser read it.
    const cql::ParsedStatement parsed =
        cql::ParseStatement("INSERT INTO t (c) VALUES (" + field.text + ")");
    const auto* insert = std::get_if<cql::InsertStatement>(&parsed.statement);
    if (insert == nullptr || insert->values.size() != 1 || parsed.bind_marker_count != 0) {
      throw CopyError("Invalid " + type.ToCql() + " value '" + field.text + "'");
    }
    if (insert->values[0].kind == cql::Term::Kind::kNull) return std::nullopt;
    return query::ConvertLiteral(insert->values[0], column.name, type);
  }
  if (field.text.empty()) return Bytes();  // the empty value, as cqlsh writes it
  return types::ConvertLiteral(
      types::Literal::Constant(ConstantKindFor(type, field.text), field.text), column.name, type,
      now_millis);
}

void PrintProgress(std::ostream& out, long rows, Clock::time_point start, long& last_rows,
                   Clock::time_point& last, bool final) {
  const auto now = Clock::now();
  const double since_last = std::chrono::duration<double>(now - last).count();
  const double since_start = std::chrono::duration<double>(now - start).count();
  const double rate = since_last > 0 ? (rows - last_rows) / since_last : 0;
  const double average = since_start > 0 ? rows / since_start : 0;
  char line[160];
  std::snprintf(line, sizeof line,
                "\rProcessed: %ld rows; Rate: %7.0f rows/s; Avg. rate: %7.0f rows/s", rows, rate,
                average);
  out << line << (final ? "\n" : "\r");
  out.flush();
  last_rows = rows;
  last = now;
}

// ---------------------------------------------------------------------------
// COPY TO

CopyOutcome ExportTable(const CopyStatement& s, const CopyOptions& o,
                        client::Connection& connection, const CopySettings& settings,
                        const std::atomic<bool>* interrupted, std::ostream& out) {
  const std::string select =
      "SELECT " + (s.columns.empty() ? "*" : ColumnList(s.columns)) + " FROM " + QualifiedName(s);
  const client::PreparedResponse prepared = Prepare(connection, select);
  const auto& columns = prepared.result_metadata.columns;
  std::vector<std::string> names;
  for (const auto& c : columns) names.push_back(c.name);
  out << "\nStarting copy of " << s.keyspace << "." << s.table << " with columns ["
      << ColumnList(names) << "].\n";
  std::FILE* file = stdout;
  if (s.file) {
    file = std::fopen(s.file->c_str(), "w");
    if (file == nullptr) {
      return {"Can't open '" + *s.file + "' for writing: " + std::strerror(errno), true};
    }
  }
  const CsvWriter writer(o.dialect, o.null_text);
  std::string buffer;
  if (o.header) {
    std::vector<std::optional<std::string>> header(names.begin(), names.end());
    writer.AppendRecord(buffer, header);
  }
  const auto start = Clock::now();
  auto last = start;
  long last_rows = 0;
  long rows = 0;
  std::optional<Bytes> paging_state;
  CopyOutcome outcome;
  std::vector<std::optional<std::string>> fields(columns.size());
  while (true) {
    protocol::QueryOptions options;
    options.consistency = settings.consistency;
    options.page_size = o.page_size;
    options.skip_metadata = true;
    if (paging_state) options.paging_state = BytesView(*paging_state);
    client::Reply reply = Call(connection, [&](client::Connection& c, auto done) {
      c.Execute(prepared.id, prepared.result_metadata_id, options, std::move(done));
    });
    auto* page = std::get_if<client::RowsResult>(&reply.response);
    if (page == nullptr) {
      outcome = {"Error for (" + s.keyspace + "." + s.table + "): " + ReplyError(reply), true};
      break;
    }
    for (const auto& row : page->rows) {
      for (size_t i = 0; i < columns.size(); ++i) {
        if (i < row.size() && row[i]) {
          fields[i] = ExportText(*columns[i].type, *row[i]);
        } else {
          fields[i].reset();
        }
      }
      writer.AppendRecord(buffer, fields);
      ++rows;
    }
    if (buffer.size() > (1 << 16)) {
      std::fwrite(buffer.data(), 1, buffer.size(), file);
      buffer.clear();
    }
    if (settings.tty && s.file && Clock::now() - last > std::chrono::milliseconds(200)) {
      PrintProgress(out, rows, start, last_rows, last, false);
    }
    if (interrupted != nullptr && interrupted->load()) {
      outcome = {"COPY TO interrupted: " + std::to_string(rows) + " rows written.", true};
      break;
    }
    if (!page->metadata.paging_state) break;
    paging_state = std::move(*page->metadata.paging_state);
  }
  std::fwrite(buffer.data(), 1, buffer.size(), file);
  if (s.file) {
    std::fclose(file);
  } else {
    std::fflush(stdout);
  }
  if (s.file) PrintProgress(out, rows, start, last_rows, last, true);
  char summary[160];
  std::snprintf(summary, sizeof summary, "%ld rows exported to 1 files in %.3f seconds.\n", rows,
                std::chrono::duration<double>(Clock::now() - start).count());
  out << summary;
  return outcome;
}

// ---------------------------------------------------------------------------
// COPY FROM

// The columns COPY FROM fills: the statement's, or every column of the table.
std::vector<std::string> ImportColumns(const CopyStatement& s, client::Connection& connection) {
  if (!s.columns.empty()) return s.columns;
  std::vector<std::string> columns;
  const auto all = Prepare(connection, "SELECT * FROM " + QualifiedName(s));
  for (const auto& c : all.result_metadata.columns) columns.push_back(c.name);
  return columns;
}

// INSERT INTO ks.t (c1, c2, ...) VALUES (?, ?, ...) [USING TTL n]
std::string ImportInsertCql(const CopyStatement& s, const CopyOptions& o,
                            const std::vector<std::string>& columns) {
  std::string insert =
      "INSERT INTO " + QualifiedName(s) + " (" + ColumnList(columns) + ") VALUES (";
  for (size_t i = 0; i < columns.size(); ++i) insert += i == 0 ? "?" : ", ?";
  insert += ")";
  if (o.ttl >= 0) insert += " USING TTL " + std::to_string(o.ttl);
  return insert;
}

// The row a CSV record makes, each field converted to its column's type.
// Throws (CopyError, or the conversion's error) when the record does not fit.
std::unique_ptr<ImportRow> ParseImportRow(const std::vector<CsvField>& fields, bool unterminated,
                                          const std::string& raw,
                                          const std::vector<protocol::ColumnSpec>& columns,
                                          const std::string& null_text, int64_t now_millis) {
  auto row = std::make_unique<ImportRow>();
  row->raw = raw;
  if (unterminated) throw CopyError("unterminated quoted field");
  if (fields.size() != columns.size()) {
    throw CopyError("Invalid row length " + std::to_string(fields.size()) + " should be " +
                    std::to_string(columns.size()));
  }
  row->storage.reserve(fields.size());
  std::vector<bool> nulls(fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    auto value = ImportValue(fields[i], columns[i], null_text, now_millis);
    nulls[i] = !value;
    row->storage.push_back(value ? std::move(*value) : Bytes());
  }
  // Values view the storage, so they are made once it no longer moves.
  for (size_t i = 0; i < fields.size(); ++i) {
    row->values.push_back(nulls[i] ? Value::Null() : Value::Of(row->storage[i]));
  }
  return row;
}

// The rows that failed, to parse or to insert: every one goes to the error
// file (opened at the first), the first ones to the terminal too.
class ImportFailureLog {
 public:
  ImportFailureLog(const std::string& error_file, std::ostream& err)
      : error_file_(error_file), err_(err) {}
  ImportFailureLog(const ImportFailureLog&) = delete;
  ImportFailureLog& operator=(const ImportFailureLog&) = delete;
  ~ImportFailureLog() { Close(); }

  void Record(const std::string& raw, const std::string& kind, const std::string& reason) {
    ++failed_rows_;
    // Enough to see what is wrong without drowning the terminal.
    constexpr long kFailuresShown = 20;
    if (failed_rows_ <= kFailuresShown) {
      err_ << "Failed to import 1 rows: " << kind << " - " << reason
           << ",  given up without retries\n";
    } else if (failed_rows_ == kFailuresShown + 1) {
      err_ << "(more failures are written to " << error_file_ << " only)\n";
    }
    if (file_ == nullptr) file_ = std::fopen(error_file_.c_str(), "w");
    if (file_ != nullptr) {
      std::fwrite(raw.data(), 1, raw.size(), file_);
      std::fputc('\n', file_);
    }
  }

  void Close() {
    if (file_ != nullptr) std::fclose(file_);
    file_ = nullptr;
  }

  long failed_rows() const { return failed_rows_; }

 private:
  const std::string error_file_;
  std::ostream& err_;
  std::FILE* file_ = nullptr;
  long failed_rows_ = 0;
};

// One COPY FROM once its INSERT is prepared: the records read, made into
// rows and inserted, the failures logged, the progress and the summary.
class TableImport {
 public:
  TableImport(const CopyOptions& o, const CopySettings& settings, client::Connection& connection,
              const client::PreparedResponse& prepared, std::ostream& out, std::ostream& err)
      : o_(o),
        tty_(settings.tty),
        columns_(prepared.bind_variables),
        out_(out),
        err_(err),
        failures_(o.error_file, err),
        inserter_(connection, prepared, settings.consistency) {}

  // Imports the records of `file`, then waits for the inserts in flight. The
  // outcome says why it stopped early, if it did.
  CopyOutcome Import(std::FILE* file, const std::atomic<bool>* interrupted) {
    CopyOutcome outcome = ReadRecords(file, interrupted);
    inserter_.Drain();
    LogInsertFailures();
    return outcome;
  }

  // Closes the error file and prints the last progress line and the
  // summary; a failed row fails the outcome.
  CopyOutcome Finish(CopyOutcome outcome) {
    failures_.Close();
    const long imported = inserter_.imported();
    PrintProgress(out_, imported, start_, last_rows_, last_, true);
    char summary[200];
    std::snprintf(summary, sizeof summary,
                  "%ld rows imported from 1 files in %.3f seconds (%ld skipped).\n", imported,
                  std::chrono::duration<double>(Clock::now() - start_).count(), skipped_);
    out_ << summary;
    if (failures_.failed_rows() > 0) {
      err_ << "Failed to process " << failures_.failed_rows() << " rows; failed rows written to "
           << o_.error_file << "\n";
      outcome.failed = true;
    }
    return outcome;
  }

 private:
  // Reads the records and queues their rows, to the end of the input or
  // MAXROWS; an interruption or too many errors stop it sooner, and the
  // outcome says which.
  CopyOutcome ReadRecords(std::FILE* file, const std::atomic<bool>* interrupted) {
    CsvReader reader(file, o_.dialect);
    std::string raw;
    long rows_read = 0;
    long parse_errors = 0;
    bool first_record = true;
    while (true) {
      if (interrupted != nullptr && interrupted->load()) return {"COPY FROM interrupted.", true};
      auto fields = reader.Next(raw);
      if (!fields) break;
      if (raw.empty()) continue;  // a blank line
      if (first_record && o_.header) {
        first_record = false;
        continue;
      }
      first_record = false;
      if (skipped_ < o_.skip_rows) {
        ++skipped_;
        continue;
      }
      if (o_.max_rows >= 0 && rows_read >= o_.max_rows) break;
      ++rows_read;
      std::unique_ptr<ImportRow> row;
      try {
        row = ParseImportRow(*fields, reader.unterminated(), raw, columns_, o_.null_text,
                             now_millis_);
      } catch (const std::exception& e) {
        ++parse_errors;
        failures_.Record(raw, "ParseError", e.what());
        if (o_.max_parse_errors >= 0 && parse_errors > o_.max_parse_errors) {
          return {"Exceeded maximum number of parse errors " + std::to_string(o_.max_parse_errors),
                  true};
        }
        continue;
      }
      inserter_.Add(std::move(row));
      if ((rows_read & 1023) == 0) {
        if (auto stop = CheckOnInserts()) return *stop;
      }
    }
    return {};
  }

  // Now and then while reading: the failed inserts so far, reported (and
  // the outcome once there are more than MAXINSERTERRORS), and the
  // progress line.
  std::optional<CopyOutcome> CheckOnInserts() {
    LogInsertFailures();
    if (o_.max_insert_errors >= 0 && inserter_.insert_errors() > o_.max_insert_errors) {
      return CopyOutcome{
          "Exceeded maximum number of insert errors " + std::to_string(o_.max_insert_errors), true};
    }
    if (tty_ && Clock::now() - last_ > std::chrono::milliseconds(200)) {
      PrintProgress(out_, inserter_.imported(), start_, last_rows_, last_, false);
    }
    return std::nullopt;
  }

  void LogInsertFailures() {
    for (const FailedImport& failure : inserter_.TakeFailures()) {
      failures_.Record(failure.raw, "InvalidRequest", ReplyError(failure.reply));
    }
  }

  const CopyOptions& o_;
  const bool tty_;
  const std::vector<protocol::ColumnSpec>& columns_;
  std::ostream& out_;
  std::ostream& err_;
  ImportFailureLog failures_;
  ImportInserter inserter_;
  const Clock::time_point start_ = Clock::now();
  Clock::time_point last_ = start_;
  long last_rows_ = 0;
  long skipped_ = 0;
  const int64_t now_millis_ = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count();
};

CopyOutcome ImportTable(const CopyStatement& s, const CopyOptions& o,
                        client::Connection& connection, const CopySettings& settings,
                        const std::atomic<bool>* interrupted, std::ostream& out,
                        std::ostream& err) {
  const std::vector<std::string> columns = ImportColumns(s, connection);
  const client::PreparedResponse prepared = Prepare(connection, ImportInsertCql(s, o, columns));
  for (const auto& variable : prepared.bind_variables) {
    if (variable.type->kind() == types::Kind::kCounter) {
      return {"COPY FROM into a counter table is not supported by sibyl shell yet.", true};
    }
  }
  out << "\nStarting copy of " << s.keyspace << "." << s.table << " with columns ["
      << ColumnList(columns) << "].\n";
  std::FILE* file = stdin;
  if (s.file) {
    file = std::fopen(s.file->c_str(), "r");
    if (file == nullptr) {
      return {"Can't open '" + *s.file + "' for reading: " + std::strerror(errno), true};
    }
  }
  TableImport import(o, settings, connection, prepared, out, err);
  CopyOutcome outcome = import.Import(file, interrupted);
  if (s.file) std::fclose(file);
  return import.Finish(std::move(outcome));
}

}  // namespace

CopyOutcome RunCopy(const std::string& statement, client::Connection& connection,
                    const CopySettings& settings, const std::atomic<bool>* interrupted,
                    std::ostream& out, std::ostream& err) {
  try {
    const CopyStatement s = ParseCopy(statement, settings.keyspace);
    const CopyOptions options = ReadOptions(s);
    return s.to ? ExportTable(s, options, connection, settings, interrupted, out)
                : ImportTable(s, options, connection, settings, interrupted, out, err);
  } catch (const CopyError& e) {
    return {e.what(), true};
  }
}

}  // namespace sibyl::tools::shell
