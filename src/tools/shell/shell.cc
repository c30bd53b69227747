#include "tools/shell/shell.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "common/version.h"
#include "tools/shell/error_text.h"
#include "tools/shell/interrupt_flag.h"
#include "tools/shell/line_editor.h"
#include "tools/shell/result_table.h"
#include "tools/shell/shell_text.h"
#include "tools/shell/statement_splitter.h"
#include "types/cql_identifier.h"
#include "types/value_codec.h"

namespace sibyl::tools::shell {
namespace {

// The statement's words, split at blank space and ';' (quotes kept together).
std::vector<std::string> WordsOf(const std::string& statement) {
  std::vector<std::string> words;
  std::string word;
  char quote = '\0';
  for (char c : statement) {
    if (quote != '\0') {
      word.push_back(c);
      if (c == quote) quote = '\0';
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      word.push_back(c);
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c)) || c == ';') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
      continue;
    }
    word.push_back(c);
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

bool UseColor() {
  if (!isatty(STDOUT_FILENO)) return false;
  const char* term = std::getenv("TERM");
  return term != nullptr && *term != '\0' && std::strcmp(term, "dumb") != 0;
}

std::string HistoryFile() {
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') return "";
  std::error_code ignored;
  const std::filesystem::path dir = std::filesystem::path(home) / ".sibyl";
  std::filesystem::create_directories(dir, ignored);
  return (dir / "shell_history").string();
}

// Reads the terminal up to a new line. False on Ctrl-C (`interrupted`) or
// the end of the input. Polls, so a signal that lands just before the read
// cannot leave it blocked.
bool WaitForEnter(const std::atomic<bool>& interrupted) {
  while (!interrupted.load()) {
    pollfd waiting{STDIN_FILENO, POLLIN, 0};
    const int ready = poll(&waiting, 1, 100);
    if (ready <= 0) continue;
    // A Ctrl-C handled as poll woke was typed before the byte that woke it
    // (LineEditor::ReadCharCallback says why).
    if (interrupted.load()) break;
    char c = 0;
    const ssize_t n = read(STDIN_FILENO, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    if (c == '\n' || c == '\r') return true;
  }
  return false;
}

}  // namespace

Shell::Shell(ShellOptions options) : options_(std::move(options)), interrupted_(&InterruptFlag()) {
  tty_ = options_.force_tty || isatty(STDIN_FILENO);
  if (options_.execute || options_.file) tty_ = false;
  color_ = options_.color.value_or(!options_.file && UseColor());
}

Shell::~Shell() = default;

RequestSettings Shell::DefaultSettings() const {
  RequestSettings settings;
  settings.consistency = consistency_;
  settings.serial_consistency = serial_consistency_;
  settings.page_size = paging_ ? page_size_ : -1;
  return settings;
}

std::string Shell::Prompt(bool continuing) const {
  if (continuing) return std::string(keyspace_.empty() ? 0 : keyspace_.size() + 1, ' ') + "   ... ";
  return keyspace_.empty() ? "sibyl> " : "sibyl:" + keyspace_ + "> ";
}

void Shell::PrintError(const std::string& text) {
  statement_error_ = true;
  std::string line = text;
  if (!tty_ && current_source_ != nullptr) {
    line =
        current_source_->name() + ":" + std::to_string(current_source_->line_number()) + ":" + text;
  }
  std::cout.flush();
  if (color_) {
    std::cerr << kRed << line << kReset << '\n';
  } else {
    std::cerr << line << '\n';
  }
  std::cerr.flush();
}

// ---------------------------------------------------------------------------
// Connection

bool Shell::Connect() {
  client::ConnectionOptions options;
  options.host = options_.host;
  options.port = options_.port;
  options.connect_timeout = std::chrono::seconds(options_.connect_timeout_seconds);
  options.request_timeout = std::chrono::seconds(options_.request_timeout_seconds);
  options.max_streams = 1024;
  const std::vector<int> versions = options_.protocol_version != 0
                                        ? std::vector<int>{options_.protocol_version}
                                        : std::vector<int>{5, 4};
  client::Reply reply;
  for (const int version : versions) {
    options.protocol_version = version;
    connection_ = std::make_unique<ShellConnection>(options, interrupted_);
    reply = connection_->Connect();
    const auto* error = std::get_if<client::ErrorResponse>(&reply.response);
    if (error == nullptr || error->code != ErrorCode::kProtocolError) break;
  }
  if (!reply.ok()) {
    std::string cause;
    if (const auto* failure = std::get_if<client::TransportFailure>(&reply.response)) {
      cause = failure->message;
    } else if (const auto* error = std::get_if<client::ErrorResponse>(&reply.response)) {
      cause = ErrorText(*error);
    }
    std::cerr << "Connection error: ('Unable to connect to any servers', {'" << options_.host << ":"
              << options_.port << "': '" << cause << "'})\n";
    return false;
  }
  const auto local =
      connection_->Query("SELECT cluster_name, release_version, cql_version FROM system.local", {});
  if (local && local->ok()) {
    if (const auto* rows = std::get_if<client::RowsResult>(&local->response)) {
      cluster_name_ = TextCell(*rows, 0, "cluster_name");
      release_version_ = TextCell(*rows, 0, "release_version");
      cql_version_ = TextCell(*rows, 0, "cql_version");
    }
  }
  if (!keyspace_.empty()) {
    const auto use = connection_->Query("USE " + types::MaybeQuoteIdentifier(keyspace_), {});
    if (!CheckReply(use)) keyspace_.clear();
  }
  return true;
}

bool Shell::EnsureConnected() {
  if (connection_ && connection_->is_ready()) return true;
  if (!Connect()) {
    statement_error_ = true;
    return false;
  }
  if (tty_) {
    std::cerr << "Reconnected to " << options_.host << ":" << options_.port << ".\n";
  }
  return true;
}

std::optional<client::Reply> Shell::Run(const std::string& cql, const RequestSettings& settings) {
  if (!EnsureConnected()) return std::nullopt;
  // The flag is not cleared here but when the next prompt shows (RunLines,
  // PrintRows): a Ctrl-C typed just after Enter, before the request goes
  // out, must abandon it too.
  auto reply = connection_->Query(cql, settings);
  if (!reply) {
    // Ctrl-C: the request was not sent, or goes on at the node and its
    // reply will be dropped.
    std::cout << '\n';
    return std::nullopt;
  }
  return reply;
}

bool Shell::CheckReply(const std::optional<client::Reply>& reply) {
  if (!reply) return false;
  if (const auto* error = std::get_if<client::ErrorResponse>(&reply->response)) {
    PrintError(ErrorText(*error));
    PrintWarnings(reply->warnings);
    return false;
  }
  if (const auto* failure = std::get_if<client::TransportFailure>(&reply->response)) {
    if (failure->timed_out) {
      PrintError(TransportFailureText(*failure));
    } else {
      PrintError("NoHostAvailable: ('Unable to complete the operation against any hosts', {'" +
                 options_.host + ":" + std::to_string(options_.port) + "': '" + failure->message +
                 "'})");
    }
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// CQL

void Shell::ExecuteCql(const std::string& cql) {
  const RequestSettings settings = DefaultSettings();
  auto reply = Run(cql, settings);
  if (!CheckReply(reply)) return;
  if (auto* rows = std::get_if<client::RowsResult>(&reply->response)) {
    PrintRows(cql, std::move(*rows), settings);
  } else if (const auto* use = std::get_if<client::SetKeyspaceResult>(&reply->response)) {
    keyspace_ = use->keyspace;
  } else if (std::holds_alternative<client::SchemaChangeResult>(reply->response)) {
    catalog_.reset();
  }
  PrintWarnings(reply->warnings);
}

ColumnRole Shell::RoleOf(const protocol::ColumnSpec& column) {
  if (!color_) return ColumnRole::kRegular;  // only colours tell roles apart
  const auto table = Catalog().column_kinds.find(column.keyspace + "." + column.table);
  if (table == Catalog().column_kinds.end()) return ColumnRole::kRegular;
  const auto kind = table->second.find(column.name);
  if (kind == table->second.end()) return ColumnRole::kRegular;
  if (kind->second == "partition_key") return ColumnRole::kPartitionKey;
  if (kind->second == "clustering") return ColumnRole::kClustering;
  if (kind->second == "static") return ColumnRole::kStatic;
  return ColumnRole::kRegular;
}

const SchemaCatalog& Shell::Catalog() {
  if (catalog_) return *catalog_;
  catalog_.emplace();
  if (!connection_ || !connection_->is_ready()) return *catalog_;
  // Each query is small; a failure leaves that part of the catalog empty.
  const auto rows_of = [&](const std::string& cql) -> std::optional<client::RowsResult> {
    auto reply = connection_->Query(cql, {});
    if (!reply) return std::nullopt;
    if (auto* rows = std::get_if<client::RowsResult>(&reply->response)) return std::move(*rows);
    return std::nullopt;
  };
  if (auto rows = rows_of("SELECT keyspace_name FROM system_schema.keyspaces")) {
    for (size_t r = 0; r < rows->rows.size(); ++r) {
      catalog_->keyspaces.push_back(TextCell(*rows, r, "keyspace_name"));
    }
  }
  if (auto rows = rows_of("SELECT keyspace_name, table_name FROM system_schema.tables")) {
    for (size_t r = 0; r < rows->rows.size(); ++r) {
      catalog_->tables[TextCell(*rows, r, "keyspace_name")].push_back(
          TextCell(*rows, r, "table_name"));
    }
  }
  if (auto rows = rows_of(
          "SELECT keyspace_name, table_name, column_name, kind FROM system_schema.columns")) {
    for (size_t r = 0; r < rows->rows.size(); ++r) {
      const std::string table =
          TextCell(*rows, r, "keyspace_name") + "." + TextCell(*rows, r, "table_name");
      const std::string column = TextCell(*rows, r, "column_name");
      catalog_->columns[table].push_back(column);
      catalog_->column_kinds[table][column] = TextCell(*rows, r, "kind");
    }
  }
  if (auto rows = rows_of("SELECT keyspace_name, type_name FROM system_schema.types")) {
    for (size_t r = 0; r < rows->rows.size(); ++r) {
      catalog_->user_types[TextCell(*rows, r, "keyspace_name")].push_back(
          TextCell(*rows, r, "type_name"));
    }
  }
  return *catalog_;
}

void Shell::PrintRows(const std::string& cql, client::RowsResult result, RequestSettings settings) {
  std::ostream& o = out();
  const bool pausing = tty_ && !capture_;
  const bool layout_tty = tty_;
  o << '\n';
  FormattedPage page;
  for (const auto& column : result.metadata.columns) {
    page.names.push_back(ColumnNameText(column.name, RoleOf(column), color_));
  }
  size_t total = 0;
  bool first = true;
  while (true) {
    if (!result.rows.empty() || first) {
      page.rows.clear();
      for (const auto& row : result.rows) {
        std::vector<std::string> cells;
        for (size_t i = 0; i < row.size() && i < result.metadata.columns.size(); ++i) {
          cells.push_back(CellText(*result.metadata.columns[i].type, row[i], color_));
        }
        page.rows.push_back(std::move(cells));
      }
      if (expand_ && !page.rows.empty()) {
        PrintVertically(o, page, total);
      } else {
        PrintTable(o, page, first || layout_tty, layout_tty);
      }
      total += result.rows.size();
    }
    if (!result.metadata.paging_state) break;  // PrintRowCount ends it
    if (pausing) {
      // Cleared before the prompt shows, so a Ctrl-C that answers it counts.
      interrupted_->store(false);
      o.flush();
      std::cout << "---MORE---";
      std::cout.flush();
      if (!WaitForEnter(*interrupted_)) {
        std::cout << '\n';
        return;
      }
    }
    settings.paging_state = std::move(*result.metadata.paging_state);
    auto reply = Run(cql, settings);
    if (!CheckReply(reply)) return;
    auto* rows = std::get_if<client::RowsResult>(&reply->response);
    if (rows == nullptr) break;
    // Later pages may skip the column specs; keep the first page's.
    auto columns = std::move(result.metadata.columns);
    result = std::move(*rows);
    if (result.metadata.columns.empty()) result.metadata.columns = std::move(columns);
    first = false;
  }
  PrintRowCount(o, total, layout_tty);
}

void Shell::PrintWarnings(const std::vector<std::string>& warnings) {
  shell::PrintWarnings(out(), warnings);
}

// ---------------------------------------------------------------------------
// Input

void Shell::Handle(const std::string& statement) {
  const std::vector<std::string> words = WordsOf(statement);
  if (words.empty()) return;
  const std::string command = AsciiUpper(words.front());
  const std::vector<std::string> rest(words.begin() + 1, words.end());
  if (command == "EXIT" || command == "QUIT") {
    exit_requested_ = true;
  } else if (command == "EXPAND" || command == "PAGING") {
    DoSwitch(words);
  } else if (command == "CONSISTENCY") {
    DoConsistency(rest, false);
  } else if (command == "SERIAL" && !rest.empty() && AsciiUpper(rest.front()) == "CONSISTENCY") {
    DoConsistency(std::vector<std::string>(rest.begin() + 1, rest.end()), true);
  } else if (command == "TRACING") {
    DoTracing(rest);
  } else if (command == "DESCRIBE" || command == "DESC") {
    DoDescribe(statement);
  } else if (command == "SOURCE") {
    DoSource(rest);
  } else if (command == "CAPTURE") {
    DoCapture(rest);
  } else if (command == "SHOW") {
    DoShow(rest);
  } else if (command == "HELP" || command == "?") {
    DoHelp(rest);
  } else if (command == "COPY") {
    DoCopy(statement);
  } else if (command == "CLEAR" || command == "CLS") {
    std::cout << "\033[H\033[2J";
    std::cout.flush();
  } else if (command == "LOGIN") {
    PrintError("LOGIN: Sibyl does not authenticate users yet; every connection is accepted.");
  } else if (command == "HISTORY" || command == "DEBUG" || command == "UNICODE") {
    PrintError(command + " is not supported by sibyl shell (history: the arrow keys, or " +
               "~/.sibyl/shell_history).");
  } else {
    ExecuteCql(statement);
  }
  std::cout.flush();
  out().flush();
}

void Shell::RunLines(LineSource& source, LineEditor* editor) {
  LineSource* const outer_source = current_source_;
  current_source_ = &source;
  StatementSplitter splitter;
  while (!exit_requested_) {
    if (editor != nullptr)
      editor->SetPendingText(splitter.pending().empty() ? "" : splitter.pending() + " ");
    if (editor != nullptr) interrupted_->store(false);
    const InputLine line = source.ReadLine(Prompt(splitter.in_statement()));
    if (line.kind == InputLine::Kind::kEnd) break;
    if (line.kind == InputLine::Kind::kInterrupted) {
      splitter.Reset();
      continue;
    }
    for (const std::string& statement : splitter.AddLine(line.text)) {
      if (editor != nullptr) {
        const bool line_command = IsLineCommand(WordsOf(statement).front());
        editor->Remember(line_command ? statement : statement + ";");
      }
      Handle(statement);
      if (exit_requested_) break;
      if (interrupted_->load()) {
        // Ctrl-C stops what the line started, as cqlsh's KeyboardInterrupt
        // does: the statements after the interrupted one are dropped.
        splitter.Reset();
        break;
      }
    }
  }
  current_source_ = outer_source;
}

int Shell::Run() {
  if (!options_.keyspace.empty()) keyspace_ = options_.keyspace;
  if (!Connect()) return 1;
  if (options_.execute) {
    std::string text = *options_.execute;
    // cqlsh ends -e's text with a ';' when it has none.
    size_t end = text.find_last_not_of(" \t\r\n");
    if (end != std::string::npos && text[end] != ';') text += ";";
    StreamLineSource source(std::move(text), "<stdin>");
    RunLines(source, nullptr);
  } else if (options_.file) {
    const int fd = open(options_.file->c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      std::cerr << "Can't open '" << *options_.file << "': " << std::strerror(errno) << "\n";
      return 1;
    }
    StreamLineSource source(fd, *options_.file, interrupted_);
    RunLines(source, nullptr);
    close(fd);
  } else if (tty_ && isatty(STDIN_FILENO)) {
    std::cout << "Connected to " << cluster_name_ << " at " << options_.host << ":" << options_.port
              << "\n"
              << "[sibyl shell " << kSibylVersion << " | Cassandra " << release_version_
              << " | CQL spec " << cql_version_ << " | Native protocol v"
              << connection_->options().protocol_version << "]\n"
              << "Use HELP for help.\n";
    InstallInterruptHandler(false);
    LineEditor editor(
        HistoryFile(),
        [this](const std::string& text) {
          return CompletionCandidates(text, Catalog(), keyspace_);
        },
        interrupted_);
    RunLines(editor, &editor);
    if (!exit_requested_) std::cout << '\n';
  } else {
    StreamLineSource source(STDIN_FILENO, "<stdin>", interrupted_);
    RunLines(source, nullptr);
  }
  std::cout.flush();
  const bool batch = options_.execute || options_.file || !tty_;
  return batch && statement_error_ ? 2 : 0;
}

int RunShellCommand(const std::vector<std::string>& args) {
  ShellOptions options;
  try {
    options = ParseShellArguments(args, std::getenv("CQLSH_HOST"), std::getenv("CQLSH_PORT"));
  } catch (const ShellUsageError& e) {
    std::cerr << "Usage: sibyl shell [options] [host [port]]\n\nsibyl shell: error: " << e.what()
              << "\n";
    return 2;
  }
  if (options.help) {
    std::cout << ShellUsage();
    return 0;
  }
  if (options.version) {
    std::cout << "sibyl shell " << kSibylVersion << "\n";
    return 0;
  }
  Shell shell(std::move(options));
  return shell.Run();
}

}  // namespace sibyl::tools::shell
