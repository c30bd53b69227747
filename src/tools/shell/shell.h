#pragma once
// `sibyl shell`: cqlsh for Sibyl. Reads statements (statement_splitter.h)
// from the terminal (line_editor.h) or a stream, runs CQL on one connection
// (shell_connection.h) and the shell's own commands (EXPAND, PAGING,
// CONSISTENCY, SERIAL CONSISTENCY, TRACING, DESCRIBE, SOURCE, CAPTURE, COPY,
// SHOW, HELP, CLEAR, EXIT), and prints what cqlsh 4.1 prints:
//
//   * results to standard output (or the CAPTURE file), laid out by
//     result_table.h, "---MORE---" between pages on a terminal;
//   * errors to standard error (error_text.h), prefixed "<input>:<line>:"
//     when not on a terminal, as cqlsh's printerr does;
//   * server warnings after the result.
//
// Exit codes as cqlsh: 0; 1 when the first connection fails; 2 when a
// statement failed in batch mode (-e, -f, piped input).
//
// Thread-safety: one thread; a SIGINT handler only sets a flag
// (interrupt_flag.h).

#include <atomic>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "client/response_decoder.h"
#include "tools/shell/cell_text.h"
#include "tools/shell/completion.h"
#include "tools/shell/line_source.h"
#include "tools/shell/shell_connection.h"
#include "tools/shell/shell_options.h"

namespace sibyl::tools::shell {

class LineEditor;

class Shell {
 public:
  explicit Shell(ShellOptions options);
  ~Shell();

  // Connects, then reads and runs statements until EXIT or the end of the
  // input. Returns the process's exit code.
  int Run();

 private:
  // Input.
  void RunLines(LineSource& source, LineEditor* editor);
  void Handle(const std::string& statement);
  std::string Prompt(bool continuing) const;

  // Connection.
  bool Connect();
  bool EnsureConnected();
  std::optional<client::Reply> Run(const std::string& cql, const RequestSettings& settings);
  RequestSettings DefaultSettings() const;

  // CQL statements and their results.
  void ExecuteCql(const std::string& cql);
  void PrintRows(const std::string& cql, client::RowsResult result, RequestSettings settings);
  void PrintWarnings(const std::vector<std::string>& warnings);
  // False, after printing the error, when `reply` is not a success.
  bool CheckReply(const std::optional<client::Reply>& reply);

  // Shell commands (shell_commands.cc). Each takes the statement's words
  // after the command's own.
  void DoSwitch(const std::vector<std::string>& words);  // EXPAND, PAGING
  void DoConsistency(const std::vector<std::string>& words, bool serial);
  void DoTracing(const std::vector<std::string>& words);
  void DoDescribe(const std::string& statement);
  void DoSource(const std::vector<std::string>& words);
  void DoCapture(const std::vector<std::string>& words);
  void DoShow(const std::vector<std::string>& words);
  void DoHelp(const std::vector<std::string>& words);
  void DoCopy(const std::string& statement);

  // Completion's view of the schema, read again after DDL.
  const SchemaCatalog& Catalog();
  ColumnRole RoleOf(const protocol::ColumnSpec& column);

  // Output.
  std::ostream& out() { return capture_ ? *capture_ : std::cout; }
  void PrintError(const std::string& text);

  ShellOptions options_;
  std::atomic<bool>* interrupted_;
  std::unique_ptr<ShellConnection> connection_;
  bool tty_ = false;
  bool color_ = false;
  bool expand_ = false;
  bool paging_ = true;
  int page_size_ = 100;
  protocol::Consistency consistency_ = protocol::Consistency::kOne;
  protocol::Consistency serial_consistency_ = protocol::Consistency::kSerial;
  std::string keyspace_;
  bool exit_requested_ = false;
  bool statement_error_ = false;
  LineSource* current_source_ = nullptr;
  int source_depth_ = 0;
  std::unique_ptr<std::ofstream> capture_;
  std::string capture_path_;
  bool capture_shunted_color_ = false;
  std::optional<SchemaCatalog> catalog_;
  // From system.local when connecting: what SHOW VERSION / HOST print.
  std::string cluster_name_;
  std::string release_version_;
  std::string cql_version_;
};

// The `sibyl shell` subcommand: parses `args`, runs a Shell.
int RunShellCommand(const std::vector<std::string>& args);

}  // namespace sibyl::tools::shell
